// optimizer_loop/cpu — the op on the fast CPU engine (double): the trial's normals drawn in two
// batches (keys, noise), e and μ in contiguous arrays, one trial per task. Compiled with
// -march=native -fopenmp-simd; no Eigen code is instantiated here (ODR).
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void optimizer_loop_cpu(const OptimizerLoopPlain& op, std::uint64_t seed, long long first, long long count,
                        int threads, double* rows) {
  const int n = op.n, T = op.steps;
  const bool ema = op.rule == int(BufferKind::ema), normalized = op.rule == int(BufferKind::ak_normalized);
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const std::uint64_t trial = std::uint64_t(first + (long long)j);
    double* __restrict out = rows + j * op.n_obs;
    const std::size_t nk = std::size_t(T) * n;
    std::vector<double> z(nk + nk % 2), xi(std::size_t(T) + T % 2), E(op.e0), M(n, 0.0), x(n), k(n);
    engine::NormalStream(seed, trial, Purpose::keys).fill(z.data(), int(z.size()));
    engine::NormalStream(seed, trial, Purpose::noise).fill(xi.data(), int(xi.size()));
    double* __restrict mom = out + std::size_t(T + 1) * n * 2;  // 7 per direction
    for (int i = 0; i < n; ++i) out[2 * i] = E[i], out[2 * i + 1] = 0.0;
    for (int q = 0; q < 7 * n; ++q) mom[q] = 0.0;
    for (int t = 0; t < T; ++t) {
      const double* zs = z.data() + std::size_t(t) * n;
      for (int i = 0; i < n; ++i) x[i] = op.sqrt_lambda[i] * zs[i];
      const double delta = dot(E.data(), x.data(), n) - op.noise_sigma * xi[t];
      double r;
      const double* key = x.data();
      if (ema) {
        r = (1.0 - op.beta) * delta;  // [eq:ema-update]
      } else {
        if (normalized) {
          const double norm = std::sqrt(dot(x.data(), x.data(), n));
          for (int i = 0; i < n; ++i) k[i] = x[i] / norm;
          key = k.data();
        }
        r = op.eta * (delta - dot(M.data(), key, n));  // [eq:dm-update, eq:dm-norm-update]
      }
      const double* __restrict prev = out + std::size_t(t) * n * 2;
      double* __restrict next = out + std::size_t(t + 1) * n * 2;
#pragma omp simd
      for (int i = 0; i < n; ++i) {
        M[i] = op.beta * M[i] + r * key[i];
        E[i] -= op.alpha * M[i];  // θ ← θ − αμ
        const double e0 = prev[2 * i], m0 = prev[2 * i + 1];
        next[2 * i] = E[i], next[2 * i + 1] = M[i];
        double* q = mom + 7 * i;
        q[0] += e0 * e0, q[1] += e0 * m0, q[2] += m0 * m0;
        q[3] += E[i] * e0, q[4] += E[i] * m0, q[5] += M[i] * e0, q[6] += M[i] * m0;
      }
    }
  });
}

}  // namespace akm::ops::detail
