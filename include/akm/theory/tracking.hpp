// tracking — exact mean trajectory of a buffer across a distribution shift
// [thm:tracking, eq:tracking-ema, eq:tracking-delta, app:direction-selective-tracking].
//
// At step t0 the stream switches (Ḡ_0, Σ_0) → (Ḡ_1, Σ_1), Gaussian keys, one value row
// δ = a_kᵀx + ξ, M_0 = 0. Everything is written in Σ_1's eigen-coordinates: Σ_1 = diag(λ¹) and
// Σ_0 = Q diag(λ⁰) Qᵀ (Q = I when the eigenbasis does not move). The proof only uses that
// M_{t−1} is independent of the new key, so the mean trajectory is exact:
//   E[M_t] = M*_0 (I − (βI − ηΣ_0)^t) before the shift (thm:fixedpoint transient, M_0 = 0),
//   E[(M_{t0+k} − M*_1)u_i] = β̃_i^k (E[M_{t0}] − M*_1)u_i after it,
// with β̃_i = β − ηλ¹_i (raw key), β − ηλ̂¹_i (normalized key), β (EMA).
#pragma once
#include "akm/base/linalg.hpp"
#include "akm/rules/buffer_kind.hpp"

namespace akm::theory {

/// One shift: the two spectra with their exact Gaussian-key moments λ̂ = eig Σ̂, κ = eig K
/// (Ĝ = A K), the basis Q of Σ_0, the value rows a_0, a_1 and the noise σ of ξ.
struct TrackingShift {
  Vec lambda0;  ///< eigenvalues of Σ_0
  Vec lambda_hat0;  ///< λ̂ of Σ_0
  Vec kappa0;  ///< κ of Σ_0
  Vec lambda1;  ///< eigenvalues of Σ_1
  Vec lambda_hat1;  ///< λ̂ of Σ_1
  Vec kappa1;  ///< κ of Σ_1
  Mat Q;                             ///< column j: Σ_0's j-th eigenvector
  Vec a0;  ///< value row a_0 before the shift
  Vec a1;  ///< value row a_1 after the shift
  double beta = 0;  ///< decay β
  double noise_sigma = 0;  ///< σ of the value noise ξ
  int t0 = 0;                        ///< steps under (Ḡ_0, Σ_0)
};

/// Exact predictions for one buffer, one entry per direction u_i of Σ_1.
struct TrackingPrediction {
  Vec m_t0;    ///< E[M_{t0}]
  Vec mstar1;  ///< M*_1 [eq:dm-eigen]: a1_i λ_i φ_i (raw), a1_i κ_i φ̂_i (normalized), Ḡ_1u_i (EMA)
  Vec y0;      ///< E[T_{t0}]u_i = (E[M_{t0}] − M*_1)u_i
  Vec rate;    ///< β̃_i (AK) or β (EMA) after the shift
  /// Per-trial noise scale of T_{t0+k}u_i: exact for EMA, the additive-forcing approximation
  /// η² E[(δ − Mk)²] E[k_i²] / (1 − β̃²) for AK (it ignores the multiplicative key noise, so
  /// it is a scale, not a bound). Only used to choose which directions to fit.
  Vec scale;
};

/// The closed forms above for buffer `rule` (ak_raw, ak_normalized or ema) with step η
/// (unused for EMA).
TrackingPrediction tracking_prediction(const TrackingShift& s, BufferKind rule, double eta);

}  // namespace akm::theory
