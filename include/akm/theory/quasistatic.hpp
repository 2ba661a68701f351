// quasistatic — the exact mean of the delta-rule buffer when Σ̂ and Ĝ move, and the
// quasi-static fixed point it is compared with [thm:fixedpoint, cor:fixedpoint-normalized,
// app:scope].
//
// With a fresh key at every step, independent of M_{t−1}, taking expectations of
// M_t = βM_{t−1} + η(δ_t − M_{t−1}k_t)k_tᵀ gives, for any schedule (Σ̂_t, Ĝ_t),
//   E[M_t] = E[M_{t−1}](βI − ηΣ̂_t) + ηĜ_t
// exactly (the step of the proof of thm:fixedpoint, which uses only that independence). The
// quasi-static fixed point of step t, M*_t = ηĜ_t((1−β)I + ηΣ̂_t)⁻¹, is the fixed point of that
// step's map; the gap e_t = E[M_t] − M*_t therefore obeys e_t = (e_{t−1} − (M*_t − M*_{t−1}))
// (βI − ηΣ̂_t), the lag recursion of thm:tracking and prop:nc1.
#pragma once
#include <vector>

#include "akm/base/linalg.hpp"

namespace akm::theory {

/// M* = ηĜ((1−β)I + ηΣ̂)⁻¹ [eq:dm-fixedpoint] for Ĝ (m×n) and symmetric Σ̂ (n×n): theory::fixed_point
/// at μ = (1−β)/η, named for the step of a schedule.
Mat quasi_static_fixed_point(const Mat& G_hat, const Mat& Sigma_hat, double beta, double eta);

/// One step of the exact mean recursion: M(βI − ηΣ̂) + ηĜ.
Mat mean_buffer_step(const Mat& M, const Mat& G_hat, const Mat& Sigma_hat, double beta, double eta);

/// E[M_t] for t = 0..T from E[M_0] = M0 under the schedule Σ̂_t = Sigma_hat[t−1],
/// Ĝ_t = G_hat[t−1] (t = 1..T); both schedules the same length T, else InputError.
std::vector<Mat> mean_buffer_trajectory(const Mat& M0, const std::vector<Mat>& G_hat,
                                        const std::vector<Mat>& Sigma_hat, double beta, double eta);

}  // namespace akm::theory
