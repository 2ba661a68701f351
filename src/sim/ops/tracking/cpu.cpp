// tracking/cpu — the op on the fast CPU engine (double): the trial's normals drawn in two
// batches (keys, noise), the recorded row 0 of each buffer in contiguous arrays, one trial per
// task. Compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (ODR).
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"

namespace akm::ops::detail {
namespace {

// M ← βM + r·k with r = η(δ − M·k) (AK) or (1 − β)δ (EMA), on one row.
void push(double* __restrict M, const double* __restrict k, double beta, double r, int n) {
#pragma omp simd
  for (int i = 0; i < n; ++i) M[i] = beta * M[i] + r * k[i];
}

}  // namespace

void tracking_cpu(const TrackingPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                  double* rows) {
  constexpr int kAkRaw = int(BufferKind::ak_raw), kAkNorm = int(BufferKind::ak_normalized), kEma = int(BufferKind::ema);
  const int n = op.n, steps = op.t0 + op.post;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const std::uint64_t trial = std::uint64_t(first + (long long)j);
    double* __restrict out = rows + j * op.n_obs();
    const std::size_t nk = std::size_t(steps) * n, nx = std::size_t(steps) * op.m;
    std::vector<double> z(nk + nk % 2), xi(nx + nx % 2), M(3 * std::size_t(n), 0.0), x(n), xh(n);
    engine::NormalStream(seed, trial, Purpose::keys).fill(z.data(), int(z.size()));
    engine::NormalStream(seed, trial, Purpose::noise).fill(xi.data(), int(xi.size()));
    double* Mr = M.data() + kAkRaw * n;
    double* Mn = M.data() + kAkNorm * n;
    double* Me = M.data() + kEma * n;
    auto record = [&](int k) {
      for (int r = 0; r < 3; ++r)
        for (int i = 0; i < n; ++i) out[op.obs(r, k, i)] = M[std::size_t(r) * n + i] - op.center[std::size_t(r) * n + i];
    };
    for (int t = 0; t < steps; ++t) {
      const bool pre = t < op.t0;
      const double* zs = z.data() + std::size_t(t) * n;
      const double* sl = pre ? op.sqrt_lambda0.data() : op.sqrt_lambda1.data();
      if (pre && !op.Q.empty()) {  // x = Q diag(√λ⁰) z
        for (int c = 0; c < n; ++c) xh[c] = sl[c] * zs[c];
        for (int i = 0; i < n; ++i) x[i] = dot(op.Q.data() + std::size_t(i) * n, xh.data(), n);
      } else {
        for (int i = 0; i < n; ++i) x[i] = sl[i] * zs[i];
      }
      const double delta = dot(pre ? op.a0.data() : op.a1.data(), x.data(), n) + op.noise_sigma * xi[std::size_t(t) * op.m];
      const double norm = std::sqrt(dot(x.data(), x.data(), n));
      for (int i = 0; i < n; ++i) xh[i] = x[i] / norm;
      push(Mr, x.data(), op.beta, op.eta_raw * (delta - dot(Mr, x.data(), n)), n);            // [eq:dm-update]
      push(Mn, xh.data(), op.beta, op.eta_normalized * (delta - dot(Mn, xh.data(), n)), n);  // [eq:dm-norm-update]
      push(Me, x.data(), op.beta, (1.0 - op.beta) * delta, n);                                // [eq:ema-update]
      if (t + 1 >= op.t0) record(t + 1 - op.t0);
    }
  });
}

}  // namespace akm::ops::detail
