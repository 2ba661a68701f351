// row_buffers/cpu — the op on the fast CPU engine (double): the trial's normals drawn in two
// batches (keys, noise), the rows and their errors in contiguous arrays, one trial per task.
// Compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (ODR).
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/rules/bias_factor.hpp"
#include "akm/sim/engine/engine.hpp"
#include "../cpu_dot.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void row_buffers_cpu(const RowBuffersPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                     double* rows) {
  constexpr int kAkNorm = int(BufferKind::ak_normalized), kEma = int(BufferKind::ema);
  const int n = op.n, B = op.B;
  const std::size_t Bn = std::size_t(B) * n, R = op.record.size();
  const bool windowed = op.window_start > 0;
  const double W = windowed ? op.steps - op.window_start + 1 : 1;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    const std::uint64_t id = op.stream(trial);
    double* __restrict out = rows + j * op.n_obs;
    const std::size_t nk = std::size_t(op.steps) * n, nx = std::size_t(op.steps) * op.noise_slots;
    std::vector<double> z(nk + nk % 2), xi(nx + nx % 2), M(op.start), e(Bn), x(n), xh(n), turned(n);
    const bool law = bool(op.law_keys);
    if (law) op.law_keys(seed, (long long)id, op.steps, z.data());  // x itself, drawn as the reference draws it
    else engine::NormalStream(seed, id, Purpose::keys).fill(z.data(), int(z.size()));
    engine::NormalStream(seed, id, Purpose::noise).fill(xi.data(), int(xi.size()));
    const bool msq = op.msq_window_start > 0;
    const double msq_scale = 1.0 / (double(B) * n) / double(op.steps - op.msq_window_start + 1);
    if (msq) out[op.msq_obs] = 0.0;
    const bool second = !op.second_moment_record.empty();
    std::vector<double> v(second ? Bn : 0, 0.0);  // AdamW's second moment per row (B × n)
    double* __restrict win = out + R * Bn;
    if (windowed)
      for (std::size_t k = 0; k < Bn; ++k) win[k] = 0.0;
    std::vector<std::size_t> next(op.probes.size(), 0);
    std::size_t c = 0, cv = 0;
    for (int t = 1; t <= op.steps; ++t) {
      const double* zs = z.data() + std::size_t(t - 1) * n;
      for (int i = 0; i < n; ++i) x[i] = law ? zs[i] : op.sqrt_lambda[i] * zs[i];
      if (!op.key_mean.empty())
        for (int i = 0; i < n; ++i) x[i] += op.key_mean[i];  // x_t = √λ ∘ z + μ
      if (!op.key_turns.empty()) {  // the schedule's turn, x_t ← K_t x_t
        const double* K = op.key_turns.data() + std::size_t(t - 1) * n * n;
        for (int i = 0; i < n; ++i) turned[i] = dot(K + std::size_t(i) * n, x.data(), n);
        x.swap(turned);
      }
      const double norm = std::sqrt(dot(x.data(), x.data(), n));
      for (int i = 0; i < n; ++i) xh[i] = x[i] / norm;
      const double a = op.a(t);
      for (int b = 0; b < B; ++b) {
        double* __restrict Mb = M.data() + std::size_t(b) * n;
        const double* cb = op.center.data() + std::size_t(b) * n;
        const int rule = op.rule[b];
        const double* db = op.value_rows.empty() ? op.d.data() + std::size_t(b) * n
                                                 : op.value_rows.data() + (std::size_t(t - 1) * B + b) * n;
        const double delta = a * dot(db, op.value_on_normalized ? xh.data() : x.data(), n) +
                             op.noise_scale[b] * (op.noise_sigma * xi[std::size_t(t - 1) * op.noise_slots + op.slot[b]]);
        if (second) {  // v ← β2 v + (1 − β2) g⊙g, g = δxᵀ [app:second-moment]
          double* __restrict vb = v.data() + std::size_t(b) * n;
          for (int i = 0; i < n; ++i) {
            const double g = delta * x[i];
            vb[i] = op.beta2 * vb[i] + (1.0 - op.beta2) * (g * g);
          }
        }
        const double* k = rule == kAkNorm ? xh.data() : x.data();
        // AK: r = η(δ − M·k) [eq:dm-update, eq:dm-norm-update]; EMA: r = (1 − β)δ [eq:ema-update]
        const double r = rule == kEma ? (1.0 - op.beta) * delta : op.eta[b] * (delta - dot(Mb, k, n));
        double* __restrict eb = e.data() + std::size_t(b) * n;
#pragma omp simd
        for (int i = 0; i < n; ++i) {
          Mb[i] = op.beta * Mb[i] + r * k[i];
          eb[i] = Mb[i] - a * cb[i];  // e_t = M_t − a_t c
        }
      }
      if (msq && t >= op.msq_window_start) out[op.msq_obs] += dot(e.data(), e.data(), int(Bn)) * msq_scale;
      if (windowed && t >= op.window_start)
        for (std::size_t q = 0; q < Bn; ++q) win[q] += e[q] / W;
      if (c < R && t == op.record[c]) {
        for (std::size_t q = 0; q < Bn; ++q) out[c * Bn + q] = e[q];
        ++c;
      }
      if (cv < op.second_moment_record.size() && t == op.second_moment_record[cv]) {  // v̂ = v/(1 − β2^t)
        const double bias = adamw::bias_factor(op.beta2, t);
        double* __restrict o = out + op.second_moment_base + cv * Bn;
        for (std::size_t q = 0; q < Bn; ++q) o[q] = v[q] / bias;
        ++cv;
      }
      for (std::size_t p = 0; p < op.probes.size(); ++p) {
        const auto& pr = op.probes[p];
        if (!pr.window && next[p] < pr.steps.size() && t == pr.steps[next[p]])
          out[op.probe_base[p] + next[p]++] = dot(pr.W.data(), e.data(), int(Bn));
      }
    }
    for (std::size_t p = 0; p < op.probes.size(); ++p)
      if (op.probes[p].window) out[op.probe_base[p]] = dot(op.probes[p].W.data(), win, int(Bn));
  });
}

}  // namespace akm::ops::detail
