// ops/ak_sgd_ema — AK-SGD and SGD-EMA on one linear regression, one Monte-Carlo op (bench
// label W2, docs/performance.md); its backends in src/sim/ops/ak_sgd_ema/.
#pragma once
#include <cstdint>

#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"

namespace akm::ops {

/// Linear regression y = W*x + σε (m outputs, n inputs), error E = W − W*, δ = Ex + σε.
/// Two optimizers on the same data (common keys and noise) [sec:methodology]:
///   AK-SGD, normalized key: M ← βM + η(δ − Mx̂)x̂ᵀ, E ← E − αM  [eq:dm-norm-update]
///   SGD-EMA:                M ← βM + (1−β)δxᵀ,   E ← E − αM  [eq:ema-update]
/// W* has N(0,1) entries (Purpose::init, column-major), E₀ = −W*. Observables: the
/// per-direction error energies e_i = Σ_r E_ri² of AK (n), of EMA (n), then both totals.
struct AkSgdEma {
  int m = 8;  ///< outputs m (cuda, cuda_emulated: 8)
  int n = 256;  ///< inputs n (cuda, cuda_emulated: a multiple of 32 in [32, 1024])
  long long trials = 1024;  ///< Monte-Carlo trials
  int steps = 2000;  ///< steps per trial
  double alpha = 0.05;  ///< learning rate α
  double beta = 0.9;  ///< decay β
  double eta = 0.5;  ///< AK step η
  double sigma = 0.1;  ///< label noise σ
  /// cuda, cuda_emulated: one fused block reduction of the step's 1 + 3m sums (true), or the
  /// earlier kernel's 1 + 3m separate block sums (false), kept for an A/B in the same run.
  bool fused_reduction = true;
  /// Observables per trial: AK and EMA error energies per direction, then both totals.
  int n_obs() const { return 2 * n + 2; }
  /// Trials × steps, the unit of the throughput.
  double trial_steps() const { return double(trials) * steps; }
  /// AK: δ 2mn, Mx̂ 2mn, M update 3mn, E update 2mn (+4n key); EMA: 2mn + 3mn + 2mn.
  double flops_per_trial_step() const { return 16.0 * m * n + 5.0 * n; }
};

/// The op on `backend`, trial t on the streams (seed, t, init | keys | noise); one row per trial.
Observations ak_sgd_ema(const AkSgdEma& op, std::uint64_t seed, Backend backend, const Exec& exec = {});

}  // namespace akm::ops
