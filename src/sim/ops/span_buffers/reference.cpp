// span_buffers/reference — the plain reference: span_path (the full m×p buffers and their
// projections) per trial, recorded at the grid and averaged over the window. cpu.cpp beside it
// is held to it by tests/ops/test_span_buffers.cpp.
#include "akm/base/thread_pool.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void span_buffers_reference(const SpanBuffers& op, const Mat& Ct, std::uint64_t seed, long long first, long long count,
                            int threads, double* rows) {
  const int m = op.m(), D = op.D(), W = op.steps - op.window_start + 1;
  const std::size_t G = op.grid.size(), per_t = op.per_step();
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    double* out = rows + j * op.n_obs();
    std::size_t g = 0;
    Eigen::Map<Mat> win_ak(out + G * per_t, m, D), win_ema(out + G * per_t + std::size_t(D) * m, m, D);
    win_ak.setZero();
    win_ema.setZero();
    span_path(op, Ct, seed, first + (long long)j, [&](int t, const Mat&, const Mat&, const Mat& ya, const Mat& ye) {
      if (g < G && t == op.grid[g]) {
        Eigen::Map<Mat>(out + g * per_t, m, D) = ya;
        Eigen::Map<Mat>(out + g * per_t + std::size_t(D) * m, m, D) = ye;
        ++g;
      }
      if (t >= op.window_start) {
        win_ak += ya / W;
        win_ema += ye / W;
      }
    });
  });
}

}  // namespace akm::ops::detail
