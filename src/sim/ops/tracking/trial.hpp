// tracking/trial — one trial of the op as a CUDA thread runs it (float), written once: cuda.cu
// launches it per thread, emulated.cpp runs it on the host (docs/cuda.md). The recorded row 0
// of the three buffers in registers; the keys and noise from the trial's two streams, the noise
// stream's m normals a step of which row 0 takes the first.
#pragma once
#include <cstddef>
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"
#include "../trial_dot.hpp"

namespace akm::cuda::tracking_detail {

struct Args {
  int m, t0, post;
  float noise_sigma, beta, eta_raw, eta_normalized;
  bool rotated;
  std::uint64_t seed;
  long long first;  ///< the first trial of this launch
};

/// Per-direction constants in float, N each (Q: N×N row-major, read only when rotated; center 3×N).
struct Consts {
  const float* sqrt_lambda0;
  const float* sqrt_lambda1;
  const float* a0;
  const float* a1;
  const float* Q;
  const float* center;
};

/// Trial first + j: the three rows' tracking errors at lags 0..post into row j of `out`.
template <int N>
AKM_HD inline void trial(const Consts& c, const Args& a, long long j, float* out) {
  hd::Stream<float> keys(a.seed, std::uint64_t(a.first + j), hd::kKeys), noise(a.seed, std::uint64_t(a.first + j), hd::kNoise);
  float M[3][N], x[N], xh[N];
  AKM_UNROLL
  for (int i = 0; i < N; ++i) M[0][i] = M[1][i] = M[2][i] = 0.f;
  float* o = out + std::size_t(j) * 3 * (a.post + 1) * N;
  for (int t = 0; t < a.t0 + a.post; ++t) {
    const bool pre = t < a.t0;
    const float* sl = pre ? c.sqrt_lambda0 : c.sqrt_lambda1;
    if (pre && a.rotated) {  // x = Q diag(√λ⁰) z
      AKM_UNROLL
      for (int i = 0; i < N; ++i) xh[i] = sl[i] * keys.normal();
      for (int i = 0; i < N; ++i) x[i] = dot<N>(c.Q + i * N, xh);
    } else {
      AKM_UNROLL
      for (int i = 0; i < N; ++i) x[i] = sl[i] * keys.normal();
    }
    float xi = noise.normal();
    for (int r = 1; r < a.m; ++r) (void)noise.normal();  // the other rows' noise
    const float delta = hd::fma_(a.noise_sigma, xi, dot<N>(pre ? c.a0 : c.a1, x));
    const float norm = hd::sqrt_(dot<N>(x, x));
    AKM_UNROLL
    for (int i = 0; i < N; ++i) xh[i] = x[i] / norm;
    const float r0 = a.eta_raw * (delta - dot<N>(M[0], x)), r1 = a.eta_normalized * (delta - dot<N>(M[1], xh)),
                r2 = (1.f - a.beta) * delta;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) {
      M[0][i] = hd::fma_(r0, x[i], a.beta * M[0][i]);   // [eq:dm-update]
      M[1][i] = hd::fma_(r1, xh[i], a.beta * M[1][i]);  // [eq:dm-norm-update]
      M[2][i] = hd::fma_(r2, x[i], a.beta * M[2][i]);   // [eq:ema-update]
    }
    if (t + 1 >= a.t0) {
      const int k = t + 1 - a.t0;
      for (int r = 0; r < 3; ++r)
        AKM_UNROLL
        for (int i = 0; i < N; ++i) o[(std::size_t(r) * (a.post + 1) + k) * N + i] = M[r][i] - c.center[r * N + i];
    }
  }
}

template <int N>
struct Item {
  Consts c;
  Args a;
  float* out;  ///< count × 3(post + 1)N
  AKM_HD void operator()(long long j) const { trial<N>(c, a, j, out); }
};

}  // namespace akm::cuda::tracking_detail
