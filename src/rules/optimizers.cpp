// optimizers — AdamW and AK-AdamW (see include/akm/rules/optimizers.hpp for the bias-correction
// reading) [sec:methodology, app:deployed, app:second-moment].
#include "akm/rules/optimizers.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "layer_inputs.hpp"

namespace akm {

namespace {

using rules_detail::batch_gradient;
using rules_detail::require_batch;
using rules_detail::require_layer;
using rules_detail::require_shape;
using rules_detail::shape;

void require_factors(ConstVecRef delta, ConstVecRef x, Eigen::Index rows, Eigen::Index cols) {
  if (delta.size() != rows)
    throw InputError("delta", fmt::format("{} entries", delta.size()),
                     fmt::format("must have {} entries (rows of W)", rows));
  if (x.size() != cols)
    throw InputError("x", fmt::format("{} entries", x.size()),
                     fmt::format("must have {} entries (columns of W)", cols));
}

}  // namespace

void validate(const AdamWParams& p) {
  if (!(p.lr > 0.0 && std::isfinite(p.lr))) throw InputError("lr", show(p.lr), "must be > 0 and finite");
  if (!(p.beta1 >= 0.0 && p.beta1 < 1.0)) throw InputError("beta1", show(p.beta1), "must be in [0, 1)");
  if (!(p.beta2 >= 0.0 && p.beta2 < 1.0)) throw InputError("beta2", show(p.beta2), "must be in [0, 1)");
  // ε > 0 keeps the update finite where v̂ = 0 (a coordinate whose gradient has been 0).
  if (!(p.eps > 0.0 && std::isfinite(p.eps))) throw InputError("eps", show(p.eps), "must be > 0 and finite");
  if (!(p.weight_decay >= 0.0 && std::isfinite(p.weight_decay)))
    throw InputError("weight_decay", show(p.weight_decay), "must be >= 0 and finite");
}

namespace adamw {

void second_moment_step(Mat& v, ConstMatRef g, double beta2) {
  v = beta2 * v + (1.0 - beta2) * g.cwiseProduct(g);
}

double bias_factor(double beta, long long t) {
  return 1.0 - std::pow(beta, static_cast<double>(t));
}

void apply(Mat& W, ConstMatRef first_hat, ConstMatRef v_hat, const AdamWParams& p) {
  // Decoupled decay uses the old W: W − lr·(U + wd·W) (Loshchilov & Hutter's AdamW).
  const Mat update = first_hat.array() / (v_hat.array().sqrt() + p.eps);
  W -= p.lr * (update + p.weight_decay * W);
}

}  // namespace adamw

// ---- AdamW ----------------------------------------------------------------------------

AdamW::AdamW(int rows, int cols, const AdamWParams& p) : params(p) {
  require_layer(rows, cols);
  validate(p);
  m = Mat::Zero(rows, cols);
  v = Mat::Zero(rows, cols);
}

void AdamW::step(Mat& W, ConstMatRef g) {
  require_shape("W", W, m.rows(), m.cols());
  require_shape("g", g, m.rows(), m.cols());
  ++t;
  m = params.beta1 * m + (1.0 - params.beta1) * g;  // EMA first moment [eq:ema-update]
  adamw::second_moment_step(v, g, params.beta2);
  adamw::apply(W, first_hat(), second_hat(), params);
}

void AdamW::step(Mat& W, ConstVecRef delta, ConstVecRef x) {
  require_factors(delta, x, m.rows(), m.cols());
  step(W, delta * x.transpose());  // g = δxᵀ [eq:rank-one-grad]
}

void AdamW::step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X) {
  require_batch(Delta, X, m.rows(), m.cols());
  step(W, batch_gradient(Delta, X));
}

// Before the first step the moments are 0 and so are their corrected values (not 0/0).
Mat AdamW::first_hat() const { return t == 0 ? m : Mat(m / adamw::bias_factor(params.beta1, t)); }
Mat AdamW::second_hat() const { return t == 0 ? v : Mat(v / adamw::bias_factor(params.beta2, t)); }

// ---- AK-AdamW -------------------------------------------------------------------------

AkAdamW::AkAdamW(int rows, int cols, const AdamWParams& p, double eta_) : params(p), eta(eta_) {
  require_layer(rows, cols);
  validate(p);
  require_eta(eta_);
  M = Mat::Zero(rows, cols);
  v = Mat::Zero(rows, cols);
}

void AkAdamW::step(Mat& W, ConstVecRef delta, ConstVecRef x) {
  require_shape("W", W, M.rows(), M.cols());
  require_factors(delta, x, M.rows(), M.cols());
  rules::ak_normalized(M, delta, x, params.beta1, eta);  // first moment [eq:dm-norm-update]
  ++t;  // after the buffer: a zero key is refused there with the state untouched
  adamw::second_moment_step(v, delta * x.transpose(), params.beta2);  // raw-key g = δxᵀ
  adamw::apply(W, first_hat(), second_hat(), params);
}

void AkAdamW::step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X, rules::Order order) {
  require_shape("W", W, M.rows(), M.cols());
  require_batch(Delta, X, M.rows(), M.cols());
  rules::deployed(M, Delta, rules::normalize_rows(X), params.beta1, eta, order);  // [eq:deployed]
  ++t;
  adamw::second_moment_step(v, batch_gradient(Delta, X), params.beta2);  // ordinary ΔᵀX/N
  adamw::apply(W, first_hat(), second_hat(), params);
}

void AkAdamW::step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X) {
  step_batch(W, Delta, X, rules::dispatch(static_cast<int>(M.cols()), static_cast<int>(M.rows())));
}

Mat AkAdamW::first_hat() const { return t == 0 ? M : Mat(M / adamw::bias_factor(params.beta1, t)); }
Mat AkAdamW::second_hat() const { return t == 0 ? v : Mat(v / adamw::bias_factor(params.beta2, t)); }

}  // namespace akm
