// transport_product/cpu — the op on the fast CPU engine (double): the trial's normals drawn in
// one batch, P kept row-major, each row pushed p ← βp − η(p·k)k with a vectorized dot and
// update (2n² flops a step against n normals, so the arithmetic sets the pace here). One trial
// per task. Compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (ODR).
#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void transport_product_cpu(const TransportProductPlain& op, std::uint64_t seed, long long first, long long count,
                           int threads, double* rows) {
  const TransportProductLayout L = op.layout;
  const int n = L.n;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    double* __restrict out = rows + j * L.size();
    const std::size_t draws = std::size_t(op.steps) * n;
    std::vector<double> z(draws + draws % 2), P(std::size_t(n) * n, 0.0), k(n), x(n), power(n, 1.0), sum(n, 0.0);
    const double rho = op.key_rho, innov = std::sqrt(1.0 - rho * rho);
    const long long trial = first + (long long)j;
    if (op.law_keys) op.law_keys(seed, trial, op.steps, z.data());  // x itself, drawn as the reference draws it
    else engine::NormalStream(seed, std::uint64_t(trial), Purpose::keys).fill(z.data(), int(z.size()));
    const bool law = bool(op.law_keys);
    for (int i = 0; i < n; ++i) P[std::size_t(i) * n + i] = 1.0;
    for (int i = 0; i < n; ++i) out[L.horizon(i)] = out[L.cv_horizon(i)] = 1.0;  // k = 0 term of Σ_k P_k
    const double* __restrict sl = op.sqrt_lambda.data();
    double* __restrict kp = k.data();
    double* __restrict xp = x.data();
    std::size_t f = 0, g = 0;
    const bool norms = L.path_norms;
    double log_scale = 0.0, log_det = 0.0;
    for (int lag = 1; lag <= op.steps; ++lag) {
      const double* zs = z.data() + std::size_t(lag - 1) * n;
      double nn = 0;
      if (law) {
#pragma omp simd reduction(+ : nn)
        for (int i = 0; i < n; ++i) {
          kp[i] = op.key_scale * zs[i];  // the input scale s (exact at s = 1)
          nn += kp[i] * kp[i];
        }
      } else if (rho == 0.0 || lag == 1) {
#pragma omp simd reduction(+ : nn)
        for (int i = 0; i < n; ++i) {
          xp[i] = kp[i] = sl[i] * zs[i];
          nn += kp[i] * kp[i];
        }
      } else {  // the AR(1) chain x_t = ρx_{t−1} + √(1−ρ²)·√λ∘z_t
#pragma omp simd reduction(+ : nn)
        for (int i = 0; i < n; ++i) {
          xp[i] = kp[i] = rho * xp[i] + innov * (sl[i] * zs[i]);
          nn += kp[i] * kp[i];
        }
      }
      if (op.normalized) {
        const double norm = std::sqrt(nn);
#pragma omp simd
        for (int i = 0; i < n; ++i) kp[i] /= norm;
      }
      if (norms) log_det += log_det_step(op.beta, op.eta, op.normalized ? 1.0 : nn, n);
      for (int r = 0; r < n; ++r) {  // p_r ← βp_r − η(p_r·k)k
        double* __restrict p = P.data() + std::size_t(r) * n;
        double d = 0;
#pragma omp simd reduction(+ : d)
        for (int c = 0; c < n; ++c) d += p[c] * kp[c];
        const double s = op.eta * d;
#pragma omp simd
        for (int c = 0; c < n; ++c) p[c] = op.beta * p[c] - s * kp[c];
      }
      if (norms && lag > op.last_recorded_lag) {  // keep a divergent product in range: P = e^{log_scale}·(stored P)
        double mx = 0;
        for (double v : P) mx = std::max(mx, std::abs(v));
        if (mx > ops::TransportProduct::kRescaleAbove) {
          for (double& v : P) v /= mx;
          log_scale += std::log(mx);
        }
      }
      const double unit = std::exp(log_scale);  // 1 until a rescaling
      // The control variates C_k(i) = −η β̃_i^{k−1} Σ_{j≤k}(k_{j,i}² − E[k_i²]), as TransportControl.
      for (int i = 0; i < n; ++i) {
        if (lag > 1) power[i] *= op.beta_tilde[i];
        sum[i] += kp[i] * kp[i] - op.second_moment[i];
        const double pii = unit * P[std::size_t(i) * n + i], cv = pii - (-op.eta * power[i] * sum[i]);
        out[L.horizon(i)] += pii;
        out[L.cv_horizon(i)] += cv;
        if (lag <= L.lags) {
          out[L.diag(lag, i)] = pii;
          out[L.cv_diag(lag, i)] = cv;
          if (L.squares) out[L.square(lag, i)] = pii * pii;
        }
      }
      if (f < op.full_lags.size() && lag == op.full_lags[f]) {
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) out[L.full(int(f), r, c)] = P[std::size_t(r) * n + c];
        ++f;
      }
      if (g < op.form_lags.size() && lag == op.form_lags[g]) {  // b_qᵀP_kb_q = Σ_r b_r (p_r·b)
        for (int q = 0; q < L.n_forms; ++q) {
          const double* b = op.forms.data() + std::size_t(q) * n;
          double v = 0;
          for (int r = 0; r < n; ++r) {
            const double* p = P.data() + std::size_t(r) * n;
            double d = 0;
#pragma omp simd reduction(+ : d)
            for (int c = 0; c < n; ++c) d += p[c] * b[c];
            v += b[r] * d;
          }
          out[L.form(int(g), q)] = v;
        }
        ++g;
      }
    }
    if (norms) {
      out[L.log_norm()] = log_scale + log_op_norm(P.data(), n);
      out[L.log_det()] = log_det;
    }
  });
}

}  // namespace akm::ops::detail
