// ak_sgd_ema/cpu — the op on the fast CPU engine: AK-SGD and SGD-EMA on the same keys and noise.
// One trial per task, its state in contiguous arrays, vectorized within the trial.
// Compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (it would
// clash with the baseline-ISA copies, ODR).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "akm/sim/engine/engine.hpp"
#include "../../engine/engine_util.hpp"
#include "backends.hpp"

namespace akm::ops::detail {
namespace {

using engine::NormalStream;

// E, M column-major m×n (column j = m contiguous entries), both optimizers on the same
// keys and noise. The keys of step t+1 do not depend on the state, so they are drawn before
// step t's update and each step is one pass over the state: column j is updated
// (M ← βM + u kᵀ, E ← E − αM [eq:dm-norm-update], [eq:ema-update]) and at once enters the
// next step's products δ = Ex + σε and Mx̂ — one read and one write of each column per step
// (the state, 4mn numbers, does not fit in L1 in double). The products are summed in kAcc
// interleaved partial sums over j, so kAcc FMA chains run side by side instead of one
// latency-bound chain. MR = m at compile time keeps the sums in registers (m = 8: one
// AVX-512 double vector); MR = 0 is the generic path.
constexpr int kAcc = 4;

// One optimizer's next-step products as kAcc partial sums per row, each its own array so the
// compiler keeps them in registers (m = 8 in double: one vector each).
template <class T, int Cap>
struct Sums {
  alignas(64) T s0[Cap], s1[Cap], s2[Cap], s3[Cap];
  void zero(int m) {
    for (int r = 0; r < m; ++r) s0[r] = s1[r] = s2[r] = s3[r] = 0;
  }
  T total(int r) const { return ((s0[r] + s1[r]) + s2[r]) + s3[r]; }
};
static_assert(kAcc == 4, "Sums holds four partial sums");

template <class T, int MR>
void trial(const AkSgdEma& w, const T* sl, std::uint64_t seed, long long trial, double* out) {
  const int m = MR > 0 ? MR : w.m, n = w.n;
  const std::size_t mn = std::size_t(m) * n;
  constexpr int kCap = MR > 0 ? MR : 64;
  if (m > kCap) throw std::invalid_argument("ak_sgd_ema on cpu: m > 64 not supported");
  std::vector<T> Eak(mn), Eema(mn), Mak(mn, T(0)), Mema(mn, T(0)), z(n), x0(n), k0(n), x1(n), k1(n);
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
  // The noise of kNoiseSteps steps is drawn in one fill (a fill of m = 8 normals costs several
  // times its share); the stream is the same, its draws only batched.
  constexpr int kNoiseSteps = 64;
  std::vector<T> noise(std::size_t(m) * kNoiseSteps);
  int noise_step = kNoiseSteps, steps_left = w.steps;
  auto next_noise = [&]() -> const T* {
    if (noise_step == kNoiseSteps) {
      sn.fill(noise.data(), m * std::min(kNoiseSteps, steps_left));
      noise_step = 0;
    }
    --steps_left;
    return noise.data() + std::size_t(m) * noise_step++;
  };
  // Key x = √λ z and normalized key k = x/‖x‖ of one step (the draws in stream order).
  auto draw = [&](T* __restrict xp, T* __restrict kp) {
    sk.fill(z.data(), n);
    T nn = 0;
#pragma omp simd reduction(+ : nn)
    for (int j = 0; j < n; ++j) {
      xp[j] = sl[j] * z[j];
      nn += xp[j] * xp[j];
    }
    const T nrm = std::sqrt(nn);
#pragma omp simd
    for (int j = 0; j < n; ++j) kp[j] = xp[j] / nrm;
  };
  T *xc = x0.data(), *kc = k0.data(), *xn = x1.data(), *kn = k1.data();
  Sums<T, kCap> d_ak, p_ak, d_ema;
  d_ak.zero(m), p_ak.zero(m), d_ema.zero(m);
  draw(xc, kc);
  // Column j's contribution to the products, into partial sum j mod kAcc.
  auto first = [&](int j, T* __restrict da, T* __restrict de) {
    const T xj = xc[j];
#pragma omp simd
    for (int r = 0; r < m; ++r) {
      da[r] += ea[j * m + r] * xj;
      de[r] += ee[j * m + r] * xj;
    }
  };
  for (int j = 0; j < n; ++j) {  // step 0's products (M₀ = 0 contributes 0 to Mx̂)
    switch (j % kAcc) {
      case 0: first(j, d_ak.s0, d_ema.s0); break;
      case 1: first(j, d_ak.s1, d_ema.s1); break;
      case 2: first(j, d_ak.s2, d_ema.s2); break;
      default: first(j, d_ak.s3, d_ema.s3); break;
    }
  }
  alignas(64) T u_ak[kCap], u_ema[kCap];
  for (int t = 0; t < w.steps; ++t) {
    const T* ec = next_noise();
    for (int r = 0; r < m; ++r) {
      u_ak[r] = eta * ((d_ak.total(r) + sigma * ec[r]) - p_ak.total(r));
      u_ema[r] = omb * (d_ema.total(r) + sigma * ec[r]);
    }
    if (t + 1 < w.steps) {
      draw(xn, kn);
    } else {
      std::fill(xn, xn + n, T(0));
      std::fill(kn, kn + n, T(0));
    }
    d_ak.zero(m), p_ak.zero(m), d_ema.zero(m);
    // Column j: this step's update, then the next step's products (xn, kn zero on the last step).
    auto column = [&](int j, T* __restrict da, T* __restrict pa, T* __restrict de) {
      const T kj = kc[j], xj = xc[j], xnj = xn[j], knj = kn[j];
#pragma omp simd
      for (int r = 0; r < m; ++r) {
        const T mv = beta * ma[j * m + r] + u_ak[r] * kj;
        ma[j * m + r] = mv;
        const T ev = ea[j * m + r] - alpha * mv;
        ea[j * m + r] = ev;
        da[r] += ev * xnj;
        pa[r] += mv * knj;
        const T mw = beta * me[j * m + r] + u_ema[r] * xj;
        me[j * m + r] = mw;
        const T ew = ee[j * m + r] - alpha * mw;
        ee[j * m + r] = ew;
        de[r] += ew * xnj;
      }
    };
    int j = 0;
    for (; j + kAcc <= n; j += kAcc) {
      column(j, d_ak.s0, p_ak.s0, d_ema.s0);
      column(j + 1, d_ak.s1, p_ak.s1, d_ema.s1);
      column(j + 2, d_ak.s2, p_ak.s2, d_ema.s2);
      column(j + 3, d_ak.s3, p_ak.s3, d_ema.s3);
    }
    for (; j < n; ++j) {
      switch (j % kAcc) {
        case 0: column(j, d_ak.s0, p_ak.s0, d_ema.s0); break;
        case 1: column(j, d_ak.s1, p_ak.s1, d_ema.s1); break;
        case 2: column(j, d_ak.s2, p_ak.s2, d_ema.s2); break;
        default: column(j, d_ak.s3, p_ak.s3, d_ema.s3); break;
      }
    }
    std::swap(xc, xn), std::swap(kc, kn);
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
