// newton_schulz — Muon's orthogonalisation, the post-processing AK-Muon applies to the AK
// buffer M_t [cor:mup-base-lr, "AK-Muon: the Newton–Schulz output NS(M_t)"; app:structured,
// "the delta buffer would replace the EMA that feeds Newton–Schulz"].
//
// NS(G) drives the singular values of G towards 1 and keeps its singular vectors. From
// X₀ = G/‖G‖_F (every singular value in (0, 1]) each step is
//
//     A = X Xᵀ,   X ← aX + (bA + cA²)X,
//
// which maps X = UΣVᵀ to U p(Σ) Vᵀ for the odd quintic p(σ) = aσ + bσ³ + cσ⁵. Muon's
// coefficients (a, b, c) = (3.4445, −4.7750, 2.0315) buy a steep slope p'(0) = a for
// convergence to a band around 1 instead of to 1: after 5 steps the singular values of a
// well-conditioned G lie in quintic_band(floor, 5), not at 1. The iteration runs on the wide
// orientation (rows ≤ columns), where A is the smaller Gram matrix; a tall G is transposed in
// and out, so NS(Gᵀ) = NS(G)ᵀ exactly.
//
// newton_schulz() is the fast path (matrix products only); newton_schulz_svd() the plain
// reference U p^k(Σ/‖G‖_F) Vᵀ from an SVD; tests/test_newton_schulz.cpp holds them together
// within rounding_bound(). akm.torch (src/python/akm/torch/newton_schulz.py) runs the same
// iteration; it adds ε = 1e-7 to ‖G‖_F as Muon's reference does, so that NS(0) = 0, where
// this one refuses a zero G (its direction is undefined) and is exactly scale-free.
#pragma once
#include "akm/base/linalg.hpp"

namespace akm::ns {

/// The quintic's coefficients p(σ) = aσ + bσ³ + cσ⁵.
struct Coefficients {
  double a;  ///< of σ: the slope p'(0), the growth of small singular values per step
  double b;  ///< of σ³
  double c;  ///< of σ⁵
};
/// Muon's coefficients (Jordan et al.'s reference implementation).
inline constexpr Coefficients kMuon{3.4445, -4.7750, 2.0315};
/// Muon's number of iterations.
inline constexpr int kSteps = 5;

/// p(σ) = aσ + bσ³ + cσ⁵: what one step does to each singular value.
double quintic(double sigma);
/// p'(σ) = a + 3bσ² + 5cσ⁴.
double quintic_slope(double sigma);
/// p applied `steps` times.
double iterate(double sigma, int steps);

/// Throws InputError (naming G or steps, the value and the valid range) for an empty, zero or
/// non-finite G or steps < 1, before any work.
void validate(ConstMatRef G, int steps);
/// NS(G): `steps` quintic iterations on G/‖G‖_F, on the wide orientation. Validates first.
Mat newton_schulz(ConstMatRef G, int steps = kSteps);
/// The reference U p^steps(Σ/‖G‖_F) Vᵀ from a thin SVD of G (JacobiSVD). Validates first.
Mat newton_schulz_svd(ConstMatRef G, int steps = kSteps);

/// An interval of singular values.
struct Band {
  double lo;  ///< lower end
  double hi;  ///< upper end
};
/// Where `steps` iterations take singular values that start in [floor, 1]: a guaranteed
/// enclosure [lo, hi] of p^steps over that interval (a grid of `points` values widened by
/// the grid's Lipschitz margin), floor in [0, 1).
Band quintic_band(double floor, int steps, int points = 2000001);

/// The first-order error model of the iteration in float64 (u = 2⁻⁵³), in Frobenius norm:
///   s_max      ≥ every singular value of every iterate X_t, t ≤ steps (X₀'s are ≤ 1);
///   lipschitz  L = max |p'| on [0, s_max]: one exact step moves a perturbation of X by at
///              most L in Frobenius norm (the step is the generalized matrix function U p(Σ)Vᵀ,
///              whose Fréchet derivative multiplies by divided differences of the odd p);
///   rounding   ‖newton_schulz(G) − NS(G)‖_F ≤ L^k e₀ + Σ_t L^{k−t} e_step, with
///              e₀ = (rows·cols/2 + 2)u (the Frobenius normalisation) and e_step the error of
///              one computed step on an r×k wide iterate of ‖X‖_F ≤ x = √r·s_max (a product
///              P·Q of inner dimension j errs by at most j·u·‖P‖_F‖Q‖_F entrywise summed;
///              the terms are derived in newton_schulz.cpp). A bound, first order in u.
struct ErrorModel {
  double s_max;      ///< bound on every singular value of every iterate
  double lipschitz;  ///< L = max |p'| on [0, s_max]
  double rounding;   ///< the Frobenius-norm bound on newton_schulz's rounding error
};
/// The error model of newton_schulz on a rows×cols G with `steps` iterations (the comment above).
ErrorModel error_model(int rows, int cols, int steps = kSteps);

}  // namespace akm::ns
