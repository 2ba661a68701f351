// ops/optimizer_loop — one optimizer's loop on loss-free linear regression, followed per
// eigendirection: T4's Monte Carlo of the 2×2 map [eq:iter-matrices, thm:detred]; backends in
// src/sim/ops/optimizer_loop/.
//
// In the eigenbasis of Σ = diag(λ), with one output: the key x_t = √λ ∘ z, the value
// δ_t = e_t·x_t − σξ_t (e_t = θ_t − θ* the parameter error), the buffer μ_t from δ_t by the
// arm's rule (AK raw key [eq:dm-update], AK normalized key [eq:dm-norm-update] or EMA
// [eq:ema-update]), then θ ← θ − αμ_t, from e_0 (1 on every direction unless given) and μ_{−1} = 0. Along
// u_i the state s_t = (e_{t,i}, μ_{t−1,i}) has E[s_{t+1} | past] = A_i s_t, so the observables
// are every state and, per direction, the regression moments Σ_t s_t s_tᵀ and Σ_t s_{t+1}s_tᵀ
// that estimate A_i. No device kernel yet; optimizer_loop_has(Backend) says which backends run it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "akm/base/linalg.hpp"
#include "akm/rules/buffer_kind.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// The key law, the arm and the run's length.
struct OptimizerLoop {
  Vec sqrt_lambda;  ///< √λ of the key law; n = its size
  BufferKind rule = BufferKind::ak_normalized;  ///< the arm's buffer rule
  double eta = 0.5;  ///< AK step (EMA: unused)
  double beta = 0.9;  ///< β of the buffer
  double alpha = 0.1;  ///< learning rate α of θ ← θ − αμ
  double noise_sigma = 0.1;  ///< σ of the label noise ξ
  int steps = 120;  ///< steps per trial
  Vec e0;  ///< the parameter error e_0 per direction; empty: 1 on every direction

  int n() const { return int(sqrt_lambda.size()); }  ///< the key's dimension
  /// State component comp (0: e_{t,i}, 1: μ_{t−1,i}) of direction i at step t = 0..steps.
  std::size_t state(int t, int i, int comp) const { return (std::size_t(t) * n() + i) * 2 + comp; }
  /// Direction i's moment k: 0..2 Σ_t (e², eμ, μ²)_t, 3..6 Σ_t (e_{t+1}e_t, e_{t+1}μ_{t−1}, μ_te_t, μ_tμ_{t−1}).
  std::size_t moment(int i, int k) const { return state(steps + 1, 0, 0) + std::size_t(i) * 7 + k; }
  std::size_t n_obs() const { return moment(n(), 0); }  ///< observables per trial
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b (reference and cpu).
inline bool optimizer_loop_has(Backend b) { return b == Backend::reference || b == Backend::cpu; }

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), trial t on the
/// streams (seed, t, keys) and (seed, t, noise), on `backend` (reference or cpu).
void optimizer_loop_rows(const OptimizerLoop& op, std::uint64_t seed, Backend backend, long long first,
                         long long count, int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend` (reference or cpu),
/// folded in chunk order (monte_carlo_rows): independent of the thread count.
McResult optimizer_loop(const OptimizerLoop& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
