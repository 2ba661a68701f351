// glm_pair/reference — the plain reference: akm::Stream, logistic::Teacher and
// logistic::AkSgdPair per trial, in the order of the header's definition. cpu.cpp beside it is
// held to it by tests/ops/test_glm_pair.cpp.
#include <cmath>

#include "akm/base/thread_pool.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/random/random.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void glm_pair_reference(const GlmPair& op, std::uint64_t seed, long long first, long long count, int threads,
                        double* rows) {
  namespace lg = akm::logistic;
  const int n = op.n();
  const Vec& lambda = op.lambda;
  const lg::Teacher teacher(lambda, op.w_star);
  const double msq0 = op.offset.cwiseProduct(op.offset).dot(lambda);
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * op.n_obs();
    Stream keys(seed, std::uint64_t(trial), Purpose::keys), labels(seed, std::uint64_t(trial), Purpose::noise);
    lg::AkSgdPair pair(op.w_star, op.offset, op.alpha, op.beta, op.eta);
    Vec x(n), e_before(n), m_before(n);
    for (std::size_t o = 0; o < op.n_obs(); ++o) out[o] = 0.0;
    for (std::size_t d = 0; d <= op.shown.size(); ++d) out[op.traj(d, 0)] = 1.0;
    double rem = 0, lin = 0, spread = 0;
    for (int t = 0; t < op.steps; ++t) {
      teacher.key(keys, x);
      const double p = teacher.p(x);
      const double y = op.soft ? p : (labels.uniform() < p ? 1.0 : 0.0);
      // s_t = (Δw_t, ΔM_{t−1}) before the step, s_{t+1} after it.
      for (int i = 0; i < n; ++i) {
        double* q = out + op.mom(i, 0);
        const double e0 = pair.w_half()[i], m0 = pair.m_half()[i];
        q[0] += e0 * e0, q[1] += e0 * m0, q[2] += m0 * m0;
      }
      e_before = pair.w_half();
      m_before = pair.m_half();
      const auto info = pair.step(x, y);
      const double zs = op.w_star.dot(x);
      const double lin_t = lg::sigmoid_d1(zs) * info.d;
      rem += std::abs(info.delta_half - lin_t);
      lin += std::abs(lin_t);
      spread += (info.a - zs) * (info.a - zs);
      for (int i = 0; i < n; ++i) {
        double* q = out + op.mom(i, 0);
        const double e1 = pair.w_half()[i], m1 = pair.m_half()[i];
        q[3] += e1 * e_before[i], q[4] += e1 * m_before[i], q[5] += m1 * e_before[i], q[6] += m1 * m_before[i];
      }
      if ((t + 1) % op.stride == 0) {
        const int jt = (t + 1) / op.stride;
        for (std::size_t d = 0; d < op.shown.size(); ++d)
          out[op.traj(d, jt)] = pair.w_half()[op.shown[d]] / op.offset[op.shown[d]];
        out[op.traj(op.shown.size(), jt)] = pair.w_half().cwiseProduct(pair.w_half()).dot(lambda) / msq0;
      }
    }
    out[op.rem(0)] = rem;
    out[op.rem(1)] = lin;
    out[op.rem(2)] = spread / op.steps;
  });
}

}  // namespace akm::ops::detail
