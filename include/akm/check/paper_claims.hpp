// paper_claims — the paper's claim-bearing statements in paper order
// (experiments/paper_claims.tsv, generated from the paper by tests/paper_claims.py), and the
// ledger's obligations towards them: every statement has an entry, every entry names a
// statement, and entries follow paper order.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "akm/check/ledger.hpp"

namespace akm {

/// One claim-bearing statement of the paper (a row of experiments/paper_claims.tsv).
struct PaperClaim {
  int line = 0;          ///< line of the statement in the paper's source
  /// The statement's environment (theorem, corollary, remark, table, text, …).
  std::string env, key;  ///< The statement's key: its paper label (what ledger entries are keyed by).
};

/// Reads the TSV (line, environment, key, title); InputError names a malformed row.
std::vector<PaperClaim> read_paper_claims(const std::filesystem::path& file);

/// The claim an entry label belongs to: key == label or label = key + "/part"; null if none.
const PaperClaim* claim_of(const std::vector<PaperClaim>& claims, const std::string& label);

/// Refuses (InputError naming statement.label) an entry whose label is not a claim of the
/// paper, or that breaks paper order.
void require_known_labels(const Ledger& ledger, const std::vector<PaperClaim>& claims);

/// The claims no ledger entry covers.
std::vector<PaperClaim> uncovered_claims(const Ledger& ledger, const std::vector<PaperClaim>& claims);

}  // namespace akm
