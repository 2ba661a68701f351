// ops/sample_minimizers — the two least-squares minimizers of a finite sample, per trial: T2's
// Monte Carlo of their unbiasedness [def:wms, def:fms, app:divergent-optima]; backends in
// src/sim/ops/sample_minimizers/.
//
// A trial draws S pairs on its own streams: keys x_s = U(√λ ∘ z_s) (rows of X, the keys stream,
// pair by pair) and values δ_s = Ax_s + σξ_s (rows of D; ξ from the noise stream, pair by pair).
// Its observables: the function-space minimizer argmin_M Σ_s‖δ_s − Mx_s‖² [def:fms] (m × n,
// column-major), then the weight-space minimizer Ḡ_S = DᵀX/S [def:wms] (m × n, column-major).
// Given X, E[ξ | X] = 0 makes the first conditionally unbiased for A and the second for Ḡ = AΣ.
//
// The reference solves XMᵀ = D by column-pivoted Householder QR (Eigen); the cpu path solves
// the normal equations (XᵀX)Mᵀ = XᵀD by Cholesky in plain loops, the same minimizer in other
// arithmetic. No device kernel; sample_minimizers_has(Backend) says which backends run it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "akm/base/linalg.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// The key law, the value map, the noise and the sample size.
struct SampleMinimizers {
  Vec sqrt_lambda;  ///< √λ of the key law in its eigenbasis; n = its size
  Mat basis;  ///< U (n × n, orthogonal): x = U(√λ ∘ z); empty: the identity
  Mat A;  ///< m × n value map: δ = Ax + σξ
  double sigma = 0.5;  ///< σ of ξ
  int samples = 50;  ///< S pairs a trial, ≥ n (XᵀX must be invertible)

  int n() const { return int(sqrt_lambda.size()); }  ///< the key's dimension
  int m() const { return int(A.rows()); }  ///< the value's dimension
  std::size_t entries() const { return std::size_t(m()) * n(); }  ///< entries of one minimizer
  /// Entry (r, j) of the function-space minimizer (weight_space false) or of Ḡ_S.
  std::size_t obs(bool weight_space, int r, int j) const {
    return (weight_space ? entries() : 0) + std::size_t(j) * m() + std::size_t(r);
  }
  std::size_t n_obs() const { return 2 * entries(); }  ///< observables per trial
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b (reference and cpu).
inline bool sample_minimizers_has(Backend b) { return b == Backend::reference || b == Backend::cpu; }

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), trial t on the
/// streams (seed, t, keys) and (seed, t, noise), on `backend` (reference or cpu).
void sample_minimizers_rows(const SampleMinimizers& op, std::uint64_t seed, Backend backend, long long first,
                            long long count, int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend` (reference or cpu), folded
/// in chunk order (monte_carlo_rows): independent of the thread count.
McResult sample_minimizers(const SampleMinimizers& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
