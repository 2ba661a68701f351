// Equivalence (flat) claims (akm/check/equivalence.hpp): refuted only above the margin,
// evidence only when every interval lies inside it, and the TOST level holds at the margin;
// the same for medians over paired seeds, with the order-statistics interval they rest on
// (akm/check/paired.hpp) and the robust scale of their design (akm/base/median.hpp), each
// against a plain reference computation or a simulation.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/base/median.hpp"
#include "akm/check/check.hpp"
#include "akm/check/equivalence.hpp"
#include "akm/check/paired.hpp"
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

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Reference: P(Bin(n, ½) ≤ k) by direct summation of n choose i / 2^n.
double binom_half_cdf(int n, int k) {
  double s = 0, c = 1;  // c = n choose i
  for (int i = 0; i <= k; ++i) {
    s += c;
    c = c * (n - i) / (i + 1);
  }
  return s / std::pow(2.0, n);
}
}  // namespace

// The interval's rank is the largest k with 2·P(Bin(n, ½) ≤ k − 1) ≤ α, its ends the k-th
// smallest and largest values, and paired_compare reports the same interval.
TEST(MedianInterval, RanksAndEndsMatchTheBinomialReference) {
  for (int n : {5, 6, 12, 24, 40})
    for (double alpha : {0.1, 0.05, 1e-3}) {
      int k_ref = 0;
      while (k_ref + 1 <= n && 2 * binom_half_cdf(n, k_ref) <= alpha) ++k_ref;
      std::vector<double> d(n);
      for (int i = 0; i < n; ++i) d[i] = static_cast<double>((7 * i) % n) - 0.5 * n;  // a permutation
      const akm::MedianInterval m = akm::median_interval(d, alpha);
      ASSERT_EQ(m.rank, k_ref) << n << " " << alpha;
      std::vector<double> s = d;
      std::sort(s.begin(), s.end());
      if (k_ref >= 1) {
        EXPECT_EQ(m.lower, s[k_ref - 1]);
        EXPECT_EQ(m.upper, s[n - k_ref]);
        EXPECT_NEAR(m.level, 1 - 2 * binom_half_cdf(n, k_ref - 1), 1e-12);
      } else {
        EXPECT_EQ(m.lower, -kInf);
        EXPECT_EQ(m.upper, kInf);
      }
      const auto pc = akm::paired_compare(d, std::vector<double>(n, 0.0), alpha, 100, 1);
      EXPECT_EQ(pc.exact_lower, m.lower);
      EXPECT_EQ(pc.exact_upper, m.upper);
    }
}

// The trinomial design probability against a simulation of the same counts.
TEST(MedianInterval, InsideProbabilityMatchesSimulation) {
  akm::Stream rng(11, 0);
  const int n = 24, reps = 40000;
  const double alpha = 0.1, p_below = 0.15, p_above = 0.25;
  const int k = akm::median_interval(std::vector<double>(n, 0.0), alpha).rank;
  int inside = 0;
  for (int r = 0; r < reps; ++r) {
    int below = 0, above = 0;
    for (int s = 0; s < n; ++s) {
      const double u = rng.uniform();
      below += u < p_below, above += u >= 1 - p_above;
    }
    inside += below < k && above < k;
  }
  const double p = akm::median_interval_inside(n, alpha, p_below, p_above);
  EXPECT_NEAR(inside / double(reps), p, 5 * std::sqrt(p * (1 - p) / reps));
  EXPECT_EQ(akm::median_interval_inside(3, 0.1, 0.1, 0.1), 0.0);  // too few seeds for a 90% interval
  EXPECT_NEAR(akm::median_interval_inside(n, alpha, 0, 0), 1.0, 1e-12);
}

TEST(RobustScale, NormalCoreAndOutliers) {
  akm::Stream rng(3, 0);
  std::vector<double> v(4001);
  for (auto& x : v) x = 2.0 + 0.5 * rng.normal();
  const auto r = akm::robust_scale(v);
  EXPECT_NEAR(r.centre, 2.0, 0.05);
  EXPECT_NEAR(r.sigma, 0.5, 0.05);
  EXPECT_LT(r.outliers, 0.001);
  v[0] = kInf, v[1] = 1e9, v[2] = -kInf;
  const auto o = akm::robust_scale(v);
  EXPECT_NEAR(o.sigma, 0.5, 0.05);
  EXPECT_GE(o.outliers, 3.0 / v.size());
  EXPECT_EQ(akm::robust_scale({kInf, kInf, 1.0}).outliers, 1.0);  // most diverged: no normal core
  EXPECT_THROW(akm::robust_scale({}), akm::InputError);
}

// A pilot of normal differences gives Φ(−m/σ) per side; a blow-up in five stays on its side.
TEST(MedianEquivalence, OutsideProbabilityOfAPilot) {
  const std::vector<double> pilot{-0.2, -0.1, 0.0, 0.1, 0.2};  // MAD 0.1
  const double sigma = 1.4826 * 0.1;
  const double phi = 0.5 * std::erfc(1.0 / sigma / std::sqrt(2.0));
  const auto p = akm::flat_outside_probability(pilot, 1.0);
  EXPECT_NEAR(p.below, phi, 1e-15);
  EXPECT_NEAR(p.above, phi, 1e-15);
  const std::vector<double> blown{-0.2, -0.1, 0.0, 0.1, kInf};
  const auto b = akm::flat_outside_probability(blown, 1.0);
  EXPECT_NEAR(b.above, 0.2 + 0.8 * phi, 1e-15);
  EXPECT_NEAR(b.below, 0.8 * phi, 1e-15);
  // An outlier of the core that still lies inside the margin is not counted beyond it.
  const auto tight = akm::flat_outside_probability({-0.002, -0.001, 0.0, 0.001, 0.5}, 1.0);
  EXPECT_LT(tight.above + tight.below, 1e-100);
  const auto most = akm::flat_outside_probability({kInf, kInf, 0.0}, 1.0);
  EXPECT_EQ(most.below, 0.5);
  EXPECT_EQ(most.above, 0.5);
  EXPECT_THROW(akm::flat_outside_probability(pilot, 0.0), akm::InputError);
}

