// estimator — the AK fixed point as gradient estimator and preconditioner at once
// [app:estimator-and-preconditioner, def:wms, def:fms, cor:fixedpoint-normalized].
//
// Weight space and function space are one linear space under two inner products,
// ⟨A,B⟩_F and E⟨Ax̂,Bx̂⟩ = tr(AΣ̂Bᵀ). J_w [def:wms] and J_f [def:fms] both maximize the
// same linear functional ⟨M,Ĝ⟩ = E⟨δ, Mx̂⟩, with ‖M‖_F resp. E‖Mx̂‖² held fixed; the
// Tikhonov family N²(M) = a‖M‖_F² + b·tr(MΣ̂Mᵀ) with (a,b) = (μ,1) interpolates, and its
// maximizer is ∝ Ĝ(aI + bΣ̂)^{-1} — for (μ,1) the AK fixed point M* = Ĝ(μI+Σ̂)^{-1}.
//
// Σ̂ is held in factored form U diag(λ) Uᵀ and every quantity is computed in its
// eigenbasis (columns of ĜU scaled per eigenvalue), so condition numbers of 1e12 and exact
// zeros lose nothing to forming and inverting Σ̂. Plain references (form the matrix, LDLT)
// sit beside the factored paths and tests hold the two together.
#pragma once
#include <cstdint>

#include "akm/base/linalg.hpp"

namespace akm::estimator {

/// A PSD second moment Σ̂ = U diag(λ) Uᵀ.
struct PsdFactors {
  Mat U;       ///< n×n orthogonal
  Vec lambda;  ///< eigenvalues, finite, ≥ 0 (any order)

  /// Dimension n.
  int n() const { return static_cast<int>(lambda.size()); }
  Mat matrix() const;          ///< U diag(λ) Uᵀ
  /// Largest eigenvalue.
  double lambda_max() const;
  double lambda_min() const;   ///< smallest eigenvalue (0 when rank deficient)
  int rank() const;            ///< number of λ_i > 0
  /// λ_max / smallest nonzero λ (the condition number on the range of Σ̂).
  double cond_on_range() const;
};

/// Validated factors: U square, orthogonal to 1e-10 (max |UᵀU − I|), λ of matching size,
/// finite and ≥ 0, not all zero. InputError names the offending argument.
PsdFactors make_psd(Mat U, Vec lambda);

/// A random unit-trace Σ̂ (as every normalized-key second moment is, [prop:bounded-sigma-hat]):
/// Haar U; n − zeros nonzero eigenvalues with λ_max/λ_min = 10^decades exactly (the two
/// ends pinned, the rest log-uniform between), then `zeros` exact zeros.
/// Needs n ≥ 1, 0 ≤ zeros < n, 0 ≤ decades ≤ 15 (beyond that λ_min underflows relative
/// to double precision).
PsdFactors random_unit_trace_psd(int n, double decades, int zeros, std::uint64_t seed);

/// P = ((1−β)I + ηΣ̂)^{-1} from the factors: U diag(1/((1−β)+ηλ_i)) Uᵀ
/// [app:estimator-and-preconditioner]. Needs β ∈ [0,1), η > 0.
Mat ak_preconditioner(const PsdFactors& s, double beta, double eta);
/// Plain reference: form (1−β)I + ηΣ̂ and invert by LDLT.
Mat ak_preconditioner_reference(ConstMatRef sigma_hat, double beta, double eta);

/// M* = Ĝ(μI+Σ̂)^{-1}, μ = (1−β)/η, from the factors [cor:fixedpoint-normalized].
Mat fixed_point(ConstMatRef G_hat, const PsdFactors& s, double beta, double eta);
/// Plain reference in the paper's other form: ηĜ((1−β)I+ηΣ̂)^{-1} by LDLT.
Mat fixed_point_reference(ConstMatRef G_hat, ConstMatRef sigma_hat, double beta, double eta);

/// Norm N²(M) = a‖M‖_F² + b·tr(MΣ̂Mᵀ): (1,0) holds ‖M‖_F fixed (J_w), (0,1) the output
/// change E‖Mx̂‖² (J_f), (μ,1) the Tikhonov interpolation. Needs a, b ≥ 0, a + b > 0.
struct Constraint {
  double a = 1.0;  ///< weight on ‖M‖_F²
  double b = 0.0;  ///< weight on tr(MΣ̂Mᵀ)
};
Constraint weight_space();                 ///< (1, 0)  [def:wms]
Constraint function_space();               ///< (0, 1)  [def:fms]
Constraint tikhonov(double mu);            ///< (μ, 1), μ > 0

/// N(M) computed in the eigenbasis.
double constraint_norm(ConstMatRef M, const PsdFactors& s, Constraint c);

/// argmax ⟨M,Ĝ⟩ subject to N(M) = 1 and its value:
///   M = Ĝ U diag(1/w) Uᵀ / value,  value = sqrt(Σ_i ‖ĜUe_i‖²/w_i),  w_i = a + bλ_i.
/// Where w_i = 0 (a = 0, λ_i = 0) the functional is unbounded unless Ĝ has no component
/// along u_i; Ĝ = E[δx̂ᵀ] never has one (x̂ ⟂ u_i almost surely), so such components must
/// be ≤ 1e-12‖Ĝ‖_F (else InputError) and the maximizer is the pseudo-inverse one.
struct Maximizer {
  Mat M;  ///< the maximizer
  double value = 0.0;  ///< the maximum ⟨M,Ĝ⟩
};
/// The maximizer of ⟨M,Ĝ⟩ under N(M) = 1 (above).
Maximizer constrained_maximizer(ConstMatRef G_hat, const PsdFactors& s, Constraint c);

/// ⟨A,B⟩_F and the cosine ⟨A,B⟩/(‖A‖‖B‖).
double frobenius_inner(ConstMatRef A, ConstMatRef B);
/// cos(A, B) = ⟨A,B⟩/(‖A‖‖B‖).
double cosine(ConstMatRef A, ConstMatRef B);

/// Kantorovich floor 2√κ/(1+κ): the cosine between v and Qv for any SPD Q of condition
/// number κ is at least this. With Q = (μI+Σ̂)^{-1} ⊗ I it bounds cos(M*, Ĝ) from below.
double kantorovich_cosine(double kappa);

}  // namespace akm::estimator
