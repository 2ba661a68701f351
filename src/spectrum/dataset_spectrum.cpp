// dataset_spectrum — Σ̂ of a finite data set by the Gram route, with the dense and the
// matrix-free Lanczos routes beside it [app:high-dim].
#include "akm/spectrum/dataset_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Eigenvalues>
#include <Spectra/SymEigsSolver.h>
#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm {

namespace {

std::string shape(Eigen::Index r, Eigen::Index c) { return fmt::format("{}x{}", r, c); }

void require_keys(ConstMatRef keys) {
  if (keys.rows() < 1 || keys.cols() < 1)
    throw InputError("keys", shape(keys.rows(), keys.cols()),
                     "needs at least one key (column) of dimension p >= 1");
  if (!keys.allFinite()) throw InputError("keys", "non-finite entry", "every entry must be finite");
}

void require_rank_tol(double rank_tol) {
  if (!(rank_tol >= 0.0 && rank_tol < 1.0))
    throw InputError("rank_tol", show(rank_tol), "must be in [0, 1)");
}

void require_mu(double mu) {
  if (!(mu > 0.0 && std::isfinite(mu)))
    throw InputError("mu", show(mu), "must be > 0 and finite (mu = (1 - beta)/eta)");
}

void require_cols(const std::string& param, ConstMatRef B, Eigen::Index p) {
  if (B.cols() != p)
    throw InputError(param, shape(B.rows(), B.cols()), fmt::format("must have p = {} columns", p));
  if (!B.allFinite()) throw InputError(param, "non-finite entry", "every entry must be finite");
}

// Eigenpairs of a symmetric matrix (ascending from Eigen), reversed to descending and cut
// at rank_tol·λ_max.
EigenPairs descending_nonzero(const Eigen::SelfAdjointEigenSolver<Mat>& es, double rank_tol) {
  if (es.info() != Eigen::Success) throw std::runtime_error("dataset_spectrum: eigensolver failed");
  const Vec& ev = es.eigenvalues();
  const Eigen::Index n = ev.size();
  const double cut = rank_tol * std::max(ev[n - 1], 0.0);
  Eigen::Index r = 0;
  while (r < n && ev[n - 1 - r] > cut) ++r;
  EigenPairs out{ev.tail(r).reverse(), es.eigenvectors().rightCols(r).rowwise().reverse()};
  return out;
}

// v ↦ K(Kᵀv)/n_s for Spectra: the p×p operator is never formed.
class SigmaHatOp {
 public:
  using Scalar = double;
  explicit SigmaHatOp(ConstMatRef keys) : keys_(keys), tmp_(keys.cols()) {}
  Eigen::Index rows() const { return keys_.rows(); }
  Eigen::Index cols() const { return keys_.rows(); }
  void perform_op(const double* x_in, double* y_out) const {
    const Eigen::Map<const Vec> x(x_in, keys_.rows());
    Eigen::Map<Vec> y(y_out, keys_.rows());
    tmp_.noalias() = keys_.transpose() * x;
    y.noalias() = keys_ * tmp_;
    y /= static_cast<double>(keys_.cols());
  }

 private:
  ConstMatRef keys_;
  mutable Vec tmp_;
};

}  // namespace

Mat normalize_columns(ConstMatRef X) {
  require_keys(X);
  Mat out(X.rows(), X.cols());
  for (Eigen::Index s = 0; s < X.cols(); ++s) {
    const double nrm = X.col(s).norm();
    if (!(nrm > 0.0)) throw InputError(fmt::format("X column {}", s), "0", "a key must be nonzero");
    out.col(s) = X.col(s) / nrm;
  }
  return out;
}

DatasetSpectrum::DatasetSpectrum(ConstMatRef keys, double rank_tol) : keys_(keys) {
  require_keys(keys);
  require_rank_tol(rank_tol);
  const double n = static_cast<double>(keys_.cols());
  // Gram matrix KᵀK/n_s: same nonzero eigenvalues as KKᵀ/n_s [app:high-dim].
  Mat gram = Mat::Zero(keys_.cols(), keys_.cols());
  gram.selfadjointView<Eigen::Lower>().rankUpdate(keys_.transpose(), 1.0 / n);
  gram.triangularView<Eigen::StrictlyUpper>() = gram.transpose();
  const Eigen::SelfAdjointEigenSolver<Mat> es(gram);
  EigenPairs ep = descending_nonzero(es, rank_tol);
  lambda_ = std::move(ep.values);
  v_ = std::move(ep.vectors);
}

Vec DatasetSpectrum::eigenvector(int k) const {
  if (k < 0 || k >= rank())
    throw InputError("k", std::to_string(k), fmt::format("must be in [0, rank = {})", rank()));
  Vec u = keys_ * v_.col(k);
  return u / u.norm();  // = Kv/√(n_s λ̂_k) up to rounding; the norm fixes the last ulp
}

