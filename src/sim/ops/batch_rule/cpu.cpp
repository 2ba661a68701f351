// batch_rule/cpu — the op on the fast CPU engine (double): a trial's normals drawn in two
// batches per batch size (keys, noise; the reference's normals, in its order), the update in the
// factored form M ← βM + (η/N)(Δ − X̂Mᵀ)ᵀX̂ [eq:factored] on contiguous arrays, one trial per
// task. Compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (ODR).
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void batch_rule_cpu(const BatchRulePlain& op, std::uint64_t seed, long long first, long long count, int threads,
                    double* rows) {
  const int n = op.n, m = op.m, ne = m * n;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* __restrict out = rows + j * op.n_obs();
    for (std::size_t b = 0; b < op.batches.size(); ++b) {
      const int N = op.batches[b];
      const std::uint64_t s = std::uint64_t(trial) * 16 + b;
      const std::size_t nz = std::size_t(op.steps) * N * n, nxi = std::size_t(op.steps) * N * m;
      std::vector<double> z(nz + nz % 2), xi(nxi + nxi % 2);
      engine::NormalStream(seed, s, Purpose::keys).fill(z.data(), int(z.size()));
      engine::NormalStream(seed, s, Purpose::noise).fill(xi.data(), int(xi.size()));
      std::vector<double> M(std::size_t(m) * n, 0.0), xh(std::size_t(N) * n), R(std::size_t(N) * m);  // M row-major
      for (int t = 0; t < op.steps; ++t) {
        const double* zt = z.data() + std::size_t(t) * N * n;
        const double* xit = xi.data() + std::size_t(t) * N * m;
        for (int r = 0; r < N; ++r) {
          double* x = xh.data() + std::size_t(r) * n;
          for (int i = 0; i < n; ++i) x[i] = op.sqrt_lambda[i] * zt[std::size_t(r) * n + i];
          for (int c = 0; c < m; ++c)  // R = Δ − X̂Mᵀ, Δ = XAᵀ + σΞ, row r
            R[std::size_t(r) * m + c] = dot(x, op.A.data() + std::size_t(c) * n, n) + op.sigma * xit[std::size_t(r) * m + c];
          const double norm = std::sqrt(dot(x, x, n));
          for (int i = 0; i < n; ++i) x[i] /= norm;
          for (int c = 0; c < m; ++c) R[std::size_t(r) * m + c] -= dot(x, M.data() + std::size_t(c) * n, n);
        }
        const double g = op.eta / N;
        for (int c = 0; c < m; ++c) {
          double* Mc = M.data() + std::size_t(c) * n;
          for (int i = 0; i < n; ++i) Mc[i] *= op.beta;
          for (int r = 0; r < N; ++r) {
            const double w = g * R[std::size_t(r) * m + c];
            const double* x = xh.data() + std::size_t(r) * n;
            for (int i = 0; i < n; ++i) Mc[i] += w * x[i];
          }
        }
      }
      double* __restrict o = out + b * op.per_batch();
      double dist = 0.0;
      for (int e = 0; e < ne; ++e) {
        o[e] = M[std::size_t(e % m) * n + e / m];
        const double d = o[e] - op.center[std::size_t(e)];
        dist += d * d;
      }
      o[ne] = dist;
    }
  });
}

}  // namespace akm::ops::detail
