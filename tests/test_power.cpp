// The checks have power: the same simulation that passes against the paper's prediction
// fails when a deliberately wrong prediction is fed in (β for β̃, raw λ for λ̂, a missing
// transient factor). Each case uses the experiments' own kernels and tolerances.
#include <gtest/gtest.h>

#include "akm/check/check.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/sim/sim.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/theory.hpp"

using namespace akm;

namespace {

constexpr double kTransportBeta = 0.9, kTransportEta = 0.5;
constexpr int kPowerLag = 5;

struct Transport {
  Spectrum s = parse_spectrum("spiked:n=16,spikes=30/10/3,floor=0.5");
  KeyMoments mom = gaussian_key_moments(s.lambda);
  Vec mean, se;
  Transport() {
    const int n = s.n();
    const Vec sl = s.lambda.cwiseSqrt();
    McOptions o;
    o.trials = 3000;
    const auto r = monte_carlo(o, static_cast<std::size_t>(n), [&](long long trial, double* out) {
      Stream st(99, trial);
      Mat P = Mat::Identity(n, n);
      Vec x(n), k(n), tmp(n);
      for (int t = 0; t < kPowerLag; ++t) {
        kern::gaussian_key(st, sl, x);
        kern::key_for(Key::normalized, x, k);
        kern::transport_step(P, k, kTransportBeta, kTransportEta, tmp);
      }
      for (int i = 0; i < n; ++i) out[i] = P(i, i);
    });
    mean = r.total.mean();
    se = r.total.stderr_mean();
  }
  // Verdict of the family of per-direction checks against `pred(i)`.
  template <class F>
  bool verdict(F pred) const {
    Checks c(1e-6);
    for (int i = 0; i < s.n(); ++i) c.mc("u" + std::to_string(i), pred(i), mean[i], se[i]);
    c.finalize();
    return c.all_pass();
  }
};

const Transport& sim() {
  static const Transport t;
  return t;
}

}  // namespace

TEST(Power, TransportPassesWithBetaTilde) {
  const auto& t = sim();
  EXPECT_TRUE(t.verdict([&](int i) { return std::pow(akm::theory::beta_tilde(kTransportBeta, kTransportEta, t.mom.lambda_hat[i]), kPowerLag); }));
}

TEST(Power, TransportFailsWithBetaInPlaceOfBetaTilde) {
  const auto& t = sim();
  EXPECT_FALSE(t.verdict([&](int) { return std::pow(kTransportBeta, kPowerLag); }));
}

TEST(Power, TransportFailsWithRawEigenvaluesForTheNormalizedKey) {
  const auto& t = sim();
  // λ_i / tr Σ has the same trace as λ̂ but not the same per-direction values.
  const double tr = t.s.lambda.sum();
  EXPECT_FALSE(t.verdict([&](int i) { return std::pow(akm::theory::beta_tilde(kTransportBeta, kTransportEta, t.s.lambda[i] / tr), kPowerLag); }));
}

TEST(Power, TransportFailsWithAnOffByOneLag) {
  const auto& t = sim();
  EXPECT_FALSE(t.verdict([&](int i) { return std::pow(akm::theory::beta_tilde(kTransportBeta, kTransportEta, t.mom.lambda_hat[i]), kPowerLag + 1); }));
}
