// Consumer example: define a spectrum, run the AK buffer (raw key) on linear targets
// δ = g·x in a Monte Carlo, and compare the trial mean of M_t u_i with the exact transient
// of thm:fixedpoint, E[M_t]u_i = φ_i Ḡu_i (1 − β̃_i^t) with M_0 = 0, φ_i = 1/(μ+λ_i),
// β̃_i = β − ηλ_i, Ḡu_i = g_i λ_i.
#include <cmath>
#include <cstdio>

#include <akm/rules/kernels.hpp>
#include <akm/random/random.hpp>
#include <akm/sim/sim.hpp>
#include <akm/spectrum/spectrum.hpp>
#include <akm/theory/theory.hpp>

int main() {
  const akm::Spectrum spec = akm::parse_spectrum("list:4/2/1");
  const double beta = 0.9, eta = 0.05;  // μ = (1−β)/η = 2
  const long long steps = 30, trials = 20000;
  const std::uint64_t seed = 7;
  const int n = spec.n();
  const akm::Vec g = akm::Vec::Ones(n);  // targets δ = gᵀx (one output row)
  const akm::Vec sqrt_lambda = spec.lambda.cwiseSqrt();

  akm::McOptions opts;
  opts.trials = trials;
  const auto r = akm::monte_carlo(opts, static_cast<std::size_t>(n), [&](long long trial, double* out) {
    akm::Stream keys(seed, static_cast<std::uint64_t>(trial), akm::Purpose::keys);
    akm::Mat M = akm::Mat::Zero(1, n);
    akm::Vec x(n), delta(1), scratch(1);
    for (long long t = 0; t < steps; ++t) {
      akm::kern::gaussian_key(keys, sqrt_lambda, x);
      delta[0] = g.dot(x);
      akm::kern::ak_step(M, delta, x, beta, eta, scratch);
    }
    for (int i = 0; i < n; ++i) out[i] = M(0, i);
  });

  const double mu = akm::theory::mu(beta, eta);
  int failed = 0;
  for (int i = 0; i < n; ++i) {
    const double lam = spec.lambda[i];
    const double target = akm::theory::phi(mu, lam) * g[i] * lam;  // M* u_i
    const double predicted =
        akm::theory::transient_mean(target, akm::theory::beta_tilde(beta, eta, lam), steps);
    const double measured = r.total.mean()[i], se = r.total.stderr_mean()[i];
    // z = 6 per comparison: a false alarm once in ~10^9 runs, yet a wrong formula (e.g. the
    // EMA target g_i λ_i, or a missing transient) is off by hundreds of standard errors.
    const bool ok = std::abs(measured - predicted) <= 6.0 * se;
    std::printf("u_%d  λ = %g  predicted %.5f  measured %.5f ± %.5f  %s\n", i + 1, lam,
                predicted, measured, se, ok ? "ok" : "MISMATCH");
    failed += ok ? 0 : 1;
  }
  return failed == 0 ? 0 : 1;
}
