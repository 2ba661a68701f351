// ak_sgd_ema/backends — the op's four paths, one file each beside this one; entry.cpp picks
// one. Private to src/sim/ops/ak_sgd_ema.
#pragma once
#include <cstdint>

#include "akm/sim/ops/ak_sgd_ema.hpp"

namespace akm::ops::detail {

/// reference.cpp: akm::Stream and the kernels of akm/rules/kernels.hpp (double, Eigen).
Observations ak_sgd_ema_reference(const AkSgdEma& op, std::uint64_t seed, int threads);
/// cpu.cpp: the fast engine in precision p.
Observations ak_sgd_ema_cpu(const AkSgdEma& op, std::uint64_t seed, int threads, engine::Precision p);
/// cuda.cu: one block of n device threads per trial (float).
Observations ak_sgd_ema_cuda(const AkSgdEma& op, std::uint64_t seed);
/// emulated.cpp: the kernel's block body, one host thread standing for each block.
Observations ak_sgd_ema_cuda_emulated(const AkSgdEma& op, std::uint64_t seed, int threads);

}  // namespace akm::ops::detail
