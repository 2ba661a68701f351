// ops/batch_rule — the deployed batch rule M ← βM + η(G − MΣ̂_B), G = ΔᵀX̂/N, Σ̂_B = X̂ᵀX̂/N
// [eq:deployed], followed over a trial of `steps` updates from M_0 = 0 at each of several batch
// sizes N: T15's Monte Carlo (its fixed point and its 1/N variance, app:deployed); backends in
// src/sim/ops/batch_rule/.
//
// An update at batch size N draws N keys x_r = √λ ∘ z_r (the rows of X, the keys stream) and the
// values Δ = XAᵀ + σΞ (Ξ from the noise stream), then applies the rule on X̂, the rows
// x_r/‖x_r‖. Batch size b of trial t has its own streams (seed, 16t + b), so its trials do not
// depend on the other sizes run beside it. The observables per batch size: the entries of M_T
// (column-major) and ‖M_T − C‖²_F for a given centre C (T15: the exact E[M_T]).
//
// The reference applies rules::deployed in the order eq:dispatch picks; the cpu path applies the
// factored form (1/N)(Δ − X̂Mᵀ)ᵀX̂ [eq:factored] in plain loops, the same update in another
// summation order. No device kernel yet; batch_rule_has(Backend) says which backends run it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// The key law, the value map, the rule's parameters, the batch sizes and the centre.
struct BatchRule {
  Vec sqrt_lambda;  ///< √λ of the key law; n = its size
  Mat A;  ///< m × n value map: Δ = XAᵀ + σΞ
  double sigma = 0.5;  ///< σ of the values' noise
  double beta = 0.9;  ///< β, in [0, 1)
  double eta = 0.5;  ///< η, > 0
  int steps = 120;  ///< updates per trial
  std::vector<int> batches;  ///< the batch sizes N, each ≥ 1; at most 16 (the streams 16t + b)
  Mat center;  ///< m × n: C of the last observable ‖M_T − C‖²_F

  int n() const { return int(sqrt_lambda.size()); }  ///< the key's dimension
  int m() const { return int(A.rows()); }  ///< the buffer's rows
  std::size_t per_batch() const { return std::size_t(m()) * n() + 1; }  ///< observables per batch size
  /// Batch size b's observable e: entry (e mod m, e div m) of M_T for e < mn; e = mn: ‖M_T − C‖²_F.
  std::size_t obs(std::size_t b, std::size_t e) const { return b * per_batch() + e; }
  std::size_t n_obs() const { return batches.size() * per_batch(); }  ///< observables per trial
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b (reference and cpu).
inline bool batch_rule_has(Backend b) { return b == Backend::reference || b == Backend::cpu; }

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), on `backend`
/// (reference or cpu) with `threads` host threads.
void batch_rule_rows(const BatchRule& op, std::uint64_t seed, Backend backend, long long first, long long count,
                     int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend` (reference or cpu), folded
/// in chunk order (monte_carlo_rows): independent of the thread count.
McResult batch_rule(const BatchRule& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
