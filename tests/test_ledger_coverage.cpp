// The claim ledger against the paper and the committed results: every claim-bearing statement
// of the paper (experiments/paper_claims.tsv, generated from the paper by tests/paper_claims.py) has
// an entry, entries follow paper order and name known labels and experiments, every group
// of checks selects recorded checks in results/, and every recorded check but a design check
// is named by some group. The verdicts the ledger exists to state for
// the committed results are pinned at the end.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "akm/check/ledger.hpp"
#include "akm/base/errors.hpp"
#include "akm/check/ledger_verdict.hpp"
#include "akm/check/paper_claims.hpp"
#include "akm/report/ledger_report.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kRoot = fs::path(AKM_TESTS_DIR) / "..";

std::vector<akm::PaperClaim> paper_claims() { return akm::read_paper_claims(kRoot / "experiments" / "paper_claims.tsv"); }

const akm::Ledger& ledger() {
  static const akm::Ledger l = akm::read_ledger(kRoot / "experiments" / "ledger.toml");
  return l;
}

TEST(LedgerCoverage, TheClaimListIsThere) { EXPECT_GE(paper_claims().size(), 40u); }

TEST(LedgerCoverage, EveryClaimBearingStatementHasAnEntry) {
  for (const auto& c : akm::uncovered_claims(ledger(), paper_claims()))
    ADD_FAILURE() << c.env << " " << c.key << " (paper line " << c.line << ") has no ledger entry";
}

TEST(LedgerCoverage, EntriesNameKnownLabelsInPaperOrder) {
  EXPECT_NO_THROW(akm::require_known_labels(ledger(), paper_claims()));
  // The check refuses an unknown label and an entry out of order, naming it.
  auto bad = ledger();
  bad.entries.front().label = "thm:nope";
  try {
    akm::require_known_labels(bad, paper_claims());
    ADD_FAILURE() << "an unknown label was accepted";
  } catch (const akm::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("statement.label = thm:nope"), std::string::npos) << e.what();
  }
  bad = ledger();
  std::swap(bad.entries.front(), bad.entries.back());
  EXPECT_THROW(akm::require_known_labels(bad, paper_claims()), akm::InputError);
}

TEST(LedgerCoverage, EveryGroupNamesAKnownExperimentAndSelectsChecks) {
  const auto summaries = akm::load_ledger_summaries(kRoot / "results", ledger());
  for (const auto& e : ledger().entries)
    for (const auto* groups : {&e.evidence, &e.refute})
      for (const auto& g : *groups) {
        ASSERT_TRUE(summaries.count(g.experiment))
            << e.label << ": experiment " << g.experiment << " has no results/" << g.experiment << "/summary.json";
        const auto r = akm::evaluate_group(g, e.kind, ledger().rules, summaries.at(g.experiment));
        EXPECT_GT(r.selected, 0) << e.label << " [" << g.experiment << " " << g.part << "] " << r.detail;
        EXPECT_NE(r.outcome, akm::GroupOutcome::Empty) << e.label << " [" << g.part << "]";
      }
}

// The recorded checks that no statement names: every check of an experiment the ledger names,
// other than a design check, must be selected by some group of some entry, or its failure
// would contradict nothing (it would only make the roll-up INCONCLUSIVE). A pooled recovery
// belongs to every statement whose predictions it pools. An experiment that no entry names
// (E1, an extension beyond the paper's statements) is left out.
std::vector<std::string> unnamed_checks(const akm::Ledger& l, const std::map<std::string, nlohmann::json>& summaries) {
  std::map<std::string, std::vector<std::string>> patterns;
  for (const auto& e : l.entries)
    for (const auto* groups : {&e.evidence, &e.refute})
      for (const auto& g : *groups) patterns[g.experiment].insert(patterns[g.experiment].end(), g.checks.begin(), g.checks.end());
  std::vector<std::string> out;
  for (const auto& [id, summary] : summaries) {
    const auto it = patterns.find(id);
    if (it == patterns.end()) continue;
    for (const auto& c : summary.value("checks", nlohmann::json::array())) {
      if (c.value("role", "") == "design") continue;
      const std::string name = c.value("name", "");
      if (std::none_of(it->second.begin(), it->second.end(), [&](const std::string& p) { return akm::glob_match(p, name); }))
        out.push_back(id + ": " + name);
    }
  }
  return out;
}

TEST(LedgerCoverage, EveryRecordedCheckIsNamedByAStatement) {
  auto summaries = akm::load_ledger_summaries(kRoot / "results", ledger());
  for (const auto& c : unnamed_checks(ledger(), summaries))
    ADD_FAILURE() << c << " is named by no ledger statement (docs/ledger.md, \"Adding an entry\")";
  // The test can fail: a planted evidence check is caught, a design check and an experiment
  // that no entry names are not.
  ASSERT_TRUE(summaries.count("T1"));
  summaries.at("T1")["checks"].push_back({{"name", "planted/unnamed"}, {"role", "evidence"}, {"pass", true}});
  summaries.at("T1")["checks"].push_back({{"name", "planted/design"}, {"role", "design"}, {"pass", true}});
  summaries["E9"] = {{"checks", nlohmann::json::array({{{"name", "planted/e9"}, {"role", "evidence"}}})}};
  EXPECT_EQ(unnamed_checks(ledger(), summaries), std::vector<std::string>{"T1: planted/unnamed"});
}

