// ops/cpu_dot — the n-term dot product the ops' fast CPU paths share (src/sim/ops/*/cpu*.cpp,
// compiled for the native ISA with -fopenmp-simd; include it from those files only, so that
// no baseline object gets a native copy).
#pragma once

namespace akm::ops::detail {
namespace {

/// Σ a_i b_i, vectorized (the reduction's order is the compiler's, fixed per build).
inline double dot(const double* __restrict a, const double* __restrict b, int n) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

}  // namespace
}  // namespace akm::ops::detail
