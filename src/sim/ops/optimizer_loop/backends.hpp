// optimizer_loop/backends — the op's two paths, one file each beside this one; entry.cpp picks
// one. Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/sim/ops/optimizer_loop.hpp"

namespace akm::ops::detail {

/// What the cpu path reads, in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct OptimizerLoopPlain {
  int n, rule, steps;
  double eta, beta, alpha, noise_sigma;
  std::vector<double> sqrt_lambda;
  std::size_t n_obs;
  std::vector<double> e0;  ///< e_0 per direction
};

/// reference.cpp: akm::Stream and the kernels of akm/rules/kernels.hpp (double, Eigen).
void optimizer_loop_reference(const OptimizerLoop& op, std::uint64_t seed, long long first, long long count,
                              int threads, double* rows);
/// cpu.cpp: the fast engine in double (batched normals, contiguous arrays), one trial per task.
void optimizer_loop_cpu(const OptimizerLoopPlain& op, std::uint64_t seed, long long first, long long count,
                        int threads, double* rows);

}  // namespace akm::ops::detail
