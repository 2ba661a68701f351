// theory/report — the per-direction table of every closed form at one (β, η, α, key) and
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
  double lambda = 0, lambda_hat = 0, kappa = 0;
  double beta_tilde = 0, tau = 0, phi = 0;
  double coupling_ak = 0, coupling_ema = 0;  ///< c = ηκ_i or ηλ_i; (1−β)λ_i
  double det_ak = 0, det_ema = 0, rho_ak = 0, rho_ema = 0;
  bool underdamped_ak = false;
  std::optional<std::pair<double, double>> band;
  double lag_ak_per_unit_drift = 0, lag_ema_per_unit_drift = 0;
};

/// The inputs of a report beyond the spectrum, and the one place their defaults live: `akm
/// theory`, akm.theory() and akm explore read them (β and η are required there; α only
/// enters the rates).
struct TheoryInputs {
  double beta = 0.9, eta = 0.5, alpha = 0.1;
  Key key = Key::normalized;
};

struct TheoryReport {
  double beta = 0, eta = 0, alpha = 0;
  Key key = Key::normalized;
  double mu = 0, weighted_mean_contraction = 0, frobenius_sq = 0, cond_ceiling = 0;
  std::vector<DirectionTheory> directions;
};

/// Validates (β ∈ [0,1), η > 0, α > 0) and evaluates every closed form per direction.
/// Gaussian-key moments come from the exact quadrature of akm/spectrum/moments.hpp.
TheoryReport make_theory_report(const TheoryInputs& in, const Spectrum& spectrum);

/// Refuses an η at which the buffer does not contract (the closed forms τ, φ, rates and lags
/// describe a contracting buffer, every β̃_i > −1): normalized key η < 1+β
/// [thm:unconditional-stability], raw key η·λ_max < 1+β in expectation (T7). InputError
/// naming eta otherwise. Used by `akm theory` and akm.theory() before make_theory_report.
void require_contraction(double beta, double eta, Key key, const Spectrum& s);

/// The JSON contract of `akm theory --json` (names are stable; see README).
nlohmann::json to_json(const TheoryReport& r);

}  // namespace akm
