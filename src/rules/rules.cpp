// rules — plain-Eigen reference implementations of the momentum buffers.
#include "akm/rules/rules.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace akm::rules {

namespace {

void require_shapes(const Mat& M, ConstVecRef delta, ConstVecRef x) {
  if (M.rows() != delta.size() || M.cols() != x.size()) {
    throw std::invalid_argument("rules: M is " + std::to_string(M.rows()) + "x" +
                                std::to_string(M.cols()) + " but delta has " +
                                std::to_string(delta.size()) + " entries and x " +
                                std::to_string(x.size()));
  }
}

/// ‖x‖, refusing a zero or non-finite key: x/‖x‖ would be NaN, and a zero key has no
/// direction to normalize [eq:dm-norm-update].
double key_norm(ConstVecRef x) {
  const double nx = x.norm();
  if (!(nx > 0.0) || !std::isfinite(nx)) {
    throw std::invalid_argument("rules: the normalized key needs a nonzero finite x (|x| = " +
                                std::to_string(nx) + ")");
  }
  return nx;
}

}  // namespace

void ema(Mat& M, ConstVecRef delta, ConstVecRef x, double beta) {
  require_shapes(M, delta, x);
  M *= beta;  // [eq:ema-update]
  M.noalias() += (1.0 - beta) * delta * x.transpose();
}

void ak_raw(Mat& M, ConstVecRef delta, ConstVecRef x, double beta, double eta) {
  require_shapes(M, delta, x);
  // The residual reads the old buffer, so form it before M is scaled [eq:dm-update].
  const Vec residual = delta - M * x;
  M *= beta;
  M.noalias() += eta * residual * x.transpose();
}

void ak_normalized(Mat& M, ConstVecRef delta, ConstVecRef x, double beta, double eta) {
  const Vec xhat = x / key_norm(x);
  ak_raw(M, delta, xhat, beta, eta);  // [eq:dm-norm-update]
}

void pure_delta(Mat& M, ConstVecRef delta, ConstVecRef x, double eta) {
  ak_raw(M, delta, x, 1.0, eta);  // [eq:delta-rule]: β = 1
}

void hebbian(Mat& M, ConstVecRef delta, ConstVecRef x) {
  require_shapes(M, delta, x);
  M.noalias() += delta * x.transpose();
}

void ak(Mat& M, ConstVecRef delta, ConstVecRef x, double beta, double eta, Key key) {
  if (key == Key::normalized) {
    ak_normalized(M, delta, x, beta, eta);
  } else {
    ak_raw(M, delta, x, beta, eta);
  }
}

Order dispatch(int n, int m) {
  // Gram costs 2n²N, through-N 4mnN: Gram wins iff n < 2m [eq:dispatch].
  return n < 2 * m ? Order::gram : Order::through_n;
}

namespace {

void require_batch_shapes(const Mat& M, ConstMatRef Delta, ConstMatRef Xhat) {
  const bool ok = Delta.rows() == Xhat.rows() && Delta.rows() > 0 &&
                  M.rows() == Delta.cols() && M.cols() == Xhat.cols();
  if (!ok) {
    throw std::invalid_argument(
        "rules::deployed: need Delta N×m, Xhat N×n, M m×n with N > 0; got Delta " +
        std::to_string(Delta.rows()) + "x" + std::to_string(Delta.cols()) + ", Xhat " +
        std::to_string(Xhat.rows()) + "x" + std::to_string(Xhat.cols()) + ", M " +
        std::to_string(M.rows()) + "x" + std::to_string(M.cols()));
  }
}

/// M Σ̂_B with Σ̂_B = X̂ᵀX̂/N, contracted in the requested order [eq:dispatch].
Mat correction(const Mat& M, ConstMatRef Xhat, Order order) {
  const double inv_n = 1.0 / static_cast<double>(Xhat.rows());
  if (order == Order::gram) {
    const Mat sigma_b = (Xhat.transpose() * Xhat) * inv_n;  // n×n, shareable across layers
    return M * sigma_b;
  }
  const Mat mx = M * Xhat.transpose();  // m×N, never materializes n×n
  return (mx * Xhat) * inv_n;
}

}  // namespace

void deployed(Mat& M, ConstMatRef Delta, ConstMatRef Xhat, double beta, double eta,
              Order order) {
  require_batch_shapes(M, Delta, Xhat);
  const double inv_n = 1.0 / static_cast<double>(Xhat.rows());
  const Mat g = (Delta.transpose() * Xhat) * inv_n;  // G = ΔᵀX̂/N
  const Mat ms = correction(M, Xhat, order);
  M = beta * M + eta * (g - ms);  // [eq:deployed]
}

Mat normalize_rows(ConstMatRef X) {
  Mat out(X.rows(), X.cols());
  for (Eigen::Index r = 0; r < X.rows(); ++r) {
    out.row(r) = X.row(r) / key_norm(X.row(r).transpose());  // [lem:norm-cost]
  }
  return out;
}

}  // namespace akm::rules

namespace akm {

AkSgd::AkSgd(int m, int n, double alpha_, double beta_, double eta_, Key key_)
    : alpha(alpha_), beta(beta_), eta(eta_), key(key_), M(Mat::Zero(m, n)) {}

void AkSgd::step(Mat& W, ConstVecRef delta, ConstVecRef x) {
  rules::ak(M, delta, x, beta, eta, key);  // buffer first, then θ ← θ − αM [sec:methodology]
  W -= alpha * M;
}

SgdEma::SgdEma(int m, int n, double alpha_, double beta_)
    : alpha(alpha_), beta(beta_), M(Mat::Zero(m, n)) {}

void SgdEma::step(Mat& W, ConstVecRef delta, ConstVecRef x) {
  rules::ema(M, delta, x, beta);
  W -= alpha * M;
}

}  // namespace akm
