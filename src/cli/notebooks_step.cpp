// The notebook step of `akm reproduce` (see notebooks_step.hpp).
#include "notebooks_step.hpp"

#include <iostream>

#include <fmt/format.h>

#include "akm/app/notebooks.hpp"
#include "akm/app/processes.hpp"
#include "akm/report/files.hpp"

namespace akm::cli {

void add_notebook_flag(CLI::App* cmd, std::string& dir) {
  cmd->add_option("--notebooks", dir,
                  "folder for the Jupyter notebooks (default: notebooks_export/ next to --out)");
}

std::filesystem::path notebook_dir(const RunOptions& opts, const std::string& flag) {
  const std::filesystem::path dir = app::notebook_dir(opts.out_root, flag);
  if (app::writes()) require_writable_dir(dir, "--notebooks");  // under mpirun rank 0 alone writes
  return dir;
}

void export_notebooks_and_report(const RunOptions& opts, const std::filesystem::path& dir) {
  const auto files = app::export_notebooks_and_report(opts.out_root, dir);
  std::cout << fmt::format("notebooks: {} in {}\n", files.size(), dir.string());
}

}  // namespace akm::cli
