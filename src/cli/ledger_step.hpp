// The ledger step of `akm reproduce` (and the body of `akm ledger`): a verdict per statement
// of the paper from experiments/ledger.toml and the checks recorded under a results folder,
// printed in paper order and written to <results>/ledger.json, so that the report's index,
// the terminal and the root summary.json say the same (docs/ledger.md).
#pragma once
#include <filesystem>
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "akm/check/ledger.hpp"

namespace akm::cli {

/// The ledger compiled into akm (check/ledger.hpp, compiled_ledger) cross-checked with the
/// statement list shipped with the sources
/// (InputError for a malformed ledger or an unknown label).
Ledger shipped_ledger();

/// Computes every verdict from `results`, prints the table to `out`, writes
/// results/ledger.json (rank 0 only) and returns the JSON.
nlohmann::json ledger_step(const Ledger& ledger, const std::filesystem::path& results, std::ostream& out);

}  // namespace akm::cli
