// phase_map/host — the host side the op's launcher (cuda.cu) and emulator (emulated.cpp) share:
// the sizes the kernel exists for and the launch arguments.
#pragma once
#include <string>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/phase_map.hpp"
#include "trial.hpp"

namespace akm::cuda::phase_map_detail {

inline void require_size(int n) {
  if (n != 32 && n != 64) throw InputError("n", std::to_string(n), "32 or 64 on the cuda backends (the phase_map kernel is unrolled for these two sizes)");
}

inline Args args(const ops::PhaseMap& w, std::uint64_t seed) {
  return {w.trials, w.trials * w.points(), w.n_beta, w.n_eta, w.steps, w.renorm, w.eta_max, seed};
}

}  // namespace akm::cuda::phase_map_detail
