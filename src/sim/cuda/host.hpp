// host — what every CUDA launcher (src/sim/ops/<op>/cuda.cu) and its emulator
// (emulated.cpp beside it) share on the host, and the refusal of a build without the
// backend. No CUDA header: both compilers read it.
#pragma once
#include <cmath>
#include <stdexcept>
#include <vector>

#include "akm/sim/ops/common.hpp"

namespace akm::cuda::detail {

/// √λ_i in float for the power-law spectrum λ_i = 1/(i+1) (ops::power_spectrum), optionally
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
inline ops::Observations observations(long long trials, int n_obs) {
  ops::Observations o;
  o.trials = trials;
  o.n_obs = n_obs;
  o.values.assign(std::size_t(trials) * n_obs, 0.0);
  return o;
}

/// What an op's entry point does with Backend::cuda in a build without nvcc (AKM_CUDA=OFF,
/// or AUTO where nvcc is missing).
[[noreturn]] inline void no_cuda_backend() {
  throw std::runtime_error("this build has no CUDA backend (configure with -DAKM_CUDA=ON)");
}

}  // namespace akm::cuda::detail
