// notebook — one Jupyter notebook (nbformat 4.5) per experiment of a results folder.
//
// Each notebook holds: a markdown cell with the claim (paper labels, formula), the verdict
// and the parameters; a code cell that loads the experiment's CSVs and summary.json with
// pandas; per figure, a code cell that redraws it with matplotlib from the recorded figure
// spec (<name>.figure.json, written by ResultDir::figure) and, as that cell's output, the
// PNG akm rendered with gnuplot (base64), so the notebook reads without being run.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/report/figure.hpp"

namespace akm {

/// The figure spec as JSON (title, labels, log axes, series, extra gnuplot lines, raw
/// plot items): what a notebook needs to redraw the figure without gnuplot.
nlohmann::json figure_spec(const Figure& fig);

/// Python (matplotlib) source that redraws a figure from its spec. Expects `data` (dict of
/// CSV name → DataFrame), `np`, `plt` and the helper `column(df, k)` of the setup cell.
/// Series are translated exactly; raw gnuplot items are translated when they are plain
/// arithmetic in x or `'file.csv' … using …` with column numbers, else left as comments.
std::string matplotlib_source(const nlohmann::json& spec);

/// The notebook of one experiment folder (results/\<ID\>/ with summary.json), as JSON.
/// `results_ref` is the path of the results root as the notebook should load it (relative
/// to the notebook's folder, so the exported folder can move together with results/).
nlohmann::json experiment_notebook(const std::filesystem::path& exp_dir,
                                   const std::string& results_ref);

/// Writes \<out\>/\<ID\>.ipynb for every results/\<ID\>/summary.json (atomic writes) and
/// returns the files written, in ID order. Throws InputError naming `--results` when the
/// folder holds no experiment results and `--out` when `out` is not writable.
std::vector<std::filesystem::path> export_notebooks(const std::filesystem::path& results_root,
                                                    const std::filesystem::path& out);

/// Default notebook folder for a results folder: notebooks_export/ next to it
/// (results → ./notebooks_export, /x/results → /x/notebooks_export).
std::filesystem::path default_notebook_dir(const std::filesystem::path& results_root);

/// Standard base64 (RFC 4648, with padding) of raw bytes.
std::string base64(const std::string& bytes);

}  // namespace akm
