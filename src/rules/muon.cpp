// muon — Muon and AK-Muon (include/akm/rules/muon.hpp) [cor:mup-base-lr, app:structured].
#include "akm/rules/muon.hpp"

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

}  // namespace

void validate(const MuonParams& p) {
  if (!(p.lr > 0.0 && std::isfinite(p.lr))) throw InputError("lr", show(p.lr), "must be > 0 and finite");
  require_beta(p.beta);
  if (!(p.weight_decay >= 0.0 && std::isfinite(p.weight_decay)))
    throw InputError("weight_decay", show(p.weight_decay), "must be >= 0 and finite");
  require_at_least("ns_steps", p.ns_steps, 1);
}

namespace muon {

double prefactor(Eigen::Index rows, Eigen::Index cols) {
  return std::sqrt(static_cast<double>(rows) / static_cast<double>(cols));
}

void apply(Mat& W, ConstMatRef buffer, const MuonParams& p) {
  require_shape("W", W, buffer.rows(), buffer.cols());
  W *= 1.0 - p.lr * p.weight_decay;  // decoupled decay on the old W, as Muon's reference
  if (!buffer.isZero(0.0)) W -= p.lr * prefactor(W.rows(), W.cols()) * ns::newton_schulz(buffer, p.ns_steps);
}

}  // namespace muon

Muon::Muon(int rows, int cols, const MuonParams& p) : params(p) {
  require_layer(rows, cols);
  validate(p);
  m = Mat::Zero(rows, cols);
}

void Muon::step(Mat& W, ConstMatRef g) {
  require_shape("W", W, m.rows(), m.cols());
  require_shape("g", g, m.rows(), m.cols());
  if (!g.allFinite()) throw InputError("g", "a matrix with NaN or inf entries", "every entry must be finite");
  m = params.beta * m + (1.0 - params.beta) * g;  // [eq:ema-update]
  ++t;
  muon::apply(W, m, params);
}

void Muon::step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X) {
  require_batch(Delta, X, m.rows(), m.cols());
  step(W, batch_gradient(Delta, X));
}

AkMuon::AkMuon(int rows, int cols, const MuonParams& p, double eta_) : params(p), eta(eta_) {
  require_layer(rows, cols);
  validate(p);
  require_eta(eta_);
  M = Mat::Zero(rows, cols);
}

void AkMuon::step_normalized(Mat& W, ConstMatRef Delta, ConstMatRef Xhat, rules::Order order) {
  require_shape("W", W, M.rows(), M.cols());
  require_batch(Delta, Xhat, M.rows(), M.cols());
  if (!Delta.allFinite() || !Xhat.allFinite())
    throw InputError("Delta, X", "a batch with NaN or inf entries", "every entry must be finite");
  rules::deployed(M, Delta, Xhat, params.beta, eta, order);  // [eq:deployed]
  ++t;
  muon::apply(W, M, params);  // NS(M_t) [cor:mup-base-lr]
}

void AkMuon::step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X) {
  require_batch(Delta, X, M.rows(), M.cols());
  step_normalized(W, Delta, rules::normalize_rows(X),
                  rules::dispatch(static_cast<int>(M.cols()), static_cast<int>(M.rows())));
}

}  // namespace akm
