// ledger_verdict — verdicts per ledger entry from its groups' outcomes (rules in the header;
// one group against the recorded checks: ledger_group.cpp; one experiment's part of the
// statements and its roll-up: ledger_part.cpp).
#include "akm/check/ledger_verdict.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace akm {

std::string to_string(GroupOutcome o) {
  switch (o) {
    case GroupOutcome::Supports: return "supports";
    case GroupOutcome::Fails: return "fails";
    case GroupOutcome::DesignFailed: return "design check failed";
    case GroupOutcome::ByDesign: return "inconclusive by design";
    case GroupOutcome::Weak: return "no check discriminates";
    case GroupOutcome::Empty: return "selects no check";
    case GroupOutcome::NoResults: return "no results";
  }
  return "?";
}

nlohmann::json GroupResult::to_json() const {
  nlohmann::json j = {{"part", part}, {"experiment", experiment}, {"outcome", to_string(outcome)},
                      {"selected", selected}, {"evidence", evidence}, {"discriminating", discriminating},
                      {"failed", failed}, {"design_failed", design_failed},
                      {"exact_not_evidence", exact_not_evidence}, {"best_power", best_power},
                      {"detail", detail}};
  j["assurance"] = std::isfinite(assurance) ? nlohmann::json(assurance) : nlohmann::json();
  return j;
}

nlohmann::json EntryVerdict::to_json() const {
  nlohmann::json j = {{"label", label}, {"verdict", to_string(status)}, {"reason", reason}};
  j["evidence"] = nlohmann::json::array();
  for (const auto& g : evidence) j["evidence"].push_back(g.to_json());
  j["refute"] = nlohmann::json::array();
  for (const auto& g : refute) j["refute"].push_back(g.to_json());
  j["findings"] = findings;
  return j;
}

namespace {

std::string group_lines(const std::vector<GroupResult>& gs, bool only_unsupported) {
  std::string out;
  for (const auto& g : gs) {
    if (only_unsupported && g.outcome == GroupOutcome::Supports) continue;
    out += fmt::format("{}[{} {}] {}: {}", out.empty() ? "" : "; ", g.experiment, g.part, to_string(g.outcome), g.detail);
  }
  return out;
}

bool all_support(const std::vector<GroupResult>& gs) {
  return !gs.empty() && std::all_of(gs.begin(), gs.end(), [](const GroupResult& g) { return g.outcome == GroupOutcome::Supports; });
}
bool any(const std::vector<GroupResult>& gs, GroupOutcome o) {
  return std::any_of(gs.begin(), gs.end(), [o](const GroupResult& g) { return g.outcome == o; });
}

}  // namespace

EntryVerdict ledger_verdict(const LedgerEntry& e, const LedgerRules& rules,
                            const std::map<std::string, nlohmann::json>& summaries) {
  EntryVerdict v;
  v.label = e.label;
  if (!e.not_testable.empty()) {
    v.status = LedgerStatus::NotTestableHere;
    v.reason = e.not_testable;
    return v;
  }
  if (!e.not_tested.empty()) {
    v.status = LedgerStatus::NotTestedYet;
    v.reason = e.not_tested;
    return v;
  }
  const auto summary_of = [&](const std::string& id) -> const nlohmann::json& {
    static const nlohmann::json none = nlohmann::json::object();  // an experiment not run: no results
    const auto it = summaries.find(id);
    return it == summaries.end() ? none : it->second;
  };
  for (const auto& g : e.evidence) v.evidence.push_back(evaluate_group(g, e.kind, rules, summary_of(g.experiment)));
  for (const auto& g : e.refute) v.refute.push_back(evaluate_group(g, e.kind, rules, summary_of(g.experiment)));

  if (e.kind == StatementKind::Finding) {
    for (const auto& id : e.experiments())
      for (const auto& f : summary_of(id).value("findings", nlohmann::json::array()))
        if (f.is_string() && std::any_of(e.findings.begin(), e.findings.end(),
                                         [&](const std::string& p) { return glob_match(p, f.get<std::string>()); }))
          v.findings.push_back(id + ": " + f.get<std::string>());
    const bool broken = any(v.evidence, GroupOutcome::Fails) || any(v.evidence, GroupOutcome::DesignFailed) ||
                        any(v.evidence, GroupOutcome::Empty) || any(v.evidence, GroupOutcome::NoResults);
    v.status = broken ? LedgerStatus::Inconclusive : LedgerStatus::Reported;
    v.reason = broken ? "a design check failed or is missing, so the finding is not reported: " + group_lines(v.evidence, true)
                      : fmt::format("{} finding(s) reported; the design checks pass", v.findings.size());
    return v;
  }
  if (any(v.evidence, GroupOutcome::Fails)) {
    v.status = e.kind == StatementKind::Empirical ? LedgerStatus::NotReproducedAtScale : LedgerStatus::Contradicted;
    std::string fails;
    for (const auto& g : v.evidence)
      if (g.outcome == GroupOutcome::Fails) fails += fmt::format("{}[{} {}] {}", fails.empty() ? "" : "; ", g.experiment, g.part, g.detail);
    v.reason = fails;
    return v;
  }
  if (!e.refute.empty()) {
    if (!all_support(v.refute)) {
      v.status = LedgerStatus::Inconclusive;
      v.reason = "the statement as written is not rejected: " + group_lines(v.refute, true);
    } else if (!all_support(v.evidence)) {
      v.status = LedgerStatus::Inconclusive;
      v.reason = "the statement as written is rejected, but the corrected text is not established: " +
                 group_lines(v.evidence, true);
    } else {
      v.status = LedgerStatus::Corrected;
      v.reason = "as written, rejected: " + group_lines(v.refute, false) +
                 " — the corrected statement is supported: " + group_lines(v.evidence, false);
    }
    return v;
  }
  if (all_support(v.evidence)) {
    v.status = LedgerStatus::Supported;
    v.reason = "every part is covered with power and passes: " + group_lines(v.evidence, false);
  } else {
    v.status = LedgerStatus::Inconclusive;
    v.reason = (any(v.evidence, GroupOutcome::ByDesign) ? "by design: " : "") + group_lines(v.evidence, true);
  }
  return v;
}

LedgerStatus roll_up(const std::vector<LedgerStatus>& verdicts) {
  static const LedgerStatus order[] = {LedgerStatus::Contradicted, LedgerStatus::NotReproducedAtScale,
                                       LedgerStatus::Inconclusive, LedgerStatus::Corrected,
                                       LedgerStatus::Supported, LedgerStatus::Reported};
  for (const auto s : order)
    if (std::find(verdicts.begin(), verdicts.end(), s) != verdicts.end()) return s;
  return LedgerStatus::Inconclusive;
}

}  // namespace akm
