// transport/trial — one trial of the op as a CUDA thread runs it (float), written once: cuda.cu
// launches it per thread, emulated.cpp runs it on the host (docs/cuda.md). The transport
// v ← βv − η(v·x/‖x‖²)x of a unit vector under raw Gaussian keys x = √λ ∘ z. The earlier
// kernel (Transport::warp_per_trial = false, kept for an A/B); warp.hpp is the default, on the
// same keys.
#pragma once
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"

namespace akm::cuda::transport_detail {

struct Args {
  long long trials;
  int steps;
  float beta, eta;
  std::uint64_t seed;
};

/// Trial t: v (N floats) after `steps` steps from v₀ = 1/√N, keys from stream (seed, t, keys).
template <int N>
AKM_HD inline void trial(const float* sl, const Args& a, long long t, float* v_out) {
  hd::Stream<float> s(a.seed, std::uint64_t(t), hd::kKeys);
  float v[N], x[N];
  const float v0 = 1.f / hd::sqrt_(float(N));
  AKM_UNROLL
  for (int i = 0; i < N; ++i) v[i] = v0;
  for (int step = 0; step < a.steps; ++step) {
    float nn = 0.f, vx = 0.f;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) {
      x[i] = sl[i] * s.normal();
      nn += x[i] * x[i];
      vx += v[i] * x[i];
    }
    const float c = a.eta * vx / nn;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) v[i] = hd::fma_(-c, x[i], a.beta * v[i]);  // βv − c·x, one FMA
  }
  AKM_UNROLL
  for (int i = 0; i < N; ++i) v_out[t * N + i] = v[i];
}

/// What a device thread does with its item (trial t): the kernel and the emulator both run it.
template <int N>
struct Item {
  const float* sl;
  Args a;
  float* v_out;  ///< trials × N
  AKM_HD void operator()(long long t) const { trial<N>(sl, a, t, v_out); }
};

}  // namespace akm::cuda::transport_detail
