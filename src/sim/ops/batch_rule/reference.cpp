// batch_rule/reference — the plain reference: akm::Stream and rules::deployed [eq:deployed] in
// the order eq:dispatch picks, per trial and batch size. cpu.cpp beside it is held to it by
// tests/ops/test_batch_rule.cpp.
#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void batch_rule_reference(const BatchRule& op, std::uint64_t seed, long long first, long long count, int threads,
                          double* rows) {
  const int n = op.n(), m = op.m(), ne = m * n;
  const rules::Order order = rules::dispatch(n, m);
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * op.n_obs();
    for (std::size_t b = 0; b < op.batches.size(); ++b) {
      const int N = op.batches[b];
      const std::uint64_t s = std::uint64_t(trial) * 16 + b;
      Stream keys(seed, s, Purpose::keys), noise(seed, s, Purpose::noise);
      Mat M = Mat::Zero(m, n), X(N, n), D(N, m);
      for (int t = 0; t < op.steps; ++t) {
        for (int r = 0; r < N; ++r)
          for (int i = 0; i < n; ++i) X(r, i) = op.sqrt_lambda[i] * keys.normal();
        D = X * op.A.transpose();
        for (int r = 0; r < N; ++r)
          for (int c = 0; c < m; ++c) D(r, c) += op.sigma * noise.normal();
        rules::deployed(M, D, rules::normalize_rows(X), op.beta, op.eta, order);
      }
      double* o = out + op.obs(b, 0);
      for (int e = 0; e < ne; ++e) o[e] = M(e % m, e / m);
      o[ne] = (M - op.center).squaredNorm();
    }
  });
}

}  // namespace akm::ops::detail
