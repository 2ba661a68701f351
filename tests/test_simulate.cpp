// akm simulate's analysis: the measured maps against the closed forms at a declared
// false-alarm rate (and a wrong prediction refused), float against double, the options'
// refusals. The fit op's backends against its reference are tests/ops/test_fit.cpp, whose
// rounding model (fit_worst_ratio) the float-against-double check uses.
#include <gtest/gtest.h>

#include "akm/theory/phase.hpp"

#include <cmath>

#include "akm/sim/cuda.hpp"
#include "akm/base/errors.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/app/simulate.hpp"
#include "akm/sim/ops/fit.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "rounding_bounds.hpp"

using namespace akm;
using engine::Precision;

namespace {
using akm_test::kC;
using akm_test::kEps32;
using akm_test::fit_worst_ratio;  // the bound of tests/ops/test_fit.cpp's model

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

}  // namespace

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
  const ops::Fit w = simulate::make_fit(o, s);
  const auto g = ops::fit(w, o.seed, Backend::cpu, {Precision::f64, 2});
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
  const ops::Fit w = simulate::make_fit(o, s);
  const auto d = ops::fit(w, o.seed, Backend::cpu, {Precision::f64, 2});
  const auto f = ops::fit(w, o.seed, Backend::cpu, {Precision::f32, 2});
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
  bad.backend = Backend::cuda;  // refused unless built with CUDA and a device is there
  std::string why;
  if (!cuda::built() || cuda::device_name(&why).empty()) {
    EXPECT_TRUE(refused(bad));
  }
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
