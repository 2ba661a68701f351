// transport/host — the host side the op's launcher (cuda.cu) and emulator (emulated.cpp) share:
// the sizes the kernels exist for, the warp kernel's grid, and the observables from the
// trials' final v.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/transport.hpp"
#include "akm/sim/cuda_grid.hpp"
#include "../../cuda/host.hpp"

namespace akm::cuda::transport_detail {

/// The warp-per-trial grid: 32 threads per trial (trials × 32 items), kThreadsPerBlock a
/// multiple of 32, so the idle tail of the last block is whole warps and a running warp is full.
inline Grid warp_grid(long long trials) { return grid_per_item(trials * 32, kThreadsPerBlock); }

inline void require_size(int n) {
  if (n != 32 && n != 64) throw InputError("n", std::to_string(n), "32 or 64 on the cuda backends (the transport kernel is unrolled for these two sizes)");
}

/// Row t: v (n values), then ‖v‖² in double (as the cpu backend).
inline ops::Observations gather(const ops::Transport& w, const std::vector<float>& v) {
  ops::Observations o = detail::observations(w.trials, w.n_obs());
  for (long long t = 0; t < w.trials; ++t) {
    double sq = 0.0;
    for (int i = 0; i < w.n; ++i) {
      const double x = v[std::size_t(t) * w.n + i];
      o.values[std::size_t(t) * o.n_obs + i] = x;
      sq += x * x;
    }
    o.values[std::size_t(t) * o.n_obs + w.n] = sq;
  }
  return o;
}

}  // namespace akm::cuda::transport_detail