// A blow-up on a few seeds: the mean-based test cannot establish a flat claim, the median
// one does; a steep pair refutes; too few seeds neither establish nor refute.
TEST(MedianEquivalence, ThreeOutcomesAndBlowUps) {
  akm::Stream rng(5, 0);
  const int n = 30;
  std::vector<double> flat(n), steep(n);
  for (int s = 0; s < n; ++s) flat[s] = 0.1 * rng.normal(), steep[s] = 3.0 + 0.1 * rng.normal();
  std::vector<double> blown = flat;
  blown[3] = kInf, blown[17] = -kInf, blown[20] = 1e4;
  akm::Checks c(1e-6);
  akm::median_equivalent(c, "flat", 1.0, {flat, blown}, 1e-8, 0.05);
  akm::median_equivalent(c, "steep", 1.0, {flat, steep}, 1e-8, 0.05);
  akm::median_equivalent(c, "few", 1.0, {{0.1, -0.1, 0.0}}, 1e-8, 0.05);
  c.finalize();
  const auto& r = c.records();
  EXPECT_TRUE(r[0].pass);
  EXPECT_TRUE(r[0].discriminates);
  EXPECT_FALSE(r[1].pass);
  EXPECT_TRUE(r[2].pass);
  EXPECT_FALSE(r[2].discriminates);
  // The mean of the blown-up differences is lost to the divergences.
  double m = 0;
  for (double x : blown) m += x;
  EXPECT_FALSE(std::isfinite(m));
  const auto l = akm::median_equivalence_limits({flat, steep}, 1e-8, 0.05);
  EXPECT_EQ(l.worst_lower, 1);
  EXPECT_GT(l.lower, 2.0);
  EXPECT_EQ(akm::median_equivalence_limits({{0.1, -0.1, 0.0}}, 1e-8, 0.05).lower, 0.0);
}

// The level and the assurance in simulation: at a true median of one margin the test
// establishes at most α_e of the time; at 0, with 10% of seeds blown up, as often as
// median_equivalence_assurance promises from the true per-side probability.
TEST(MedianEquivalence, LevelAtTheMarginAndAssuranceAtZero) {
  akm::Stream rng(9, 0);
  const int n = 24, reps = 8000;
  const double sigma = 0.6, blow = 0.1, alpha = 0.05;
  int at_margin = 0, at_zero = 0;
  std::vector<double> a(n), b(n);
  for (int r = 0; r < reps; ++r) {
    for (int s = 0; s < n; ++s) {
      a[s] = 1.0 + sigma * rng.normal();
      const double u = rng.uniform();
      b[s] = u < blow / 2 ? kInf : u < blow ? -kInf : sigma * rng.normal();
    }
    at_margin += akm::median_equivalence_limits({a}, 1e-8, alpha).upper <= 1.0;
    at_zero += akm::median_equivalence_limits({b}, 1e-8, alpha).upper <= 1.0;
  }
  EXPECT_LE(at_margin / double(reps), alpha + 5 * std::sqrt(alpha * (1 - alpha) / reps));
  const double p_side = blow / 2 + (1 - blow) * 0.5 * std::erfc(1.0 / sigma / std::sqrt(2.0));
  const double assurance = akm::median_equivalence_assurance({{p_side, p_side}}, n, alpha);
  EXPECT_NEAR(at_zero / double(reps), assurance, 5 * std::sqrt(assurance * (1 - assurance) / reps));
  EXPECT_NEAR(akm::median_equivalence_assurance({{p_side, p_side}, {p_side, p_side}}, n, alpha),
              assurance * assurance, 1e-15);
}

TEST(MedianEquivalence, BadInputIsRefused) {
  akm::Checks c;
  EXPECT_THROW(akm::median_equivalent(c, "x", 0.0, {{0.1}}, 1e-8, 0.05), akm::InputError);
  EXPECT_THROW(akm::median_equivalent(c, "x", 1.0, {{0.1}}, 1e-8, 0.5), akm::InputError);
  EXPECT_THROW(akm::median_equivalent(c, "x", 1.0, {}, 1e-8, 0.05), akm::InputError);
  EXPECT_THROW(akm::median_equivalent(c, "x", 1.0, {{}}, 1e-8, 0.05), akm::InputError);
  EXPECT_THROW(akm::median_equivalent(c, "x", 1.0, {{std::nan("")}}, 1e-8, 0.05), akm::InputError);
  EXPECT_THROW(akm::median_equivalent(c, "x", 1.0, {{0.1}}, 0.0, 0.05), akm::InputError);
  EXPECT_EQ(c.size(), 0u);
  EXPECT_THROW(akm::median_equivalence_assurance({{0.7, 0.7}}, 10, 0.05), akm::InputError);
  EXPECT_THROW(akm::median_interval_inside(10, 0.1, 0.6, 0.6), akm::InputError);
}
