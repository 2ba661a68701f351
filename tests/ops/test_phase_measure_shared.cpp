// Shared keys across a sweep: ops::phase_trials_shared_cpu — every grid point pushed by one
// key sequence per trial — held to the per-point path.
//
// (a) Same stream, same numbers: a lane of phase_trials_shared_cpu is ops::phase_trial_cpu on the shared
//     seed with the n-term sums accumulated in index order instead of SIMD partial sums. The
//     rounding model of tests/ops/test_phase_measure.cpp bounds the difference (there the engine
//     against the plain reference, whose normals also differ; here the key code is the same,
//     so that model is an upper bound): with ‖factor‖ ≤ 1 each step adds ≤ δ absolute error,
//     |Δ projection| ≤ lag·δ·√n and |Δ log‖v_T‖²| ≤ 2Tδ/‖v_T‖.
// (b) Other grids, same law: shared-key and per-point estimates from independent seeds agree in
//     distribution (z-tests, standard errors of both, family false-alarm rate 1e-6, Bonferroni).
// (c) Exact invariances: lanes never interact, so a point's numbers are bit-identical alone or
//     in any grid, for any thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "akm/check/check.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/phase_measure.hpp"
#include "akm/sim/measured_map.hpp"
#include "../rounding_bounds.hpp"

using namespace akm;

namespace {
using akm_test::kEps64;
using akm_test::phase_measure_delta;

Vec power_lambda(int n) {
  Vec l(n);
  for (int i = 0; i < n; ++i) l[i] = 1.0 / (i + 1.0);
  return l;
}

// A grid of `count` (η, β) points of norm-≤-1 factors for normalized keys (β ∈ [0.5, 0.98],
// η ≤ 2β so |β − η| ≤ β), varied lags and directions; not a multiple of the kernel's lanes.
std::vector<ops::PhasePoint> grid(int count, int n, int steps) {
  std::vector<ops::PhasePoint> g;
  for (int q = 0; q < count; ++q) {
    ops::PhasePoint p;
    p.beta = 0.5 + 0.48 * ((q * 7) % count) / double(count);
    p.eta = p.beta * (0.1 + 1.8 * ((q * 11) % count) / double(count));
    p.direction = q % n;
    p.lag = 1 + (q * 13) % std::min(steps, 25);
    g.push_back(p);
  }
  return g;
}
}  // namespace

TEST(PhaseShared, EveryLaneMatchesThePerPointEngineOnTheSharedStream) {
  struct Case {
    Key key;
    double ar, eta_scale;
    int n;
  };
  // Raw keys with small η (‖factor‖ ≤ 1 but with probability < 1e-30, tests/ops/test_phase_measure.cpp).
  const std::vector<Case> cases{{Key::normalized, 0.0, 1.0, 8},
                                {Key::normalized, 0.6, 1.0, 7},
                                {Key::raw, 0.0, 0.02, 8},
                                {Key::raw, 0.5, 0.02, 8}};
  for (const Case& c : cases) {
    phase::MeasureOptions o;
    o.key = c.key;
    o.steps = 60;
    o.ar_rho = c.ar;
    Vec sl = power_lambda(c.n).cwiseSqrt();
    auto g = grid(37, c.n, o.steps);
    for (auto& p : g) p.eta *= c.eta_scale;
    std::vector<ops::PhaseTrial> shared(g.size());
    for (std::uint64_t r = 0; r < 20; ++r) {
      ops::phase_trials_shared_cpu(sl.data(), c.n, o, g.data(), int(g.size()), 99, r, shared.data());
      for (std::size_t q = 0; q < g.size(); ++q) {
        const auto& p = g[q];
        const auto one = ops::phase_trial_cpu(sl.data(), c.n, o, p.beta, p.eta, p.direction,
                                             p.lag, 99, r);
        const double dl =
            phase_measure_delta(c.n, p.beta, p.eta, c.ar, c.key == Key::normalized ? 1.0 : (1.0 + p.beta) / p.eta);
        EXPECT_NEAR(shared[q].projection, one.projection, p.lag * dl * std::sqrt(double(c.n)))
            << "point " << q << " trial " << r;
        const double vT = std::exp(one.log_growth / 2);
        EXPECT_NEAR(shared[q].log_growth, one.log_growth, 2.0 * o.steps * dl / vT)
            << "point " << q << " trial " << r;
        EXPECT_EQ(shared[q].diverged, one.diverged);
      }
    }
  }
}

TEST(PhaseShared, ZeroStateAndDivergenceBookkeepingMatchThePerPointEngine) {
  // n = 1, normalized key k = ±1 (to one rounding): η = β sends v to 0 (log growth −∞ when
  // exactly 0); β − η = 1.1 diverges past the threshold (t ≈ 145) and renormalizes (‖v‖² >
  // 1e100, t ≈ 1208); β − η = 0.85 renormalizes from below (t ≈ 707). One-term sums: the two
  // engines differ only in how βv − η(vk)k is rounded (FMA placement), ≤ 4ε relative per step
  // (no cancellation: |β − ηk²| ≥ 0.85 ≥ (β + η)/2), so |Δ log‖v_T‖²| ≤ 2·T·4ε and
  // |Δ projection| ≤ lag·4ε·|projection| (first order).
  phase::MeasureOptions o;
  o.steps = 1500;
  const double sl = 1.0;
  std::vector<ops::PhasePoint> g{{0.5, 0.5, 0, 1, 0}, {0.1, 1.2, 0, 7, 0}, {0.1, 0.95, 0, 20, 0}};
  std::vector<ops::PhaseTrial> shared(g.size());
  for (std::uint64_t r = 0; r < 5; ++r) {
    ops::phase_trials_shared_cpu(&sl, 1, o, g.data(), int(g.size()), 5, r, shared.data());
    for (std::size_t q = 0; q < g.size(); ++q) {
      const auto one = ops::phase_trial_cpu(&sl, 1, o, g[q].beta, g[q].eta, 0, g[q].lag, 5, r);
      EXPECT_EQ(shared[q].diverged, one.diverged) << q;
      if (q == 0) {
        EXPECT_EQ(std::isinf(shared[q].log_growth), std::isinf(one.log_growth));
        continue;
      }
      EXPECT_NEAR(shared[q].log_growth, one.log_growth, 2.0 * o.steps * 4 * kEps64) << q;
      EXPECT_NEAR(shared[q].projection, one.projection, g[q].lag * 4 * kEps64 * std::abs(one.projection)) << q;
    }
    EXPECT_TRUE(shared[1].diverged);
    EXPECT_GT(shared[1].log_growth, std::log(1e100));  // renormalized on the way
    EXPECT_LT(shared[2].log_growth, std::log(1e-100));
  }
}

