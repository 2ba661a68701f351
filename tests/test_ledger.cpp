// The claim ledger's verdict rules (check/ledger_verdict.hpp), held to the floors written in
// the header of experiments/ledger.toml: synthetic check records, one rule per test.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/check/ledger.hpp"
#include "akm/check/ledger_verdict.hpp"
#include "ledger_records.hpp"

namespace {

using namespace akm_test::ledger;

TEST(LedgerRules, HeaderFloorsAreTheDeclaredOnes) {
  const auto r = header_rules();
  EXPECT_EQ(r.power_floor, 0.9);
  EXPECT_EQ(r.design_power_floor, 0.8);
  EXPECT_EQ(r.assurance_floor, 0.8);
}

TEST(LedgerRules, SupportedNeedsPowerAtTheFloorAgainstTheNamedRival) {
  const auto e = entry(akm::StatementKind::Theorem, {group("a")});
  const double floor = header_rules().power_floor;
  EXPECT_EQ(verdict(e, summary({mc("a/1", 1, 1, 0.1, 0.5, true, floor, "EMA")})), LedgerStatus::Supported);
  // Just below the floor, above the design floor: no part is covered with power.
  EXPECT_EQ(verdict(e, summary({mc("a/1", 1, 1, 0.1, 0.5, true, floor - 0.01, "EMA")})), LedgerStatus::Inconclusive);
}

TEST(LedgerRules, PowerAgainstAnotherRivalDoesNotCount) {
  const auto e = entry(akm::StatementKind::Theorem, {group("a")});
  const auto g = akm::evaluate_group(e.evidence[0], e.kind, header_rules(),
                                     summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.99, "Gaussian")}));
  EXPECT_EQ(g.outcome, GroupOutcome::ByDesign);
  EXPECT_EQ(g.best_power, 0.0);
}

TEST(LedgerRules, BelowTheDesignFloorIsInconclusiveByDesign) {
  const auto e = entry(akm::StatementKind::Theorem, {group("a")});
  const auto rules = header_rules();
  const auto g = akm::evaluate_group(e.evidence[0], e.kind, rules,
                                     summary({mc("a/1", 1, 1, 0.1, 0.5, true, rules.design_power_floor - 0.01, "EMA")}));
  EXPECT_EQ(g.outcome, GroupOutcome::ByDesign);
  const auto v = akm::ledger_verdict(e, rules, {{"T0", summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.5, "EMA")})}});
  EXPECT_EQ(v.status, LedgerStatus::Inconclusive);
  EXPECT_NE(v.reason.find("by design"), std::string::npos) << v.reason;
}

TEST(LedgerRules, EveryPartMustBeCovered) {
  const auto e = entry(akm::StatementKind::Theorem, {group("a"), group("b")});
  const auto s = summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA"), mc("b/1", 1, 1, 0.1, 0.5, true, 0.85, "EMA")});
  EXPECT_EQ(verdict(e, s), LedgerStatus::Inconclusive);
  EXPECT_EQ(verdict(entry(akm::StatementKind::Theorem, {group("a")}), s), LedgerStatus::Supported);
}

TEST(LedgerRules, ExactChecksAreEvidenceOnlyForAlgebraicStatements) {
  auto g = group("a", "");
  const auto s = summary({exact("a/identity", 0.5, true)});
  EXPECT_EQ(verdict(entry(akm::StatementKind::Algebraic, {g}), s), LedgerStatus::Supported);
  EXPECT_EQ(verdict(entry(akm::StatementKind::Theorem, {g}), s), LedgerStatus::Inconclusive);
  // With a declared rival value inside the check's tolerance the exact check cannot tell.
  g.rival_value = 0.5 + 1e-12;
  g.reason = "r";
  EXPECT_EQ(verdict(entry(akm::StatementKind::Algebraic, {g}), s), LedgerStatus::Inconclusive);
}

TEST(LedgerRules, DesignChecksAreNeverEvidence) {
  const auto e = entry(akm::StatementKind::Algebraic, {group("a", "")});
  EXPECT_EQ(verdict(e, summary({exact("a/setup", 1, true, "design")})), LedgerStatus::Inconclusive);
  // A failed design check makes the entry INCONCLUSIVE even when the evidence passes.
  EXPECT_EQ(verdict(e, summary({exact("a/setup", 1, false, "design"), exact("a/claim", 1, true)})),
            LedgerStatus::Inconclusive);
}

