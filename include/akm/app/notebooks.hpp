// notebooks — the driver of `akm export-notebooks` and of the notebook step of `akm
// reproduce`: one Jupyter notebook per experiment of a results folder, then the report's
// index refreshed with a link to each (report/notebook.hpp, report/index.hpp).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace akm::app {

/// The notebook folder: `flag` when given, else notebooks_export/ next to `results`.
std::filesystem::path notebook_dir(const std::filesystem::path& results, const std::string& flag);

/// Writes one notebook per experiment of `results` into `dir`, then results/index.html and
/// results/summary.json with links to them; returns the notebooks' paths. The caller decides
/// which process writes (app::writes()).
std::vector<std::filesystem::path> export_notebooks_and_report(const std::filesystem::path& results,
                                                               const std::filesystem::path& dir);

}  // namespace akm::app
