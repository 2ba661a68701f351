// glm_buffer/backends — the op's four paths, one file each beside this one; entry.cpp picks
// one. Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/sim/ops/glm_buffer.hpp"

namespace akm::ops::detail {

/// What the fast paths share in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct GlmBufferPlain {
  int n, t0, post;
  std::vector<double> sqrt_lambda, w_star, w0, w1;
  double beta, eta;
  std::vector<int> checkpoints, shown;
  std::size_t n_obs() const { return checkpoints.size() * std::size_t(n) + shown.size() * std::size_t(t0 + post); }
};
GlmBufferPlain plain(const GlmBuffer& op);

/// reference.cpp: akm::Stream, the logistic teacher of akm/problems/logistic.hpp and the AK
/// kernel of akm/rules/kernels.hpp (double, Eigen).
void glm_buffer_reference(const GlmBuffer& op, std::uint64_t seed, long long first, long long count, int threads,
                          double* rows);
/// cpu.cpp: the fast engine in double, one trial per task.
void glm_buffer_cpu(const GlmBufferPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                    double* rows);
/// cuda.cu: one device thread per trial, float.
void glm_buffer_cuda(const GlmBufferPlain& op, std::uint64_t seed, long long first, long long count, double* rows);
/// emulated.cpp: the kernel's thread body (trial.hpp) over its grid on `threads` host threads.
void glm_buffer_cuda_emulated(const GlmBufferPlain& op, std::uint64_t seed, long long first, long long count,
                              int threads, double* rows);

}  // namespace akm::ops::detail
