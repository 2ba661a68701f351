// ops/trial_dot — the unrolled N-term float dot product of the ops' CUDA trial bodies
// (src/sim/ops/*/trial.hpp): fma in order, so the device and its emulation sum alike.
#pragma once
#include "akm/base/hd.hpp"

namespace akm::cuda {

/// Σ a_i b_i over N terms, fma in index order.
template <int N>
AKM_HD inline float dot(const float* a, const float* b) {
  float s = 0.f;
  AKM_UNROLL
  for (int i = 0; i < N; ++i) s = hd::fma_(a[i], b[i], s);
  return s;
}

}  // namespace akm::cuda
