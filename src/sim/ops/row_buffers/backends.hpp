// row_buffers/backends — the op's two paths, one file each beside this one; entry.cpp picks
// one. Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "akm/sim/ops/row_buffers.hpp"

namespace akm::ops::detail {

/// What the cpu path reads, in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct RowBuffersPlain {
  struct Probe {
    std::vector<double> W;  ///< B × n, row-major
    std::vector<int> steps;
    bool window;
  };
  int n, B, noise_slots, steps, window_start, msq_window_start;
  double beta, noise_sigma, a0, a1;
  long long stream_stride, stream_offset;
  std::vector<double> sqrt_lambda;
  std::vector<double> key_mean;  ///< n entries, or empty
  std::vector<int> rule;  ///< BufferKind value per row
  std::vector<double> eta;
  std::vector<int> slot;
  std::vector<double> d, start, center;  ///< B × n, row-major
  std::vector<int> record;
  std::vector<Probe> probes;
  std::vector<std::size_t> probe_base;  ///< each probe's first observable
  std::size_t n_obs;
  bool value_on_normalized;
  /// With a key law: writes trial `trial`'s keys (steps × n, row-major) as the reference draws
  /// them (LawKeys::batch); empty: x = √λ ∘ z from the normal stream.
  LawKeys::Batch law_keys;
  std::vector<double> key_turns;  ///< steps × n × n, row-major per step; empty: none
  std::vector<double> value_rows;  ///< steps × B × n, row-major per step; empty: the rows' d
  std::vector<double> noise_scale;  ///< s_b per row
  std::vector<int> second_moment_record;
  double beta2;
  std::size_t msq_obs, second_moment_base;  ///< RowBuffers::msq_obs, second_moment_obs(0, 0, 0)
  double a(int t) const { return a0 + a1 * t; }
  /// RowBuffers::stream.
  std::uint64_t stream(long long t) const { return interleaved_stream(t, stream_stride, stream_offset); }
};
RowBuffersPlain plain(const RowBuffers& op);

/// reference.cpp: akm::Stream and the kernels of akm/rules/kernels.hpp on 1×n buffers (double, Eigen).
void row_buffers_reference(const RowBuffers& op, std::uint64_t seed, long long first, long long count, int threads,
                           double* rows);
/// cpu.cpp: the fast engine in double (batched normals, contiguous rows), one trial per task.
void row_buffers_cpu(const RowBuffersPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                     double* rows);

}  // namespace akm::ops::detail
