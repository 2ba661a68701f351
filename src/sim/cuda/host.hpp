// host — what every CUDA launcher (src/sim/ops/<op>/cuda.cu) and its emulator
// (emulated.cpp beside it) share on the host. No CUDA header: both compilers read it.
#pragma once
#include <cmath>
#include <vector>

#include "akm/sim/workloads.hpp"

namespace akm::cuda::detail {

/// √λ_i in float for the power-law spectrum λ_i = 1/(i+1) (wl::power_spectrum), optionally
/// rescaled to unit trace.
inline std::vector<float> sqrt_power_f(int n, bool unit_trace) {
  std::vector<double> l(n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (l[i] = 1.0 / (i + 1.0));
  std::vector<float> out(n);
  for (int i = 0; i < n; ++i) out[i] = float(std::sqrt(unit_trace ? l[i] / s : l[i]));
  return out;
}

/// A zeroed trials × n_obs table of observables (row-major, trial order).
inline wl::Observations observations(long long trials, int n_obs) {
  wl::Observations o;
  o.trials = trials;
  o.n_obs = n_obs;
  o.values.assign(std::size_t(trials) * n_obs, 0.0);
  return o;
}

}  // namespace akm::cuda::detail
