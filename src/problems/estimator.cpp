// estimator — factored (eigenbasis) computations of the AK preconditioner, fixed point and
// constrained maximizers, with plain references [app:estimator-and-preconditioner].
#include "akm/problems/estimator.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/spectrum.hpp"

namespace akm::estimator {

namespace {

void require_shape_g(ConstMatRef G, int n) {
  if (G.cols() != n || G.rows() < 1)
    throw InputError("G_hat", fmt::format("{}x{}", G.rows(), G.cols()),
                     fmt::format("must be m x {} with m >= 1 (columns = key dimension)", n));
  if (!G.allFinite()) throw InputError("G_hat", "(non-finite entries)", "must be finite");
}

void require_square(const std::string& param, ConstMatRef A) {
  if (A.rows() != A.cols() || A.rows() < 1)
    throw InputError(param, fmt::format("{}x{}", A.rows(), A.cols()), "must be square and non-empty");
}

void require_constraint(Constraint c) {
  if (!(c.a >= 0.0 && std::isfinite(c.a)))
    throw InputError("constraint.a", show(c.a), "must be >= 0 and finite");
  if (!(c.b >= 0.0 && std::isfinite(c.b)))
    throw InputError("constraint.b", show(c.b), "must be >= 0 and finite");
  if (!(c.a + c.b > 0.0)) throw InputError("constraint", "(0, 0)", "needs a > 0 or b > 0");
}

/// U diag(f(λ_i)) Uᵀ.
Mat spectral_function(const PsdFactors& s, const std::function<double(double)>& f) {
  Vec d(s.n());
  for (int i = 0; i < s.n(); ++i) d[i] = f(s.lambda[i]);
  return s.U * d.asDiagonal() * s.U.transpose();
}

}  // namespace

Mat PsdFactors::matrix() const { return U * lambda.asDiagonal() * U.transpose(); }
double PsdFactors::lambda_max() const { return lambda.maxCoeff(); }
double PsdFactors::lambda_min() const { return lambda.minCoeff(); }
int PsdFactors::rank() const { return static_cast<int>((lambda.array() > 0.0).count()); }

double PsdFactors::cond_on_range() const {
  double lo = lambda_max();
  for (int i = 0; i < n(); ++i)
    if (lambda[i] > 0.0) lo = std::min(lo, lambda[i]);
  return lambda_max() / lo;
}

PsdFactors make_psd(Mat U, Vec lambda) {
  require_square("U", U);
  if (lambda.size() != U.rows())
    throw InputError("lambda", fmt::format("{} entries", lambda.size()),
                     fmt::format("must have {} entries (size of U)", U.rows()));
  const double orth = (U.transpose() * U - Mat::Identity(U.rows(), U.cols())).cwiseAbs().maxCoeff();
  if (!(orth <= 1e-10))
    throw InputError("U", fmt::format("max|UᵀU − I| = {}", show(orth)), "must be orthogonal (<= 1e-10)");
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    if (!(lambda[i] >= 0.0 && std::isfinite(lambda[i])))
      throw InputError("lambda", show(lambda[i]), fmt::format("entry {} must be finite and >= 0", i));
  if (!(lambda.maxCoeff() > 0.0)) throw InputError("lambda", "(all zero)", "needs one eigenvalue > 0");
  return PsdFactors{std::move(U), std::move(lambda)};
}

PsdFactors random_unit_trace_psd(int n, double decades, int zeros, std::uint64_t seed) {
  require_at_least("n", n, 1);
  if (!(decades >= 0.0 && decades <= 15.0))
    throw InputError("decades", show(decades), "must be in [0, 15]");
  if (zeros < 0 || zeros >= n)
    throw InputError("zeros", std::to_string(zeros), fmt::format("must be in [0, {}) (n = {})", n, n));
  const int r = n - zeros;
  Stream rng(seed, 0, Purpose::aux);
  std::vector<double> lam(static_cast<std::size_t>(r));
  lam[0] = 1.0;
  if (r > 1) lam[static_cast<std::size_t>(r - 1)] = std::pow(10.0, -decades);
  for (int i = 1; i + 1 < r; ++i) lam[static_cast<std::size_t>(i)] = std::pow(10.0, -decades * rng.uniform());
  std::sort(lam.begin(), lam.end(), std::greater<>());
  double total = 0.0;
  for (double l : lam) total += l;
  Vec lambda = Vec::Zero(n);
  for (int i = 0; i < r; ++i) lambda[i] = lam[static_cast<std::size_t>(i)] / total;  // unit trace
  return make_psd(haar_orthogonal(n, seed), std::move(lambda));
}

Mat ak_preconditioner(const PsdFactors& s, double beta, double eta) {
  require_beta(beta);
  require_eta(eta);
  return spectral_function(s, [&](double l) { return 1.0 / ((1.0 - beta) + eta * l); });
}

Mat ak_preconditioner_reference(ConstMatRef sigma_hat, double beta, double eta) {
  require_beta(beta);
  require_eta(eta);
  require_square("sigma_hat", sigma_hat);
  const Eigen::Index n = sigma_hat.rows();
  const Mat A = (1.0 - beta) * Mat::Identity(n, n) + eta * sigma_hat;
  return A.ldlt().solve(Mat::Identity(n, n));
}

Mat fixed_point(ConstMatRef G_hat, const PsdFactors& s, double beta, double eta) {
  require_beta(beta);
  require_eta(eta);
  require_shape_g(G_hat, s.n());
  const double mu = (1.0 - beta) / eta;  // [eq:dm-eigen]
  Mat C = G_hat * s.U;
  for (int i = 0; i < s.n(); ++i) C.col(i) /= mu + s.lambda[i];  // M*u_i = Ĝu_i/(μ+λ̂_i)
  return C * s.U.transpose();
}

Mat fixed_point_reference(ConstMatRef G_hat, ConstMatRef sigma_hat, double beta, double eta) {
  require_square("sigma_hat", sigma_hat);
  require_shape_g(G_hat, static_cast<int>(sigma_hat.rows()));
  // M*((1−β)I + ηΣ̂) = ηĜ [app:fixed-point], with the LDLT inverse of the formed matrix.
  const Mat P = ak_preconditioner_reference(sigma_hat, beta, eta);
  return eta * G_hat * P;
}

Constraint weight_space() { return {1.0, 0.0}; }
Constraint function_space() { return {0.0, 1.0}; }
Constraint tikhonov(double mu) {
  if (!(mu > 0.0 && std::isfinite(mu))) throw InputError("mu", show(mu), "must be > 0 and finite");
  return {mu, 1.0};
}

double constraint_norm(ConstMatRef M, const PsdFactors& s, Constraint c) {
  require_constraint(c);
  require_shape_g(M, s.n());
  const Mat B = M * s.U;
  double sum = 0.0;
  for (int i = 0; i < s.n(); ++i) sum += (c.a + c.b * s.lambda[i]) * B.col(i).squaredNorm();
  return std::sqrt(sum);
}

Maximizer constrained_maximizer(ConstMatRef G_hat, const PsdFactors& s, Constraint c) {
  require_constraint(c);
  require_shape_g(G_hat, s.n());
  const double gnorm = G_hat.norm();
  if (!(gnorm > 0.0)) throw InputError("G_hat", "0", "must be nonzero");
  Mat D = G_hat * s.U;  // columns Ĝu_i
  double val2 = 0.0;
  for (int i = 0; i < s.n(); ++i) {
    const double w = c.a + c.b * s.lambda[i];
    if (w > 0.0) {
      val2 += D.col(i).squaredNorm() / w;
      D.col(i) /= w;  // Lagrange: Ĝ = 2ν M(aI + bΣ̂)
    } else {
      const double off = D.col(i).norm();
      if (off > 1e-12 * gnorm)
        throw InputError("G_hat", fmt::format("component {} along a null direction of sigma_hat", show(off)),
                         "must lie in the range of sigma_hat when the constraint is E|Mx̂|² alone");
      D.col(i).setZero();
    }
  }
  Maximizer out;
  out.value = std::sqrt(val2);
  out.M = (D * s.U.transpose()) / out.value;
  return out;
}

double frobenius_inner(ConstMatRef A, ConstMatRef B) {
  if (A.rows() != B.rows() || A.cols() != B.cols())
    throw InputError("B", fmt::format("{}x{}", B.rows(), B.cols()),
                     fmt::format("must match A ({}x{})", A.rows(), A.cols()));
  return (A.array() * B.array()).sum();
}

double cosine(ConstMatRef A, ConstMatRef B) { return frobenius_inner(A, B) / (A.norm() * B.norm()); }

double kantorovich_cosine(double kappa) {
  if (!(kappa >= 1.0)) throw InputError("kappa", show(kappa), "must be >= 1");
  if (std::isinf(kappa)) return 0.0;
  return 2.0 * std::sqrt(kappa) / (1.0 + kappa);
}

}  // namespace akm::estimator
