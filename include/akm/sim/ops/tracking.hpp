// ops/tracking — three buffers tracking a shift in the key law and the value map, T5's Monte
// Carlo [thm:tracking, eq:tracking-ema]; its backends in src/sim/ops/tracking/.
//
// On the same keys and noise, AK with the raw key (η_raw), AK with the normalized key
// (η_normalized) and EMA run t0 steps under (A0, Σ_0), then `post` steps under (A1, Σ_1),
// δ = Ax + σξ. Coordinates are Σ_1's eigenbasis: post-shift keys x = √λ¹ ∘ z, pre-shift keys
// x = Q(√λ⁰ ∘ z) (or √λ⁰ ∘ z when Q is empty). Row j of every buffer moves alone on δ_j, so
// the recorded row 0 needs only δ_0; the noise stream still gives m normals a step.
#pragma once
#include <cstddef>
#include <cstdint>

#include "akm/base/linalg.hpp"
#include "akm/rules/buffer_kind.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// Where rule r's (BufferKind value 0..2) row-0 entry i at lag k (0..post) sits in a trial's row.
inline std::size_t tracking_obs(int n, int post, int r, int k, int i) {
  return (std::size_t(r) * (post + 1) + k) * n + i;
}

/// One shift scenario: the two key laws, the value maps, the three rules' steps, what is recorded.
struct Tracking {
  Vec sqrt_lambda0;  ///< √λ⁰ of the pre-shift law, in its own eigenbasis
  Mat Q;  ///< n×n: Σ_0's eigenbasis in Σ_1's coordinates; empty: the identity
  Vec sqrt_lambda1;  ///< √λ¹ of the post-shift law; n = its size
  Mat A0;  ///< m×n value map before the shift
  Mat A1;  ///< m×n value map after it
  double noise_sigma = 0.5;  ///< σ of ξ
  double beta = 0.9;  ///< β of all three buffers
  double eta_raw = 0.1;  ///< AK step of the raw-key buffer
  double eta_normalized = 0.5;  ///< AK step of the normalized-key buffer (EMA has none)
  int t0 = 60;  ///< steps before the shift
  int post = 40;  ///< recorded lags k = 0..post after it
  /// 3×n, row BufferKind r: subtracted from buffer r's recorded row 0 (M*_1, so the
  /// observables are the tracking errors T_{t0+k}u_i).
  Mat center;

  int n() const { return int(sqrt_lambda1.size()); }  ///< the key's dimension
  int m() const { return int(A0.rows()); }  ///< the buffers' rows (value dimension)
  /// Observable of rule r (BufferKind value 0..2), lag k, direction i.
  std::size_t obs(int r, int k, int i) const { return tracking_obs(n(), post, r, k, i); }
  std::size_t n_obs() const { return obs(3, 0, 0); }  ///< observables per trial
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), trial t on the
/// streams (seed, t, keys) and (seed, t, noise), on `backend` with `threads` host threads.
void tracking_rows(const Tracking& op, std::uint64_t seed, Backend backend, long long first, long long count,
                   int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend`, folded in chunk order
/// (monte_carlo_rows): independent of the thread count and of how the backend batches trials.
McResult tracking(const Tracking& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
