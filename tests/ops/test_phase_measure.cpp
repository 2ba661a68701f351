// The phase_measure op (`akm phase --measure`) on every backend held to its plain reference
// (ops::phase_trial_reference) trial by trial: the fast CPU engine (ops::phase_trial_cpu, the
// default), the CUDA trial body run on the host over the kernel's grids (docs/cuda.md), and —
// with a GPU — the device against the reference and against its emulation. The shared-key cpu
// path is tests/ops/test_phase_measure_shared.cpp.
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

#include "akm/random/random.hpp"
#include "akm/sim/ops/phase_measure.hpp"
#include "akm/sim/measured_map.hpp"
#include "support.hpp"

using namespace akm;

namespace {
struct Case {
  Key key;
  double beta, eta, ar;
  int n;
};

double delta(const Case& c, double key_norm2) {
  return akm_test::phase_measure_delta(c.n, c.beta, c.eta, c.ar, key_norm2);
}

Vec power_sqrt(int n) {
  Vec l(n);
  for (int i = 0; i < n; ++i) l[i] = std::sqrt(1.0 / (i + 1.0));
  return l;
}
}  // namespace

TEST(PhaseMeasure, CpuTrialMatchesReferenceTrial) {
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
      const auto ref = ops::phase_trial_reference(sl, o, c.beta, c.eta, d, lag, keys);
      const auto fast = ops::phase_trial_cpu(sl.data(), c.n, o, c.beta, c.eta, d, lag, 99, r);
      EXPECT_NEAR(fast.projection, ref.projection, lag * dl * std::sqrt(double(c.n)))
          << "case β=" << c.beta << " η=" << c.eta << " trial " << r;
      const double vT = std::exp(ref.log_growth / 2);
      EXPECT_NEAR(fast.log_growth, ref.log_growth, 2.0 * o.steps * dl / vT) << "trial " << r;
      EXPECT_EQ(fast.diverged, ref.diverged);
    }
  }
}

