// transport/reference — the plain reference: akm::Stream and the per-trial kernels of
// akm/rules/kernels.hpp, one trial at a time (transport v ← v(βI − ηx̂x̂ᵀ) [lem:transport]).
// cpu.cpp, cuda.cu and emulated.cpp beside it are held to it by tests/ops/test_transport.cpp.
#include <cmath>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

Observations transport_reference(const Transport& w, std::uint64_t seed, int threads) {
  const Vec sl = power_spectrum(w.n, false).cwiseSqrt();
  return run_trials(w.trials, w.n_obs(), threads, [&](long long trial, double* out) {
    Stream s(seed, std::uint64_t(trial), Purpose::keys);
    Mat P = Mat::Constant(1, w.n, 1.0 / std::sqrt(double(w.n)));
    Vec x(w.n), k(w.n), r(1);
    for (int t = 0; t < w.steps; ++t) {
      kern::gaussian_key(s, sl, x);
      kern::key_for(Key::normalized, x, k);
      kern::transport_step(P, k, w.beta, w.eta, r);
    }
    for (int i = 0; i < w.n; ++i) out[i] = P(0, i);
    out[w.n] = P.squaredNorm();
  });
}

}  // namespace akm::ops::detail
