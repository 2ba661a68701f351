// key_step — the key recursion shared by the phase engines (cpu.cpp, the per-point
// path, and cpu_shared.cpp, the shared-key path): one place for x_t and x̂_t = x_t/‖x_t‖.
// Private to src/sim/ops/phase_measure; inline so both loops keep their vectorization.
#pragma once
#include <cmath>

namespace akm::ops {

/// x_0 = √λ ∘ z (a draw from the stationary law).
inline void key_start(const double* __restrict lam_sqrt, const double* __restrict z,
                      double* __restrict x, int n) {
#pragma omp simd
  for (int i = 0; i < n; ++i) x[i] = lam_sqrt[i] * z[i];
}

/// AR(1) keys [E2]: x_t = ρ x_{t−1} + √(1−ρ²) √λ ∘ z_t, stationary with covariance diag(λ).
inline void key_advance(const double* __restrict lam_sqrt, const double* __restrict z,
                        double* __restrict x, int n, double ar, double innov) {
#pragma omp simd
  for (int i = 0; i < n; ++i) x[i] = ar * x[i] + innov * lam_sqrt[i] * z[i];
}

/// out = x/‖x‖ (the normalized key x̂ of the AK buffer).
inline void key_normalize(const double* __restrict x, double* __restrict out, int n) {
  double nn = 0.0;
#pragma omp simd reduction(+ : nn)
  for (int i = 0; i < n; ++i) nn += x[i] * x[i];
  const double inv = 1.0 / std::sqrt(nn);
#pragma omp simd
  for (int i = 0; i < n; ++i) out[i] = x[i] * inv;
}

}  // namespace akm::ops
