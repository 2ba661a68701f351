// glm_pair/cpu — the op on the fast CPU engine (double): the trial's key normals drawn at once
// (the reference's, in its order), the labels' uniforms as akm::Stream draws them, the pair's
// midpoint and half-difference in contiguous arrays, one trial per task. The logistic functions
// are akm::logistic's own (out of line). Compiled with -march=native -fopenmp-simd; no Eigen
// code is instantiated here (ODR).
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/random/stream_hd.hpp"
#include "akm/sim/engine/engine.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void glm_pair_cpu(const GlmPairPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                  double* rows) {
  namespace lg = akm::logistic;
  const int n = op.n;
  const std::size_t S = op.shown.size();
  double msq0 = 0;
  for (int i = 0; i < n; ++i) msq0 += op.offset[i] * op.offset[i] * op.lambda[i];
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const std::uint64_t trial = std::uint64_t(first + (long long)j);
    double* __restrict out = rows + j * op.n_obs();
    const std::size_t nz = std::size_t(op.steps) * n;
    std::vector<double> z(nz + nz % 2), x(std::size_t(n), 0.0), wm(op.w_star), wh(op.offset), mm(std::size_t(n), 0.0),
        mh(std::size_t(n), 0.0);
    engine::NormalStream(seed, trial, Purpose::keys).fill(z.data(), int(z.size()));
    hd::Stream<double> labels(seed, trial, hd::kNoise);  // akm::Stream's uniforms, bit for bit
    for (std::size_t o = 0; o < op.n_obs(); ++o) out[o] = 0.0;
    for (std::size_t d = 0; d <= S; ++d) out[op.traj(d, 0)] = 1.0;
    double rem = 0, lin = 0, spread = 0;
    for (int t = 0; t < op.steps; ++t) {
      const double* zt = z.data() + std::size_t(t) * n;
      for (int i = 0; i < n; ++i) x[i] = op.sqrt_lambda[i] * zt[i];
      const double zs = dot(op.w_star.data(), x.data(), n);  // w*ᵀx
      const double p = lg::sigmoid(zs);
      const double y = op.soft ? p : (labels.uniform() < p ? 1.0 : 0.0);
      const double a = dot(wm.data(), x.data(), n), d = dot(wh.data(), x.data(), n);
      const double dh = lg::sigmoid_half_difference(a, d);  // Δδ
      const double dm = 0.5 * (lg::sigmoid(a + d) + lg::sigmoid(a - d)) - y;  // the midpoint's value
      const double norm = std::sqrt(dot(x.data(), x.data(), n));
      for (int i = 0; i < n; ++i) x[i] /= norm;  // x̂
      const double rm = op.eta * (dm - dot(mm.data(), x.data(), n)), rh = op.eta * (dh - dot(mh.data(), x.data(), n));
      for (int i = 0; i < n; ++i) {
        // s_t = (Δw_t, ΔM_{t−1}) before the step, s_{t+1} after it: T4's regression sums.
        const double e0 = wh[i], m0 = mh[i];
        mm[i] = op.beta * mm[i] + rm * x[i];  // [eq:dm-norm-update] on both parts, buffer first,
        mh[i] = op.beta * mh[i] + rh * x[i];
        wm[i] -= op.alpha * mm[i];  // then w ← w − αM
        wh[i] -= op.alpha * mh[i];
        double* q = out + std::size_t(i) * 7;
        q[0] += e0 * e0, q[1] += e0 * m0, q[2] += m0 * m0;
        q[3] += wh[i] * e0, q[4] += wh[i] * m0, q[5] += mh[i] * e0, q[6] += mh[i] * m0;
      }
      const double lin_t = lg::sigmoid_d1(zs) * d;
      rem += std::abs(dh - lin_t);
      lin += std::abs(lin_t);
      spread += (a - zs) * (a - zs);
      if ((t + 1) % op.stride == 0) {
        const int jt = (t + 1) / op.stride;
        double msq = 0;
        for (int i = 0; i < n; ++i) msq += wh[i] * wh[i] * op.lambda[i];
        for (std::size_t s = 0; s < S; ++s) out[op.traj(s, jt)] = wh[op.shown[s]] / op.offset[op.shown[s]];
        out[op.traj(S, jt)] = msq / msq0;
      }
    }
    out[op.rem(0)] = rem;
    out[op.rem(1)] = lin;
    out[op.rem(2)] = spread / op.steps;
  });
}

}  // namespace akm::ops::detail
