// theory/direction_table — the per-direction table of every closed form at one (β, η, α, key) and
// spectrum: the rows of `akm theory --json` and of the Python module's akm.theory().
#pragma once
#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/base/key.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/theory.hpp"

namespace akm {

/// Per-direction closed forms, the rows of `akm theory --json`.
struct DirectionTheory {
  double lambda = 0;  ///< eigenvalue λ_i of Σ
  double lambda_hat = 0;  ///< λ̂_i, the normalized key's eigenvalue
  double kappa = 0;  ///< κ_i = u_iᵀ K u_i
  double beta_tilde = 0;  ///< contraction β̃_i of the AK buffer
  double tau = 0;  ///< horizon τ_i = 1/(1 − β̃_i) [eq:horizon]
  double phi = 0;  ///< φ_i = 1/(μ + λ̂_i) (raw key: 1/(μ + λ_i))
  double coupling_ak = 0;  ///< AK coupling c = ηκ_i (normalized) or ηλ_i (raw)
  double coupling_ema = 0;  ///< EMA coupling (1−β)λ_i
  double det_ak = 0;  ///< det of the AK 2×2 map at α
  double det_ema = 0;  ///< det of the EMA 2×2 map at α
  double rho_ak = 0;  ///< spectral radius of the AK map [eq:iter-matrices]
  double rho_ema = 0;  ///< spectral radius of the EMA map
  bool underdamped_ak = false;  ///< α·c lies in the AK map's underdamped band [eq:underdamped-cond]
  std::optional<std::pair<double, double>> band;  ///< interval of α·c where the AK map is underdamped; empty when there is none
  double lag_ak_per_unit_drift = 0;  ///< β̃_i/(1 − β̃_i)
  double lag_ema_per_unit_drift = 0;  ///< β/(1 − β)
};

/// The inputs of a report beyond the spectrum, and the one place their defaults live: `akm
/// theory`, akm.theory() and akm explore read them (β and η are required there; α only
/// enters the rates).
struct TheoryInputs {
  double beta = 0.9;  ///< decay β
  double eta = 0.5;  ///< AK step η
  double alpha = 0.1;  ///< learning rate α (enters the rates only)
  Key key = Key::normalized;  ///< AK key
};

/// The closed forms of `akm theory` for one (β, η, α, key) and spectrum.
struct TheoryReport {
  double beta = 0;  ///< decay β
  double eta = 0;  ///< AK step η
  double alpha = 0;  ///< learning rate α
  Key key = Key::normalized;  ///< AK key
  double mu = 0;  ///< μ = (1−β)/η
  double weighted_mean_contraction = 0;  ///< Σ w_i β̃_i
  double frobenius_sq = 0;  ///< Σ w_i²
  double cond_ceiling = 0;  ///< 1 + η/(1−β) [eq:cond-ceiling]
  std::vector<DirectionTheory> directions;  ///< one row per direction
};

/// Validates (β ∈ [0,1), η > 0, α > 0) and evaluates every closed form per direction.
/// Gaussian-key moments come from the exact quadrature of akm/spectrum/moments.hpp.
TheoryReport make_theory_report(const TheoryInputs& in, const Spectrum& spectrum);

/// Refuses an η at which the buffer does not contract (the closed forms τ, φ, rates and lags
/// describe a contracting buffer, every β̃_i > −1): normalized key η < 1+β
/// [thm:unconditional-stability], raw key η·λ_max < 1+β in expectation (T7). InputError
/// naming eta otherwise. Used by `akm theory` and akm.theory() before make_theory_report.
void require_contraction(double beta, double eta, Key key, const Spectrum& s);

/// The JSON contract of `akm theory --json` (names are stable; see docs/cli.md).
nlohmann::json to_json(const TheoryReport& r);

}  // namespace akm
