// ledger — the driver of `akm ledger` and of the ledger step of `akm reproduce`: a verdict
// per statement of the paper from the claim ledger (experiments/ledger.toml) and the checks
// recorded under a results folder, printed in paper order and written to
// <results>/ledger.json, so that the report's index, the terminal and the root summary.json
// say the same (docs/ledger.md).
#pragma once
#include <filesystem>
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/check/ledger.hpp"

namespace akm::app {

/// The ledger compiled into akm (check/ledger.hpp, compiled_ledger) cross-checked with the
/// statement list `claims` shipped with the sources (experiments/paper_claims.tsv)
/// (InputError for a malformed ledger or an unknown label).
Ledger shipped_ledger(const std::filesystem::path& claims);

/// Computes every verdict from `results`, prints the table to `out`, writes
/// results/ledger.json (rank 0 only) and returns the JSON.
nlohmann::json ledger_step(const Ledger& ledger, const std::filesystem::path& results, std::ostream& out);

/// The one validation of `akm ledger`, in its order: reads the ledger file, checks its labels
/// against the statement list `claims`, that `results` is a folder and that `statement`
/// (when not empty) is a label of the ledger; returns the ledger.
Ledger read_ledger_request(const std::string& ledger, const std::string& claims, const std::string& results,
                           const std::string& statement);

/// Every verdict from `results` as the JSON of ledger.json, written nowhere.
nlohmann::json ledger_verdicts_json(const Ledger& ledger, const std::filesystem::path& results);

}  // namespace akm::app
