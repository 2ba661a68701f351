// glm_buffer/cpu — the op on the fast CPU engine (double): the trial's key normals drawn in one
// batch, the label uniforms from the noise stream as the reference draws them, the buffer in a
// contiguous row, one trial per task. Compiled with -march=native -fopenmp-simd; no Eigen code
// is instantiated here (ODR).
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"
#include "trial.hpp"

namespace akm::ops::detail {
void glm_buffer_cpu(const GlmBufferPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                    double* rows) {
  using cuda::glm_buffer_detail::sigmoid;
  const int n = op.n, T = op.t0 + op.post;
  const std::size_t n_cp = op.checkpoints.size();
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const std::uint64_t trial = std::uint64_t(first + (long long)j);
    double* __restrict out = rows + j * op.n_obs();
    double* __restrict tr = out + n_cp * std::size_t(n);
    const std::size_t nz = std::size_t(T) * n;
    std::vector<double> z(nz + nz % 2), M(static_cast<std::size_t>(n), 0.0), x(static_cast<std::size_t>(n));
    engine::NormalStream(seed, trial, Purpose::keys).fill(z.data(), int(z.size()));
    hd::Stream<double> labels(seed, trial, hd::kNoise);  // akm::Stream's uniforms, bit for bit
    std::size_t cp = 0;
    for (int t = 1; t <= T; ++t) {
      const double* zs = z.data() + std::size_t(t - 1) * n;
      for (int i = 0; i < n; ++i) x[i] = op.sqrt_lambda[i] * zs[i];
      const double y = labels.uniform() < sigmoid(dot(op.w_star.data(), x.data(), n)) ? 1.0 : 0.0;
      const double delta = sigmoid(dot((t <= op.t0 ? op.w0 : op.w1).data(), x.data(), n)) - y;  // δ = σ(wᵀx) − y
      const double norm = std::sqrt(dot(x.data(), x.data(), n));
      for (int i = 0; i < n; ++i) x[i] /= norm;  // x̂
      const double r = op.eta * (delta - dot(M.data(), x.data(), n));
#pragma omp simd
      for (int i = 0; i < n; ++i) M[i] = op.beta * M[i] + r * x[i];  // [eq:dm-norm-update]
      if (cp < n_cp && t == op.checkpoints[cp]) {
        for (int i = 0; i < n; ++i) out[cp * n + i] = M[i];
        ++cp;
      }
      for (std::size_t d = 0; d < op.shown.size(); ++d) tr[d * T + std::size_t(t - 1)] = M[op.shown[d]];
    }
  });
}

}  // namespace akm::ops::detail
