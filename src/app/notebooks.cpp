// notebooks — the driver of `akm export-notebooks` and reproduce's notebook step (see the header).
#include "akm/app/notebooks.hpp"

#include "akm/report/index.hpp"
#include "akm/report/notebook.hpp"

namespace akm::app {

std::filesystem::path notebook_dir(const std::filesystem::path& results, const std::string& flag) {
  return flag.empty() ? default_notebook_dir(results) : std::filesystem::path(flag);
}

std::vector<std::filesystem::path> export_notebooks_and_report(const std::filesystem::path& results,
                                                               const std::filesystem::path& dir) {
  auto files = export_notebooks(results, dir);
  write_report(results, dir);  // the report links each experiment to its notebook
  return files;
}

}  // namespace akm::app
