// notebook_cells — the text of an experiment notebook's cells, as notebook.cpp assembles them
// into nbformat (private to src/report). Deterministic: the same summary gives the same text.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace akm::notebook_detail {

/// The claim cell: ID and title, paper labels, the verdict, the failed checks, the twelve
/// closest calls (largest |z|) and the parameters, from an experiment's summary.json.
std::string claim_markdown(const nlohmann::json& summary);

/// The setup cell: loads the folder's CSVs (`csvs`, file names) and summary.json from
/// results_ref/folder (AKM_RESULTS overrides the root) and defines `column(df, k)`.
std::string setup_code(const std::string& results_ref, const std::string& folder,
                       const std::vector<std::string>& csvs);

/// The live section: import the akm module, re-run the claim at another seed, move β and
/// redraw the closed forms; without the module the cells say so and do nothing else.
std::string live_import_code();
std::string live_rerun_code();
std::string live_beta_code();

}  // namespace akm::notebook_detail