TEST(PhaseShared, OnePointGridGivesThePerPointNumbers) {
  const Vec lambda = power_lambda(8);
  const Vec lam_key = lambda / lambda.sum();
  for (const auto& eb : std::vector<std::pair<double, double>>{{0.3, 0.9}, {1.2, 0.5}, {0.8, 0.99}}) {
    phase::MeasureOptions o;
    o.trials = 64;
    o.steps = 80;
    o.seed = 3;
    o.keys = phase::Keys::per_point;
    const auto pp = phase::measure({eb}, lambda, lam_key, -1, o);
    o.keys = phase::Keys::shared;
    const auto sh = phase::measure({eb}, lambda, lam_key, -1, o);
    EXPECT_EQ(sh[0].lag, pp[0].lag);
    EXPECT_EQ(sh[0].direction, pp[0].direction);
    EXPECT_EQ(sh[0].diverged_fraction, pp[0].diverged_fraction);
    // A mean of per-trial projections, each within lag·δ·√n.
    EXPECT_NEAR(sh[0].mean_projection, pp[0].mean_projection,
                pp[0].lag * phase_measure_delta(8, eb.second, eb.first, 0.0, 1.0) * std::sqrt(8.0));
    EXPECT_NEAR(sh[0].growth, pp[0].growth, 1e-9 * std::abs(pp[0].growth));
  }
}

TEST(PhaseShared, AgreesInDistributionWithPerPointKeys) {
  const Vec lambda = power_lambda(6);
  const Vec lam_key = lambda / lambda.sum();
  std::vector<std::pair<double, double>> eb{{0.2, 0.9}, {0.6, 0.8}, {1.0, 0.6}, {0.4, 0.95},
                                            {1.4, 0.7}, {0.05, 0.5}};
  phase::MeasureOptions o;
  o.trials = 400;
  o.steps = 200;
  o.threads = 2;
  o.keys = phase::Keys::shared;
  o.seed = 11;
  const auto sh = phase::measure(eb, lambda, lam_key, -1, o);
  o.keys = phase::Keys::per_point;
  o.seed = 12;  // another seed: the two estimates are independent
  const auto pp = phase::measure(eb, lambda, lam_key, -1, o);
  // Two statistics per point; family false-alarm rate 1e-6 split over them (Bonferroni).
  const double z = z_two_sided(1e-6 / (2.0 * double(eb.size())));
  for (std::size_t p = 0; p < eb.size(); ++p) {
    ASSERT_EQ(sh[p].lag, pp[p].lag);
    const double se_m = std::hypot(sh[p].projection_se, pp[p].projection_se);
    EXPECT_LE(std::abs(sh[p].mean_projection - pp[p].mean_projection), z * se_m) << "point " << p;
    const double se_g = std::hypot(sh[p].growth_se, pp[p].growth_se);
    EXPECT_LE(std::abs(sh[p].growth - pp[p].growth), z * se_g) << "point " << p;
    EXPECT_GT(se_m, 0.0);
    EXPECT_GT(se_g, 0.0);
  }
}

TEST(PhaseShared, SameNumbersAloneInAnyGridAndForAnyThreadCount) {
  const Vec lambda = power_lambda(8);
  const Vec lam_key = lambda / lambda.sum();
  std::vector<std::pair<double, double>> eb;
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 7; ++j) eb.emplace_back(0.05 + 0.2 * i, 0.4 + 0.085 * j);
  phase::MeasureOptions o;
  o.trials = 24;
  o.steps = 120;
  o.keys = phase::Keys::shared;
  o.threads = 1;
  const auto one = phase::measure(eb, lambda, lam_key, -1, o);
  for (int threads : {2, 3}) {
    o.threads = threads;
    const auto many = phase::measure(eb, lambda, lam_key, -1, o);
    for (std::size_t p = 0; p < eb.size(); ++p) {
      EXPECT_EQ(many[p].mean_projection, one[p].mean_projection) << p;  // bit for bit
      EXPECT_EQ(many[p].projection_se, one[p].projection_se) << p;
      EXPECT_EQ(many[p].growth, one[p].growth) << p;
      EXPECT_EQ(many[p].growth_se, one[p].growth_se) << p;
      EXPECT_EQ(many[p].diverged_fraction, one[p].diverged_fraction) << p;
    }
  }
  o.threads = 1;
  for (std::size_t p : {std::size_t(0), std::size_t(31), eb.size() - 1}) {
    const auto alone = phase::measure({eb[p]}, lambda, lam_key, -1, o);
    EXPECT_EQ(alone[0].mean_projection, one[p].mean_projection) << p;
    EXPECT_EQ(alone[0].growth, one[p].growth) << p;
    EXPECT_EQ(alone[0].diverged_fraction, one[p].diverged_fraction) << p;
  }
}
