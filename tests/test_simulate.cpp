// akm simulate's workload and analysis: the fast engine held to the plain reference, thread
// count independence, the measured maps against the closed forms at a declared false-alarm
// rate (and a wrong prediction refused), float against double.
//
// Rounding model (as tests/test_engine.cpp). ε = 2⁻⁵³ or 2⁻²⁴; a length-n dot product is
// reordered/fused by the engine, off by ≤ c·n·ε relative to the sum of |terms| (c = 4); the
// float normals are the double ones rounded, off by ≤ 4e-4 (worst case u → 1). The state's
// maps contract (β̃, β < 1 and small α), so per-step errors add at most linearly: after t
// steps the state is off by ≤ t·δ·S^{1/2}, δ = c·n·ε (+ 4e-4 in float) and S = 1 + Σ_i
// Σ_t (e_{t,i}² + μ_{t,i}²) (squared size of the whole trajectory, every direction: a
// rounding in a dot product moves every direction). A moment Σ_t a_t b_t is then off by
// ≤ 2·T·δ·S, and e_T by ≤ T·δ·S^{1/2}.
#include <gtest/gtest.h>

#include "akm/theory/phase.hpp"

#include <cmath>

#include "akm/sim/cuda.hpp"
#include "akm/base/errors.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/app/simulate.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/sim/workloads.hpp"
#include "rounding_bounds.hpp"

using namespace akm;
using engine::Precision;

namespace {
using akm_test::kC;
using akm_test::kEps32;
using akm_test::kEps64;
using akm_test::fit_worst_ratio;  // the bound of the model above

simulate::Options options(Key key, double eta, double alpha, long long trials, int steps) {
  simulate::Options o;
  o.key = key;
  o.eta = eta;
  o.alpha = alpha;
  o.trials = trials;
  o.steps = steps;
  o.seed = 20261122;
  o.threads = 2;
  return o;
}

wl::Fit small_fit(bool normalized) {
  const Spectrum s = parse_spectrum("spiked:n=8,spikes=4/2,floor=0.5");
  simulate::Options o = options(normalized ? Key::normalized : Key::raw, normalized ? 0.5 : 0.1,
                                0.05, 100, 120);
  wl::Fit w = simulate::make_fit(o, s);
  w.trials = 24;  // the plain reference is slow: a few trials in 6 groups
  w.groups = 6;
  return w;
}

}  // namespace

TEST(Simulate, EngineMatchesReference) {
  for (bool normalized : {true, false}) {
    const wl::Fit w = small_fit(normalized);
    const auto ref = wl::fit_reference(w, 7, 1);
    const auto d = engine::fit(w, 7, 2, Precision::f64);
    const auto f = engine::fit(w, 7, 2, Precision::f32);
    ASSERT_EQ(d.values.size(), ref.values.size());
    const double r64 = fit_worst_ratio(w, ref, d, kC * w.n() * kEps64);
    const double r32 = fit_worst_ratio(w, ref, f, kC * w.n() * kEps32 + 4e-4);
    RecordProperty(normalized ? "normalized_f64_ratio" : "raw_f64_ratio", std::to_string(r64));
    RecordProperty(normalized ? "normalized_f32_ratio" : "raw_f32_ratio", std::to_string(r32));
    EXPECT_LE(r64, 1.0) << (normalized ? "normalized" : "raw");
    EXPECT_LE(r32, 1.0) << (normalized ? "normalized" : "raw");
  }
}

TEST(Simulate, ReferenceAndEngineAreThreadCountIndependent) {
  const wl::Fit w = small_fit(true);
  EXPECT_EQ(wl::fit_reference(w, 3, 1).values, wl::fit_reference(w, 3, 2).values);
  for (Precision p : {Precision::f64, Precision::f32}) {
    const auto one = engine::fit(w, 3, 1, p);
    EXPECT_EQ(one.values, engine::fit(w, 3, 2, p).values);
    EXPECT_EQ(one.values, engine::fit(w, 3, 3, p).values);
  }
}

// Family false-alarm rate 1e-6 per run (Bonferroni over its 6n checks), two runs here: the
// test fails by chance with probability ≤ 2e-6.
TEST(Simulate, MeasuredMapsAgreeWithClosedForms) {
  struct Case {
    const char* spec;
    Key key;
    double eta, alpha;
  };
  for (const Case& c : {Case{"power:n=16,exp=1", Key::normalized, 0.5, 0.1},
                        Case{"spiked:n=8,spikes=4/2,floor=0.5", Key::raw, 0.1, 0.03}}) {
    const Spectrum s = parse_spectrum(c.spec);
    const simulate::Options o = options(c.key, c.eta, c.alpha, 4000, 200);
    const simulate::Result r = simulate::run(o, s);
    EXPECT_TRUE(r.finite) << c.spec;
    EXPECT_TRUE(r.warnings.empty()) << c.spec;  // inside the mean-square rule of thumb
    EXPECT_EQ(r.checks.size(), std::size_t(6 * s.n()));
    for (const auto& rec : r.checks.records())
      EXPECT_TRUE(rec.pass) << c.spec << " " << rec.name << ": predicted " << rec.predicted
                            << " measured " << rec.measured << " ± " << rec.stderr_measured;
  }
}

