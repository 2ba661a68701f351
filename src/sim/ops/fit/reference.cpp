// fit/reference — plain reference of the fitting op of `akm simulate` (ops::Fit).
//
// One trial at a time with akm::Stream and the per-trial kernels of akm/rules/kernels.hpp; the
// fast engine (cpu.cpp beside it), cuda.cu and emulated.cpp are held to it by tests/ops/test_fit.cpp.
#include <cmath>

#include "akm/rules/kernels.hpp"
#include "akm/sim/fitted_map.hpp"
#include "akm/random/random.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

namespace {

// Adds one trial's observables (see Fit) to `acc`.
void fit_trial(const Fit& w, const Vec& sl, std::uint64_t seed, long long trial, double* acc) {
  const int n = w.n();
  Stream keys(seed, std::uint64_t(trial), Purpose::keys);
  Stream noise(seed, std::uint64_t(trial), Purpose::noise);
  const Key key = w.normalized ? Key::normalized : Key::raw;
  Mat E[2] = {Mat::Ones(1, n), Mat::Ones(1, n)};
  Mat M[2] = {Mat::Zero(1, n), Mat::Zero(1, n)};
  Vec x(n), k(n), d(1), r(1);
  for (int t = 0; t < w.steps; ++t) {
    kern::gaussian_key(keys, sl, x);
    const double eps = w.sigma * noise.normal();
    kern::key_for(key, x, k);
    for (int a = 0; a < 2; ++a) {
      const Mat e0 = E[a], m0 = M[a];
      d[0] = (E[a] * x)(0, 0) + eps;
      if (a == 0) kern::ak_step(M[a], d, k, w.beta, w.eta, r);
      else kern::ema_step(M[a], d, x, w.beta);
      E[a] -= w.alpha * M[a];
      for (int i = 0; i < n; ++i) {
        add_map_moments(acc + w.index(a, 0, i), e0(0, i), m0(0, i), E[a](0, i), M[a](0, i),
                        std::size_t(n));  // q = 0..6 lie n apart (Fit::index)
      }
    }
  }
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < n; ++i) acc[w.index(a, 7, i)] += E[a](0, i);
}

}  // namespace

Observations fit_reference(const Fit& w, std::uint64_t seed, int threads) {
  Vec sl(w.n());
  for (int i = 0; i < w.n(); ++i) sl[i] = std::sqrt(w.lambda[i]);
  return run_trials(w.groups, w.n_obs(), threads, [&](long long g, double* out) {
    const long long b = w.group_begin(int(g)), e = w.group_begin(int(g) + 1);
    for (long long t = b; t < e; ++t) fit_trial(w, sl, seed, t, out);
    for (int j = 0; j < w.n_obs(); ++j) out[j] /= double(e - b);
  });
}

}  // namespace akm::ops::detail
