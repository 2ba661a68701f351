// tracking/host — the host side the launcher (cuda.cu) and the emulator (emulated.cpp) share:
// the sizes the kernel exists for, its arguments and float constants.
#pragma once
#include <string>
#include <vector>

#include "akm/base/errors.hpp"
#include "backends.hpp"
#include "trial.hpp"

namespace akm::cuda::tracking_detail {

inline void require_size(const ops::detail::TrackingPlain& op) {
  if (op.n != 16 && op.n != 32 && op.n != 64)
    throw InputError("n", std::to_string(op.n), "16, 32 or 64 on the cuda backends (the kernel is unrolled for these sizes)");
}

inline Args args(const ops::detail::TrackingPlain& op, std::uint64_t seed, long long first) {
  return {op.m, op.t0, op.post, float(op.noise_sigma), float(op.beta), float(op.eta_raw), float(op.eta_normalized),
          !op.Q.empty(), seed, first};
}

/// √λ⁰, √λ¹, a0, a1, Q (n² values, zeros when not rotated) and the centres in float, one after
/// another; Consts points into them.
inline std::vector<float> consts_f(const ops::detail::TrackingPlain& op) {
  std::vector<float> v;
  const std::vector<double> zeros(std::size_t(op.n) * op.n, 0.0);
  for (const auto* src : {&op.sqrt_lambda0, &op.sqrt_lambda1, &op.a0, &op.a1, op.Q.empty() ? &zeros : &op.Q, &op.center})
    for (double x : *src) v.push_back(float(x));
  return v;
}
inline Consts consts_at(const float* v, int n) {
  return {v, v + n, v + 2 * n, v + 3 * n, v + 4 * n, v + 4 * n + n * n};
}

}  // namespace akm::cuda::tracking_detail
