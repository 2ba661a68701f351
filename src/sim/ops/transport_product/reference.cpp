// transport_product/reference — the plain reference: akm::Stream (or the law's KeySampler), the
// per-trial kernels of akm/rules/kernels.hpp and TransportControl, the whole n×n product per step. cpu.cpp, cuda.cu
// and emulated.cpp beside it are held to it by tests/ops/test_transport_product.cpp.
#include <cmath>

#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/sim/transport_control.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void transport_product_reference(const TransportProduct& op, std::uint64_t seed, long long first, long long count,
                                 int threads, double* rows) {
  const int n = op.n();
  const TransportProductLayout L = op.layout();
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * L.size();
    Stream keys(seed, std::uint64_t(trial), Purpose::keys);
    Mat P = Mat::Identity(n, n);
    Vec x(n), z(n), xs(n), k(n), r(n), work(n);
    const double innov = std::sqrt(1.0 - op.key_rho * op.key_rho);
    TransportControl control(op.second_moment, op.beta, op.eta);
    for (int i = 0; i < n; ++i) out[L.horizon(i)] = out[L.cv_horizon(i)] = 1.0;  // k = 0 term of Σ_k P_k
    std::size_t f = 0, g = 0;
    double log_scale = 0.0, log_det = 0.0;  // path_norms: P is e^{log_scale}·(the stored P)
    for (int lag = 1; lag <= op.steps; ++lag) {
      if (op.law_keys) {
        op.law_keys.draw(keys, x, work);
      } else {
        kern::gaussian_key(keys, op.sqrt_lambda, z);
        if (lag == 1 || op.key_rho == 0.0) x = z;
        else x = op.key_rho * x + innov * z;  // the AR(1) chain: same marginal N(0, Σ)
      }
      xs = op.key_scale * x;  // the input scale s (exact at s = 1)
      kern::key_for(op.key, xs, k);
      kern::transport_step(P, k, op.beta, op.eta, r);
      control.push(k);
      if (op.path_norms) {
        const Mat factor = op.beta * Mat::Identity(n, n) - op.eta * k * k.transpose();
        log_det += std::log(std::abs(factor.determinant())) / n;  // LU, not the closed form
        const double mx = P.cwiseAbs().maxCoeff();
        if (lag > op.last_recorded_lag() && mx > TransportProduct::kRescaleAbove) P /= mx, log_scale += std::log(mx);
      }
      const double unit = std::exp(log_scale);  // 1 until a rescaling
      for (int i = 0; i < n; ++i) {
        out[L.horizon(i)] += unit * P(i, i);
        out[L.cv_horizon(i)] += unit * P(i, i) - control.at(i);
      }
      if (lag <= op.lags)
        for (int i = 0; i < n; ++i) {
          out[L.diag(lag, i)] = P(i, i);
          out[L.cv_diag(lag, i)] = P(i, i) - control.at(i);
          if (L.squares) out[L.square(lag, i)] = P(i, i) * P(i, i);
        }
      if (f < op.full_lags.size() && lag == op.full_lags[f]) {
        for (int c = 0; c < n; ++c)
          for (int r2 = 0; r2 < n; ++r2) out[L.full(int(f), r2, c)] = P(r2, c);
        ++f;
      }
      if (g < op.form_lags.size() && lag == op.form_lags[g]) {
        for (int q = 0; q < L.n_forms; ++q) out[L.form(int(g), q)] = op.forms.row(q).dot(P * op.forms.row(q).transpose());
        ++g;
      }
    }
    if (op.path_norms) {
      out[L.log_norm()] = log_scale + std::log(Eigen::JacobiSVD<Mat>(P).singularValues()(0));
      out[L.log_det()] = log_det;
    }
  });
}

}  // namespace akm::ops::detail
