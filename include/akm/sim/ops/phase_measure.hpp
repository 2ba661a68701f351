// ops/phase_measure — the trials of `akm phase --measure`: at grid points (η, β) a row v is
// pushed through the transport factors βI − ηk_tk_tᵀ [eq:transport-expansion] from
// v_0 = (1,…,1)/√n in the eigenbasis; its backends in src/sim/ops/phase_measure/. The
// driver that turns trials into a map (per-point statistics, shared keys, MPI) is
// akm/sim/measured_map.hpp.
//
// Keys are Gaussian in the eigenbasis, optionally AR(1) in time (E2):
//   x_t = ρ x_{t−1} + √(1−ρ²) ξ_t, x_0 = ξ_0 — the same stationary law N(0, Σ) for any ρ.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/base/key.hpp"
#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"

namespace akm::ops {

/// The law of a trial, the same at every grid point.
struct PhaseMeasure {
  Key key = Key::normalized;  ///< AK key
  long long trials = 256;  ///< trials per grid point
  int steps = 1000;  ///< steps per trial
  double threshold = 1e12;   ///< divergence: ‖v_t‖² > threshold·‖v_0‖²
  double ar_rho = 0.0;       ///< AR(1) key correlation ρ ∈ [0, 1)
};

/// One grid point as the trials read it.
struct PhasePoint {
  double eta = 0;  ///< AK step η
  double beta = 0;  ///< decay β
  int direction = 0;  ///< direction d whose projection is measured
  int lag = 1;  ///< lag k of the projection
  std::uint64_t seed = 0;  ///< the point's seed: trial r reads Stream(seed, r, keys)
};

/// What one trial returns: v_k·u_d / v_0·u_d at the point's lag, log(‖v_T‖²/‖v_0‖²), and
/// whether ‖v_t‖² crossed the threshold.
struct PhaseTrial {
  double projection = 0;  ///< v_k·u_d / v_0·u_d
  double log_growth = 0;  ///< log(‖v_T‖²/‖v_0‖²)
  bool diverged = false;  ///< ‖v_t‖² crossed the threshold
};

/// Every trial of every point on `backend`, point-major (row p·trials + r). `lam_sqrt` is
/// √λ_i. The arithmetic is double on every backend (cuda: a double device copy of
/// akm::Stream), so the backends agree to double rounding (log/sin/cos ulps, sum order).
std::vector<PhaseTrial> phase_measure(const PhaseMeasure& op, const std::vector<double>& lam_sqrt,
                                      const std::vector<PhasePoint>& points, Backend backend,
                                      const Exec& exec = {});

/// The reference backend's trial at one point (the function a faster engine replaces):
/// `keys` is Stream(point seed, trial, keys); scratch vectors are resized as needed.
PhaseTrial phase_trial_reference(const Vec& lam_sqrt, const PhaseMeasure& op, double beta, double eta,
                                 int direction, int lag, Stream& keys);

/// The cpu backend's trial at one point: phase_trial_reference on the stream
/// Stream(seed, trial, keys) with batched normals and vector loops (double).
PhaseTrial phase_trial_cpu(const double* lam_sqrt, int n, const PhaseMeasure& op, double beta,
                           double eta, int direction, int lag, std::uint64_t seed, std::uint64_t trial);

/// The cpu backend's trial with common random numbers at every point of pts[0..count): the
/// keys are drawn once per step from Stream(seed, trial, keys) and shared by all points
/// (pts[·].seed is not read). out[q] equals phase_trial_cpu(…, pts[q], seed, trial) up to the
/// summation order of the n-term sums; lanes are independent, so a point's result does not
/// depend on the other points of the call (src/sim/ops/phase_measure/cpu_shared.cpp).
void phase_trials_shared_cpu(const double* lam_sqrt, int n, const PhaseMeasure& op,
                             const PhasePoint* pts, int count, std::uint64_t seed,
                             std::uint64_t trial, PhaseTrial* out);

}  // namespace akm::ops
