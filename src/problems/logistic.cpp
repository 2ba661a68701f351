// logistic — the logistic teacher, its finite data set and its GLM moments [app:glm,
// prop:first-order-optimal].
#include "akm/problems/logistic.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::logistic {

// ------------------------------------------------------------------ scalar functions

double sigmoid(double z) {
  if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

// σ(z)σ(−z) avoids 1 − σ(z), which cancels for large z.
double sigmoid_d1(double z) { return sigmoid(z) * sigmoid(-z); }

// 1 − 2σ(z) = −tanh(z/2).
double sigmoid_d2(double z) { return -sigmoid_d1(z) * std::tanh(0.5 * z); }

double sigmoid_d3(double z) {
  const double s1 = sigmoid_d1(z);
  return s1 * (1.0 - 6.0 * s1);
}

double softplus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

// sinh d/(2(cosh a + cosh d)) with numerator and denominator scaled by e^{−max(|a|,|d|)}, so
// nothing overflows and nothing cancels.
double sigmoid_half_difference(double a, double d) {
  const double aa = std::abs(a), ad = std::abs(d), m = std::max(aa, ad);
  const double num = ad < 1.0 ? std::sinh(d) * std::exp(-m)
                              : std::copysign(0.5 * (std::exp(ad - m) - std::exp(-ad - m)), d);
  const double den = std::exp(aa - m) + std::exp(-aa - m) + std::exp(ad - m) + std::exp(-ad - m);
  return num / den;
}

// φ(z) − φ(z−h) = log((1+e^z)/(1+e^{z−h})) = log1p(σ(z−h)·expm1(h)). For |h| > 1 the change
// is not small and the plain difference is as accurate (the log1p form would cancel in
// 1 + σ(z−h)expm1(h) for large negative h).
double softplus_change(double z, double h) {
  if (std::abs(h) <= 1.0) return -std::log1p(sigmoid(z - h) * std::expm1(h));
  return softplus(z - h) - softplus(z);
}

// ------------------------------------------------------------------ the teacher

Teacher::Teacher(const Vec& lambda, const Vec& w_star) : lambda_(lambda), w_star_(w_star) {
  if (lambda.size() < 1) throw InputError("lambda.size", "0", "must be >= 1");
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    if (!(lambda[i] > 0.0 && std::isfinite(lambda[i])))
      throw InputError(fmt::format("lambda[{}]", i), show(lambda[i]), "must be finite and > 0");
  if (w_star.size() != lambda.size())
    throw InputError("w_star.size", std::to_string(w_star.size()),
                     fmt::format("must equal lambda.size = {}", lambda.size()));
  for (Eigen::Index i = 0; i < w_star.size(); ++i)
    require_finite(fmt::format("w_star[{}]", i), w_star[i]);
  sqrt_lambda_ = lambda.array().sqrt().matrix();
}

void Teacher::key(Stream& s, Vec& x) const {
  x.resize(n());
  for (int i = 0; i < n(); ++i) x[i] = sqrt_lambda_[i] * s.normal();
}

double Teacher::p(ConstVecRef x) const { return sigmoid(w_star_.dot(x)); }

double Teacher::label(Stream& s, ConstVecRef x) const { return s.uniform() < p(x) ? 1.0 : 0.0; }

double residual(ConstVecRef w, ConstVecRef x, double y) { return sigmoid(w.dot(x)) - y; }

// ------------------------------------------------------------------ a finite data set

namespace {

// Neumaier's compensated sum: error ≤ 2u·Σ|terms| + O(N u²), independent of N to first order.
class CompensatedSum {
 public:
  void add(double v) {
    const double t = s_ + v;
    c_ += std::abs(s_) >= std::abs(v) ? (s_ - t) + v : (v - t) + s_;
    s_ = t;
  }
  double value() const { return s_ + c_; }

 private:
  double s_ = 0.0, c_ = 0.0;
};

void require_dims(const DataSet& data, ConstVecRef w, const char* what) {
  if (data.X.rows() < 1) throw InputError("data.size", "0", "must be >= 1");
  if (w.size() != data.X.cols())
    throw InputError(fmt::format("{}.size", what), std::to_string(w.size()),
                     fmt::format("must equal the key dimension {}", data.X.cols()));
}

constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2;  // u = 2^-53
constexpr double kRoundingFactor = 16.0;

}  // namespace

DataSet sample_data(const Teacher& teacher, long long size, std::uint64_t seed) {
  require_at_least("data.size", size, 1);
  DataSet d;
  d.X.resize(size, teacher.n());
  d.y.resize(size);
  Stream keys(seed, 0, Purpose::data), labels(seed, 0, Purpose::noise);
  Vec x(teacher.n());
  for (long long k = 0; k < size; ++k) {
    teacher.key(keys, x);
    d.X.row(k) = x.transpose();
    d.y[k] = teacher.label(labels, x);
  }
  return d;
}

double loss(const DataSet& data, ConstVecRef w) {
  require_dims(data, w, "w");
  const Vec z = data.X * w;
  CompensatedSum s;
  for (Eigen::Index k = 0; k < z.size(); ++k) s.add(softplus(z[k]) - data.y[k] * z[k]);
  return s.value() / static_cast<double>(z.size());
}

Vec gradient(const DataSet& data, ConstVecRef w) {
  require_dims(data, w, "w");
  const Vec z = data.X * w;
  Vec r(z.size());
  for (Eigen::Index k = 0; k < z.size(); ++k) r[k] = sigmoid(z[k]) - data.y[k];
  return data.X.transpose() * r / static_cast<double>(z.size());
}

Mat hessian(const DataSet& data, ConstVecRef w) {
  require_dims(data, w, "w");
  const Vec z = data.X * w;
  Vec s(z.size());
  for (Eigen::Index k = 0; k < z.size(); ++k) s[k] = sigmoid_d1(z[k]);
  return data.X.transpose() * s.asDiagonal() * data.X / static_cast<double>(z.size());
}

double third_derivative(const DataSet& data, ConstVecRef w, ConstVecRef m) {
  require_dims(data, w, "w");
  require_dims(data, m, "m");
  const Vec z = data.X * w, d = data.X * m;
  CompensatedSum s;
  for (Eigen::Index k = 0; k < z.size(); ++k) s.add(sigmoid_d2(z[k]) * d[k] * d[k] * d[k]);
  return s.value() / static_cast<double>(z.size());
}

double loss_change(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha) {
  require_dims(data, w, "w");
  require_dims(data, m, "m");
  require_finite("alpha", alpha);
  const Vec z = data.X * w, d = data.X * m;
  CompensatedSum s;
  // −y(z − αd) + yz = yαd: the label term of the change.
  for (Eigen::Index k = 0; k < z.size(); ++k)
    s.add(softplus_change(z[k], alpha * d[k]) + data.y[k] * alpha * d[k]);
  return s.value() / static_cast<double>(z.size());
}

double taylor_residual(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha) {
  require_dims(data, w, "w");
  require_dims(data, m, "m");
  require_finite("alpha", alpha);
  const Vec z = data.X * w, d = data.X * m;
  CompensatedSum s;
  for (Eigen::Index k = 0; k < z.size(); ++k) {
    const double h = alpha * d[k];
    s.add(softplus_change(z[k], h) + h * sigmoid(z[k]) - 0.5 * h * h * sigmoid_d1(z[k]));
  }
  return s.value() / static_cast<double>(z.size());
}

double taylor_residual_rounding(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha) {
  require_dims(data, w, "w");
  require_dims(data, m, "m");
  const Vec z = data.X * w, d = data.X * m;
  double s = 0.0;
  for (Eigen::Index k = 0; k < z.size(); ++k) {
    const double h = alpha * d[k];
    s += std::abs(softplus_change(z[k], h)) + std::abs(h * sigmoid(z[k])) +
         0.5 * h * h * sigmoid_d1(z[k]);
  }
  return kRoundingFactor * kUnit * s / static_cast<double>(z.size());
}

double naive_difference_rounding(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha) {
  require_dims(data, w, "w");
  require_dims(data, m, "m");
  const Vec z = data.X * w, d = data.X * m;
  double s = 0.0;
  for (Eigen::Index k = 0; k < z.size(); ++k)
    s += softplus(z[k] - alpha * d[k]) + softplus(z[k]) +
         std::abs(data.y[k]) * (std::abs(z[k]) + std::abs(alpha * d[k]));
  return kRoundingFactor * kUnit * s / static_cast<double>(z.size());
}

// ------------------------------------------------------------------ antithetic AK-SGD

AkSgdPair::AkSgdPair(ConstVecRef center, ConstVecRef offset, double alpha, double beta, double eta)
    : alpha_(alpha), beta_(beta), eta_(eta), w_mid_(center), w_half_(offset),
      m_mid_(Vec::Zero(center.size())), m_half_(Vec::Zero(center.size())), xh_(center.size()) {
  require_alpha(alpha);
  require_beta(beta);
  require_eta(eta);
  if (offset.size() != center.size())
    throw InputError("offset.size", std::to_string(offset.size()),
                     fmt::format("must equal center.size = {}", center.size()));
}

AkSgdPair::StepInfo AkSgdPair::step(ConstVecRef x, double y) {
  const double a = w_mid_.dot(x), d = w_half_.dot(x);
  const double dh = sigmoid_half_difference(a, d);
  const double dm = 0.5 * (sigmoid(a + d) + sigmoid(a - d)) - y;
  xh_ = x / x.norm();
  // [eq:dm-norm-update] on both parts, buffer first, then θ ← θ − αM.
  const double rm = m_mid_.dot(xh_), rh = m_half_.dot(xh_);
  m_mid_ = beta_ * m_mid_ + (eta_ * (dm - rm)) * xh_;
  m_half_ = beta_ * m_half_ + (eta_ * (dh - rh)) * xh_;
  w_mid_ -= alpha_ * m_mid_;
  w_half_ -= alpha_ * m_half_;
  return {a, d, dh};
}

}  // namespace akm::logistic
