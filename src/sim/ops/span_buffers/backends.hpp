// span_buffers/backends — the op's two paths, one file each beside this one; entry.cpp picks
// one. Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/sim/ops/span_buffers.hpp"

namespace akm::ops::detail {

/// What the cpu path reads, in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct SpanBuffersPlain {
  int n_s, m, D, steps, window_start;
  double beta, eta;
  std::vector<double> gram;  ///< n_s × n_s: x̂_qᵀx̂_s (row s contiguous)
  std::vector<double> ct;  ///< n_s × D: u_jᵀx̂_s (row s contiguous)
  std::vector<double> values;  ///< n_s × m: δ_s (row s contiguous)
  std::vector<double> norms;  ///< n_s: ‖x_s‖
  std::vector<int> grid;
  std::size_t per_step() const { return 2 * std::size_t(D) * m; }
  std::size_t n_obs() const { return (grid.size() + 1) * per_step(); }
};
SpanBuffersPlain plain(const SpanBuffers& op);

/// reference.cpp: span_path (akm::Stream, the full m×p buffers, the kernels of rules/kernels.hpp).
void span_buffers_reference(const SpanBuffers& op, const Mat& Ct, std::uint64_t seed, long long first, long long count,
                            int threads, double* rows);
/// cpu.cpp: the AK buffer as coefficients on the keys, double, one trial per task.
void span_buffers_cpu(const SpanBuffersPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                      double* rows);

}  // namespace akm::ops::detail
