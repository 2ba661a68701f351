// ak_sgd_ema/reference — the plain reference: AK-SGD and SGD-EMA on one key and noise
// sequence, akm::Stream and the per-trial kernels, one trial at a time. cpu.cpp, cuda.cu and
// emulated.cpp beside it are held to it by tests/ops/test_ak_sgd_ema.cpp.
#include <cmath>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

Observations ak_sgd_ema_reference(const AkSgdEma& w, std::uint64_t seed, int threads) {
  const Vec sl = power_spectrum(w.n, false).cwiseSqrt();
  return run_trials(w.trials, w.n_obs(), threads, [&](long long trial, double* out) {
    Stream si(seed, std::uint64_t(trial), Purpose::init);
    Stream sk(seed, std::uint64_t(trial), Purpose::keys);
    Stream sn(seed, std::uint64_t(trial), Purpose::noise);
    Mat E0(w.m, w.n);
    for (int j = 0; j < w.n; ++j)
      for (int r = 0; r < w.m; ++r) E0(r, j) = -si.normal();  // E₀ = −W*
    Mat Eak = E0, Eema = E0;
    Mat Mak = Mat::Zero(w.m, w.n), Mema = Mat::Zero(w.m, w.n);
    Vec x(w.n), k(w.n), eps(w.m), d(w.m), r(w.m);
    for (int t = 0; t < w.steps; ++t) {
      kern::gaussian_key(sk, sl, x);
      for (int i = 0; i < w.m; ++i) eps[i] = w.sigma * sn.normal();
      kern::key_for(Key::normalized, x, k);
      d.noalias() = Eak * x;
      d += eps;
      kern::ak_step(Mak, d, k, w.beta, w.eta, r);
      Eak -= w.alpha * Mak;
      d.noalias() = Eema * x;
      d += eps;
      kern::ema_step(Mema, d, x, w.beta);
      Eema -= w.alpha * Mema;
    }
    double tot_ak = 0.0, tot_ema = 0.0;
    for (int i = 0; i < w.n; ++i) {
      out[i] = Eak.col(i).squaredNorm();
      out[w.n + i] = Eema.col(i).squaredNorm();
      tot_ak += out[i];
      tot_ema += out[w.n + i];
    }
    out[2 * w.n] = tot_ak;
    out[2 * w.n + 1] = tot_ema;
  });
}

}  // namespace akm::ops::detail
