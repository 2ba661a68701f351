// `akm phase --measure` backends: the fast CPU engine (engine::phase_trial, the default) and
// the CUDA device held to the plain reference (phase::measure_trial) trial by trial.
//
// Rounding model. The engine reorders the n-term sums (≤ c·n·ε relative to Σ|terms|, c = 4)
// and draws normals with libmvec (≤ 160ε(1+|z|), tests/test_engine.cpp); an AR(1) key keeps
// a past normal's error with weight ρ^k, so ≤ 160ε/(1−ρ) in all. With ‖k‖ = 1 (normalized)
// or η‖x‖² ≤ 1+β (raw, small η here: ‖x‖² would have to exceed 95 for n = 8, tr Σ ≈ 2.7,
// probability < 1e-30 per draw) the factors βI − ηkkᵀ have norm ≤ 1 and ‖v_t‖ ≤ ‖v_0‖ = 1,
// so each step adds an absolute error ≤ δ = (c·n + 160/(1−ρ))·ε·(1 + β + η‖k‖²) and errors
// never grow: |Δv_t| ≤ t·δ. Hence |Δ projection| ≤ lag·δ/v₀_d (v₀_d = 1/√n) and
// |Δ log‖v_T‖²| ≤ 2Tδ/‖v_T‖ (first order, Tδ ≪ ‖v_T‖).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "akm/sim/cuda.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/phase_measure.hpp"
#include "akm/random/random.hpp"

using namespace akm;

namespace {
constexpr double kEps = 1.1102230246251565e-16, kC = 4.0;

struct Case {
  Key key;
  double beta, eta, ar;
  int n;
};

double delta(const Case& c, double key_norm2) {
  return (kC * c.n + 160.0 / (1.0 - c.ar)) * kEps * (1.0 + c.beta + c.eta * key_norm2);
}

Vec power_sqrt(int n) {
  Vec l(n);
  for (int i = 0; i < n; ++i) l[i] = std::sqrt(1.0 / (i + 1.0));
  return l;
}
}  // namespace

TEST(PhaseEngine, FastTrialMatchesReferenceTrial) {
  const std::vector<Case> cases{{Key::normalized, 0.9, 0.5, 0.0, 8},
                                {Key::normalized, 0.5, 1.4, 0.0, 8},
                                {Key::normalized, 0.95, 0.3, 0.6, 7},  // odd n: scalar draws
                                {Key::raw, 0.9, 0.02, 0.0, 8},
                                {Key::raw, 0.8, 0.02, 0.5, 8}};
  for (const Case& c : cases) {
    phase::MeasureOptions o;
    o.key = c.key;
    o.steps = 60;
    o.ar_rho = c.ar;
    const Vec sl = power_sqrt(c.n);
    const int d = 0, lag = 10;
    const double dl = delta(c, c.key == Key::normalized ? 1.0 : (1.0 + c.beta) / c.eta);
    for (std::uint64_t r = 0; r < 40; ++r) {
      Stream keys(99, r, Purpose::keys);
      const auto ref = phase::measure_trial(sl, o, c.beta, c.eta, d, lag, keys);
      const auto fast = engine::phase_trial(sl.data(), c.n, o, c.beta, c.eta, d, lag, 99, r);
      EXPECT_NEAR(fast.projection, ref.projection, lag * dl * std::sqrt(double(c.n)))
          << "case β=" << c.beta << " η=" << c.eta << " trial " << r;
      const double vT = std::exp(ref.log_growth / 2);
      EXPECT_NEAR(fast.log_growth, ref.log_growth, 2.0 * o.steps * dl / vT) << "trial " << r;
      EXPECT_EQ(fast.diverged, ref.diverged);
    }
  }
}

TEST(PhaseEngine, MeasureOnTheEngineEqualsTheReferenceAndIsThreadIndependent) {
  std::vector<std::pair<double, double>> eb{{0.3, 0.9}, {1.2, 0.5}, {0.8, 0.99}};
  Vec lambda(8);
  for (int i = 0; i < 8; ++i) lambda[i] = 1.0 / (i + 1.0);
  phase::MeasureOptions o;
  o.trials = 64;
  o.steps = 80;
  o.seed = 3;
  o.threads = 1;
  o.backend = phase::Backend::reference;
  const Vec lam_key = lambda / lambda.sum();  // any per-direction rate: it only picks d and lag
  const auto t0 = std::chrono::steady_clock::now();
  const auto ref = phase::measure(eb, lambda, lam_key, -1, o);
  const auto t1 = std::chrono::steady_clock::now();
  o.backend = phase::Backend::cpu;
  const auto fast = phase::measure(eb, lambda, lam_key, -1, o);
  const auto t2 = std::chrono::steady_clock::now();
  RecordProperty("engine_speedup",
                 std::to_string(std::chrono::duration<double>(t1 - t0).count() /
                                std::chrono::duration<double>(t2 - t1).count()));
  o.threads = 2;
  const auto fast2 = phase::measure(eb, lambda, lam_key, -1, o);
  for (std::size_t p = 0; p < eb.size(); ++p) {
    const Case c{Key::normalized, eb[p].second, eb[p].first, 0.0, 8};
    // A mean of per-trial projections each within lag·δ·√n.
    EXPECT_NEAR(fast[p].mean_projection, ref[p].mean_projection, ref[p].lag * delta(c, 1.0) * std::sqrt(8.0));
    EXPECT_EQ(fast[p].diverged_fraction, ref[p].diverged_fraction);
    EXPECT_EQ(fast[p].lag, ref[p].lag);
    EXPECT_EQ(fast[p].direction, ref[p].direction);
    EXPECT_EQ(fast2[p].mean_projection, fast[p].mean_projection);  // bit for bit
    EXPECT_EQ(fast2[p].growth, fast[p].growth);
  }
}

TEST(PhaseEngine, CudaMatchesReference) {
  std::string why;
  if (!cuda::built()) GTEST_SKIP() << "built without CUDA";
  if (cuda::device_name(&why).empty()) GTEST_SKIP() << "no CUDA device: " << why;
  std::vector<std::pair<double, double>> eb{{0.3, 0.9}, {1.2, 0.5}};
  Vec lambda(8);
  for (int i = 0; i < 8; ++i) lambda[i] = 1.0 / (i + 1.0);
  phase::MeasureOptions o;
  o.trials = 64;
  o.steps = 80;
  o.backend = phase::Backend::reference;
  const auto ref = phase::measure(eb, lambda, lambda, -1, o);
  o.backend = phase::Backend::cuda;
  const auto gpu = phase::measure(eb, lambda, lambda, -1, o);
  for (std::size_t p = 0; p < eb.size(); ++p) {
    const Case c{Key::normalized, eb[p].second, eb[p].first, 0.0, 8};
    EXPECT_NEAR(gpu[p].mean_projection, ref[p].mean_projection, ref[p].lag * delta(c, 1.0) * std::sqrt(8.0));
    EXPECT_EQ(gpu[p].diverged_fraction, ref[p].diverged_fraction);
  }
}
