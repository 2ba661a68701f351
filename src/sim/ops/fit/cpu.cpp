// fit/cpu — engine kernel of the fitting op of `akm simulate` (ops::Fit): one trial per
// task step, state in contiguous arrays indexed by direction, vectorized within the trial
// (like the transport, ak_sgd_ema and phase_map paths). Both arms share each step's key and noise; the regression moments are
// accumulated in double whatever the state precision, so the float engine's error is the
// state's alone. No Eigen code is instantiated here (ODR with the baseline-ISA copies).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "akm/base/interrupt.hpp"
#include "akm/sim/engine/engine.hpp"
#include "backends.hpp"

namespace akm::ops::detail {
namespace {

using engine::NormalStream;

template <class T>
struct FitScratch {
  std::vector<T> z, x, k, noise, e[2], mu[2];
  std::vector<double> q[2][7];
  explicit FitScratch(const Fit& w) : z(w.n()), x(w.n()), k(w.n()), noise(w.steps) {
    for (int a = 0; a < 2; ++a) {
      e[a].resize(w.n());
      mu[a].resize(w.n());
      for (auto& v : q[a]) v.resize(w.n());
    }
  }
};

// One arm's step: μ' = βμ + u·g_i, e' = e − αμ', and the moments of (e, μ) → (e', μ').
template <class T>
inline void arm_step(int n, T beta, T alpha, T u, const T* __restrict g, T* __restrict e,
                     T* __restrict mu, double* const* q) {
  double* __restrict q0 = q[0];
  double* __restrict q1 = q[1];
  double* __restrict q2 = q[2];
  double* __restrict q3 = q[3];
  double* __restrict q4 = q[4];
  double* __restrict q5 = q[5];
  double* __restrict q6 = q[6];
#pragma omp simd
  for (int i = 0; i < n; ++i) {
    const T m1 = beta * mu[i] + u * g[i];
    const T e1 = e[i] - alpha * m1;
    const double ed = double(e[i]), md = double(mu[i]), e1d = double(e1), m1d = double(m1);
    q0[i] += ed * ed;
    q1[i] += ed * md;
    q2[i] += md * md;
    q3[i] += e1d * ed;
    q4[i] += e1d * md;
    q5[i] += m1d * ed;
    q6[i] += m1d * md;
    e[i] = e1;
    mu[i] = m1;
  }
}

template <class T>
void fit_trial(const Fit& w, const T* sl, std::uint64_t seed, long long trial,
               FitScratch<T>& s, double* acc) {
  const int n = w.n();
  NormalStream keys(seed, std::uint64_t(trial), Purpose::keys);
  NormalStream noise(seed, std::uint64_t(trial), Purpose::noise);
  // All T noise draws up front: the same sequence as T calls of normal() (an even batch
  // keeps the fast path; an odd tail continues on the scalar path).
  const int even = w.steps & ~1;
  noise.fill(s.noise.data(), even);
  if (even < w.steps) noise.fill(s.noise.data() + even, 1);
  for (int a = 0; a < 2; ++a) {
    std::fill(s.e[a].begin(), s.e[a].end(), T(1));
    std::fill(s.mu[a].begin(), s.mu[a].end(), T(0));
    for (auto& v : s.q[a]) std::fill(v.begin(), v.end(), 0.0);
  }
  const T beta = T(w.beta), eta = T(w.eta), alpha = T(w.alpha), sigma = T(w.sigma),
          omb = T(1.0 - w.beta);
  T* __restrict zp = s.z.data();
  T* __restrict xp = s.x.data();
  T* __restrict kp = s.k.data();
  double* qa[2][7];
  for (int a = 0; a < 2; ++a)
    for (int j = 0; j < 7; ++j) qa[a][j] = s.q[a][j].data();
  for (int t = 0; t < w.steps; ++t) {
    keys.fill(zp, n);
    T nn = 0;
#pragma omp simd reduction(+ : nn)
    for (int i = 0; i < n; ++i) {
      xp[i] = sl[i] * zp[i];
      nn += xp[i] * xp[i];
    }
    const T* kk = xp;
    if (w.normalized) {
      const T nrm = std::sqrt(nn);
#pragma omp simd
      for (int i = 0; i < n; ++i) kp[i] = xp[i] / nrm;
      kk = kp;
    }
    const T eps = sigma * s.noise[t];
    T dak = 0, pak = 0, dema = 0;
    const T* ea = s.e[0].data();
    const T* ma = s.mu[0].data();
    const T* ee = s.e[1].data();
#pragma omp simd reduction(+ : dak, pak, dema)
    for (int i = 0; i < n; ++i) {
      dak += ea[i] * xp[i];
      pak += ma[i] * kk[i];
      dema += ee[i] * xp[i];
    }
    arm_step(n, beta, alpha, T(eta * ((dak + eps) - pak)), kk, s.e[0].data(), s.mu[0].data(), qa[0]);
    arm_step(n, beta, alpha, T(omb * (dema + eps)), xp, s.e[1].data(), s.mu[1].data(), qa[1]);
  }
  for (int a = 0; a < 2; ++a) {
    for (int j = 0; j < 7; ++j)
      for (int i = 0; i < n; ++i) acc[w.index(a, j, i)] += s.q[a][j][i];
    for (int i = 0; i < n; ++i) acc[w.index(a, 7, i)] += double(s.e[a][i]);
  }
}

}  // namespace

template <class T>
Observations fit_cpu(const Fit& w, std::uint64_t seed, int threads,
                     const std::function<void(long long, long long)>& progress) {
  std::atomic<long long> done{0};
  std::vector<T> sl(w.n());
  for (int i = 0; i < w.n(); ++i) sl[i] = T(std::sqrt(w.lambda[i]));
  return run_trials(w.groups, w.n_obs(), threads, [&](long long g, double* out) {
    FitScratch<T> s(w);
    const long long b = w.group_begin(int(g)), e = w.group_begin(int(g) + 1);
    for (long long t = b; t < e; ++t) {
      interrupt::throw_if_stop_requested();  // a group can be long: poll per trial
      fit_trial<T>(w, sl.data(), seed, t, s, out);
    }
    for (int j = 0; j < w.n_obs(); ++j) out[j] /= double(e - b);
    if (progress) progress(++done, w.groups);
  });
}

template Observations fit_cpu<double>(const Fit&, std::uint64_t, int,
                                      const std::function<void(long long, long long)>&);
template Observations fit_cpu<float>(const Fit&, std::uint64_t, int,
                                     const std::function<void(long long, long long)>&);

}  // namespace akm::ops::detail
