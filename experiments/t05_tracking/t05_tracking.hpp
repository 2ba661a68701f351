// T5 tracking — what the claim's run, its model and its figures share (the claim and the
// design are stated in claim.cpp).
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "akm/check/pooled.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/sim/ops/tracking.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/tracking.hpp"
#include "common.hpp"
#include "sensitivity.hpp"

namespace akm::exp::t05 {


constexpr int kM = 1;  // one buffer row keeps the O(n²) pre-shift keys cheap
constexpr double kEtaNorm = 0.5;
constexpr double kRawFrac = 0.4;  // raw η = 0.4/λ_max over both spectra: β̃ ≥ 0.5 throughout
constexpr double kNoise = 0.5;    // σ of ξ
constexpr int kT0 = 60;           // steps under (Ḡ_0, Σ_0) before the shift
constexpr int kPost = 40;         // recorded lags k = 0..kPost after it
// Trial groups for the delete-one-group jackknife. Its standard error has groups − 1 degrees of
// freedom, and the checks compare |m − p| with z·se at z ≈ 6 (Bonferroni over the run): with
// 20 groups the t_19 tail at z = 6.1 is 7e-6 per check, far above the declared family rate;
// with 200 it is 5e-9, near the normal 1e-9.
constexpr int kGroups = 200;
constexpr double kWindowLevel = 0.05;  // fit window: until β̃^k falls to 5% of the offset
constexpr int kMinPairs = 3;           // at least 3 AR(1) pairs (4 points) per fit
constexpr double kMinSnr = 20.0;       // fit only where |y_0| ≥ 20 × predicted standard error
// Full mode's trials are set so that the pooled recovery resolves 0.5% in η and λ̂
// (docs/statistics.md, "Pooled recovery": it scales as 1/√trials; at 100000 it was 0.75%).
// Quick mode's buy 1% in η and λ̂ (the quick target).
constexpr long long kTrialsFull = 300000, kTrialsQuick = 120000;
// The trial count the fitted-direction selection is computed at (claim.cpp), in both modes and
// fixed apart from either run's trials: the quick count when the rule was set, so raising the
// trials does not change which directions are fitted.
constexpr long long kSelectionTrials = 20000;
inline const std::vector<int> kLags{0, 1, 3, 10, 30};

// Per-buffer arrays and observables are indexed by the BufferKind value.
constexpr int kAkRaw = static_cast<int>(BufferKind::ak_raw);
constexpr int kAkNorm = static_cast<int>(BufferKind::ak_normalized);
constexpr int kEma = static_cast<int>(BufferKind::ema);
constexpr int kRules = 3;
inline const char* rule_name(int r) { return to_string(static_cast<BufferKind>(r)); }

/// The fixed model shared by both scenarios.
struct Model {
  Setting pre;   // Σ_0 spectrum (power law), placed in basis Q
  Setting post;  // Σ_1 spectrum (spiked), the coordinate system of the simulation
  Mat A0, A1;    // 1×n value maps before/after the shift, in Σ_1's eigen-coordinates
  double eta_raw = 0;
  double eta(int rule) const { return rule == kAkRaw ? eta_raw : kEtaNorm; }
};

/// Exact predictions of one scenario, one row per rule (theory/tracking.hpp).
struct Prediction {
  Mat mstar1;  // M*_1 (rules × n)
  Mat y0;      // E[T_{t0}] = E[M_{t0}] − M*_1
  Mat rate;    // β̃_i (AK) or β (EMA) after the shift
  Mat scale;   // per-trial noise scale of T_{t0+k}u_i used only to select fitted directions
};

/// Observable layout: T_{t0+k}u_i of rule r at offset (r·(kPost+1) + k)·n + i.
inline std::size_t obs(int n, int r, int k, int i) { return ops::tracking_obs(n, kPost, r, k, i); }

/// One scenario: Σ_0's eigenbasis Q relative to Σ_1's (identity, or Haar random: "rotated").
struct Scenario {
  std::string name;
  bool rotated;
  Mat Q;
};

/// The shift of one scenario with β and a scale `sc` on the post-shift eigenvalues the AK
/// buffers contract with (sc = 1, β = kBeta: the experiment; others feed the resolution).
theory::TrackingShift make_shift(const Model& md, const Mat& Q, double beta = kBeta, double sc = 1.0);
/// Exact predictions of one scenario (theory/tracking.hpp).
Prediction predict(const Model& md, const Mat& Q);
/// ∂/∂ln(η, β, λ) of rule r's checked means (rows 0..|kLags|−1) and rate (last row).
LogSensitivity<Mat> prediction_sensitivity(const Model& md, const Mat& Q, int r);
/// Annotates the check added last with column i, row `row` of rule r's sensitivities.
void annotate(Checks& checks, const LogSensitivity<Mat>& d, int r, Eigen::Index row, int i);
/// The Monte-Carlo run of one scenario: T_{t0+k}u_i of every rule (observables obs()).
McResult simulate(ExperimentContext& ctx, const Model& md, const Mat& Q, bool rotated,
                  const Prediction& p, std::uint64_t seed, long long trials,
                  const std::string& label);
/// The AK buffers whose horizon ratio τ^EMA/τ^AK is checked, in check order.
inline const std::vector<int> kHorizonRules{kAkRaw, kAkNorm};

/// One scenario before simulating: its exact predictions, their sensitivities, and the
/// directions whose rates are fitted, chosen from predictions alone.
struct Plan {
  Prediction p;
  std::vector<LogSensitivity<Mat>> sens;  // per rule (prediction_sensitivity)
  Mat se_scale;  // rules × n: selection standard error, scale / √(quick trials)
  Mat snr;       // rules × n: predicted |y_0| / se_scale
  Mat horizon;   // |kHorizonRules| × n: predicted τ^EMA/τ^AK = 1 + ηλ_i/(1−β)
  std::vector<std::vector<bool>> fit;  // rules × n: the rate is fitted iff snr ≥ kMinSnr
  /// Both the AK rate of rule kHorizonRules[h] and EMA's are fitted along direction i.
  bool horizon_fitted(std::size_t h, int i) const { return fit[kHorizonRules[h]][i] && fit[kEma][i]; }
};
/// The plan of one scenario (predictions and fit selection, no simulation).
Plan plan(const Model& md, const Mat& Q);

/// What the Monte-Carlo run of one scenario measured.
struct Measured {
  McResult res;
  Vec mean, se;  // T_{t0+k}u_i per observable obs()
  std::vector<std::vector<MeanEstimate>> rate;     // rules × n: jackknifed AR(1) rate
  std::vector<std::vector<MeanEstimate>> horizon;  // |kHorizonRules| × n: fitted pairs only
};
/// Simulates one scenario and estimates its rates and horizon ratios (jackknife over groups).
Measured measure(ExperimentContext& ctx, const Model& md, const Scenario& S, const Plan& pl,
                 long long trials);

/// Adds one scenario's post-shift mean trajectories (every rule, lag k ≥ 1 and direction) to
/// the claim's pooled recovery of η, β and the λ scale (pooled.cpp).
void add_pooled(PooledRecovery& pooled, const Model& md, const Scenario& S, const Measured& m);

/// Fit window from theory: pairs k = 0..L−1, L the first lag where β̃^L ≤ 5%, ≥ 3 pairs.
int window(double rate);
/// Least-squares AR(1) ratio Σ y_{k+1}y_k / Σ y_k² of a mean trajectory.
double ar1(const Vec& v, int n, int r, int i, int L);
/// The tables: mean trajectories, fitted rates (with the selection), horizon ratios.
void write_tables(ExperimentContext& ctx, const Model& md, const std::vector<Scenario>& scenarios,
                  const std::vector<Plan>& plans, const std::vector<Measured>& measured,
                  const std::vector<std::string>& dname);
/// The three figures: decay of |E[T u_i]| against k, fitted rates against λ, horizon ratio.
void figures(ExperimentContext& ctx, const Model& md, const std::vector<Scenario>& scenarios,
             const std::vector<Plan>& plans, const std::vector<Measured>& measured,
             const std::vector<std::string>& dname);

}  // namespace akm::exp::t05
