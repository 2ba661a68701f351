// moments — exact Gaussian-key moments of the normalized key x̂ = x/‖x‖
// (docs/architecture.md, "Exact Gaussian-key moments").
//
// For x ~ N(0, U diag(λ) Uᵀ), Σ̂ = E[x̂x̂ᵀ] and K = E[‖x‖x̂x̂ᵀ] are diagonal in U:
//   λ̂_i = ∫_0^∞ λ_i (1+2λ_i t)^{-1} Π_j (1+2λ_j t)^{-1/2} dt
//   κ_i  = π^{-1/2} ∫_0^∞ t^{-1/2} λ_i (1+2λ_i t)^{-1} Π_j (1+2λ_j t)^{-1/2} dt
//   E[x̂_i²x̂_j²] (i≠j) = ∫_0^∞ t λ_iλ_j (1+2λ_i t)^{-1}(1+2λ_j t)^{-1} Π_k (…)^{-1/2} dt
//   E[x̂_i⁴]            = ∫_0^∞ 3t λ_i² (1+2λ_i t)^{-2} Π_k (…)^{-1/2} dt
// computed by a double-exponential (exp-sinh) trapezoid rule refined until the relative
// change is below the tolerance; Σ_i λ̂_i = 1 is verified on every call.
#pragma once
#include "akm/base/linalg.hpp"

namespace akm {

/// Exact Gaussian-key moments per direction (quadrature), with its accuracy.
struct KeyMoments {
  Vec lambda;      ///< λ_i of Σ (input)
  Vec lambda_hat;  ///< λ̂_i, eigenvalues of Σ̂ (unit trace)
  Vec kappa;       ///< κ_i = u_iᵀ K u_i
  Mat fourth;      ///< Q_ij = E[x̂_i² x̂_j²]; empty unless requested
  double trace_error = 0.0;  ///< |Σ λ̂_i − 1|
  int nodes = 0;             ///< integrand evaluations used by the quadrature
  double step = 0.0;         ///< final trapezoid step h in the exp-sinh variable v
};

/// Exact moments for Gaussian keys with covariance eigenvalues `lambda` (all > 0).
/// Throws std::runtime_error if the quadrature does not reach `rel_tol` or Σλ̂ ≠ 1.
KeyMoments gaussian_key_moments(const Vec& lambda, bool with_fourth = false,
                                double rel_tol = 1e-12);

}  // namespace akm
