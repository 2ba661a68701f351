// Sign checks (Checks::sign): a pre-registered direction over paired seeds, judged by the exact
// sign test at the run's per-comparison level, evidence only once established, with the
// design's power — and read the same way by the claim status and by the ledger.
#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/check/check.hpp"
#include "akm/check/ledger.hpp"
#include "akm/check/ledger_verdict.hpp"
#include "akm/check/paired.hpp"
#include "akm/check/status.hpp"

namespace {

const akm::CheckRecord& only(const akm::Checks& c) { return c.records().front(); }

// One ledger group of one empirical part naming the checks d*, judged from a run's checks.
akm::GroupOutcome ledger_outcome(const akm::Checks& c) {
  akm::LedgerGroup g;
  g.part = "task";
  g.experiment = "T0";
  g.checks = {"d*"};
  g.rival = "no direction";
  const akm::LedgerRules rules{0.9, 0.8, 0.8};
  const nlohmann::json s = {{"z", c.z()}, {"checks", c.to_json()}, {"params", nlohmann::json::object()}};
  return akm::evaluate_group(g, akm::StatementKind::Empirical, rules, s).outcome;
}

TEST(SignCheck, EstablishedFailedOrUndecided) {
  // Level 1e-3 (one comparison): 12 of 12 favourable has p = 2^-11 ≈ 4.9e-4 — established.
  akm::Checks up(1e-3);
  up.sign("d", 12, 0, 0.95);
  up.finalize();
  EXPECT_TRUE(only(up).pass);
  EXPECT_TRUE(akm::sign_established(only(up)));
  EXPECT_DOUBLE_EQ(only(up).sign_p, akm::sign_test_p(12, 0));
  EXPECT_DOUBLE_EQ(only(up).level, 1e-3);
  EXPECT_DOUBLE_EQ(only(up).power, akm::sign_test_power(12, 1e-3, 0.95));
  // The same counts the other way: significant against the direction, so the check fails.
  akm::Checks down(1e-3);
  down.sign("d", 0, 12, 0.95);
  down.finalize();
  EXPECT_FALSE(only(down).pass);
  EXPECT_FALSE(akm::sign_established(only(down)));
  // 8 of 12: neither.
  akm::Checks mid(1e-3);
  mid.sign("d", 8, 4, 0.95);
  mid.finalize();
  EXPECT_TRUE(only(mid).pass);
  EXPECT_FALSE(akm::sign_established(only(mid)));
  EXPECT_FALSE(only(mid).discriminates);
}

TEST(SignCheck, SharesTheFamilyRateWithMonteCarloChecks) {
  akm::Checks c(1e-3);
  c.mc("m", 1.0, 1.0, 0.1);
  c.sign("d", 12, 0, 0.95);
  c.finalize();
  EXPECT_DOUBLE_EQ(c.records()[1].level, 0.5e-3);  // Bonferroni over 2 comparisons
  EXPECT_NEAR(c.z(), akm::z_two_sided(0.5e-3), 1e-12);
}

TEST(SignCheck, EvidenceOnlyWithDesignPower) {
  // Established, but 12 seeds have power < 0.9 at p_design 0.8: not discriminating.
  akm::Checks c(1e-3);
  c.sign("d", 12, 0, 0.8);
  c.finalize();
  EXPECT_TRUE(akm::sign_established(only(c)));
  EXPECT_LT(only(c).power, 0.9);
  EXPECT_FALSE(only(c).discriminates);
  // 40 seeds, 38 favourable, p_design 0.95: established with power ≥ 0.9.
  akm::Checks d(1e-3);
  d.sign("d", 38, 2, 0.95);
  d.finalize();
  EXPECT_GE(only(d).power, 0.9);
  EXPECT_TRUE(only(d).discriminates);
  EXPECT_EQ(akm::claim_verdict(d, akm::ClaimKind::Empirical).status, akm::ClaimStatus::Supported);
}

TEST(SignCheck, ClaimStatusSaysWhyItIsUndecidedOrNotReproduced) {
  akm::Checks c(1e-6);
  c.sign("gap higher", 5, 1, 0.95);
  c.finalize();
  const auto v = akm::claim_verdict(c, akm::ClaimKind::Empirical);
  EXPECT_EQ(v.status, akm::ClaimStatus::Inconclusive);
  EXPECT_NE(v.reason.find("no direction is established (gap higher: 5 of 6 seeds favourable"), std::string::npos)
      << v.reason;
  akm::Checks f(1e-3);
  f.sign("gap higher", 1, 39, 0.95);
  f.finalize();
  EXPECT_EQ(akm::claim_verdict(f, akm::ClaimKind::Empirical).status, akm::ClaimStatus::NotReproducedAtScale);
}

TEST(SignCheck, TheLedgerCountsItOnlyOnceEstablished) {
  const auto run = [](int fav, int unfav) {
    akm::Checks c(1e-3);
    c.sign("d", fav, unfav, 0.95);
    c.finalize();
    return ledger_outcome(c);
  };
  EXPECT_EQ(run(38, 2), akm::GroupOutcome::Supports);
  EXPECT_EQ(run(24, 16), akm::GroupOutcome::Weak);  // power of the design, direction not established
  EXPECT_EQ(run(2, 38), akm::GroupOutcome::Fails);
  EXPECT_EQ(run(6, 0), akm::GroupOutcome::ByDesign);  // 6 seeds cannot reach 1e-3 with power
}

// A refute-only sign check (a one-sided check of a two-sided claim): it fails the claim like
// any evidence check, but established it is no evidence — for the status and for the ledger.
TEST(SignCheck, RefuteOnlyFailsButNeverSupports) {
  const auto checks = [](int fav, int unfav) {
    akm::Checks c(1e-3);
    c.sign("d", fav, unfav, 0.95).refute_only();
    c.finalize();
    return c;
  };
  const akm::Checks up = checks(38, 2), down = checks(2, 38);
  EXPECT_TRUE(only(up).pass);
  EXPECT_TRUE(akm::sign_established(only(up)));
  EXPECT_FALSE(only(up).discriminates);
  EXPECT_DOUBLE_EQ(only(up).power, akm::sign_test_power(40, 1e-3, 0.95));  // the power is kept
  EXPECT_EQ(up.to_json()[0]["refute_only"], true);
  EXPECT_EQ(akm::claim_verdict(up, akm::ClaimKind::Empirical).status, akm::ClaimStatus::Inconclusive);
  EXPECT_FALSE(only(down).pass);
  EXPECT_EQ(akm::claim_verdict(down, akm::ClaimKind::Empirical).status, akm::ClaimStatus::NotReproducedAtScale);

  EXPECT_EQ(ledger_outcome(up), akm::GroupOutcome::Weak);
  EXPECT_EQ(ledger_outcome(down), akm::GroupOutcome::Fails);
  // Without the mark the same counts discriminate, and summary.json says nothing of it.
  akm::Checks plain(1e-3);
  plain.sign("d", 38, 2, 0.95);
  plain.finalize();
  EXPECT_TRUE(only(plain).discriminates);
  EXPECT_FALSE(plain.to_json()[0].contains("refute_only"));
}

TEST(SignCheck, BadCountsAreRefused) {
  akm::Checks c(1e-3);
  EXPECT_THROW(c.sign("d", -1, 3, 0.9), akm::InputError);
  EXPECT_THROW(c.sign("d", 1, 3, 0.5), akm::InputError);
  EXPECT_THROW(c.sign("d", 1, 3, 1.2), akm::InputError);
}

}  // namespace
