// theory — every closed form of the statements T1–T8 check (and f(γ) of T14; docs/claims.md). No randomness.
//
// One source of truth per formula: experiments, tests and `akm theory` all call these.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "akm/base/key.hpp"
#include "akm/base/linalg.hpp"

namespace akm {

namespace theory {

/// μ = (1−β)/η, the Tikhonov ridge [eq:dm-eigen].
double mu(double beta, double eta);
/// β̃_i = β − η·λ (λ = λ_i for the raw key, λ̂_i for the normalized key) [eq:transport-lemma].
double beta_tilde(double beta, double eta, double lam);
/// τ_i = 1/(1−β̃_i) [eq:horizon].
double horizon(double beta_tilde);
/// φ_i = 1/(μ+λ_i) [eq:dm-eigen].
double phi(double mu, double lam);
/// r_i = ηλ̂_i/(1−β) [eq:ratio]; the horizon ratio EMA/AK is 1 + r_i.
double ratio_r(double beta, double eta, double lam_hat);
/// E[M_t u_i] for M_0 = 0 along one direction: target·(1 − β̃^t) [thm:fixedpoint transient].
double transient_mean(double target, double beta_tilde, long long t);

/// M* = G(μI + S)^{-1} in any basis, by an SPD solve: (G, S) = (Ḡ, Σx) for the raw key
/// [eq:dm-fixedpoint], (Ĝ, Σ̂) for the normalized key [eq:dm-fixedpoint-norm]; μ = 0 is the
/// Wiener point GS^{-1} (S ≻ 0), the K-FAC input-side factor for (Ḡ, Σx) [rem:kfac].
Mat fixed_point(const Mat& G, const Mat& S, double mu);
/// E[M_t] = M*(I − (βI − ηS)^t) from M_0 = 0, the matrix form of transient_mean: the mean
/// recursion E[M_t] = βE[M_{t−1}] + η(G − E[M_{t−1}]S) is exact because M_{t−1} is
/// independent of the step-t key [thm:fixedpoint]. M* = fixed_point(G, S, (1−β)/η).
Mat transient_mean(const Mat& G, const Mat& S, double beta, double eta, long long t);
/// A^Δ = [[1−αc, −αβ̃],[c, β̃]] on (e_{t,i}, μ_{t−1,i}) [eq:iter-matrices, eq:loss-free-A].
Mat2 iter_matrix_ak(double alpha, double c, double beta_tilde);
/// A^EMA = [[1−α(1−β)λ, −αβ],[(1−β)λ, β]] — the EMA buffer sees the raw gradient.
Mat2 iter_matrix_ema(double alpha, double beta, double lambda);
/// Spectral radius of a real 2×2 matrix from trace and determinant (closed form).
double spectral_radius(const Mat2& A);
/// Discriminant tr(A)² − 4 det(A) [lem:det-bound].
double discriminant(const Mat2& A);
/// Interval of α·c on which the AK map with determinant `det` is underdamped:
/// ((1−√det)², (1+√det)²) [eq:underdamped-cond]; nullopt when det ≤ 0 (never underdamped).
std::optional<std::pair<double, double>> underdamped_band(double det);
/// The window predicate [eq:underdamped-cond]: the map with determinant `det` (β̃_i for the
/// delta rule, β for EMA) and step-coupling product α·c is underdamped (a complex pair),
/// i.e. α·c lies strictly inside underdamped_band(det). Tested against Eigen's eigenvalues.
bool underdamped(double alpha_c, double det);
/// |d/d det| of the band's lower (upper = false) or upper edge (1 ∓ √det)²: (1 ∓ √det)/√det.
/// Both slopes decrease in det on (0, 1], so moving the memory from β̃ = β − ηλ̂ to β moves
/// each edge by at most slope(β̃)·ηλ̂ (mean value theorem): the leading-order match of the
/// delta-rule and EMA windows at matched (α, β) [rem:underdamped-typicality]. det > 0.
double underdamped_edge_slope(double det, bool upper);
/// min over α of ρ(A) = √det A for det > 0 [lem:loss-free-det]; √|det| for det ≤ 0
/// (attained at tr A = 0, i.e. αc = 1 + det).
double min_alpha_rho(double det);
/// Steady lag per unit drift b/(1−b) [prop:nc1-main]: b = β̃_i (AK) or β (EMA).
double lag_per_unit_drift(double contraction);
/// cond(μI+Σ̂) ≤ 1 + η/(1−β) [eq:cond-ceiling].
double cond_ceiling(double beta, double eta);
/// Σ_i w_i β̃_i = β − η Σ w_i² for unit-sum w (β̃_i = β − ηw_i) [eq:weighted-mean];
/// InputError when |Σ w_i − 1| > 1e-8.
double weighted_mean_contraction(double beta, double eta, const Vec& w);
/// Σ_i w_i² (‖Σ̂‖_F² for w = λ̂).
double frobenius_sq(const Vec& w);
/// Mean-square rule of thumb for a buffer fed the raw gradient (e·x)x with Gaussian keys
/// x ~ N(0, diag λ): from E[xxᵀxxᵀ] = 2Σ² + tr(Σ)Σ the iteration stays mean-square stable,
/// and Monte-Carlo means keep finite-variance errors, while γ·(2λ_max + tr Σ) < 2, with
/// γ = α × the buffer's largest gain (EMA: 1; AK, raw key: η/(1−β)). A rule of thumb, not a
/// theorem: callers warn or keep a margin. ms_rule_scale is 2λ_max + tr Σ ...
double ms_rule_scale(const Vec& lambda);
/// ... and ms_rule_load is γ·(2λ_max + tr Σ), inside the rule when < kMsRuleLimit.
double ms_rule_load(double gamma, const Vec& lambda);
/// The rule of thumb's limit: γ·(2λ_max + tr Σ) < 2.
inline constexpr double kMsRuleLimit = 2.0;
/// Correction cost fraction of the deployed rule per block f(γ) = (6+4γ)/(24+18γ)
/// [thm:deployed-overhead]. γ = +∞ gives the limit 2/9; γ < 0 or NaN is an InputError.
double deployed_overhead_f(double gamma);

}  // namespace theory

}  // namespace akm
