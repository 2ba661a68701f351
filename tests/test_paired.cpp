// Paired statistics of training runs (akm/check/paired.hpp): the sign test against Boost's
// binomial law, its power against enumeration of every sign pattern, the order-statistics
// interval's coverage, the bootstrap against a plain re-implementation, and the divergence rule.
#include <cmath>
#include <limits>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/check/paired.hpp"
#include "akm/random/random.hpp"

namespace {

constexpr double kDiverged = std::numeric_limits<double>::infinity();

TEST(SignTest, MatchesTheBinomialLaw) {
  for (int n = 1; n <= 30; ++n)
    for (int pos = 0; pos <= n; ++pos) {
      const boost::math::binomial law(n, 0.5);
      const double ref = std::min(1.0, 2.0 * boost::math::cdf(law, std::min(pos, n - pos)));
      EXPECT_NEAR(akm::sign_test_p(pos, n - pos), ref, 1e-12 * std::max(ref, 1e-300)) << n << " " << pos;
    }
  EXPECT_EQ(akm::sign_test_p(0, 0), 1.0);
}

TEST(SignTest, TenSeedsCannotReachAFamilyRate) {
  // 10 seeds: the smallest p is 2^-9 ≈ 0.00195, above any Bonferroni-split rate below it.
  EXPECT_DOUBLE_EQ(akm::sign_test_min_p(10), std::ldexp(1.0, -9));
  EXPECT_DOUBLE_EQ(akm::sign_test_p(10, 0), akm::sign_test_min_p(10));
  EXPECT_EQ(akm::sign_test_power(10, 1e-3, 1.0), 0.0);
  EXPECT_EQ(akm::sign_test_power(11, 1e-3, 1.0), 1.0);
}

TEST(SignTest, PowerMatchesEnumerationOfEverySignPattern) {
  for (int n : {1, 4, 9, 14})
    for (double alpha : {0.01, 0.05, 0.2})
      for (double p : {0.0, 0.3, 0.5, 0.8, 1.0}) {
        double reject = 0;
        for (unsigned mask = 0; mask < (1u << n); ++mask) {
          const int pos = __builtin_popcount(mask);
          if (akm::sign_test_p(pos, n - pos) <= alpha) reject += std::pow(p, pos) * std::pow(1 - p, n - pos);
        }
        EXPECT_NEAR(akm::sign_test_power(n, alpha, p), reject, 1e-12) << n << " " << alpha << " " << p;
      }
}

TEST(SignTest, SeedsForPowerAreTheSmallestThatReachIt) {
  for (double p : {0.75, 0.9, 0.99}) {
    const int n = akm::sign_test_seeds(1e-3, 0.8, p);
    EXPECT_GE(akm::sign_test_power(n, 1e-3, p), 0.8);
    for (int m = 1; m < n; ++m) EXPECT_LT(akm::sign_test_power(m, 1e-3, p), 0.8) << m;
  }
  EXPECT_THROW(akm::sign_test_seeds(1e-3, 0.8, 0.5), akm::InputError);
}

TEST(Paired, DivergenceIsTheWorstOutcome) {
  const auto d = akm::paired_differences({1.0, kDiverged, std::nan(""), 2.0, kDiverged}, {0.5, 1.0, 1.0, kDiverged, kDiverged});
  ASSERT_EQ(d.size(), 5u);
  EXPECT_DOUBLE_EQ(d[0], 0.5);
  EXPECT_EQ(d[1], kDiverged);   // only a diverged: a is worse
  EXPECT_EQ(d[2], kDiverged);   // NaN is a divergence
  EXPECT_EQ(d[3], -kDiverged);  // only b diverged
  EXPECT_EQ(d[4], 0.0);    // both: a tie
  const auto c = akm::paired_compare({1.0, kDiverged, std::nan(""), 2.0, kDiverged}, {0.5, 1.0, 1.0, kDiverged, kDiverged}, 0.1, 200, 1);
  EXPECT_EQ(c.positive, 3);
  EXPECT_EQ(c.negative, 1);
  EXPECT_EQ(c.ties, 1);
  EXPECT_EQ(c.diverged_a, 3);
  EXPECT_EQ(c.diverged_b, 2);
  EXPECT_DOUBLE_EQ(c.median, 0.5);
  EXPECT_DOUBLE_EQ(c.sign_p, akm::sign_test_p(3, 1));
}

TEST(Paired, MedianOfInfiniteValues) {
  EXPECT_EQ(akm::median_of({1, 3, 2}), 2);
  EXPECT_EQ(akm::median_of({1, 4, 2, 3}), 2.5);
  EXPECT_EQ(akm::median_of({1, kDiverged, 2, kDiverged}), kDiverged);
  EXPECT_EQ(akm::median_of({-kDiverged, kDiverged}), 0.0);
  EXPECT_THROW(akm::median_of({}), akm::InputError);
  EXPECT_THROW(akm::median_of({1, std::nan("")}), akm::InputError);
}

TEST(Paired, OrderStatisticsIntervalHasItsExactLevel) {
  // Level 1 − 2·P(Bin(n, ½) ≤ k − 1) against Boost, for the k the test picks.
  for (int n : {5, 6, 12, 20, 40}) {
    std::vector<double> a(n), b(n, 0.0);
    for (int s = 0; s < n; ++s) a[s] = s + 1.0;
    const auto c = akm::paired_compare(a, b, 0.1, 100, 3);
    if (!std::isfinite(c.exact_lower)) {
      EXPECT_GT(2 * std::ldexp(1.0, -n), 0.1) << n;  // even k = 1 exceeds the rate
      continue;
    }
    const int k = static_cast<int>(c.exact_lower);  // d_(k) = k here
    EXPECT_DOUBLE_EQ(c.exact_upper, n - k + 1.0);
    const boost::math::binomial law(n, 0.5);
    EXPECT_NEAR(c.exact_level, 1 - 2 * boost::math::cdf(law, k - 1), 1e-12);
    EXPECT_GE(c.exact_level, 0.9);
    EXPECT_LT(1 - 2 * boost::math::cdf(law, k), 0.9);  // k is the largest that keeps the level
  }
}

TEST(Paired, OrderStatisticsIntervalCoversTheMedian) {
  // Monte Carlo: 4000 samples of n = 15 differences ~ N(0.3, 1). Coverage must not fall
  // significantly below the exact level: one-sided at false-alarm 1e-6 on the binomial count.
  const int reps = 4000, n = 15;
  akm::Stream st(11, 0, akm::Purpose::aux);
  int covered = 0;
  double level = 0;
  for (int r = 0; r < reps; ++r) {
    std::vector<double> a(n), b(n, 0.0);
    for (auto& x : a) x = 0.3 + st.normal();
    const auto c = akm::paired_compare(a, b, 0.1, 100, r);
    covered += c.exact_lower <= 0.3 && 0.3 <= c.exact_upper;
    level = c.exact_level;
  }
  const double z = boost::math::quantile(boost::math::complement(boost::math::normal(), 1e-6));
  EXPECT_GE(covered / double(reps), level - z * std::sqrt(level * (1 - level) / reps));
}

TEST(Paired, BootstrapMatchesAPlainReimplementation) {
  std::vector<double> a{0.3, 1.2, -0.4, 0.9, 2.2, 0.1, kDiverged, 0.7}, b(8, 0.1);
  const auto c = akm::paired_compare(a, b, 0.2, 500, 42);
  // Plain: the same stream, one resample at a time, sorted medians, nearest-rank quantiles.
  const auto d = akm::paired_differences(a, b);
  akm::Stream st(42, 0, akm::Purpose::aux);
  std::vector<double> med;
  for (int r = 0; r < 500; ++r) {
    std::vector<double> s;
    for (std::size_t i = 0; i < d.size(); ++i) s.push_back(d[std::min<std::size_t>(d.size() - 1, st.uniform() * d.size())]);
    med.push_back(akm::median_of(s));
  }
  std::sort(med.begin(), med.end());
  EXPECT_EQ(c.bootstrap_lower, med[std::llround(0.1 * 499)]);
  EXPECT_EQ(c.bootstrap_upper, med[std::llround(0.9 * 499)]);
  EXPECT_LE(c.bootstrap_lower, c.median);
  EXPECT_GE(c.bootstrap_upper, c.median);
  const auto again = akm::paired_compare(a, b, 0.2, 500, 42);
  EXPECT_EQ(again.bootstrap_lower, c.bootstrap_lower);
  EXPECT_EQ(again.bootstrap_upper, c.bootstrap_upper);
}

TEST(Paired, BadInputIsRefused) {
  EXPECT_THROW(akm::paired_compare({1}, {1, 2}, 0.1, 200, 1), akm::InputError);
  EXPECT_THROW(akm::paired_compare({}, {}, 0.1, 200, 1), akm::InputError);
  EXPECT_THROW(akm::paired_compare({1}, {1}, 0.0, 200, 1), akm::InputError);
  EXPECT_THROW(akm::paired_compare({1}, {1}, 0.1, 10, 1), akm::InputError);
  EXPECT_THROW(akm::paired_compare({-kDiverged}, {1}, 0.1, 200, 1), akm::InputError);
  EXPECT_THROW(akm::sign_test_power(5, 0.05, 1.5), akm::InputError);
  EXPECT_THROW(akm::sign_test_p(-1, 2), akm::InputError);
}

}  // namespace
