// glm_buffer/host — the host side the launcher (cuda.cu) and the emulator (emulated.cpp) share:
// the sizes the kernel exists for, its arguments and constants.
#pragma once
#include <string>
#include <vector>

#include "akm/base/errors.hpp"
#include "backends.hpp"
#include "trial.hpp"

namespace akm::cuda::glm_buffer_detail {

inline void require_size(const ops::detail::GlmBufferPlain& op) {
  if (op.n != 16 && op.n != 32 && op.n != 64)
    throw InputError("n", std::to_string(op.n), "16, 32 or 64 on the cuda backends (the kernel is unrolled for these sizes)");
}

inline Args args(const ops::detail::GlmBufferPlain& op, std::uint64_t seed, long long first) {
  return {op.t0, op.post, int(op.checkpoints.size()), int(op.shown.size()), float(op.beta), float(op.eta), seed, first};
}

/// √λ, w*, w0, w1 in float, one after another; the checkpoints then the shown directions.
inline std::vector<float> consts_f(const ops::detail::GlmBufferPlain& op) {
  std::vector<float> v;
  for (const auto* src : {&op.sqrt_lambda, &op.w_star, &op.w0, &op.w1})
    for (double x : *src) v.push_back(float(x));
  return v;
}
inline std::vector<int> consts_i(const ops::detail::GlmBufferPlain& op) {
  std::vector<int> v = op.checkpoints;
  v.insert(v.end(), op.shown.begin(), op.shown.end());
  v.push_back(0);  // never empty
  return v;
}
inline Consts consts_at(const float* v, const int* iv, const ops::detail::GlmBufferPlain& op) {
  const int n = op.n;
  return {v, v + n, v + 2 * n, v + 3 * n, iv, iv + op.checkpoints.size()};
}

}  // namespace akm::cuda::glm_buffer_detail