Mat DatasetSpectrum::eigenvectors() const {
  Mat u = keys_ * v_;
  for (Eigen::Index k = 0; k < u.cols(); ++k) u.col(k) /= u.col(k).norm();
  return u;
}

Vec DatasetSpectrum::apply(ConstVecRef v) const {
  if (v.size() != keys_.rows())
    throw InputError("v", fmt::format("size {}", v.size()), fmt::format("must have size p = {}", p()));
  const Vec c = keys_.transpose() * v;
  return keys_ * c / static_cast<double>(n_s());
}

Mat DatasetSpectrum::ridge_solve(ConstMatRef B, double mu) const {
  require_mu(mu);
  require_cols("B", B, keys_.rows());
  // Σ_k (Bu_k)u_kᵀ λ̂_k/(μ(μ+λ̂_k)) with u_k = Kv_k/√(n_s λ̂_k): the 1/λ̂_k cancels, so small
  // eigenvalues cost no accuracy.
  const double n = static_cast<double>(n_s());
  Mat Y = (B * keys_) * v_;  // m × rank
  for (Eigen::Index k = 0; k < Y.cols(); ++k) Y.col(k) /= n * mu * (mu + lambda_[k]);
  const Mat C = Y * v_.transpose();  // m × n_s
  return B / mu - C * keys_.transpose();
}

EigenPairs dataset_spectrum_dense(ConstMatRef keys, double rank_tol) {
  require_keys(keys);
  require_rank_tol(rank_tol);
  const Mat sigma = keys * keys.transpose() / static_cast<double>(keys.cols());
  const Eigen::SelfAdjointEigenSolver<Mat> es(sigma);
  return descending_nonzero(es, rank_tol);
}

EigenPairs dataset_top_eigenpairs(ConstMatRef keys, int k, double tol) {
  require_keys(keys);
  if (k < 1 || k > keys.cols() || k >= keys.rows())
    throw InputError("k", std::to_string(k),
                     fmt::format("must be in [1, min(n_s = {}, p - 1 = {})]", keys.cols(), keys.rows() - 1));
  if (!(tol > 0.0 && tol < 1.0)) throw InputError("tol", show(tol), "must be in (0, 1)");
  SigmaHatOp op(keys);
  const Eigen::Index ncv = std::min<Eigen::Index>(keys.rows(), std::max(2 * k + 1, k + 20));
  Spectra::SymEigsSolver<SigmaHatOp> eigs(op, k, ncv);
  eigs.init();
  eigs.compute(Spectra::SortRule::LargestAlge, 10000, tol, Spectra::SortRule::LargestAlge);
  if (eigs.info() != Spectra::CompInfo::Successful)
    throw std::runtime_error("dataset_top_eigenpairs: Lanczos did not converge");
  return {eigs.eigenvalues(), eigs.eigenvectors()};
}

Mat ridge_solve_woodbury(ConstMatRef keys, ConstMatRef B, double mu) {
  require_keys(keys);
  require_mu(mu);
  require_cols("B", B, keys.rows());
  const double n = static_cast<double>(keys.cols());
  // KᵀK + n_s μ I is SPD; only its lower triangle is formed (SYRK) and read by the Cholesky.
  Mat inner = Mat::Zero(keys.cols(), keys.cols());
  inner.selfadjointView<Eigen::Lower>().rankUpdate(keys.transpose());
  inner.diagonal().array() += n * mu;
  const Mat BK = B * keys;  // m × n_s
  const Mat W = inner.selfadjointView<Eigen::Lower>().llt().solve(BK.transpose());  // n_s × m
  return (B - W.transpose() * keys.transpose()) / mu;
}

Mat ridge_solve_dense(ConstMatRef keys, ConstMatRef B, double mu) {
  require_keys(keys);
  require_mu(mu);
  require_cols("B", B, keys.rows());
  Mat a = keys * keys.transpose() / static_cast<double>(keys.cols());
  a.diagonal().array() += mu;
  return a.llt().solve(B.transpose()).transpose();  // (μI+Σ̂) symmetric
}

SpanComplement::SpanComplement(ConstMatRef keys)
    : p_(static_cast<int>(keys.rows())), n_s_(static_cast<int>(keys.cols())) {
  require_keys(keys);
  if (keys.cols() >= keys.rows())
    throw InputError("keys", shape(keys.rows(), keys.cols()),
                     "needs n_s < p so that the span has a nonzero complement");
  qr_.compute(keys);
  const Vec d = qr_.matrixQR().diagonal().cwiseAbs();
  if (!(d.minCoeff() > 1e-12 * d.maxCoeff()))
    throw InputError("keys", "rank deficient",
                     "keys must be linearly independent for the QR span complement");
}

double SpanComplement::off_span_norm(ConstMatRef B) const {
  require_cols("B", B, p_);
  const Mat y = qr_.householderQ().adjoint() * B.transpose();  // QᵀBᵀ, p × m
  return y.bottomRows(p_ - n_s_).norm();
}

}  // namespace akm
