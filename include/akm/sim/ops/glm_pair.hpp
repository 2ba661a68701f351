// ops/glm_pair — antithetic pairs of AK-SGD on a logistic teacher, followed through their
// half-difference: T10's part B, the local rate at w* [app:glm, lem:loss-free-det]; backends in
// src/sim/ops/glm_pair/.
//
// Step t draws a key x = √λ ∘ z (Σ's eigenbasis, the keys stream) and a label y = σ(w*ᵀx)
// (`soft`) or y ~ Bernoulli(σ(w*ᵀx)) (one uniform of the noise stream). Two runs of AK-SGD with
// the normalized key [eq:dm-norm-update] (buffer first, then w ← w − αM) start at w* ± v with
// zero buffers and share keys and labels; the op follows their midpoint and half-difference
// (logistic::AkSgdPair), Δw = (w⁺ − w⁻)/2 and ΔM. Per direction u_i the state
// s_t = (Δw_{t,i}, ΔM_{t−1,i}) gives the 7 regression sums of T4's fitted 2×2 map,
// Σ_t s_t s_tᵀ (3) and Σ_t s_{t+1}s_tᵀ (4); for the shown directions Δw_{t,i}/v_i at every
// `stride`-th step, and one more row ‖Δw_t‖²_Σ/‖v‖²_Σ; and the linearization's remainder sums
// Σ_t|R_t|, Σ_t|σ'(w*ᵀx_t)d_t| with R_t = Δδ_t − σ'(w*ᵀx_t)d_t, d_t = Δw_tᵀx_t, and the mean
// square spread of the midpoint, (1/T)Σ_t (w̄_tᵀx_t − w*ᵀx_t)².
//
// No device kernel yet; glm_pair_has(Backend) says which backends run it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// The teacher, the pair's start and step, and what is recorded.
struct GlmPair {
  Vec lambda;  ///< λ, Σ's eigenvalues (each > 0; logistic::Teacher's); n = its size
  Vec w_star;  ///< the teacher's weights w* (size n), the pair's centre
  Vec offset;  ///< v: the runs start at w* ± v (size n, no zero entry on a shown direction)
  bool soft = true;  ///< labels y = σ(w*ᵀx) (true) or Bernoulli draws (false)
  double alpha = 0.1;  ///< learning rate α, > 0
  double beta = 0.9;  ///< β of the buffer, in [0, 1)
  double eta = 0.5;  ///< AK step η, > 0
  int steps = 300;  ///< steps per trial
  int stride = 1;  ///< the shown trajectories are recorded every stride-th step
  std::vector<int> shown;  ///< directions whose trajectory is recorded

  int n() const { return int(lambda.size()); }  ///< the key's dimension
  /// Direction i's regression sum k: 0..2 Σ_t (ΔwΔw, ΔwΔM, ΔMΔM)_t, 3..6 Σ_t (Δw_{t+1}Δw_t,
  /// Δw_{t+1}ΔM_{t−1}, ΔM_tΔw_t, ΔM_tΔM_{t−1}) (fitted_map's order).
  std::size_t mom(int i, int k) const { return std::size_t(i) * 7 + k; }
  int n_traj() const { return steps / stride + 1; }  ///< recorded points per trajectory (step 0 included)
  /// Trajectory point j (step j·stride) of shown direction d (d = shown.size(): ‖Δw‖²_Σ/‖v‖²_Σ).
  std::size_t traj(std::size_t d, int j) const { return std::size_t(n()) * 7 + d * n_traj() + j; }
  /// The remainder sums: 0 Σ|R_t|, 1 Σ|σ'(w*ᵀx)d_t|, 2 the midpoint's mean square spread.
  std::size_t rem(int k) const { return traj(shown.size() + 1, 0) + k; }
  std::size_t n_obs() const { return rem(3); }  ///< observables per trial
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b (reference and cpu).
inline bool glm_pair_has(Backend b) { return b == Backend::reference || b == Backend::cpu; }

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), trial t on the
/// streams (seed, t, keys) and (seed, t, noise), on `backend` (reference or cpu).
void glm_pair_rows(const GlmPair& op, std::uint64_t seed, Backend backend, long long first, long long count,
                   int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend` (reference or cpu), folded
/// in chunk order (monte_carlo_rows): independent of the thread count.
McResult glm_pair(const GlmPair& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
