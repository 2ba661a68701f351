// fit/backends — the op's four paths, one file each beside this one; entry.cpp picks one.
// Private to src/sim/ops/fit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>

#include "akm/sim/ops/fit.hpp"

namespace akm::ops::detail {

/// reference.cpp: akm::Stream and the kernels of akm/rules/kernels.hpp (double, Eigen).
Observations fit_reference(const Fit& op, std::uint64_t seed, int threads);
/// cpu.cpp: the fast engine, state in T (double or float), moments in double;
/// `progress(groups done, groups)` from worker threads when set.
template <class T>
Observations fit_cpu(const Fit& op, std::uint64_t seed, int threads,
                     const std::function<void(long long, long long)>& progress);
/// cuda.cu: one device thread per trial of a batch of at most `batch_bytes` of device memory.
Observations fit_cuda(const Fit& op, std::uint64_t seed, std::size_t batch_bytes);
/// emulated.cpp: the kernel's trial body over the kernel's batches and grids.
Observations fit_cuda_emulated(const Fit& op, std::uint64_t seed, int threads, std::size_t batch_bytes);

}  // namespace akm::ops::detail
