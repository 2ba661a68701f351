// Closed forms of the drifting target (akm/theory/drift.hpp) against the plain recursion.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "akm/theory/drift.hpp"
#include "akm/base/errors.hpp"

namespace th = akm::theory;

TEST(Drift, ClosedFormEqualsRecursion) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> b_of(-0.95, 0.99), v_of(-10.0, 10.0);
  for (int rep = 0; rep < 200; ++rep) {
    const double b = b_of(gen), d = v_of(gen), e0 = v_of(gen);
    for (long long t : {0LL, 1LL, 2LL, 7LL, 50LL, 400LL}) {
      const double ref = th::drift_mean_error_by_recursion(b, d, e0, t);
      EXPECT_NEAR(th::drift_mean_error(b, d, e0, t), ref, 1e-11 * (1 + std::abs(ref)))
          << "b=" << b << " t=" << t;
    }
  }
}

TEST(Drift, SteadyErrorIsTheFixedPointAndTheLimit) {
  for (double b : {0.0, 0.3, 0.9, 0.99, -0.5}) {
    const double e = th::drift_steady_error(b, 2.0);
    EXPECT_NEAR(b * (e - 2.0), e, 1e-12);  // fixed point of e ← b(e − Δ)
    EXPECT_NEAR(th::drift_mean_error_by_recursion(b, 2.0, 5.0, 5000), e, 1e-9);
  }
  // prop:nc1: −e_∞ = bΔ/(1−b), the lag per unit drift b/(1−b).
  EXPECT_NEAR(-th::drift_steady_error(0.9, 1.0), 9.0, 1e-12);
}

TEST(Drift, WindowMeanEqualsSummedRecursion) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> b_of(-0.9, 0.98), v_of(-5.0, 5.0);
  for (int rep = 0; rep < 100; ++rep) {
    const double b = b_of(gen), d = v_of(gen), e0 = v_of(gen);
    for (auto [t1, t2] : {std::pair{0LL, 0LL}, {1LL, 10LL}, {100LL, 139LL}, {3LL, 3LL}}) {
      double sum = 0;
      for (long long t = t1; t <= t2; ++t) sum += th::drift_mean_error_by_recursion(b, d, e0, t);
      const double ref = sum / static_cast<double>(t2 - t1 + 1);
      EXPECT_NEAR(th::drift_window_mean(b, d, e0, t1, t2), ref, 1e-11 * (1 + std::abs(ref)));
    }
  }
}

TEST(Drift, BadInputIsRefused) {
  EXPECT_THROW(th::drift_steady_error(1.0, 1.0), akm::InputError);
  EXPECT_THROW(th::drift_steady_error(-1.2, 1.0), akm::InputError);
  EXPECT_THROW(th::drift_steady_error(NAN, 1.0), akm::InputError);
  EXPECT_THROW(th::drift_mean_error(0.5, 1.0, 0.0, -1), akm::InputError);
  EXPECT_THROW(th::drift_mean_error(0.5, INFINITY, 0.0, 3), akm::InputError);
  EXPECT_THROW(th::drift_window_mean(0.5, 1.0, 0.0, 5, 4), akm::InputError);
  EXPECT_THROW(th::drift_mean_error_by_recursion(0.5, 1.0, NAN, 2), akm::InputError);
}
