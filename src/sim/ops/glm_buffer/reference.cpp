// glm_buffer/reference — the plain reference: akm::Stream, the logistic teacher's key and label
// draws and the AK kernel of akm/rules/kernels.hpp on the whole 1×n buffer. cpu.cpp, cuda.cu and
// emulated.cpp beside it are held to it by tests/ops/test_glm_buffer.cpp.
#include "akm/base/key.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void glm_buffer_reference(const GlmBuffer& op, std::uint64_t seed, long long first, long long count, int threads,
                          double* rows) {
  const int n = op.n(), T = op.steps();
  const logistic::Teacher teacher(op.lambda, op.w_star);
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * op.n_obs();
    Stream keys(seed, std::uint64_t(trial), Purpose::keys), labels(seed, std::uint64_t(trial), Purpose::noise);
    Mat M = Mat::Zero(1, n);
    Vec x(n), k(n), delta(1), r(1);
    std::size_t cp = 0;
    for (int t = 1; t <= T; ++t) {
      const Vec& w = t <= op.t0 ? op.w0 : op.w1;  // w switches after step t0
      teacher.key(keys, x);
      delta[0] = logistic::residual(w, x, teacher.label(labels, x));  // δ = σ(wᵀx) − y
      kern::key_for(Key::normalized, x, k);
      kern::ak_step(M, delta, k, op.beta, op.eta, r);  // [eq:dm-norm-update]
      if (cp < op.checkpoints.size() && t == op.checkpoints[cp]) {
        for (int i = 0; i < n; ++i) out[op.checkpoint_obs(cp, i)] = M(0, i);
        ++cp;
      }
      for (std::size_t d = 0; d < op.shown.size(); ++d) out[op.shown_obs(d, t)] = M(0, op.shown[d]);
    }
  });
}

}  // namespace akm::ops::detail