// The same data judged against the closed forms of another η must fail: the checks can see
// a 10% error in η at this size (the standard errors are ~1% of β̃ − β).
TEST(Simulate, WrongPredictionIsRefused) {
  const Spectrum s = parse_spectrum("power:n=16,exp=1");
  const simulate::Options o = options(Key::normalized, 0.5, 0.1, 4000, 200);
  const wl::Fit w = simulate::make_fit(o, s);
  const auto g = engine::fit(w, o.seed, 2, Precision::f64);
  const auto wrong = make_theory_report({o.beta, 0.55, o.alpha, o.key}, s);
  const simulate::Result r = simulate::analyze(o, w, wrong, g);
  int failed = 0;
  for (const auto& rec : r.checks.records()) failed += rec.pass ? 0 : 1;
  EXPECT_GT(failed, 0);
  EXPECT_FALSE(r.checks.all_pass());
}

TEST(Simulate, FloatAgreesWithDoubleWithinItsErrorAnalysis) {
  const Spectrum s = parse_spectrum("power:n=16,exp=1");
  simulate::Options o = options(Key::normalized, 0.5, 0.1, 400, 100);
  const wl::Fit w = simulate::make_fit(o, s);
  const auto d = engine::fit(w, o.seed, 2, Precision::f64);
  const auto f = engine::fit(w, o.seed, 2, Precision::f32);
  EXPECT_LE(fit_worst_ratio(w, d, f, kC * w.n() * kEps32 + 4e-4), 1.0);
  // And the float run is judged with its own rounding allowance: it passes too.
  o.precision = Precision::f32;
  const auto th = make_theory_report({o.beta, o.eta, o.alpha, o.key}, s);
  EXPECT_TRUE(simulate::analyze(o, w, th, f).checks.all_pass());
}

TEST(Simulate, ValidateRefusesBadOptions) {
  const Spectrum s = parse_spectrum("spiked:n=8,spikes=4/2,floor=0.5");
  auto refused = [&](simulate::Options o) {
    try {
      simulate::validate(o, s);
    } catch (const InputError&) {
      return true;
    }
    return false;
  };
  simulate::Options ok = options(Key::normalized, 0.5, 0.1, 100, 10);
  EXPECT_FALSE(refused(ok));
  auto bad = ok;
  bad.eta = 1.95;  // ≥ 1 + β
  EXPECT_TRUE(refused(bad));
  bad = ok;
  bad.key = Key::raw;
  bad.eta = 0.5;  // η·λ_max = 2 ≥ 1.9
  EXPECT_TRUE(refused(bad));
  bad = ok;
  bad.key = Key::raw;
  bad.eta = 0.2;  // contracts in expectation (0.8 < 1.9) but not in mean square (radius 1.47)
  EXPECT_TRUE(refused(bad));
  bad.eta = 0.1;
  EXPECT_FALSE(refused(bad));
  bad = ok;
  bad.trials = 99;
  EXPECT_TRUE(refused(bad));
  bad = ok;
  bad.sigma = -1;
  EXPECT_TRUE(refused(bad));
  bad = ok;
  bad.steps = 0;
  EXPECT_TRUE(refused(bad));
  bad = ok;
  bad.backend = simulate::Backend::cuda;  // refused unless built with CUDA and a device is there
  std::string why;
  if (!cuda::built() || cuda::device_name(&why).empty()) {
    EXPECT_TRUE(refused(bad));
  }
}

TEST(Simulate, CudaMatchesCpuFloat) {
  std::string why;
  if (!cuda::built()) GTEST_SKIP() << "built without CUDA";
  if (cuda::device_name(&why).empty()) GTEST_SKIP() << "no CUDA device: " << why;
  const wl::Fit w = small_fit(true);
  const auto cpu = engine::fit(w, 11, 2, Precision::f32);
  const auto gpu = cuda::fit(w, 11);
  ASSERT_EQ(cpu.values.size(), gpu.values.size());
  // Both float: each off the exact trajectory by the float model, so by twice it from each other.
  EXPECT_LE(fit_worst_ratio(w, cpu, gpu, 2 * (kC * w.n() * kEps32 + 4e-4)), 1.0);
}

// The raw transport's second-moment radius against a direct iteration of E[F V F] on the
// diagonal of V (Gaussian moments), and against the one-direction closed form.
TEST(Simulate, RawSecondMomentRadius) {
  Vec lam(3);
  lam << 4, 2, 0.5;
  const double beta = 0.9, eta = 0.15;
  Vec V = Vec::Ones(3);
  double growth = 0;
  for (int k = 0; k < 4000; ++k) {
    const double tr = lam.dot(V);
    Vec W(3);
    for (int i = 0; i < 3; ++i) {
      const double b = beta - eta * lam[i];
      W[i] = (b * b + eta * eta * lam[i] * lam[i]) * V[i] + eta * eta * lam[i] * tr;
    }
    growth = W.sum() / V.sum();
    V = W / W.sum();
  }
  EXPECT_NEAR(phase::ms_radius_raw(lam, beta, eta), growth, 1e-9);
  Vec one(1);
  one << 2.0;  // n = 1: (β − ηλ)² + 2η²λ² (E z⁴ = 3)
  EXPECT_NEAR(phase::ms_radius_raw(one, beta, eta),
              std::pow(beta - eta * 2, 2) + 2 * eta * eta * 4, 1e-12);
}
