// The trend of a loss over a grid (akm/check/trend.hpp): the least-squares rise against a
// plain re-implementation and exact lines, the divergence rule as the limit of growing
// losses, the exceedance probability against Boost's normal law, and the trend sign check's
// design power against a simulation of the check itself.
#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>
#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/check/paired.hpp"
#include "akm/check/trend.hpp"
#include "akm/random/random.hpp"

namespace {

constexpr double kDivergedRun = std::numeric_limits<double>::infinity();
const std::vector<double> kBasin{0.1, 0.3, 0.5, 0.7, 0.99};

// The textbook slope (nΣxy − ΣxΣy)/(nΣx² − (Σx)²), times the span.
double plain_rise(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, lo = x[0], hi = x[0];
  const double n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
    lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx) * (hi - lo);
}

TEST(Trend, RiseOfALineIsItsChangeAcrossTheGrid) {
  for (double b : {-2.0, 0.0, 0.37, 5.0}) {
    std::vector<double> y;
    for (double x : kBasin) y.push_back(1.5 + b * x);
    EXPECT_NEAR(akm::least_squares_rise(kBasin, y), b * (0.99 - 0.1), 1e-12);
  }
}

TEST(Trend, RiseMatchesAPlainLeastSquaresFit) {
  akm::Stream rng(11, 0);
  for (int rep = 0; rep < 200; ++rep) {
    const int n = 2 + rep % 7;
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = rng.normal(), y[i] = 3.0 + rng.normal();
    const double ref = plain_rise(x, y);
    EXPECT_NEAR(akm::least_squares_rise(x, y), ref, 1e-9 * std::max(1.0, std::abs(ref))) << rep;
  }
}

TEST(Trend, DivergenceIsTheLimitOfAGrowingLoss) {
  const std::vector<double> base{0.05, 0.04, 0.04, 0.05, 0.06};
  for (std::size_t at = 0; at < kBasin.size(); ++at) {
    std::vector<double> div = base, big = base;
    div[at] = kDivergedRun;
    big[at] = 1e12;
    const double limit = akm::least_squares_rise(kBasin, div), finite = akm::least_squares_rise(kBasin, big);
    EXPECT_TRUE(std::isinf(limit)) << at;
    EXPECT_EQ(std::signbit(limit), std::signbit(finite)) << at;  // the grid's mean is 0.518: no point at it
    div[at] = std::nan("");
    EXPECT_EQ(akm::least_squares_rise(kBasin, div), limit) << at;
  }
  // Diverged at both ends of a symmetric grid, or everywhere: the levers cancel, a tie.
  EXPECT_EQ(akm::least_squares_rise({0, 1, 2}, {kDivergedRun, 0.3, kDivergedRun}), 0.0);
  EXPECT_EQ(akm::least_squares_rise({0, 1, 2}, {1.0, kDivergedRun, 2.0}), 0.0);
  EXPECT_EQ(akm::least_squares_rise(kBasin, std::vector<double>(5, kDivergedRun)), 0.0);
  EXPECT_EQ(akm::least_squares_rise(kBasin, {1, 1, 1, 1, kDivergedRun}), kDivergedRun);
  EXPECT_EQ(akm::least_squares_rise(kBasin, {kDivergedRun, 1, 1, 1, 1}), -kDivergedRun);
}

TEST(Trend, ExceedProbabilityIsTheNormalTail) {
  const boost::math::normal z;
  for (double mean : {-1.0, 0.0, 0.4, 2.16})
    for (double sd : {0.01, 0.3, 1.0, 4.0})
      for (double t : {0.0, 1.0}) {
        const double ref = boost::math::cdf(boost::math::complement(z, (t - mean) / sd));
        EXPECT_NEAR(akm::exceed_probability(mean, sd, t), ref, 1e-14) << mean << " " << sd << " " << t;
      }
  EXPECT_EQ(akm::exceed_probability(2.0, 0.0, 1.0), 1.0);
  EXPECT_EQ(akm::exceed_probability(1.0, 0.0, 1.0), 0.5);
  EXPECT_EQ(akm::exceed_probability(0.0, 0.0, 1.0), 0.0);
  EXPECT_EQ(akm::exceed_probability(0.0, kDivergedRun, 1.0), 0.5);
}

// The design promise of the trend sign check: with rises N(A, σ²) on n seeds, the check
// ("rise below one margin", failing when significantly many seeds exceed it) fails with
// probability sign_test_power(n, level, exceed_probability(A, σ, 1)).
TEST(Trend, SignCheckPowerHoldsInSimulation) {
  akm::Stream rng(29, 0);
  const int n = 12, reps = 20000;
  const double level = 0.05;
  for (double A : {1.0, 1.5, 2.16}) {
    const double sd = 0.8, p = akm::exceed_probability(A, sd, 1.0);
    int fails = 0;
    for (int r = 0; r < reps; ++r) {
      int above = 0, below = 0;
      for (int s = 0; s < n; ++s) {
        std::vector<double> y;
        const double rise = A + sd * rng.normal();
        for (double x : kBasin) y.push_back(0.2 + rise * (x - 0.1) / 0.89);
        const double got = akm::least_squares_rise(kBasin, y);
        above += got > 1.0, below += got < 1.0;
      }
      fails += akm::sign_test_p(above, below) <= level && above > below;
    }
    // The check's one-sided failure probability by enumeration of the binomial law; the
    // design's sign_test_power counts rejections either way, which differs only by the other
    // way's (at p ≥ 0.7 here, below 1e-3).
    double want = 0;
    for (int k = 0; k <= n; ++k)
      if (akm::sign_test_p(k, n - k) <= level && k > n - k)
        want += std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0)) * std::pow(p, k) *
                std::pow(1 - p, n - k);
    const double rate = fails / double(reps);
    EXPECT_NEAR(rate, want, 5 * std::sqrt(want * (1 - want) / reps) + 1e-4) << A;
    if (A > 1.0) {
      EXPECT_NEAR(akm::sign_test_power(n, level, p), want, 1e-3) << A;
    }
  }
}

TEST(Trend, BadInputIsRefused) {
  EXPECT_THROW(akm::least_squares_rise({0.1}, {1.0}), akm::InputError);
  EXPECT_THROW(akm::least_squares_rise({0.1, 0.2}, {1.0}), akm::InputError);
  EXPECT_THROW(akm::least_squares_rise({0.3, 0.3}, {1.0, 2.0}), akm::InputError);
  EXPECT_THROW(akm::least_squares_rise({0.1, kDivergedRun}, {1.0, 2.0}), akm::InputError);
  EXPECT_THROW(akm::least_squares_rise({0.1, 0.2}, {-kDivergedRun, 2.0}), akm::InputError);
  EXPECT_THROW(akm::exceed_probability(kDivergedRun, 1.0, 1.0), akm::InputError);
  EXPECT_THROW(akm::exceed_probability(0.0, -1.0, 1.0), akm::InputError);
  EXPECT_THROW(akm::exceed_probability(0.0, 1.0, std::nan("")), akm::InputError);
}

}  // namespace
