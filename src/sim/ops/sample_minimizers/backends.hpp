// sample_minimizers/backends — the op's two paths, one file each beside this one; entry.cpp
// picks one. Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/sim/ops/sample_minimizers.hpp"

namespace akm::ops::detail {

/// What the cpu path reads, in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct SampleMinimizersPlain {
  int n, m, samples;
  double sigma;
  std::vector<double> sqrt_lambda;
  std::vector<double> U;  ///< n × n, row-major (the identity when the op's basis is empty)
  std::vector<double> A;  ///< m × n, row-major
  std::size_t entries() const { return std::size_t(m) * n; }
  std::size_t n_obs() const { return 2 * entries(); }
};
SampleMinimizersPlain plain(const SampleMinimizers& op);

/// reference.cpp: akm::Stream, the sample in Eigen, Mᵀ by column-pivoted Householder QR.
void sample_minimizers_reference(const SampleMinimizers& op, std::uint64_t seed, long long first, long long count,
                                 int threads, double* rows);
/// cpu.cpp: the normals drawn in two batches, the normal equations solved by Cholesky in plain
/// loops, one trial per task.
void sample_minimizers_cpu(const SampleMinimizersPlain& op, std::uint64_t seed, long long first, long long count,
                           int threads, double* rows);

}  // namespace akm::ops::detail
