// ledger — the driver of `akm ledger` and of reproduce's ledger step (see the header).
#include "akm/app/ledger.hpp"

#include <ostream>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/check/paper_claims.hpp"
#include "akm/report/files.hpp"
#include "akm/report/ledger_report.hpp"
#include "akm/sim/dist.hpp"

namespace akm::app {

Ledger shipped_ledger(const std::filesystem::path& claims) {
  Ledger l = compiled_ledger();  // the ledger every experiment of this build reports by
  require_known_labels(l, read_paper_claims(claims.string()));
  return l;
}

nlohmann::json ledger_verdicts_json(const Ledger& ledger, const std::filesystem::path& results) {
  const auto summaries = load_ledger_summaries(results.string(), ledger);
  return ledger_json(ledger, ledger_verdicts(ledger, summaries), summaries);
}

nlohmann::json ledger_step(const Ledger& ledger, const std::filesystem::path& results, std::ostream& out) {
  auto json = ledger_verdicts_json(ledger, results);
  out << ledger_table_text(json);
  if (dist::root()) write_file_atomic(results / "ledger.json", json.dump(2) + "\n");
  return json;
}

Ledger read_ledger_request(const std::string& ledger, const std::string& claims, const std::string& results,
                           const std::string& statement) {
  Ledger l = read_ledger(ledger);
  require_known_labels(l, read_paper_claims(claims));
  std::error_code ec;
  if (!std::filesystem::is_directory(results, ec))
    throw InputError("--results", results, "an existing results folder (written by akm run / reproduce)");
  if (!statement.empty()) {
    bool known = false;
    for (const auto& e : l.entries) known = known || e.label == statement;
    if (!known)
      throw InputError("--statement", statement,
                       fmt::format("a label of the ledger ({} statements; `akm ledger` lists them)",
                                   l.entries.size()));
  }
  return l;
}

}  // namespace akm::app
