// The notebook step of `akm reproduce`: after the experiments, export one notebook per
// experiment and rewrite the report so that it links them.
#pragma once
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "akm/experiments/experiment.hpp"

namespace akm::cli {

/// Adds --notebooks DIR (default: notebooks_export/ next to the results folder).
void add_notebook_flag(CLI::App* cmd, std::string& dir);

/// The notebook folder for a run, checked writable (InputError naming --notebooks).
std::filesystem::path notebook_dir(const RunOptions& opts, const std::string& flag);

/// Writes the notebooks of opts.out_root into `dir` and the report linking them.
void export_notebooks_and_report(const RunOptions& opts, const std::filesystem::path& dir);

}  // namespace akm::cli
