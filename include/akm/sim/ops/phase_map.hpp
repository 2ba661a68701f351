// ops/phase_map — the measured stability map over a grid of (η, β), one Monte-Carlo op
// (bench label W3, docs/performance.md); its backends in src/sim/ops/phase_map/.
#pragma once
#include <cstdint>

#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"

namespace akm::ops {

/// Raw-key transport v ← v(βI − ηxxᵀ) (unit-trace power-law spectrum) on a grid of (η, β);
/// per trial the top Lyapunov exponent estimate (1/T) log(‖v_T‖/‖v₀‖), accumulated by
/// renormalizing every `renorm` steps. Negative = the product contracts (stable), positive =
/// diverges [app:stability_norm_key_dm]. Point p = a·n_beta + b has η_a = eta_max (a+1)/n_eta,
/// β_b = b/n_beta; its trial t uses stream p·trials + t.
struct PhaseMap {
  int n = 32;  ///< dimension n (cuda, cuda_emulated: 32 or 64)
  int n_eta = 64;  ///< grid points along η
  int n_beta = 64;  ///< grid points along β
  long long trials = 256;  ///< per grid point
  int steps = 1000;  ///< steps per trial
  int renorm = 4;  ///< steps between renormalizations of v
  double eta_max = 4.0;  ///< largest η of the grid
  /// Grid points n_eta · n_beta.
  int points() const { return n_eta * n_beta; }
  /// η of grid column a: eta_max (a+1)/n_eta.
  double eta(int a) const { return eta_max * (a + 1) / n_eta; }
  /// β of grid row b: b/n_beta.
  double beta(int b) const { return double(b) / n_beta; }
  /// One observable per trial: the Lyapunov exponent estimate.
  int n_obs() const { return 1; }
  /// Points × trials × steps, the unit of the throughput.
  double trial_steps() const { return double(points()) * trials * steps; }
  /// Key scale n, dot 2n, update 3n (+ renorm 3n/renorm amortized).
  double flops_per_trial_step() const { return 6.0 * n + 3.0 * n / renorm; }
};

/// The op on `backend`; rows point-major: row p·trials + t.
Observations phase_map(const PhaseMap& op, std::uint64_t seed, Backend backend, const Exec& exec = {});

}  // namespace akm::ops