TEST(LedgerCoverage, TheCommittedResultsGiveTheStatedVerdicts) {
  const auto verdicts = akm::ledger_verdicts(ledger(), akm::load_ledger_summaries(kRoot / "results", ledger()));
  std::map<std::string, akm::LedgerStatus> by_label;
  for (const auto& v : verdicts) by_label[v.label] = v.status;
  using S = akm::LedgerStatus;
  for (const char* corrected : {"par:fixed-point/coincide-iff", "eq:iter-matrices/injection-sign",
                                "thm:unconditional-stability/raw-requires", "thm:unconditional-stability/raw-mean-square",
                                "app:scope/transport-any-data", "app:related/adamw-null-case"})
    EXPECT_EQ(by_label.at(corrected), S::Corrected) << corrected;
  // The main text's κ_i in the EMA row is notational (the raw-key EMA follows the appendix's λ_i row).
  EXPECT_EQ(by_label.at("eq:iter-matrices/ema-row"), S::Supported);
  EXPECT_EQ(by_label.at("cor:mup-base-lr/ak-adamw"), S::Contradicted);
  EXPECT_EQ(by_label.at("thm:mup-eta/eta-constant"), S::Supported);
  // Both optimizers established on paired medians by designs of assurance ≥ 0.9 (T19).
  EXPECT_EQ(by_label.at("tab:eta-sweep"), S::Supported);
  // T13's AK-SGD arm: the paired slope difference lies at the key-norm rival, not at 0.
  EXPECT_EQ(by_label.at("cor:mup-base-lr/ak-sgd"), S::Contradicted);
  // T13's growing η stays mean-square stable: the text as written is rejected, the Θ(√n) bound holds.
  EXPECT_EQ(by_label.at("thm:mup-eta/eta-growing"), S::Corrected);
  // T13's Muon pair: Newton–Schulz is scale-free, so AK-Muon's update keeps Muon's width slope
  // (paired −0.01); Muon itself at the corollary's α = Θ(n^{-1/2}) shrinks as n^{-1/2} against AdamW.
  EXPECT_EQ(by_label.at("cor:mup-base-lr/ak-muon"), S::Supported);
  EXPECT_EQ(by_label.at("cor:mup-base-lr/muon-rule"), S::Contradicted);
  // Decided from the mechanism: the step-1 update ratio is κ/‖x‖ exactly, ‖x‖ ∝ √n (T13).
  EXPECT_EQ(by_label.at("app:mup-coord/update-step-1"), S::Contradicted);
  // T18's proxy of sec:diag-feat: AK-AdamW's hidden features are worse conditioned than tab:hps AdamW's.
  EXPECT_EQ(by_label.at("sec:diag-feat/proxy"), S::NotReproducedAtScale);
  // T21, the worked example of docs/adding-a-claim.md: both parts of eq:ratio (forgetting 1 + r_i,
  // window 1/(1 + r_i)) pass with power against EMA's ratio 1.
  EXPECT_EQ(by_label.at("eq:ratio"), S::Supported);
  // T14 against the paper's own counts: three sentences of the cost text fail as written.
  for (const char* corrected : {"app:flops-memory/sequential-bound", "app:deployed/sigma-hat-no-gemm",
                                "sec:realized-flops/effect-3"})
    EXPECT_EQ(by_label.at(corrected), S::Corrected) << corrected;
  // The paper's own arithmetic: tab:hps's μP transfer (T13) and the sweep's accounting (T19).
  EXPECT_EQ(by_label.at("tab:hps/mup-transfer"), S::Supported);
  EXPECT_EQ(by_label.at("app:hp-sweep/accounting"), S::Supported);
}

}  // namespace

namespace {

// ledger.json remembers the results it was computed from; the index flags a re-run since.
TEST(LedgerReport, StaleVerdictsAreNamed) {
  const auto summaries = akm::load_ledger_summaries(kRoot / "results", ledger());
  const auto json = akm::ledger_json(ledger(), akm::ledger_verdicts(ledger(), summaries), summaries);
  EXPECT_TRUE(akm::stale_experiments(json, summaries).empty());
  auto rerun = summaries;
  rerun.at("T4")["hash"] = "0000000000000000";
  EXPECT_EQ(akm::stale_experiments(json, rerun), std::vector<std::string>{"T4"});
  EXPECT_NE(akm::ledger_index_html(json, {"T4"}).find("computed before T4 ran again"), std::string::npos);
  EXPECT_EQ(json.at("statements").size(), ledger().entries.size());
  // An experiment's page lists the statements its checks decide, and only those.
  const auto t13 = akm::ledger_claim_html(json, "T13");
  EXPECT_NE(t13.find("cor:mup-base-lr/ak-adamw"), std::string::npos);
  EXPECT_EQ(t13.find("thm:fixedpoint"), std::string::npos);
  EXPECT_EQ(akm::ledger_claim_html(json, "E1"), "");  // no entry names E1 (a mean-square extension)
}

}  // namespace
