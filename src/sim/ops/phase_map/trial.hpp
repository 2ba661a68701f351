// phase_map/trial — one row of the op (grid point × trial) as a CUDA thread runs it (float state,
// double log-norm), written once: cuda.cu launches it per thread, emulated.cpp runs it on the
// host (docs/cuda.md). Raw-key transport v ← βv − η(v·x)x, renormalized every `renorm`
// steps; the row's value is the growth-rate estimate (1/T) Σ log‖v‖ [app:stability_norm_key_dm].
#pragma once
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"

namespace akm::cuda::phase_map_detail {

struct Args {
  long long trials, rows;  ///< trials per point; rows = points × trials
  int n_beta, n_eta, steps, renorm;
  double eta_max;
  std::uint64_t seed;
};

/// Row `row` = p·trials + t of point p = a·n_beta + b (η_a = eta_max (a+1)/n_eta, β_b = b/n_beta).
template <int N>
AKM_HD inline double row_value(const float* sl, const Args& a, long long row) {
  const int p = int(row / a.trials);
  const float eta = float(a.eta_max * (p / a.n_beta + 1) / a.n_eta);
  const float beta = float(double(p % a.n_beta) / a.n_beta);
  hd::Stream<float> s(a.seed, std::uint64_t(row), hd::kKeys);
  float v[N], x[N];
  const float v0 = 1.f / hd::sqrt_(float(N));
  AKM_UNROLL
  for (int i = 0; i < N; ++i) v[i] = v0;
  double log_norm = 0.0;
  for (int step = 0; step < a.steps; ++step) {
    float vx = 0.f;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) {
      x[i] = sl[i] * s.normal();
      vx += v[i] * x[i];
    }
    const float c = eta * vx;
    AKM_UNROLL
    for (int i = 0; i < N; ++i) v[i] = beta * v[i] - c * x[i];
    if ((step + 1) % a.renorm == 0 || step + 1 == a.steps) {
      float nn = 0.f;
      AKM_UNROLL
      for (int i = 0; i < N; ++i) nn += v[i] * v[i];
      const float nv = hd::sqrt_(nn);
      log_norm += hd::log_(double(nv));
      const float inv = 1.f / nv;
      AKM_UNROLL
      for (int i = 0; i < N; ++i) v[i] *= inv;
    }
  }
  return log_norm / a.steps;
}

/// What a device thread does with its item (a row): the kernel and the emulator both run it.
template <int N>
struct Item {
  const float* sl;
  Args a;
  double* out;  ///< one value per row
  AKM_HD void operator()(long long row) const { out[row] = row_value<N>(sl, a, row); }
};

}  // namespace akm::cuda::phase_map_detail
