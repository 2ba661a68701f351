// ops/glm_buffer — the AK buffer alone on a logistic teacher at a fixed w that switches once,
// T10's part A Monte Carlo [app:glm]; its backends in src/sim/ops/glm_buffer/.
//
// Keys x = √λ ∘ z in Σ's eigenbasis (z from the trial's keys stream, n normals a step),
// labels y = 1{u < σ(w*ᵀx)} (u from its noise stream, one uniform a step), the value
// δ = σ(wᵀx) − y with w = w0 for steps t ≤ t0 and w1 after, the normalized key x̂, and the
// buffer M (1×n) ← βM + η(δ − Mx̂)x̂ᵀ [eq:dm-norm-update] from M_0 = 0. Recorded: every entry
// of M_t at each checkpoint, and the shown directions' entries at every step t = 1..t0 + post.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// One teacher, the two fixed w and the buffer's parameters; what is recorded.
struct GlmBuffer {
  Vec lambda;  ///< Σ's eigenvalues λ_i (keys in its eigenbasis); n = its size
  Vec w_star;  ///< the teacher's weights w*
  Vec w0;  ///< w for steps t ≤ t0
  Vec w1;  ///< w for steps t > t0
  double beta = 0.9;  ///< β
  double eta = 0.5;  ///< η
  int t0 = 60;  ///< steps at w0
  int post = 60;  ///< steps at w1 after them
  std::vector<int> checkpoints;  ///< steps (increasing, in 1..t0 + post) at which all of M_t is recorded
  std::vector<int> shown;  ///< directions (in 0..n−1) whose entry is recorded at every step

  int n() const { return int(lambda.size()); }  ///< the key's dimension
  int steps() const { return t0 + post; }  ///< steps per trial
  /// Observable of entry i of M at checkpoint c.
  std::size_t checkpoint_obs(std::size_t c, int i) const { return c * std::size_t(n()) + std::size_t(i); }
  /// Observable of shown direction d at step t (1-based).
  std::size_t shown_obs(std::size_t d, int t) const {
    return checkpoints.size() * std::size_t(n()) + d * std::size_t(steps()) + std::size_t(t - 1);
  }
  std::size_t n_obs() const { return shown_obs(shown.size(), 1); }  ///< observables per trial
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), trial t on the
/// streams (seed, t, keys) and (seed, t, noise), on `backend` with `threads` host threads.
void glm_buffer_rows(const GlmBuffer& op, std::uint64_t seed, Backend backend, long long first, long long count,
                     int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend`, folded in chunk order
/// (monte_carlo_rows): independent of the thread count and of how the backend batches trials.
McResult glm_buffer(const GlmBuffer& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
