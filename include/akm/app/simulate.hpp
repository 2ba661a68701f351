// simulate — `akm simulate`: one Monte-Carlo run of the AK buffer (AK-SGD) and SGD-EMA on
// a spectrum, its per-direction maps measured next to the closed forms of akm/theory/theory.hpp.
//
// The Monte-Carlo op is ops::Fit (loss-free linear regression, one output, e₀ = 1 on every
// direction, M₀ = 0). Along u_i the trial mean of s_t = (e_{t,i}, μ_{t−1,i}) follows the
// 2×2 map A_i of [eq:iter-matrices] exactly, and conditionally on the past too, so pooled
// least squares Â_i = (Σ s_{t+1}s_tᵀ)(Σ s_t s_tᵀ)⁻¹ estimates it; its second row is
// (c_i, β̃_i): the buffer's coupling and contraction (AK: ηκ_i or ηλ_i and β − ηλ̂_i or
// β − ηλ_i [eq:transport-lemma]; EMA: (1−β)λ_i and β). Standard errors: delete-one-group
// jackknife over fixed trial groups (bias-corrected estimate).
//
// Verdict: Monte-Carlo checks of β̃_i, c_i and E[e_T,i] = (A_i^T s₀)₁ for both arms with a
// Bonferroni z at the declared family false-alarm rate (akm/check/check.hpp). ρ(Â_i) is reported
// with its error but not checked: it is a function of the checked row, and it is not
// differentiable at critical damping (disc A = 0), where a jackknife error is unreliable.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/check.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/ops/fit.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/direction_table.hpp"
#include "akm/theory/theory.hpp"

namespace akm::simulate {

/// Options of `akm simulate` (the CLI flags of the same names). The model's β, η, α and key are
/// the TheoryInputs the closed forms read (theory/direction_table.hpp), held here rather than copied:
/// the CLI binds --beta, --eta, --alpha and --key straight into them, make_theory_report reads
/// them as they are, and make_fit copies them once into the op's record (ops::Fit).
struct Options : TheoryInputs {
  double sigma = 0.1;  ///< label noise σ
  long long trials = 2000;  ///< Monte-Carlo trials
  int steps = 200;  ///< steps per trial
  std::uint64_t seed = 1;  ///< seed of the counter streams
  int threads = 0;  ///< worker threads (0: all)
  Backend backend = Backend::cpu;  ///< CPU engine or CUDA (the CLI accepts these two)
  engine::Precision precision = engine::Precision::f64;  ///< f64 or f32 arithmetic
  double false_alarm = 1e-6;  ///< declared family-wise false-alarm rate of the checks
  std::function<void(long long, long long)> progress;  ///< (groups done, groups)
};

/// The one validation of the options, before any work (the CLI's plan, akm.simulate()):
/// refuses bad options (InputError naming the flag, the value and the valid range): β ∈
/// [0,1), η > 0 with the contraction condition of the key (require_contraction,
/// theory/direction_table.hpp; raw key: also mean-square stable, phase::ms_radius_raw < 1
/// (theory/phase.hpp)), α > 0, σ ≥ 0, trials ≥ 100, 1 ≤ steps ≤ 10⁶, n ≤ 8192, false alarm
/// in (0,1), backend availability (cuda: built, a device, float precision).
void validate(const Options& o, const Spectrum& s);

/// The spectrum text read with the options' seed (the basis of basis=random), then
/// validate(o, s): the one plan of `akm simulate` and akm.simulate(); returns the spectrum.
Spectrum validate(const Options& o, const std::string& spectrum);

/// The workload for these options (groups = min(trials, 200)).
ops::Fit make_fit(const Options& o, const Spectrum& s);

/// One measured quantity beside its prediction.
struct Estimate {
  double predicted = 0;  ///< the closed form
  double measured = 0;  ///< the estimate (jackknife, bias-corrected)
  double se = 0;  ///< its jackknife standard error
  double skew = 0;  ///< skewness of the mean (jackknife pseudo-values)
  double dof = 0;  ///< degrees of freedom: groups − 1
  /// The estimate as a MeanEstimate for the skew-corrected check.
  MeanEstimate estimate() const { return {measured, se, skew, dof, false}; }
  double z() const;  ///< (measured − predicted)/se (0 when both differences and se are 0)
};

/// The fitted quantities of one arm along one direction.
struct ArmRow {
  Estimate contraction;  ///< β̃_i: second row, second column of Â_i
  Estimate coupling;  ///< c_i: second row, first column of Â_i
  Estimate rate;  ///< ρ(Â_i), reported, not checked
  Estimate final_error;  ///< E[e_T,i]
};

/// One direction u_i: its moments and both arms' fitted maps.
struct DirectionRow {
  int index = 0;  ///< 1-based direction i
  double lambda = 0;  ///< eigenvalue λ_i
  double lambda_hat = 0;  ///< λ̂_i = E[x̂_i²]
  double kappa = 0;  ///< κ_i = u_iᵀ K u_i
  bool underdamped_ak = false;  ///< α·c_i of the AK arm lies in the underdamped band
  ArmRow ak;  ///< the AK-SGD arm
  ArmRow ema;  ///< the SGD-EMA arm
};

/// Everything a run of `akm simulate` measured and decided.
struct Result {
  Options opts;  ///< the options of the run
  TheoryReport theory;  ///< the closed forms (as `akm theory`)
  std::vector<DirectionRow> rows;  ///< one row per direction
  Checks checks;  ///< the verdict's checks
  double rounding_step = 0;  ///< relative rounding allowance of a one-step coefficient
  double seconds = 0;  ///< wall time of the Monte-Carlo run
  bool finite = true;  ///< false: some statistic is not finite (the run diverged)
  /// Regimes where the standard errors may not hold (see ms_warnings).
  std::vector<std::string> warnings;
};

/// The verdict's false-alarm rate assumes the trial statistics have finite variance
/// (finite fourth moments of the state). Arms fed the raw gradient (e·x)x — SGD-EMA, and
/// AK-SGD with the raw key — are assured of that only well inside the mean-square region;
/// the rule of experiments/t04_rates/claim.cpp (from E[xxᵀxxᵀ] = 2Σ² + tr(Σ)Σ for Gaussian keys):
/// γ·(2λ_max + tr Σ) < 2 with γ = α × the buffer's largest gain (EMA 1, AK raw η/(1−β)).
/// Returns one warning per arm outside it (a rule of thumb, so a warning, not a refusal).
std::vector<std::string> ms_warnings(const Options& o, const Spectrum& s);

/// Statistics and checks from the group means of a run of `w` (any backend).
Result analyze(const Options& o, const ops::Fit& w, const TheoryReport& th,
               const ops::Observations& groups);

/// Runs the workload on the chosen backend and analyzes it; `o` has passed validate(o, s).
Result run(const Options& o, const Spectrum& s);

/// CSV rows (arm, direction, …) and the JSON summary written by `akm simulate`.
nlohmann::json to_json(const Result& r, const Spectrum& s);

}  // namespace akm::simulate