TEST(LedgerRules, DeclaredRivalValueGivesTheTwoSidedPower) {
  auto g = group("a", "");
  g.rival_value = 1.05;  // Δ = tolerance: power ½
  g.reason = "r";
  const auto r = akm::evaluate_group(g, akm::StatementKind::Theorem, header_rules(),
                                     summary({mc("a/1", 1, 1, 0.01, 0.05, true)}));
  EXPECT_NEAR(r.best_power, 0.5, 1e-6);
  g.rival_value = 1.1;  // Δ − tolerance = 5 standard errors
  const auto r2 = akm::evaluate_group(g, akm::StatementKind::Theorem, header_rules(),
                                      summary({mc("a/1", 1, 1, 0.01, 0.05, true)}));
  EXPECT_GT(r2.best_power, 0.9999);
  EXPECT_EQ(r2.outcome, GroupOutcome::Supports);
  // A declared relative effect: Δ = effect·|predicted|.
  g.rival_value = NAN;
  g.effect = 0.05;
  const auto r3 = akm::evaluate_group(g, akm::StatementKind::Theorem, header_rules(),
                                      summary({mc("a/1", 1, 1, 0.01, 0.05, true)}));
  EXPECT_NEAR(r3.best_power, 0.5, 1e-6);
}

TEST(LedgerRules, EquivalenceReportsItsAssuranceNotItsRecordedPower) {
  auto g = group("a", "");
  g.assurance = "/assurance";
  json eq = mc("a/flat", 1, 0.02, 0.1, 1e-12, true, 0.95, "difference = margin");
  eq["kind"] = "bound";
  eq["upper_limit"] = 7.7;
  eq["equivalence_established"] = false;
  const auto rules = header_rules();
  const auto low = akm::evaluate_group(g, akm::StatementKind::Empirical, rules, summary({eq}, {{"assurance", 0.0}}));
  EXPECT_EQ(low.outcome, GroupOutcome::ByDesign);
  EXPECT_EQ(low.assurance, 0.0);
  EXPECT_EQ(low.best_power, 0.0);
  const auto unknown = akm::evaluate_group(g, akm::StatementKind::Empirical, rules, summary({eq}));
  EXPECT_EQ(unknown.outcome, GroupOutcome::ByDesign);
  // A design with assurance at the floor that did not establish equivalence: no evidence.
  const auto weak = akm::evaluate_group(g, akm::StatementKind::Empirical, rules,
                                        summary({eq}, {{"assurance", rules.assurance_floor + 0.1}}));
  EXPECT_EQ(weak.outcome, GroupOutcome::Weak);
  eq["equivalence_established"] = true;
  const auto ok = akm::evaluate_group(g, akm::StatementKind::Empirical, rules,
                                      summary({eq}, {{"assurance", rules.power_floor}}));
  EXPECT_EQ(ok.outcome, GroupOutcome::Supports);
}

TEST(LedgerRules, AFailedCheckContradictsWithTheModelComparison) {
  auto e = entry(akm::StatementKind::Theorem, {group("a", "key-norm")});
  json r = mc("a/slope", 0.0, -0.454, 0.023, 0.3, false, 0.99, "key-norm");
  r["alternative"] = -0.5;
  const auto v = akm::ledger_verdict(e, header_rules(), {{"T0", summary({r})}});
  EXPECT_EQ(v.status, LedgerStatus::Contradicted);
  // 0.454/0.023 = 19.7 standard errors from the statement, 0.046/0.023 = 2.0 from the rival.
  EXPECT_NE(v.reason.find("19.7 standard errors from the statement's 0"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("2.0 from the rival's -0.5"), std::string::npos) << v.reason;
  e.kind = akm::StatementKind::Empirical;
  EXPECT_EQ(akm::ledger_verdict(e, header_rules(), {{"T0", summary({r})}}).status, LedgerStatus::NotReproducedAtScale);
}

TEST(LedgerRules, CorrectedNeedsTheWrittenTextRejectedAndTheCorrectionSupported) {
  auto e = entry(akm::StatementKind::Theorem, {group("a")});
  e.corrected = "c";
  e.refute = {group("r", "main text")};
  const auto good = summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.95, "EMA"), mc("r/1", 1, 1, 0.1, 0.5, true, 0.95, "main text")});
  EXPECT_EQ(verdict(e, good), LedgerStatus::Corrected);
  const auto not_rejected = summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.95, "EMA"), mc("r/1", 1, 1, 0.1, 0.5, true, 0.3, "main text")});
  EXPECT_EQ(verdict(e, not_rejected), LedgerStatus::Inconclusive);
  const auto unsupported = summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.85, "EMA"), mc("r/1", 1, 1, 0.1, 0.5, true, 0.95, "main text")});
  EXPECT_EQ(verdict(e, unsupported), LedgerStatus::Inconclusive);
}

