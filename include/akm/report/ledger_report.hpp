// report/ledger_report — the claim ledger's verdicts (check/ledger_verdict.hpp) as
// results/ledger.json, as the terminal table of `akm ledger`, and as the statements table of
// results/index.html, each listing the paper's statements in paper order (the ledger's order).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/ledger.hpp"
#include "akm/check/ledger_verdict.hpp"

namespace akm {

/// root/\<ID\>/summary.json for every experiment the ledger names (absent ones are left out).
std::map<std::string, nlohmann::json> load_ledger_summaries(const std::filesystem::path& root, const Ledger& ledger);

/// Every entry's verdict, in ledger order.
std::vector<EntryVerdict> ledger_verdicts(const Ledger& ledger, const std::map<std::string, nlohmann::json>& summaries);

/// {rules, statements: [{label, kind, statement, …, verdict, reason, evidence, refute}],
///  experiments: {ID: {roll_up, statements}}, counts, result_hashes: {ID: summary hash}}.
nlohmann::json ledger_json(const Ledger& ledger, const std::vector<EntryVerdict>& verdicts,
                           const std::map<std::string, nlohmann::json>& summaries);

/// {ID: the `hash` of its summary.json}: which results a ledger.json was computed from.
nlohmann::json result_hashes(const std::map<std::string, nlohmann::json>& summaries);
/// The experiments `ledger` was computed from whose results changed or vanished since.
std::vector<std::string> stale_experiments(const nlohmann::json& ledger,
                                           const std::map<std::string, nlohmann::json>& summaries);

/// One line per statement: label, verdict, experiments (plain text for the terminal).
std::string ledger_table_text(const nlohmann::json& ledger);

/// The index's statements table (HTML) from ledger.json; links point at root/\<ID\>/index.html.
/// `stale`: experiments re-run since (the table then says so and names them).
std::string ledger_index_html(const nlohmann::json& ledger, const std::vector<std::string>& stale = {});

/// An experiment page's section: the ledger statements whose groups name experiment `id`, each
/// with its verdict and the outcome of those groups ("" when the ledger names it nowhere).
std::string ledger_claim_html(const nlohmann::json& ledger, const std::string& id,
                              const std::vector<std::string>& stale = {});

}  // namespace akm
