// ak_sgd_ema/cpu — the op on the fast CPU engine: AK-SGD and SGD-EMA on the same keys and noise.
// One trial per task, its state in contiguous arrays, vectorized within the trial.
// Compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (it would
// clash with the baseline-ISA copies, ODR).
#include <cmath>
#include <stdexcept>
#include <vector>

#include "akm/sim/engine/engine.hpp"
#include "../../engine/engine_util.hpp"
#include "backends.hpp"

namespace akm::ops::detail {
namespace {

using engine::NormalStream;

// E, M column-major m×n (column j = m contiguous entries), both optimizers on the same
// keys and noise. Each step is two passes over the state: (1) δ = Ex + σε and Mx̂ (AK),
// (2) M ← βM + u kᵀ, E ← E − αM. MR = m at compile time keeps δ, Mx̂ and u in registers
// (m = 8: one AVX-512 double vector); MR = 0 is the generic path.
template <class T, int MR>
void trial(const AkSgdEma& w, const T* sl, std::uint64_t seed, long long trial, double* out) {
  const int m = MR > 0 ? MR : w.m, n = w.n;
  const std::size_t mn = std::size_t(m) * n;
  std::vector<T> Eak(mn), Eema(mn), Mak(mn, T(0)), Mema(mn, T(0)), z(n), x(n), k(n), e(m);
  constexpr int kCap = MR > 0 ? MR : 64;
  if (m > kCap) throw std::invalid_argument("ak_sgd_ema on cpu: m > 64 not supported");
  NormalStream si(seed, std::uint64_t(trial), Purpose::init);
  NormalStream sk(seed, std::uint64_t(trial), Purpose::keys);
  NormalStream sn(seed, std::uint64_t(trial), Purpose::noise);
  si.fill(Eak.data(), int(mn));  // W*, column-major; E₀ = −W*
  for (auto& v : Eak) v = -v;
  Eema = Eak;
  const T alpha = T(w.alpha), beta = T(w.beta), eta = T(w.eta), sigma = T(w.sigma),
          omb = T(1.0 - w.beta);
  T* __restrict ea = Eak.data();
  T* __restrict ma = Mak.data();
  T* __restrict ee = Eema.data();
  T* __restrict me = Mema.data();
  T* __restrict xp = x.data();
  T* __restrict kp = k.data();
  for (int t = 0; t < w.steps; ++t) {
    sk.fill(z.data(), n);
    sn.fill(e.data(), m);
    T nn = 0;
#pragma omp simd reduction(+ : nn)
    for (int j = 0; j < n; ++j) {
      xp[j] = sl[j] * z[j];
      nn += xp[j] * xp[j];
    }
    const T nrm = std::sqrt(nn);
#pragma omp simd
    for (int j = 0; j < n; ++j) kp[j] = xp[j] / nrm;
    alignas(64) T d[kCap], p[kCap], u[kCap];
    // AK-SGD, normalized key.
    for (int r = 0; r < m; ++r) d[r] = p[r] = 0;
    for (int j = 0; j < n; ++j) {
      const T xj = xp[j], kj = kp[j];
#pragma omp simd
      for (int r = 0; r < m; ++r) {
        d[r] += ea[j * m + r] * xj;
        p[r] += ma[j * m + r] * kj;
      }
    }
    for (int r = 0; r < m; ++r) u[r] = eta * ((d[r] + sigma * e[r]) - p[r]);
    for (int j = 0; j < n; ++j) {
      const T kj = kp[j];
#pragma omp simd
      for (int r = 0; r < m; ++r) {
        const T mv = beta * ma[j * m + r] + u[r] * kj;
        ma[j * m + r] = mv;
        ea[j * m + r] -= alpha * mv;
      }
    }
    // SGD-EMA.
    for (int r = 0; r < m; ++r) d[r] = 0;
    for (int j = 0; j < n; ++j) {
      const T xj = xp[j];
#pragma omp simd
      for (int r = 0; r < m; ++r) d[r] += ee[j * m + r] * xj;
    }
    for (int r = 0; r < m; ++r) u[r] = omb * (d[r] + sigma * e[r]);
    for (int j = 0; j < n; ++j) {
      const T xj = xp[j];
#pragma omp simd
      for (int r = 0; r < m; ++r) {
        const T mv = beta * me[j * m + r] + u[r] * xj;
        me[j * m + r] = mv;
        ee[j * m + r] -= alpha * mv;
      }
    }
  }
  double tot_ak = 0.0, tot_ema = 0.0;
  for (int j = 0; j < n; ++j) {
    double a = 0.0, b = 0.0;
    for (int r = 0; r < m; ++r) {
      a += double(Eak[std::size_t(j) * m + r]) * double(Eak[std::size_t(j) * m + r]);
      b += double(Eema[std::size_t(j) * m + r]) * double(Eema[std::size_t(j) * m + r]);
    }
    out[j] = a;
    out[n + j] = b;
    tot_ak += a;
    tot_ema += b;
  }
  out[2 * n] = tot_ak;
  out[2 * n + 1] = tot_ema;
}

}  // namespace

Observations ak_sgd_ema_cpu(const AkSgdEma& w, std::uint64_t seed, int threads, engine::Precision p) {
  const auto sl = engine::sqrt_power(w.n, false);
  const auto slf = engine::cast<float>(sl);
  return run_trials(w.trials, w.n_obs(), threads, [&](long long t, double* out) {
    if (w.m == 8) {
      if (p == engine::Precision::f64) trial<double, 8>(w, sl.data(), seed, t, out);
      else trial<float, 8>(w, slf.data(), seed, t, out);
    } else {
      if (p == engine::Precision::f64) trial<double, 0>(w, sl.data(), seed, t, out);
      else trial<float, 0>(w, slf.data(), seed, t, out);
    }
  });
}

}  // namespace akm::ops::detail
