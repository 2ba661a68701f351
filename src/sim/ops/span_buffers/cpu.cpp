// span_buffers/cpu — the op on the fast CPU engine (double): the AK buffer carried as m×n_s
// coefficients on the keys under a running scale (M_ak = c·C K̂ᵀ, so the step's βM is c ← βc and
// only column s of C changes), M_ak x̂_s read through the Gram matrix, the EMA buffer only
// through its projections; the same picks as the reference (its uniforms, bit for bit). One
// trial per task. Compiled with -march=native -fopenmp-simd; no Eigen code here (ODR).
#include <algorithm>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/random/stream_hd.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"

namespace akm::ops::detail {
void span_buffers_cpu(const SpanBuffersPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                      double* rows) {
  const int n_s = op.n_s, m = op.m, D = op.D, W = op.steps - op.window_start + 1;
  const std::size_t G = op.grid.size(), per_t = op.per_step(), md = std::size_t(m) * D;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    double* __restrict out = rows + j * op.n_obs();
    hd::Stream<double> pick(seed, std::uint64_t(first + (long long)j), hd::kKeys);
    std::vector<double> C(std::size_t(m) * n_s, 0.0), y(2 * md, 0.0), rho(static_cast<std::size_t>(m)), e(static_cast<std::size_t>(m));
    double* __restrict ya = y.data();       // m×D, column-major (the reference's Y_ak)
    double* __restrict ye = y.data() + md;  // Y_ema
    double* __restrict win = out + G * per_t;
    std::fill(win, win + per_t, 0.0);
    double c = 1.0;  // M_ak = c·C K̂ᵀ
    std::size_t g = 0;
    for (int t = 1; t <= op.steps; ++t) {
      const int s = std::min(n_s - 1, static_cast<int>(pick.uniform() * n_s));
      const double* gs = op.gram.data() + std::size_t(s) * n_s;
      const double* cs = op.ct.data() + std::size_t(s) * D;
      const double* ds = op.values.data() + std::size_t(s) * m;
      for (int r = 0; r < m; ++r) {
        rho[r] = op.eta * (ds[r] - c * dot(C.data() + std::size_t(r) * n_s, gs, n_s));  // η(δ − M x̂_s) [eq:dm-norm-update]
        e[r] = (1.0 - op.beta) * (op.norms[s] * ds[r]);  // (1 − β)δ_s‖x_s‖ [eq:ema-update]
      }
      c *= op.beta;
      if (c < 1e-150) {  // fold the scale into C before it underflows
        for (double& v : C) v *= c;
        c = 1.0;
      }
      for (int r = 0; r < m; ++r) C[std::size_t(r) * n_s + s] += rho[r] / c;
      for (int q = 0; q < D; ++q)
        for (int r = 0; r < m; ++r) {
          ya[q * m + r] = op.beta * ya[q * m + r] + rho[r] * cs[q];
          ye[q * m + r] = op.beta * ye[q * m + r] + e[r] * cs[q];
        }
      if (g < G && t == op.grid[g]) {
        std::copy(y.begin(), y.end(), out + g * per_t);
        ++g;
      }
      if (t >= op.window_start)
        for (std::size_t i = 0; i < 2 * md; ++i) win[i] += y[i] / W;
    }
  });
}

}  // namespace akm::ops::detail
