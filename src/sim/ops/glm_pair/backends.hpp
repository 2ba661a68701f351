// glm_pair/backends — the op's two paths, one file each beside this one; entry.cpp picks one.
// Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/sim/ops/glm_pair.hpp"

namespace akm::ops::detail {

/// What the cpu path reads, in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct GlmPairPlain {
  int n, steps, stride;
  bool soft;
  double alpha, beta, eta;
  std::vector<double> lambda, sqrt_lambda, w_star, offset;  ///< sqrt_lambda: √λ as logistic::Teacher takes it
  std::vector<int> shown;
  std::size_t traj(std::size_t d, int j) const { return std::size_t(n) * 7 + d * (steps / stride + 1) + j; }
  std::size_t rem(int k) const { return traj(shown.size() + 1, 0) + k; }
  std::size_t n_obs() const { return rem(3); }
};
GlmPairPlain plain(const GlmPair& op);

/// reference.cpp: akm::Stream, logistic::Teacher and logistic::AkSgdPair (double, Eigen).
void glm_pair_reference(const GlmPair& op, std::uint64_t seed, long long first, long long count, int threads,
                        double* rows);
/// cpu.cpp: the pair in plain loops, the keys' normals drawn at once, one trial per task.
void glm_pair_cpu(const GlmPairPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                  double* rows);

}  // namespace akm::ops::detail