TEST(LedgerRules, RecordedDeparturesRefuteBeyondTheFamilyZ) {
  akm::LedgerGroup g;
  g.part = "dependent keys";
  g.experiment = "T0";
  g.param = "/measured";
  g.param_filter = "note=dependent";
  g.param_z = "z";
  json params = {{"measured", {{{"note", "dependent"}, {"z", -278.0}}, {{"note", "independent"}, {"z", 900.0}}}}};
  const auto r = akm::evaluate_group(g, akm::StatementKind::Theorem, header_rules(), summary({}, params));
  EXPECT_EQ(r.outcome, GroupOutcome::Supports);
  EXPECT_EQ(r.selected, 1);
  params["measured"][0]["z"] = 4.0;  // below the family z = 5
  EXPECT_EQ(akm::evaluate_group(g, akm::StatementKind::Theorem, header_rules(), summary({}, params)).outcome,
            GroupOutcome::Weak);
}

TEST(LedgerRules, DeclaredUntestedStatementsKeepTheirReason) {
  auto e = entry(akm::StatementKind::Theorem, {});
  e.not_testable = "needs a 24-layer transformer";
  auto v = akm::ledger_verdict(e, header_rules(), {});
  EXPECT_EQ(v.status, LedgerStatus::NotTestableHere);
  EXPECT_EQ(v.reason, "needs a 24-layer transformer");
  e.not_testable.clear();
  e.not_tested = "no experiment yet";
  EXPECT_EQ(akm::ledger_verdict(e, header_rules(), {}).status, LedgerStatus::NotTestedYet);
}

TEST(LedgerRules, MissingResultsOrPatternsThatSelectNothingAreInconclusive) {
  const auto e = entry(akm::StatementKind::Theorem, {group("a")});
  EXPECT_EQ(akm::ledger_verdict(e, header_rules(), {}).status, LedgerStatus::Inconclusive);
  EXPECT_EQ(verdict(e, summary({mc("b/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA")})), LedgerStatus::Inconclusive);
}

TEST(LedgerRules, AFindingWhoseExperimentDidNotRunIsInconclusive) {
  // A results folder holding only some experiments (akm run R2 --out DIR) must not crash the
  // ledger: the finding's design group has no results, so it is not reported.
  auto e = entry(akm::StatementKind::Finding, {group("a")});
  e.findings = {"*"};
  const auto v = akm::ledger_verdict(e, header_rules(), {});
  EXPECT_EQ(v.status, LedgerStatus::Inconclusive);
  EXPECT_TRUE(v.findings.empty());
}

TEST(LedgerRules, RollUpIsTheMostSevereVerdict) {
  using S = LedgerStatus;
  EXPECT_EQ(akm::roll_up({S::Supported, S::Contradicted, S::Corrected}), S::Contradicted);
  EXPECT_EQ(akm::roll_up({S::Supported, S::Corrected}), S::Corrected);
  EXPECT_EQ(akm::roll_up({S::Supported, S::Inconclusive}), S::Inconclusive);
  EXPECT_EQ(akm::roll_up({S::Reported}), S::Reported);
}

// The roll-up order as the ledger's header writes it (rule 5), most severe first.
std::vector<LedgerStatus> header_roll_up_order() {
  std::ifstream in(kLedger);
  std::string header, line;
  while (std::getline(in, line) && line.rfind("#", 0) == 0) header += line.substr(1) + " ";
  std::string flat;  // the header with its line breaks and comment marks folded into single spaces
  for (const char c : header)
    if (!(c == ' ' && !flat.empty() && flat.back() == ' ')) flat += c;
  const std::string key = "most severe entry verdict:";
  const auto at = flat.find(key);
  if (at == std::string::npos) return {};
  const std::string list = flat.substr(at + key.size(), flat.find('.', at) - at - key.size());
  std::vector<LedgerStatus> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    item = item.substr(item.find_first_not_of(' '));
    item = item.substr(0, item.find_last_not_of(' ') + 1);
    out.push_back(akm::parse_claim_status(item, "ledger header roll-up order"));
  }
  return out;
}

TEST(LedgerRules, RollUpFollowsTheOrderWrittenInTheHeader) {
  const auto order = header_roll_up_order();
  ASSERT_EQ(order.size(), 6u) << "the header's rule 5 lists the six experiment statuses";
  EXPECT_EQ(order.front(), LedgerStatus::Contradicted);
  EXPECT_EQ(order.back(), LedgerStatus::Reported);
  for (std::size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(akm::roll_up({order[i]}), order[i]);
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      EXPECT_EQ(akm::roll_up({order[j], order[i]}), order[i]) << akm::to_string(order[i]) << " over " << akm::to_string(order[j]);
      EXPECT_EQ(akm::roll_up({order[i], order[j]}), order[i]);
    }
  }
}

}  // namespace
