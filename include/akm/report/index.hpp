// report/index — results/summary.json and results/index.html over every experiment folder.
#pragma once
#include <filesystem>

namespace akm {

/// Gathers root/*/summary.json into root/summary.json and root/index.html (atomic writes).
/// Each experiment links its notebook \<notebooks\>/\<ID\>.ipynb when that file exists
/// (`notebooks` empty: notebooks_export/ next to root, see akm/report/notebook.hpp).
void write_report(const std::filesystem::path& root, const std::filesystem::path& notebooks = {});

}  // namespace akm
