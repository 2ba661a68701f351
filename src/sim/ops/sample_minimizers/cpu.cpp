// sample_minimizers/cpu — the op on the fast CPU engine (double): a trial's normals drawn in two
// batches (keys, noise; the reference's normals, in its order), the Gram matrix XᵀX and XᵀD in
// plain loops, and the function-space minimizer from the normal equations (XᵀX)Mᵀ = XᵀD by
// Cholesky: the minimizer the reference's QR gives, in κ(X)² rather than κ(X) arithmetic (the
// bound in tests/ops/test_sample_minimizers.cpp). Ḡ_S = DᵀX/S is XᵀD transposed. One trial per
// task; compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (ODR).
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void sample_minimizers_cpu(const SampleMinimizersPlain& op, std::uint64_t seed, long long first, long long count,
                           int threads, double* rows) {
  const int n = op.n, m = op.m, S = op.samples;
  const std::size_t k = op.entries();
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const auto trial = std::uint64_t(first + (long long)j);
    const std::size_t nz = std::size_t(S) * n, nxi = std::size_t(S) * m;
    std::vector<double> z(nz + nz % 2), xi(nxi + nxi % 2);
    engine::NormalStream(seed, trial, Purpose::keys).fill(z.data(), int(z.size()));
    engine::NormalStream(seed, trial, Purpose::noise).fill(xi.data(), int(xi.size()));
    // X (S × n) and D (S × m), row-major: x_s = U(√λ ∘ z_s), δ_s = Ax_s + σξ_s.
    std::vector<double> X(nz), D(nxi), w(n);
    for (int s = 0; s < S; ++s) {
      const double* zs = z.data() + std::size_t(s) * n;
      double* x = X.data() + std::size_t(s) * n;
      for (int i = 0; i < n; ++i) w[i] = op.sqrt_lambda[i] * zs[i];
      for (int i = 0; i < n; ++i) x[i] = dot(op.U.data() + std::size_t(i) * n, w.data(), n);
      for (int q = 0; q < m; ++q)
        D[std::size_t(s) * m + q] = dot(op.A.data() + std::size_t(q) * n, x, n) + op.sigma * xi[std::size_t(s) * m + q];
    }
    // L (lower, row-major) with LLᵀ = XᵀX, and B = XᵀD (n × m, row-major).
    std::vector<double> L(std::size_t(n) * n, 0.0), B(std::size_t(n) * m, 0.0);
    for (int s = 0; s < S; ++s) {
      const double* x = X.data() + std::size_t(s) * n;
      const double* d = D.data() + std::size_t(s) * m;
      for (int a = 0; a < n; ++a) {
        for (int b = 0; b <= a; ++b) L[std::size_t(a) * n + b] += x[a] * x[b];
        for (int q = 0; q < m; ++q) B[std::size_t(a) * m + q] += x[a] * d[q];
      }
    }
    for (int a = 0; a < n; ++a) {  // Cholesky in place, row by row
      double* La = L.data() + std::size_t(a) * n;
      for (int b = 0; b < a; ++b) {
        const double* Lb = L.data() + std::size_t(b) * n;
        La[b] = (La[b] - dot(La, Lb, b)) / Lb[b];
      }
      La[a] = std::sqrt(La[a] - dot(La, La, a));
    }
    double* out = rows + j * op.n_obs();
    for (int q = 0; q < m; ++q) {
      for (int a = 0; a < n; ++a) {  // L y = B_q
        double acc = B[std::size_t(a) * m + q];
        for (int b = 0; b < a; ++b) acc -= L[std::size_t(a) * n + b] * w[b];
        w[a] = acc / L[std::size_t(a) * n + a];
      }
      for (int a = n - 1; a >= 0; --a) {  // Lᵀ (row q of M) = y
        double acc = w[a];
        for (int b = a + 1; b < n; ++b) acc -= L[std::size_t(b) * n + a] * w[b];
        w[a] = acc / L[std::size_t(a) * n + a];
      }
      for (int a = 0; a < n; ++a) out[std::size_t(a) * m + q] = w[a];
    }
    for (int a = 0; a < n; ++a)
      for (int q = 0; q < m; ++q) out[k + std::size_t(a) * m + q] = B[std::size_t(a) * m + q] / S;
  });
}

}  // namespace akm::ops::detail
