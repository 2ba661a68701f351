// Equivalence (flat) claims (akm/check/equivalence.hpp): refuted only above the margin,
// evidence only when every interval lies inside it, and the TOST level holds at the margin.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/check/check.hpp"
#include "akm/check/equivalence.hpp"
#include "akm/check/status.hpp"
#include "akm/random/random.hpp"

TEST(Equivalence, LimitsAreTheWorstOfTheDifferences) {
  const auto l = akm::equivalence_limits({0.1, -0.3, 0.2}, {0.1, 0.01, 0.2}, 5.0, 2.0);
  EXPECT_NEAR(l.lower, 0.3 - 0.05, 1e-15);
  EXPECT_EQ(l.worst_lower, 1);
  EXPECT_NEAR(l.upper, 0.2 + 0.4, 1e-15);
  EXPECT_EQ(l.worst_upper, 2);
}

TEST(Equivalence, ThreeOutcomes) {
  akm::Checks c(1e-6);
  // inside, narrow: established (evidence, passes)
  akm::mc_equivalent(c, "flat", 1.0, {0.1, -0.2}, {0.05, 0.05}, 5.0, 2.0, 0.05);
  // inside but wide: passes, not established (no evidence)
  akm::mc_equivalent(c, "wide", 1.0, {0.1, -0.2}, {0.5, 0.5}, 5.0, 2.0, 0.05);
  // far above the margin: refuted
  akm::mc_equivalent(c, "steep", 1.0, {0.1, 3.0}, {0.05, 0.1}, 5.0, 2.0, 0.05);
  c.finalize();
  const auto& r = c.records();
  EXPECT_TRUE(r[0].pass);
  EXPECT_TRUE(r[0].discriminates);
  EXPECT_NEAR(r[0].power, 0.95, 1e-15);
  EXPECT_TRUE(r[1].pass);
  EXPECT_FALSE(r[1].discriminates);
  EXPECT_FALSE(r[2].pass);
  EXPECT_EQ(c.to_json()[0]["equivalence_established"], true);
  EXPECT_EQ(c.to_json()[1]["equivalence_established"], false);
}

TEST(Equivalence, StatusFollowsTheThreeOutcomes) {
  auto status = [](double se, double d) {
    akm::Checks c(1e-6);
    akm::mc_equivalent(c, "x", 1.0, {d}, {se}, 5.0, 2.0, 0.05);
    c.finalize();
    return akm::claim_verdict(c, akm::ClaimKind::Empirical).status;
  };
  EXPECT_EQ(status(0.05, 0.1), akm::ClaimStatus::Supported);
  EXPECT_EQ(status(0.5, 0.1), akm::ClaimStatus::Inconclusive);
  EXPECT_EQ(status(0.05, 2.0), akm::ClaimStatus::NotReproducedAtScale);
  // The undecided case says why in the equivalence's own terms, with the limit and margin.
  akm::Checks c(1e-6);
  akm::mc_equivalent(c, "x", 1.0, {0.1}, {0.5}, 5.0, 2.0, 0.05);
  c.finalize();
  const std::string reason = akm::claim_verdict(c, akm::ClaimKind::Empirical).reason;
  EXPECT_NE(reason.find("equivalence is not established"), std::string::npos) << reason;
  EXPECT_NE(reason.find("1.1 > 1"), std::string::npos) << reason;
}

// The TOST level: at a true difference equal to the margin, equivalence is established at
// most α_e of the time; with a true difference 0 and se = margin/5 it is established with
// the assurance the design promises.
TEST(Equivalence, LevelAtTheMarginAndAssuranceAtZero) {
  akm::Stream rng(7, 0);
  const double margin = 1.0, se = 0.2, q = 1.6448536269514722, alpha = 0.05;
  const int n = 20000;
  int at_margin = 0, at_zero = 0;
  for (int i = 0; i < n; ++i) {
    const double e1 = rng.normal() * se, e2 = rng.normal() * se;
    at_margin += akm::equivalence_limits({margin + e1}, {se}, 5.0, q).upper <= margin;
    at_zero += akm::equivalence_limits({e2}, {se}, 5.0, q).upper <= margin;
  }
  const double se_binom = std::sqrt(alpha * (1 - alpha) / n);
  EXPECT_LE(at_margin / double(n), alpha + 5 * se_binom);
  const double assurance = akm::equivalence_assurance({se}, margin, q);
  EXPECT_NEAR(at_zero / double(n), assurance, 5 * std::sqrt(assurance * (1 - assurance) / n));
}

TEST(Equivalence, BadInputIsRefused) {
  akm::Checks c;
  EXPECT_THROW(akm::mc_equivalent(c, "x", 0.0, {0.1}, {0.1}, 5, 2, 0.05), akm::InputError);
  EXPECT_THROW(akm::mc_equivalent(c, "x", 1.0, {0.1}, {0.1}, 5, 2, 0.5), akm::InputError);
  EXPECT_THROW(akm::mc_equivalent(c, "x", 1.0, {}, {}, 5, 2, 0.05), akm::InputError);
  EXPECT_THROW(akm::mc_equivalent(c, "x", 1.0, {0.1}, {0.1, 0.2}, 5, 2, 0.05), akm::InputError);
  EXPECT_THROW(akm::mc_equivalent(c, "x", 1.0, {0.1}, {-0.1}, 5, 2, 0.05), akm::InputError);
  EXPECT_EQ(c.size(), 0u);
}

// The design's assurance over several differences is the product of their chances (they are
// independent here), held to a simulation of the whole intersection–union test.
TEST(Equivalence, AssuranceOverSeveralDifferencesIsTheirProduct) {
  akm::Stream rng(13, 0);
  const std::vector<double> ses{0.1, 0.25, 0.3, 0.05};
  const double margin = 1.0, q = 1.729;
  const int n = 20000;
  int established = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> m;
    for (double s : ses) m.push_back(rng.normal() * s);
    established += akm::equivalence_limits(m, ses, 5.0, q).upper <= margin;
  }
  double product = 1;
  for (double s : ses) product *= akm::equivalence_assurance({s}, margin, q);
  EXPECT_NEAR(akm::equivalence_assurance(ses, margin, q), product, 1e-15);
  EXPECT_NEAR(established / double(n), product, 5 * std::sqrt(product * (1 - product) / n));
  // An infinite standard error (a diverged pilot run) leaves no chance.
  EXPECT_EQ(akm::equivalence_assurance({0.1, std::numeric_limits<double>::infinity()}, margin, q), 0.0);
}