TEST(PhaseMeasure, MeasureOnTheCpuEqualsTheReferenceAndIsThreadIndependent) {
  std::vector<std::pair<double, double>> eb{{0.3, 0.9}, {1.2, 0.5}, {0.8, 0.99}};
  Vec lambda(8);
  for (int i = 0; i < 8; ++i) lambda[i] = 1.0 / (i + 1.0);
  phase::MeasureOptions o;
  o.trials = 64;
  o.steps = 80;
  o.seed = 3;
  o.threads = 1;
  o.backend = Backend::reference;
  const Vec lam_key = lambda / lambda.sum();  // any per-direction rate: it only picks d and lag
  const auto t0 = std::chrono::steady_clock::now();
  const auto ref = phase::measure(eb, lambda, lam_key, -1, o);
  const auto t1 = std::chrono::steady_clock::now();
  o.backend = Backend::cpu;
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

TEST(PhaseMeasure, CudaMatchesReference) {
  std::string why;
  if (!cuda::built()) GTEST_SKIP() << "built without CUDA";
  if (cuda::device_name(&why).empty()) GTEST_SKIP() << "no CUDA device: " << why;
  std::vector<std::pair<double, double>> eb{{0.3, 0.9}, {1.2, 0.5}};
  Vec lambda(8);
  for (int i = 0; i < 8; ++i) lambda[i] = 1.0 / (i + 1.0);
  phase::MeasureOptions o;
  o.trials = 64;
  o.steps = 80;
  o.backend = Backend::reference;
  const auto ref = phase::measure(eb, lambda, lambda, -1, o);
  o.backend = Backend::cuda;
  const auto gpu = phase::measure(eb, lambda, lambda, -1, o);
  for (std::size_t p = 0; p < eb.size(); ++p) {
    const Case c{Key::normalized, eb[p].second, eb[p].first, 0.0, 8};
    EXPECT_NEAR(gpu[p].mean_projection, ref[p].mean_projection, ref[p].lag * delta(c, 1.0) * std::sqrt(8.0));
    EXPECT_EQ(gpu[p].diverged_fraction, ref[p].diverged_fraction);
  }
}

// The emulated device: the per-step error δ of the model above (factors of
// norm ≤ 1: errors never grow); the trials are double with the normals bit for bit akm::Stream's.
TEST(PhaseMeasure, CudaEmulatedMatchesReferenceTrialByTrial) {
  const int n = 8;
  Vec sl(n);
  for (int i = 0; i < n; ++i) sl[i] = std::sqrt(1.0 / (i + 1.0));
  const std::vector<double> sl_v(sl.data(), sl.data() + n);
  struct Case {
    Key key;
    double ar;
  };
  for (const Case c : {Case{Key::normalized, 0.0}, Case{Key::normalized, 0.6}, Case{Key::raw, 0.5}}) {
    ops::PhaseMeasure o;
    o.key = c.key;
    o.ar_rho = c.ar;
    o.trials = 20;
    o.steps = 60;
    const double eta = c.key == Key::raw ? 0.02 : 0.5;
    const std::vector<ops::PhasePoint> plan{{eta, 0.9, 0, 10, 99}, {eta, 0.5, 3, 4, 1234}};
    const auto e = ops::phase_measure(o, sl_v, plan, Backend::cuda_emulated, {.threads = 2});
    ASSERT_EQ(e.size(), plan.size() * std::size_t(o.trials));
    for (std::size_t p = 0; p < plan.size(); ++p) {
      const double kn = c.key == Key::normalized ? 1.0 : (1.0 + plan[p].beta) / plan[p].eta;
      const double dl = akm_test::phase_measure_delta(n, plan[p].beta, plan[p].eta, c.ar, kn);
      for (long long r = 0; r < o.trials; ++r) {
        Stream keys(plan[p].seed, std::uint64_t(r), Purpose::keys);
        const auto ref = ops::phase_trial_reference(sl, o, plan[p].beta, plan[p].eta, plan[p].direction, plan[p].lag, keys);
        const auto& t = e[p * std::size_t(o.trials) + std::size_t(r)];
        EXPECT_NEAR(t.projection, ref.projection, plan[p].lag * dl * std::sqrt(double(n))) << p << "/" << r;
        const double vT = std::exp(ref.log_growth / 2);
        EXPECT_NEAR(t.log_growth, ref.log_growth, 2.0 * o.steps * dl / vT) << p << "/" << r;
        EXPECT_EQ(t.diverged, ref.diverged) << p << "/" << r;
      }
    }
  }
}

// The device against its emulation: double, so the device's log/exp/sin/cos within a few ulps
// of the host's, inside the per-step δ above (ρ = 0, normalized keys, factors of norm ≤ 1).
TEST(PhaseMeasure, CudaMatchesEmulation) {
  REQUIRE_GPU();
  ops::PhaseMeasure o;
  o.trials = 150;
  o.steps = 80;
  const std::vector<double> sl{1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1};
  const std::vector<ops::PhasePoint> plan{{0.5, 0.9, 0, 10, 99}, {1.2, 0.5, 3, 4, 7}};
  const auto pe = ops::phase_measure(o, sl, plan, Backend::cuda_emulated, {.threads = 1});
  const auto pg = ops::phase_measure(o, sl, plan, Backend::cuda);
  ASSERT_EQ(pe.size(), pg.size());
  for (std::size_t r = 0; r < pe.size(); ++r) {
    const auto& pt = plan[r / std::size_t(o.trials)];
    const double dl = akm_test::phase_measure_delta(8, pt.beta, pt.eta, 0.0, 1.0);
    EXPECT_NEAR(pe[r].projection, pg[r].projection, pt.lag * dl * std::sqrt(8.0)) << r;
    EXPECT_NEAR(pe[r].log_growth, pg[r].log_growth, 2.0 * o.steps * dl / std::exp(pe[r].log_growth / 2)) << r;
    EXPECT_EQ(pe[r].diverged, pg[r].diverged) << r;
  }
}
