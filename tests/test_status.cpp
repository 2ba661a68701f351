// Claim statuses: the power of a check is what its own tolerance and standard error imply
// (held to simulated failures), and the status rules of check/status.hpp are applied as written.
#include <cmath>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/check/power.hpp"
#include "akm/check/status.hpp"

namespace {

using akm::Checks;
using akm::ClaimKind;
using akm::ClaimStatus;

// One finalized Monte-Carlo check of predicted 1.0 with standard error se.
akm::CheckRecord one_check(double measured, double se, double alt = NAN) {
  Checks c(1e-3);
  c.mc("x", 1.0, measured, se);
  if (std::isfinite(alt)) c.against(alt, "alt");
  c.finalize();
  return c.records().front();
}

TEST(Power, AtZeroIsTheFalseAlarmRate) {
  const auto r = one_check(1.0, 0.1);
  EXPECT_NEAR(akm::power_at(r, 0.0), 1e-3, 1e-9);
}

TEST(Power, MinimumDetectableEffectHasPowerTarget) {
  const auto r = one_check(1.0, 0.1);
  EXPECT_NEAR(r.mde, r.tolerance + 1.2815515655 * 0.1, 1e-8);
  EXPECT_GE(akm::power_at(r, r.mde), akm::kPowerTarget);
  EXPECT_GE(akm::power_at(r, -r.mde), akm::kPowerTarget);
  EXPECT_LT(akm::power_at(r, 0.95 * r.mde), akm::kPowerTarget);
}

// The computed power is the observed failure rate when the truth is the alternative:
// 4000 checks of noisy means centred at predicted + Δ (independent std::mt19937 noise).
TEST(Power, MatchesSimulatedFailureRate) {
  std::mt19937 gen(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  const double se = 0.05, delta = 0.2;
  const auto ref = one_check(1.0, se);
  const double predicted_power = akm::power_at(ref, delta);
  ASSERT_GT(predicted_power, 0.2);
  ASSERT_LT(predicted_power, 0.8);
  const int n = 4000;
  int fails = 0;
  for (int k = 0; k < n; ++k) fails += one_check(1.0 + delta + se * noise(gen), se).pass ? 0 : 1;
  const double rate = static_cast<double>(fails) / n;
  // 5 binomial standard errors: a false alarm of this test has probability < 1e-6.
  EXPECT_NEAR(rate, predicted_power, 5.0 * std::sqrt(predicted_power * (1 - predicted_power) / n));
}

TEST(Power, DiscriminatesAgainstItsAlternative) {
  EXPECT_TRUE(one_check(1.0, 0.01, 1.5).discriminates);
  EXPECT_FALSE(one_check(1.0, 0.5, 1.5).discriminates);
  EXPECT_NEAR(one_check(1.0, 0.01, 1.5).power, 1.0, 1e-12);
  // Without an alternative: the declared 10% effect of the prediction.
  EXPECT_TRUE(one_check(1.0, 0.01).discriminates);   // mde ≈ 0.046 ≤ 0.1
  EXPECT_FALSE(one_check(1.0, 0.05).discriminates);  // mde ≈ 0.23 > 0.1
}

TEST(Power, DesignAndZeroPredictionsAreNotEvidence) {
  Checks c(1e-3);
  c.mc("zero", 0.0, 0.0, 1e-6);
  c.mc("setup", 1.0, 1.0, 1e-6).design();
  c.exact("identity", 2.0, 2.0);
  c.finalize();
  EXPECT_FALSE(c.records()[0].discriminates);  // nothing to be relative to, no alternative
  EXPECT_FALSE(c.records()[1].discriminates);
  EXPECT_TRUE(c.records()[2].discriminates);
}

TEST(Power, AnnotationsNeedACheckBeforeFinalize) {
  Checks c(1e-3);
  EXPECT_THROW(c.against(1.0, "x"), std::logic_error);
  c.mc("a", 1.0, 1.0, 0.1);
  c.finalize();
  EXPECT_THROW(c.design(), std::logic_error);
}

akm::ClaimVerdict verdict(double measured, double se, bool design_fails, ClaimKind kind) {
  Checks c(1e-3);
  c.mc("claim", 1.0, measured, se);
  c.exact("setup", 1.0, design_fails ? 2.0 : 1.0).design();
  c.finalize();
  return akm::claim_verdict(c, kind, {"gap 0.3 ± 0.1"});
}

TEST(Status, RulesAsWritten) {
  EXPECT_EQ(verdict(1.0, 0.01, false, ClaimKind::Theorem).status, ClaimStatus::Supported);
  EXPECT_EQ(verdict(1.0, 0.5, false, ClaimKind::Theorem).status, ClaimStatus::Inconclusive);
  EXPECT_EQ(verdict(3.0, 0.01, false, ClaimKind::Theorem).status, ClaimStatus::Contradicted);
  EXPECT_EQ(verdict(3.0, 0.01, false, ClaimKind::Empirical).status,
            ClaimStatus::NotReproducedAtScale);
  EXPECT_EQ(verdict(1.0, 0.01, true, ClaimKind::Theorem).status, ClaimStatus::Inconclusive);
  const auto f = verdict(1.0, 0.01, false, ClaimKind::Finding);
  EXPECT_EQ(f.status, ClaimStatus::Reported);
  EXPECT_EQ(f.reason, "gap 0.3 ± 0.1");
  EXPECT_EQ(verdict(1.0, 0.01, true, ClaimKind::Finding).status, ClaimStatus::Inconclusive);
  const auto s = verdict(1.0, 0.01, false, ClaimKind::Theorem);
  EXPECT_EQ(s.n_evidence, 1);
  EXPECT_EQ(s.n_design, 1);
  EXPECT_EQ(s.n_discriminating, 1);
  EXPECT_GT(s.resolution_prediction, 0.0);
}

TEST(Status, ResolutionInParametersFromSensitivities) {
  Checks c(1e-3);
  c.mc("rate", 0.5, 0.5, 0.01).sensitivity(-0.2, 4.0, NAN);
  c.finalize();
  const auto v = akm::claim_verdict(c, ClaimKind::Theorem);
  const double mde = c.records().front().mde;
  EXPECT_NEAR(v.resolution_eta, mde / 0.2, 1e-12);
  EXPECT_NEAR(v.resolution_beta, mde / 4.0, 1e-12);
  EXPECT_TRUE(std::isnan(v.resolution_lambda));
}

TEST(Status, NamesRoundTripAndBadNamesAreRefused) {
  for (auto s : {ClaimStatus::Supported, ClaimStatus::Corrected, ClaimStatus::Contradicted,
                 ClaimStatus::NotReproducedAtScale, ClaimStatus::Inconclusive,
                 ClaimStatus::Reported})
    EXPECT_EQ(akm::parse_claim_status(akm::to_string(s), "s"), s);
  EXPECT_EQ(akm::parse_claim_status("not_reproduced_at_this_scale", "s"),
            ClaimStatus::NotReproducedAtScale);
  EXPECT_THROW(akm::parse_claim_status("PASS", "line 3"), akm::InputError);
  // Declared in a ledger entry, never an experiment's status (nor an expected one).
  EXPECT_THROW(akm::parse_claim_status(akm::to_string(ClaimStatus::NotTestableHere), "s"), akm::InputError);
  EXPECT_THROW(akm::parse_claim_status("NOT_TESTED_YET", "s"), akm::InputError);
}

}  // namespace
