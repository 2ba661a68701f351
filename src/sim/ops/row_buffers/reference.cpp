// row_buffers/reference — the plain reference: akm::Stream and the per-trial kernels of
// akm/rules/kernels.hpp on 1×n buffers, in the order of the header's definition. cpu.cpp beside
// it is held to it by tests/ops/test_row_buffers.cpp.
#include <vector>

#include "akm/base/key.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/rules/optimizers.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void row_buffers_reference(const RowBuffers& op, std::uint64_t seed, long long first, long long count, int threads,
                           double* rows) {
  const int n = op.n(), B = op.B();
  const double W = op.window_start > 0 ? op.steps - op.window_start + 1 : 1;
  const std::size_t R = op.record.size(), win = R;  // record slot of the window mean
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * op.n_obs();
    Stream keys(seed, op.stream(trial), Purpose::keys), noise(seed, op.stream(trial), Purpose::noise);
    std::vector<Mat> M, second(std::size_t(B), Mat::Zero(1, n));  // AdamW's second moment per row
    for (const BufferRow& r : op.rows) M.push_back(r.start.transpose());
    Vec x(n), xh(n), delta(1), r(1), xi(op.noise_slots), work(n);
    if (op.window_start > 0)
      for (int b = 0; b < B; ++b)
        for (int i = 0; i < n; ++i) out[op.obs(win, b, i)] = 0.0;
    if (op.msq_window_start > 0) out[op.msq_obs()] = 0.0;
    std::vector<double> e(std::size_t(B) * n);  // row b contiguous
    auto probe = [&](const RowProbe& p, const double* err) {  // err: B×n, row-major
      double s = 0;
      for (int b = 0; b < B; ++b)
        for (int i = 0; i < n; ++i) s += p.W(b, i) * err[std::size_t(b) * n + i];
      return s;
    };
    std::vector<std::size_t> next(op.probes.size(), 0);
    std::size_t c = 0, cv = 0;
    for (int t = 1; t <= op.steps; ++t) {
      if (op.law_keys) op.law_keys.draw(keys, x, work);
      else kern::gaussian_key(keys, op.sqrt_lambda, x);
      if (op.key_mean.size() > 0) x += op.key_mean;  // x_t = √λ ∘ z + μ
      if (!op.key_turns.empty()) {  // the schedule's turn, x_t ← K_t x_t
        work.noalias() = op.key_turns[std::size_t(t - 1)] * x;
        x = work;
      }
      kern::key_for(Key::normalized, x, xh);
      for (int s = 0; s < op.noise_slots; ++s) xi[s] = op.noise_sigma * noise.normal();
      const double a = op.a(t);
      for (int b = 0; b < B; ++b) {
        const BufferRow& row = op.rows[b];
        const Vec& v = op.value_on_normalized ? xh : x;
        const double dx = op.value_rows.empty() ? row.d.dot(v) : op.value_rows[std::size_t(t - 1)].row(b).transpose().dot(v);
        delta[0] = a * dx + row.noise_scale * xi[row.noise_slot];
        if (!op.second_moment_record.empty())
          adamw::second_moment_step(second[b], delta[0] * x.transpose(), op.beta2);  // g = δxᵀ [app:second-moment]
        if (row.rule == BufferKind::ak_raw)
          kern::ak_step(M[b], delta, x, op.beta, row.eta, r);  // [eq:dm-update]
        else if (row.rule == BufferKind::ak_normalized)
          kern::ak_step(M[b], delta, xh, op.beta, row.eta, r);  // [eq:dm-norm-update]
        else
          kern::ema_step(M[b], delta, x, op.beta);  // [eq:ema-update]
        for (int i = 0; i < n; ++i) {
          e[std::size_t(b) * n + i] = M[b](0, i) - a * row.center[i];  // e_t = M_t − a_t c
          if (op.window_start > 0 && t >= op.window_start) out[op.obs(win, b, i)] += e[std::size_t(b) * n + i] / W;
        }
      }
      if (op.msq_window_start > 0 && t >= op.msq_window_start) {  // (1/(B·n))Σ e², averaged over the window
        double sq = 0;
        for (double v : e) sq += v * v;
        out[op.msq_obs()] += sq / (double(B) * n) / double(op.steps - op.msq_window_start + 1);
      }
      if (c < R && t == op.record[c]) {
        for (int b = 0; b < B; ++b)
          for (int i = 0; i < n; ++i) out[op.obs(c, b, i)] = e[std::size_t(b) * n + i];
        ++c;
      }
      if (cv < op.second_moment_record.size() && t == op.second_moment_record[cv]) {  // v̂ = v/(1 − β2^t)
        const double bias = adamw::bias_factor(op.beta2, t);
        for (int b = 0; b < B; ++b)
          for (int i = 0; i < n; ++i) out[op.second_moment_obs(cv, b, i)] = second[b](0, i) / bias;
        ++cv;
      }
      for (std::size_t p = 0; p < op.probes.size(); ++p) {
        const RowProbe& pr = op.probes[p];
        if (!pr.window && next[p] < pr.steps.size() && t == pr.steps[next[p]]) {
          out[op.probe_obs(p, next[p])] = probe(pr, e.data());
          ++next[p];
        }
      }
    }
    for (std::size_t p = 0; p < op.probes.size(); ++p)
      if (op.probes[p].window) out[op.probe_obs(p, 0)] = probe(op.probes[p], out + op.obs(win, 0, 0));
  });
}

}  // namespace akm::ops::detail
