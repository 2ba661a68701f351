// ops/fit — the fitting op of `akm simulate`: AK-SGD and SGD-EMA on one-output regression,
// the moments that estimate each direction's 2×2 map; its backends in src/sim/ops/fit/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"

namespace akm::ops {

/// The fit op: loss-free linear regression y = w*·x + σε with one output (m = 1), simulated in the
/// eigenbasis of Σ = diag(λ) with two optimizers on the same keys and noise [sec:methodology]:
///   AK-SGD:  μ ← βμ + η(δ − μ·k)k,  k = x̂ (normalized) or x (raw)  [eq:dm-norm-update]
///   SGD-EMA: μ ← βμ + (1−β)δx                                       [eq:ema-update]
/// each followed by e ← e − αμ, with δ = e·x + σε, e₀ = (1, …, 1), μ₀ = 0.
/// Along u_i the state s_t = (e_{t,i}, μ_{t−1,i}) obeys E[s_{t+1} | past] = A_i s_t with the
/// 2×2 map of [eq:iter-matrices] (Σ̂ and K are diagonal in the eigenbasis), so pooled least
/// squares over trials and steps estimates A_i: its second row is (c_i, β̃_i).
/// Observables per trial group g (mean over its trials, trials [gR/G, (g+1)R/G) run in
/// order): for arm a (0 AK, 1 EMA), quantity q and direction i at index (8a + q)·n + i:
///   q = 0..2: Σ_t e_t², e_tμ_{t−1}, μ_{t−1}²   (Σ_t s_t s_tᵀ)
///   q = 3..6: Σ_t e_{t+1}e_t, e_{t+1}μ_{t−1}, μ_te_t, μ_tμ_{t−1}   (Σ_t s_{t+1}s_tᵀ)
///   q = 7:    e_T.
/// The fit op's model scalars: the record every backend reads them from, a CUDA thread too
/// (src/sim/ops/fit/trial.hpp takes it as it is).
struct FitModel {
  bool normalized = true;  ///< AK key: x̂ (true) or x
  double beta = 0.9;  ///< decay β
  double eta = 0.5;  ///< AK step η
  double alpha = 0.1;  ///< learning rate α
  double sigma = 0.1;  ///< label noise σ
};

/// The fit op: its model (FitModel), the spectrum, and the run's size.
struct Fit : FitModel {
  std::vector<double> lambda;  ///< eigenvalues λ_i of Σ (> 0)
  long long trials = 2000;  ///< Monte-Carlo trials
  int steps = 200;  ///< steps per trial
  int groups = 200;  ///< jackknife groups (≤ trials)
  /// Dimension n = number of eigenvalues.
  int n() const { return int(lambda.size()); }
  /// Observables per group: 16 n (see the layout above).
  int n_obs() const { return 16 * n(); }
  /// Index of arm a (0 AK, 1 EMA), quantity q and direction i in a group's row.
  std::size_t index(int arm, int q, int i) const { return std::size_t(8 * arm + q) * n() + i; }
  /// First trial of group g: trials·g/groups.
  long long group_begin(int g) const { return trials * g / groups; }
  /// Trials × steps, the unit of the throughput.
  double trial_steps() const { return double(trials) * steps; }
  /// Per trial-step: key 2n (+2n normalized), AK 4n + EMA 4n, moments 2·(7·2n + ...) ≈ 38n.
  double flops_per_trial_step() const { return 40.0 * n(); }
};

/// The op on `backend`; rows are the `groups` trial groups (group means). On cpu the state
/// is in exec.precision and the moments in double; cuda and cuda_emulated: float state,
/// double moments, trials in batches of exec.batch_bytes.
Observations fit(const Fit& op, std::uint64_t seed, Backend backend, const Exec& exec = {});

}  // namespace akm::ops
