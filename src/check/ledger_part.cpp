// ledger_part — the ledger statements one experiment tests, each judged from that experiment's
// part of the entry with ledger_verdict (the code `akm ledger` uses), and the experiment's
// status as their roll-up (rules in check/ledger_verdict.hpp).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "akm/check/ledger_verdict.hpp"

namespace akm {

namespace {

std::string joined(const std::vector<std::string>& xs, const char* sep) {
  std::string out;
  for (const auto& x : xs) out += (out.empty() ? "" : sep) + x;
  return out;
}

int n_with(const std::vector<GroupResult>& gs, GroupOutcome o) {
  return static_cast<int>(std::count_if(gs.begin(), gs.end(), [o](const GroupResult& g) { return g.outcome == o; }));
}

// The first group that does not support, in words: "[T4 spiked] no check discriminates".
std::string first_unsupported(const std::vector<GroupResult>& gs) {
  for (const auto& g : gs)
    if (g.outcome != GroupOutcome::Supports) return fmt::format("[{} {}] {}", g.experiment, g.part, to_string(g.outcome));
  return "";
}

// The recorded checks that fail and that no pattern of the experiment's statements names.
std::vector<std::string> unnamed_failures(const std::vector<StatementPart>& parts, const nlohmann::json& summary) {
  std::vector<std::string> out;
  const auto it = summary.find("checks");
  if (it == summary.end() || !it->is_array()) return out;
  for (const auto& r : *it) {
    if (r.value("pass", true)) continue;
    const std::string name = r.value("name", "");
    const bool named = std::any_of(parts.begin(), parts.end(), [&](const StatementPart& p) {
      return std::any_of(p.checks.begin(), p.checks.end(), [&](const std::string& pat) { return glob_match(pat, name); });
    });
    if (!named) out.push_back(name);
  }
  return out;
}

}  // namespace

std::string short_reason(const EntryVerdict& v) {
  const auto n_parts = v.evidence.size() + v.refute.size();
  switch (v.status) {
    case LedgerStatus::Supported:
      return fmt::format("{} of {} part(s) covered with power; all pass", n_with(v.evidence, GroupOutcome::Supports),
                         v.evidence.size());
    case LedgerStatus::Corrected:
      return fmt::format("as written rejected ({} part(s)); the corrected text supported ({} part(s))", v.refute.size(),
                         v.evidence.size());
    case LedgerStatus::Contradicted:
    case LedgerStatus::NotReproducedAtScale:
      for (const auto& g : v.evidence)
        if (g.outcome == GroupOutcome::Fails)
          return fmt::format("[{} {}] {} of {} evidence checks failed", g.experiment, g.part, g.failed, g.evidence);
      return v.reason;
    case LedgerStatus::Reported:
      return fmt::format("{} finding(s) reported; the design checks pass", v.findings.size());
    case LedgerStatus::Inconclusive: {
      const std::string refute = first_unsupported(v.refute);
      const std::string evidence = first_unsupported(v.evidence);
      return fmt::format("{} of {} part(s) decided; first undecided: {}",
                         n_with(v.evidence, GroupOutcome::Supports) + n_with(v.refute, GroupOutcome::Supports), n_parts,
                         refute.empty() ? evidence : refute);
    }
    case LedgerStatus::NotTestableHere:
    case LedgerStatus::NotTestedYet:
      return v.reason;
  }
  return v.reason;
}

std::string StatementPart::line_reason() const {
  const std::string r = short_reason(verdict);
  if (also_needs.empty()) return r;
  return fmt::format("{} (part: {} only; also needs {})", r, experiment, joined(also_needs, ", "));
}

nlohmann::json StatementPart::to_json() const {
  auto j = verdict.to_json();
  j["short_reason"] = line_reason();
  j["checks"] = checks;
  j["also_needs"] = also_needs;
  return j;
}

LedgerEntry part_of(const LedgerEntry& e, const std::string& id) {
  LedgerEntry p = e;
  const auto elsewhere = [&](const LedgerGroup& g) { return g.experiment != id; };
  p.evidence.erase(std::remove_if(p.evidence.begin(), p.evidence.end(), elsewhere), p.evidence.end());
  p.refute.erase(std::remove_if(p.refute.begin(), p.refute.end(), elsewhere), p.refute.end());
  return p;
}

std::vector<StatementPart> statement_parts(const Ledger& ledger, const std::string& id, const nlohmann::json& summary) {
  std::vector<StatementPart> out;
  const std::map<std::string, nlohmann::json> only{{id, summary}};
  for (const auto& e : ledger.entries) {
    const auto ids = e.experiments();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) continue;
    StatementPart p;
    p.experiment = id;
    const LedgerEntry part = part_of(e, id);
    p.verdict = ledger_verdict(part, ledger.rules, only);
    for (const auto* gs : {&part.refute, &part.evidence})
      for (const auto& g : *gs) {
        if (!g.param.empty()) p.checks.push_back("params" + g.param);
        p.checks.insert(p.checks.end(), g.checks.begin(), g.checks.end());
      }
    for (const auto& other : ids)
      if (other != id) p.also_needs.push_back(other);
    out.push_back(std::move(p));
  }
  return out;
}

ClaimVerdict experiment_status(const ClaimVerdict& from_checks, const std::vector<StatementPart>& parts,
                               const nlohmann::json& summary) {
  if (parts.empty()) return from_checks;
  ClaimVerdict v = from_checks;
  v.basis = "ledger";
  v.checks_status = to_string(from_checks.status);
  std::vector<LedgerStatus> verdicts;
  for (const auto& p : parts) verdicts.push_back(p.verdict.status);
  const auto unnamed = unnamed_failures(parts, summary);
  if (!unnamed.empty()) verdicts.push_back(LedgerStatus::Inconclusive);
  v.status = roll_up(verdicts);

  std::vector<std::string> worst;
  std::map<std::string, int> others;
  for (const auto& p : parts)
    if (p.verdict.status == v.status) worst.push_back(p.verdict.label);
    else others[to_string(p.verdict.status)] += 1;
  std::string rest;
  for (const auto& [status, n] : others) rest += fmt::format("{}{} {}", rest.empty() ? "" : ", ", n, status);
  v.reason = fmt::format("roll-up of its {} ledger statement(s)", parts.size());
  if (!worst.empty()) v.reason += fmt::format(", the most severe {}: {}", to_string(v.status), joined(worst, ", "));
  if (!rest.empty()) v.reason += "; the others: " + rest;
  if (!unnamed.empty()) {
    const std::vector<std::string> shown(unnamed.begin(), unnamed.begin() + std::min<std::size_t>(3, unnamed.size()));
    v.reason += fmt::format("; {} failing check(s) that no statement names, so at least INCONCLUSIVE: {}{}",
                            unnamed.size(), joined(shown, "; "), unnamed.size() > 3 ? "; …" : "");
  }
  return v;
}

}  // namespace akm
