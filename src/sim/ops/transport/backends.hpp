// transport/backends — the op's four paths, one file each beside this one; entry.cpp picks
// one. Private to src/sim/ops/transport.
#pragma once
#include <cstdint>

#include "akm/sim/ops/transport.hpp"

namespace akm::ops::detail {

/// reference.cpp: akm::Stream and the kernels of akm/rules/kernels.hpp (double, Eigen).
Observations transport_reference(const Transport& op, std::uint64_t seed, int threads);
/// cpu.cpp: the fast engine in precision p.
Observations transport_cpu(const Transport& op, std::uint64_t seed, int threads, engine::Precision p);
/// cuda.cu: one device warp per trial, or one thread (op.warp_per_trial; float).
Observations transport_cuda(const Transport& op, std::uint64_t seed);
/// emulated.cpp: the kernel's trial body (warp or thread) over its grid on `threads` host threads.
Observations transport_cuda_emulated(const Transport& op, std::uint64_t seed, int threads);

}  // namespace akm::ops::detail
