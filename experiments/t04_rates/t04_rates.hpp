// T4 rates — the parts shared by t04_rates*.cpp: the design constants, the arms with their
// per-direction 2×2 maps [eq:iter-matrices], the observable layout, the Monte-Carlo run,
// the fixed-α counterexample map (model.cpp) and the underdamped window (underdamped.cpp).
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "akm/check/pooled.hpp"
#include "akm/sim/fitted_map.hpp"
#include "common.hpp"

namespace akm::exp::t04 {

constexpr double kEtaNorm = 0.5;
constexpr double kLabelNoise = 0.1;
constexpr int kSteps = 120;
constexpr int kGroups = 200;  // jackknife groups: a t tail with 199 dof ≈ normal at z ≈ 6
constexpr double kGamma0 = 0.1;  // α·c_1 of the normalized arm
inline const std::vector<int> kCheckSteps{1, 5, 20, 50};

struct Arm {
  BufferKind rule;
  double eta;    // AK only
  double alpha;
  // Per-direction 2×2 map [eq:iter-matrices].
  Mat2 A(const Setting& s, int i) const {
    switch (rule) {
      case BufferKind::ak_normalized:
        return theory::iter_matrix_ak(alpha, eta * s.moments.kappa[i],
                                      theory::beta_tilde(kBeta, eta, s.moments.lambda_hat[i]));
      case BufferKind::ak_raw:
        return theory::iter_matrix_ak(alpha, eta * s.spectrum.lambda[i],
                                      theory::beta_tilde(kBeta, eta, s.spectrum.lambda[i]));
      case BufferKind::ema:
      case BufferKind::delta:  // not an arm of T4
        break;
    }
    return theory::iter_matrix_ema(alpha, kBeta, s.spectrum.lambda[i]);
  }
  /// The same map as a function of (η, β, s·λ) (s scales the eigenvalue the buffer contracts
  /// with: λ̂_i normalized, λ_i raw — where it is also the coupling — or EMA's λ_i), for the
  /// resolution of the checks (sensitivity.hpp). `memory` replaces the contraction by a
  /// given value (NaN: the arm's own): the alternatives below.
  Mat2 A_at(const Setting& s, int i, double e, double b, double sc,
            double memory = std::numeric_limits<double>::quiet_NaN()) const {
    const bool own = std::isnan(memory);
    switch (rule) {
      case BufferKind::ak_normalized:
        return theory::iter_matrix_ak(alpha, e * s.moments.kappa[i],
                                      own ? theory::beta_tilde(b, e, sc * s.moments.lambda_hat[i]) : memory);
      case BufferKind::ak_raw:
        return theory::iter_matrix_ak(alpha, e * sc * s.spectrum.lambda[i],
                                      own ? theory::beta_tilde(b, e, sc * s.spectrum.lambda[i]) : memory);
      case BufferKind::ema:
      case BufferKind::delta:
        break;
    }
    return theory::iter_matrix_ema(alpha, b, sc * s.spectrum.lambda[i]);
  }
  double det(const Setting& s, int i) const {
    if (rule == BufferKind::ema) return kBeta;
    return theory::beta_tilde(kBeta, eta, rule == BufferKind::ak_raw ? s.spectrum.lambda[i] : s.moments.lambda_hat[i]);
  }
};

// Observables: (e_t, μ_{t−1}) for t = 0..T per direction, state index (t, i, component);
// then, per direction, the per-trial regression moments Σ_t s_t s_tᵀ (3) and Σ_t s_{t+1}s_tᵀ (4).
inline std::size_t at(int n, int t, int i, int comp) { return (static_cast<std::size_t>(t) * n + i) * 2 + comp; }
inline std::size_t mom(int n, int i, int k) { return at(n, kSteps + 1, 0, 0) + static_cast<std::size_t>(i) * 7 + k; }

/// The exact mean state A^t s_0 from s_0 = (e_0, μ_{−1}) = (1, 0): the prediction of every
/// recorded step, for the checks and the pooled recovery alike.
inline Vec2 mean_state(const Mat2& A, int t) {
  Vec2 v(1.0, 0.0);
  for (int q = 0; q < t; ++q) v = A * v;
  return v;
}

McResult simulate(ExperimentContext& ctx, const Setting& s, const Arm& arm, std::uint64_t seed, long long R);

/// One direction of one arm, predicted before simulating: the map A_i and its alternative
/// (EMA's memory for an AK arm, the main text's κ_i row for EMA), the exact mean paths
/// A^t s_0 for t = 0..kSteps, ρ(A_i) and whether α·c_i lies in the underdamped band.
struct DirPrediction {
  Mat2 A, A_alt;
  std::vector<Vec2> path, path_alt;
  double rho;
  bool under;
};
DirPrediction predict(const Setting& s, const Arm& arm, int i);

/// One arm on one spectrum: its predictions, then its Monte-Carlo moments and fitted maps.
struct ArmRun {
  std::size_t setting;  // index into the run's settings
  Arm arm;
  std::vector<DirPrediction> dirs;
  McResult res{};
  std::vector<FittedMapEstimate> fit{};
};

/// The record pass (tables.cpp): the per-spectrum rate tables and figures, the spiked u1
/// trajectory, and the finding on the EMA row's coupling.
void write_tables(ExperimentContext& ctx, const std::vector<Setting>& settings, const std::vector<ArmRun>& runs);

// The fitted per-direction map (sim/fitted_map.hpp): given F_t, E[s_{t+1,i}] = A_i s_{t,i}
// holds trial by trial (Σ̂ and K are diagonal in the eigenbasis, so direction i's conditional
// mean involves only direction i's state), so pooled least squares over trials and steps is
// a consistent estimate of A_i; ρ(Â) is the fitted rate.
std::array<std::size_t, kMapMoments> map_moments(int n, int i);

/// Adds one arm's recorded mean states and fitted maps to the claim's pooled recovery
/// (pooled.cpp).
void add_pooled(PooledRecovery& pooled, const Setting& s, const ArmRun& run);

/// The fixed-α counterexample: ρ^Δ/ρ^EMA over (αc, η) for the top spiked direction.
void counterexample_map(ExperimentContext& ctx, const Setting& s);

/// The explicit underdamped condition [rem:underdamped-typicality] (underdamped.cpp): checks
/// the window against the maps' eigenvalues on a declared grid and on T4's spectra (at the
/// normalized arm's α, alpha_norm[k] for settings[k]), and the leading-order match at
/// matched (α, β); returns the tallies, for params["underdamped_window"].
nlohmann::json underdamped_window(ExperimentContext& ctx, const std::vector<Setting>& settings,
                                  const std::vector<double>& alpha_norm);

}  // namespace akm::exp::t04
