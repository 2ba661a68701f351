// phase_map/backends — the op's four paths, one file each beside this one; entry.cpp picks
// one. Private to src/sim/ops/phase_map.
#pragma once
#include <cstdint>

#include "akm/sim/ops/phase_map.hpp"

namespace akm::ops::detail {

/// reference.cpp: akm::Stream and the kernels of akm/rules/kernels.hpp (double, Eigen).
Observations phase_map_reference(const PhaseMap& op, std::uint64_t seed, int threads);
/// cpu.cpp: the fast engine in precision p.
Observations phase_map_cpu(const PhaseMap& op, std::uint64_t seed, int threads, engine::Precision p);
/// cuda.cu: one device thread per (grid point, trial) row (float state, double log-norm).
Observations phase_map_cuda(const PhaseMap& op, std::uint64_t seed);
/// emulated.cpp: the kernel's row body over its grid on `threads` host threads.
Observations phase_map_cuda_emulated(const PhaseMap& op, std::uint64_t seed, int threads);

}  // namespace akm::ops::detail
