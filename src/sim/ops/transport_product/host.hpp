// transport_product/host — the host side the launcher (cuda.cu) and the emulator (emulated.cpp)
// share: the sizes the kernel exists for, its arguments and float constants, and the rows.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "akm/base/errors.hpp"
#include "backends.hpp"
#include "trial.hpp"

namespace akm::cuda::transport_product_detail {

// The public header's count (transport_product_has) is the kernel's (trial.hpp is nvcc's, Eigen-free).
static_assert(ops::TransportProduct::kDeviceFullLags == kMaxFullLags);

inline void require_size(const ops::detail::TransportProductPlain& op) {
  const int n = op.layout.n;
  if (n != 16 && n != 32 && n != 64)
    throw InputError("n", std::to_string(n), "16, 32 or 64 on the cuda backends (the kernel is unrolled for these sizes)");
  if (int(op.full_lags.size()) > kMaxFullLags)
    throw InputError("full_lags", std::to_string(op.full_lags.size()) + " lags",
                     "at most " + std::to_string(kMaxFullLags) + " on the cuda backends");
}

inline Args args(const ops::detail::TransportProductPlain& op, std::uint64_t seed, long long first) {
  Args a{};
  a.layout = op.layout;
  a.steps = op.steps;
  std::copy(op.full_lags.begin(), op.full_lags.end(), a.full_lags);
  a.normalized = op.normalized;
  a.beta = float(op.beta);
  a.eta = float(op.eta);
  a.seed = seed;
  a.first = first;
  return a;
}

/// √λ, E[k²] and β̃ in float, one after another (3n values; Dirs points into them).
inline std::vector<float> dirs_f(const ops::detail::TransportProductPlain& op) {
  std::vector<float> v;
  for (const auto* src : {&op.sqrt_lambda, &op.second_moment, &op.beta_tilde})
    for (double x : *src) v.push_back(float(x));
  return v;
}
inline Dirs dirs_at(const float* v, int n) { return {v, v + n, v + 2 * n}; }

/// The float rows widened to double.
inline void widen(const std::vector<float>& f, double* rows) { std::copy(f.begin(), f.end(), rows); }

}  // namespace akm::cuda::transport_product_detail
