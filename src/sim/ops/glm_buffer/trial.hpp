// glm_buffer/trial — one trial of the op as a CUDA thread runs it (float), written once: cuda.cu
// launches it per thread, emulated.cpp runs it on the host (docs/cuda.md). The 1×n buffer in
// registers; the keys from the trial's keys stream (n normals a step), the label's uniform
// from its noise stream (one a step), as the reference draws them.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"
#include "../trial_dot.hpp"

namespace akm::cuda::glm_buffer_detail {

/// eˣ (expf / exp on the device, std::exp on the host).
template <class T>
AKM_HD inline T exp_of(T x) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) return expf(x);
  else return ::exp(x);
#else
  return std::exp(x);
#endif
}

/// The logistic σ(z), in the form that does not overflow (akm::logistic::sigmoid's).
template <class T>
AKM_HD inline T sigmoid(T z) {
  if (z >= T(0)) return T(1) / (T(1) + exp_of(-z));
  const T e = exp_of(z);
  return e / (T(1) + e);
}

struct Args {
  int t0, post, n_cp, n_shown;
  float beta, eta;
  std::uint64_t seed;
  long long first;  ///< the first trial of this launch
};

/// Per-direction constants in float, N each; the recorded steps and directions.
struct Consts {
  const float* sqrt_lambda;
  const float* w_star;
  const float* w0;
  const float* w1;
  const int* checkpoints;  ///< n_cp increasing steps
  const int* shown;        ///< n_shown directions
};

/// Trial first + j into row j of `out` (checkpoints, then the shown directions' steps).
template <int N>
AKM_HD inline void trial(const Consts& c, const Args& a, long long j, float* out) {
  hd::Stream<float> keys(a.seed, std::uint64_t(a.first + j), hd::kKeys), labels(a.seed, std::uint64_t(a.first + j), hd::kNoise);
  const int T = a.t0 + a.post;
  float M[N], x[N];
  AKM_UNROLL
  for (int i = 0; i < N; ++i) M[i] = 0.f;
  float* o = out + std::size_t(j) * (std::size_t(a.n_cp) * N + std::size_t(a.n_shown) * T);
  float* tr = o + std::size_t(a.n_cp) * N;
  int cp = 0;
  for (int t = 1; t <= T; ++t) {
    AKM_UNROLL
    for (int i = 0; i < N; ++i) x[i] = c.sqrt_lambda[i] * keys.normal();
    const float y = labels.uniform() < sigmoid(dot<N>(c.w_star, x)) ? 1.f : 0.f;
    const float delta = sigmoid(dot<N>(t <= a.t0 ? c.w0 : c.w1, x)) - y;  // δ = σ(wᵀx) − y
    const float norm = hd::sqrt_(dot<N>(x, x));
    AKM_UNROLL
    for (int i = 0; i < N; ++i) x[i] /= norm;  // x̂
    const float r = a.eta * (delta - dot<N>(M, x));
    AKM_UNROLL
    for (int i = 0; i < N; ++i) M[i] = hd::fma_(r, x[i], a.beta * M[i]);  // [eq:dm-norm-update]
    if (cp < a.n_cp && t == c.checkpoints[cp]) {
      AKM_UNROLL
      for (int i = 0; i < N; ++i) o[std::size_t(cp) * N + i] = M[i];
      ++cp;
    }
    for (int d = 0; d < a.n_shown; ++d) {  // a select per entry keeps M in registers
      float v = 0.f;
      AKM_UNROLL
      for (int i = 0; i < N; ++i) v = i == c.shown[d] ? M[i] : v;
      tr[std::size_t(d) * T + (t - 1)] = v;
    }
  }
}

template <int N>
struct Item {
  Consts c;
  Args a;
  float* out;  ///< count × n_obs
  AKM_HD void operator()(long long j) const { trial<N>(c, a, j, out); }
};

}  // namespace akm::cuda::glm_buffer_detail
