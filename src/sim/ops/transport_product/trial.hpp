// transport_product/trial — one (trial, row of P) as a CUDA thread runs it (float), written
// once: cuda.cu launches it per thread, emulated.cpp runs it on the host (docs/cuda.md).
// Row r of P_k = Π(βI − ηk_jk_jᵀ) starts at e_r and moves alone, p ← βp − η(p·k)k, on the
// trial's keys, which every row's thread draws from the trial's stream; the thread also keeps
// direction r's control variate C_k(r) and writes its trial's entries of direction r (and row
// r of P at the full lags).
#pragma once
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"
#include "akm/sim/ops/transport_product_layout.hpp"

namespace akm::cuda::transport_product_detail {

/// At most this many full lags (the op's validate() refuses more on these backends).
constexpr int kMaxFullLags = 8;

struct Args {
  ops::TransportProductLayout layout;
  int steps;
  int full_lags[kMaxFullLags];
  bool normalized;
  float beta, eta;
  std::uint64_t seed;
  long long first;  ///< the first trial of this launch
};

/// Per-direction constants in float: √λ_i, E[k_i²] and β̃_i.
struct Dirs {
  const float* sqrt_lambda;
  const float* second_moment;
  const float* beta_tilde;
};

/// Item = trial·N + r: row r of trial `first + trial`, written into that trial's row of `out`.
template <int N>
AKM_HD inline void row(const Dirs& d, const Args& a, long long item, float* out) {
  const long long j = item / N;
  const int r = int(item % N);
  const ops::TransportProductLayout& L = a.layout;
  float* o = out + std::size_t(j) * L.size();
  hd::Stream<float> s(a.seed, std::uint64_t(a.first + j), hd::kKeys);
  float p[N], k[N];
  AKM_UNROLL
  for (int i = 0; i < N; ++i) p[i] = i == r ? 1.f : 0.f;
  const float m = d.second_moment[r], bt = d.beta_tilde[r];
  float power = 1.f, sum = 0.f, horizon = 1.f, cv_horizon = 1.f;  // the k = 0 term of Σ_k P_k
  int f = 0;
  for (int lag = 1; lag <= a.steps; ++lag) {
    float nn = 0.f;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) {
      k[i] = d.sqrt_lambda[i] * s.normal();
      nn = hd::fma_(k[i], k[i], nn);
    }
    if (a.normalized) {
      const float norm = hd::sqrt_(nn);
      AKM_UNROLL
      for (int i = 0; i < N; ++i) k[i] /= norm;
    }
    float dot = 0.f;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) dot = hd::fma_(p[i], k[i], dot);
    const float c = a.eta * dot;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) p[i] = hd::fma_(-c, k[i], a.beta * p[i]);  // βp − c·k, one FMA
    if (lag > 1) power *= bt;
    sum += hd::fma_(k[r], k[r], -m);
    const float cv = hd::fma_(a.eta * power, sum, p[r]);  // P_k(r,r) − C_k(r), C = −ηβ̃^{k−1}·sum
    horizon += p[r];
    cv_horizon += cv;
    if (lag <= L.lags) {
      o[L.diag(lag, r)] = p[r];
      o[L.cv_diag(lag, r)] = cv;
      if (L.squares) o[L.square(lag, r)] = p[r] * p[r];
    }
    if (f < L.n_full && lag == a.full_lags[f]) {
      AKM_UNROLL
      for (int c2 = 0; c2 < N; ++c2) o[L.full(f, r, c2)] = p[c2];
      ++f;
    }
  }
  o[L.horizon(r)] = horizon;
  o[L.cv_horizon(r)] = cv_horizon;
}

/// What a device thread does with its item: the kernel and the emulator both run it.
template <int N>
struct Item {
  Dirs d;
  Args a;
  float* out;  ///< count × layout.size()
  AKM_HD void operator()(long long item) const { row<N>(d, a, item, out); }
};

}  // namespace akm::cuda::transport_product_detail
