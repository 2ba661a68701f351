// measured_map — Monte-Carlo contraction and divergence of the AK buffer at grid points.
//
// At one (η, β) a row v is pushed through the transport factors βI − ηk_tk_tᵀ
// [eq:transport-expansion] from v_0 = (1,…,1)/√n in the eigenbasis, R trials of T steps.
// Per point it reports:
//   - the measured expectation contraction |m_k|^{1/k} of direction d at a lag k fixed in
//     advance from the prediction (m_k = trial mean of v_k·u_d / v_0·u_d, E m_k = β̃_d^k
//     [lem:transport]), with its delta-method standard error;
//   - the fraction of trials whose ‖v_t‖² exceeds `threshold`·‖v_0‖² at some t ≤ T
//     (divergence, E1) and the growth exponent (1/T)·log(‖v_T‖²/‖v_0‖²) with its error.
// Keys are Gaussian in the eigenbasis, optionally AR(1) in time (E2):
//   x_t = ρ x_{t−1} + √(1−ρ²) ξ_t, x_0 = ξ_0 — the same stationary law N(0, Σ) for any ρ.
// The trials themselves, on every backend, are the op akm/sim/ops/phase_measure.hpp.
// Keys (MeasureOptions::keys):
//   - per_point (the reference, and what E1/E2 use): trial r of point p reads
//     Stream(point_seed(seed, p), r); points are independent.
//   - shared (common random numbers, the default of `akm phase --measure`): trial r
//     of EVERY point reads Stream(point_seed(seed, 0), r) — the keys do not depend on (η, β),
//     so they are drawn once and push all points (ops::phase_trials_shared_cpu on Backend::cpu; the
//     reference and CUDA backends run their per-point loops on the shared seed, the same law).
//     Each point's estimate is still unbiased with its own standard error, but the points are
//     positively correlated: maps are smoother and differences between nearby points are
//     sharper than independent sampling would give; errors of different points do not average
//     out across the map. A one-point grid gives the per-point numbers.
// Deterministic: a trial's numbers depend only on (seed, point, trial), so results do not
// depend on the thread count; under MPI (dist.hpp) the ranks measure contiguous blocks of
// points and gather them, with the same result on every rank.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/ops/phase_measure.hpp"
#include "akm/theory/theory.hpp"

namespace akm::phase {

/// Which keys a trial reads (see the header comment): per point, or shared by the grid.
enum class Keys { per_point, shared };
/// "shared" or "per-point".
const char* to_string(Keys k);
/// "shared" or "per-point"; anything else is an InputError naming `flag`.
Keys parse_keys(const std::string& s, const char* flag);

/// How `akm phase --measure` measures each grid point: the trial law (key, trials, steps,
/// threshold, ρ of ops::PhaseMeasure) and how the run goes.
struct MeasureOptions : ops::PhaseMeasure {
  /// Who runs the trials: the plain reference, the fast CPU engine (same streams, equal to
  /// rounding), the CUDA device or its emulation (ops::phase_measure).
  Backend backend = Backend::cpu;
  Keys keys = Keys::per_point;  ///< per-point or shared keys
  std::uint64_t seed = 1;  ///< seed of the counter streams
  int threads = 1;  ///< worker threads
  std::function<void(long long, long long)> progress;  ///< (points done, total)
};

/// One grid point's measurement (a row of phase.csv).
struct MeasurePoint {
  double eta = 0;  ///< AK step η
  double beta = 0;  ///< decay β
  int direction = 0;          ///< 0-based direction d whose rate is measured
  int lag = 1;                ///< k
  double predicted_rate = 0;  ///< |β̃_d|
  double measured_rate = 0;  ///< |m_k|^{1/k}, the measured contraction
  double rate_se = 0;  ///< its standard error
  double rate_z = 0;  ///< (measured − predicted)/se
  double mean_projection = 0;  ///< m_k, the trial mean of the projection at lag k
  double projection_se = 0;  ///< its standard error
  double diverged_fraction = 0;  ///< fraction of trials whose ‖v_t‖² crossed the threshold
  double growth = 0;  ///< mean of (1/T) log(‖v_T‖²/‖v_0‖²)
  double growth_se = 0;  ///< its standard error
};

/// Lag k at which |β̃|^k ≈ e^{-2} (clamped to [1, T]); 10 ∧ T when |β̃| ≥ 1.
int choose_lag(double abs_beta_tilde, int steps);

/// Seed of grid point p (splitmix64), so every point has its own streams.
std::uint64_t point_seed(std::uint64_t seed, std::uint64_t point);

/// Measures every (η_p, β_p); `direction` −1 picks per point the direction with the
/// largest |β̃_i| (the one that decides expectation stability). `lam_key` is λ_i (raw) or
/// λ̂_i (normalized), the eigenvalue the buffer forgets by.
std::vector<MeasurePoint> measure(const std::vector<std::pair<double, double>>& eta_beta,
                                  const Vec& lambda, const Vec& lam_key, int direction,
                                  const MeasureOptions& o);

}  // namespace akm::phase
