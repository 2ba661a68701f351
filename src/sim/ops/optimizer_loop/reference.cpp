// optimizer_loop/reference — the plain reference: akm::Stream and the per-trial kernels of
// akm/rules/kernels.hpp on a 1×n buffer, in the order of the header's definition. cpu.cpp
// beside it is held to it by tests/ops/test_optimizer_loop.cpp.
#include "akm/base/key.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void optimizer_loop_reference(const OptimizerLoop& op, std::uint64_t seed, long long first, long long count,
                              int threads, double* rows) {
  const int n = op.n();
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * op.n_obs();
    Stream keys(seed, std::uint64_t(trial), Purpose::keys), noise(seed, std::uint64_t(trial), Purpose::noise);
    Vec E = op.e0.size() > 0 ? op.e0 : Vec::Ones(n);  // e_{0,i}: given, or 1 on every direction (m = 1)
    Mat M = Mat::Zero(1, n);
    Vec x(n), k(n), delta(1), r(1);
    for (int i = 0; i < n; ++i) out[op.state(0, i, 0)] = E[i], out[op.state(0, i, 1)] = 0.0;
    for (int i = 0; i < n; ++i)
      for (int q = 0; q < 7; ++q) out[op.moment(i, q)] = 0.0;
    for (int t = 0; t < op.steps; ++t) {
      kern::gaussian_key(keys, op.sqrt_lambda, x);
      delta[0] = E.dot(x) - op.noise_sigma * noise.normal();
      if (op.rule == BufferKind::ema) {
        kern::ema_step(M, delta, x, op.beta);  // [eq:ema-update]
      } else {
        kern::key_for(op.rule == BufferKind::ak_raw ? Key::raw : Key::normalized, x, k);
        kern::ak_step(M, delta, k, op.beta, op.eta, r);  // [eq:dm-update, eq:dm-norm-update]
      }
      E -= op.alpha * M.row(0).transpose();  // θ ← θ − αμ
      for (int i = 0; i < n; ++i) {
        const double e0 = out[op.state(t, i, 0)], m0 = out[op.state(t, i, 1)];
        out[op.state(t + 1, i, 0)] = E[i], out[op.state(t + 1, i, 1)] = M(0, i);
        double* q = out + op.moment(i, 0);
        q[0] += e0 * e0, q[1] += e0 * m0, q[2] += m0 * m0;
        q[3] += E[i] * e0, q[4] += E[i] * m0, q[5] += M(0, i) * e0, q[6] += M(0, i) * m0;
      }
    }
  });
}

}  // namespace akm::ops::detail
