// fitted_map — the per-direction 2×2 map fitted from (e_t, μ_{t−1}) trajectories, with its
// jackknife standard errors. One definition for `akm simulate` (app/simulate.cpp) and the
// experiments that fit rates (T4, T10).
//
// Along u_i, E[s_{t+1} | past] = A_i s_t for s_t = (e_{t,i}, μ_{t−1,i}) [eq:iter-matrices], so
// pooled least squares over trials and steps, Â = (Σ s_{t+1}s_tᵀ)(Σ s_t s_tᵀ)⁻¹, is a
// consistent estimate of A_i; its second row is (c_i, β̃_i). A run keeps per direction the
// 7 pooled moments q (S00 = Σ s_t s_tᵀ: q0 q1 q2; S10 = Σ s_{t+1}s_tᵀ: q3 q4 q5 q6) as trial
// observables, and the jackknife over trial groups gives each function of Â its error.
#pragma once
#include <array>
#include <cstddef>

#include "akm/base/linalg.hpp"
#include "akm/sim/jackknife.hpp"
#include "akm/sim/mean_estimate.hpp"

namespace akm {

/// Regression moments per direction.
constexpr int kMapMoments = 7;

/// Adds one step s = (e, μ) → s' = (e1, μ1) to the moments q[0], q[stride], …, q[6·stride]:
/// e², eμ, μ², e1·e, e1·μ, μ1·e, μ1·μ.
inline void add_map_moments(double* q, double e, double mu, double e1, double mu1,
                            std::size_t stride = 1) {
  q[0] += e * e, q[stride] += e * mu, q[2 * stride] += mu * mu;
  q[3 * stride] += e1 * e, q[4 * stride] += e1 * mu, q[5 * stride] += mu1 * e, q[6 * stride] += mu1 * mu;
}

/// Â = S10·S00⁻¹ from the 7 moments q (pooled means or sums: the scale cancels).
Mat2 fitted_map(const double* q);

/// Functions of the fitted map, each a bias-corrected jackknife estimate with its error.
struct FittedMapEstimate {
  MeanEstimate coupling;     ///< Â(1,0): c_i
  MeanEstimate contraction;  ///< Â(1,1): β̃_i (AK) or β (EMA)
  MeanEstimate rate;         ///< ρ(Â) (not smooth where the discriminant crosses 0)
  MeanEstimate trace;  ///< tr Â (smooth everywhere)
  MeanEstimate det;  ///< det Â (smooth everywhere)
  MeanEstimate disc;         ///< tr² − 4 det [lem:det-bound]
};

/// The fitted map of the direction whose moments are observables idx[0..7) of the jackknife's
/// groups: one pass over the leave-one-out means for all six functions.
FittedMapEstimate fit_map(const Jackknife& jack, const std::array<std::size_t, kMapMoments>& idx);

}  // namespace akm
