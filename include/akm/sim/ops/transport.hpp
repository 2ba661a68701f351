// ops/transport — the transport of a row vector through the AK buffer's factors, one
// Monte-Carlo op (bench label W1, docs/performance.md); its backends in src/sim/ops/transport/.
#pragma once
#include <cstdint>

#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"

namespace akm::ops {

/// A row vector pushed through v ← v(βI − ηx̂x̂ᵀ), x̂ = x/‖x‖ [eq:transport-expansion], raw keys
/// x = √λ ∘ z on the power-law spectrum; v₀ = 1/√n. Observables: v_T (n entries) and ‖v_T‖².
/// E[v_T]_i = v₀ᵢ (β − ηλ̂_i)^T, the transport mean [lem:transport].
struct Transport {
  int n = 64;  ///< dimension n (cuda, cuda_emulated: 32 or 64)
  long long trials = 4096;  ///< Monte-Carlo trials
  int steps = 1000;  ///< steps per trial
  double beta = 0.999;  ///< decay β
  double eta = 0.5;  ///< AK step η
  /// cuda, cuda_emulated: one warp per trial, lane ℓ holding coordinates ℓ and ℓ + 32, the
  /// step's sums by a warp shuffle reduction (true); or the earlier kernel's one thread per
  /// trial (false), kept for an A/B in the same run. Both draw the same keys.
  bool warp_per_trial = true;
  /// Observables per trial: v_T (n) and ‖v_T‖².
  int n_obs() const { return n + 1; }
  /// Trials × steps, the unit of the throughput.
  double trial_steps() const { return double(trials) * steps; }
  /// Arithmetic per trial-step (key scale n, norm 2n, dot 2n, update 3n); normals: n.
  double flops_per_trial_step() const { return 8.0 * n; }
};

/// The op on `backend`, trial t on the streams (seed, t, keys); one row per trial.
Observations transport(const Transport& op, std::uint64_t seed, Backend backend, const Exec& exec = {});

}  // namespace akm::ops
