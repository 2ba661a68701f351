// theory — the closed forms of the statements T1–T8 check and f(γ) of T14 (docs/claims.md). No randomness.
#include "akm/theory/theory.hpp"

#include <cmath>
#include <limits>

#include "akm/base/errors.hpp"

namespace akm {

namespace theory {

double mu(double beta, double eta) { return (1.0 - beta) / eta; }  // [eq:dm-eigen]

double beta_tilde(double beta, double eta, double lam) { return beta - eta * lam; }

double horizon(double beta_tilde) { return 1.0 / (1.0 - beta_tilde); }  // [eq:horizon]

double phi(double mu, double lam) { return 1.0 / (mu + lam); }

double ratio_r(double beta, double eta, double lam_hat) {
  return eta * lam_hat / (1.0 - beta);  // [eq:ratio]
}

double transient_mean(double target, double beta_tilde, long long t) {
  // E[M_t] − M* = (M_0 − M*) β̃^t with M_0 = 0 [thm:fixedpoint].
  return target * (1.0 - std::pow(beta_tilde, static_cast<double>(t)));
}

Mat fixed_point(const Mat& G, const Mat& S, double mu) {
  // M*(μI + S) = G [eq:dm-fixedpoint]: a right solve, transposed into an SPD left solve.
  const Mat R = mu * Mat::Identity(S.rows(), S.cols()) + S;
  return R.ldlt().solve(G.transpose()).transpose();
}

Mat transient_mean(const Mat& G, const Mat& S, double beta, double eta, long long t) {
  const Eigen::Index n = S.rows();
  const Mat P = beta * Mat::Identity(n, n) - eta * S;  // E[βI − ηkkᵀ] [eq:transport-lemma]
  Mat Pt = Mat::Identity(n, n);
  for (long long s = 0; s < t; ++s) Pt = Pt * P;
  return fixed_point(G, S, mu(beta, eta)) * (Mat::Identity(n, n) - Pt);
}

Mat2 iter_matrix_ak(double alpha, double c, double beta_tilde) {
  Mat2 A;  // [eq:loss-free-A]
  A << 1.0 - alpha * c, -alpha * beta_tilde, c, beta_tilde;
  return A;
}

Mat2 iter_matrix_ema(double alpha, double beta, double lambda) {
  // The EMA buffer injects (1−β)·(raw gradient), so its coupling is (1−β)λ [eq:iter-matrices].
  const double c = (1.0 - beta) * lambda;
  Mat2 A;
  A << 1.0 - alpha * c, -alpha * beta, c, beta;
  return A;
}

double discriminant(const Mat2& A) {
  const double tr = A.trace();
  return tr * tr - 4.0 * A.determinant();  // [lem:det-bound]
}

double ms_rule_scale(const Vec& lambda) { return 2.0 * lambda.maxCoeff() + lambda.sum(); }

double ms_rule_load(double gamma, const Vec& lambda) { return gamma * ms_rule_scale(lambda); }

double spectral_radius(const Mat2& A) {
  // Eigenvalues (tr ± √disc)/2: a complex pair has modulus √det; a real pair's larger
  // modulus is (|tr| + √disc)/2.
  const double disc = discriminant(A);
  if (disc < 0.0) return std::sqrt(A.determinant());
  return 0.5 * (std::abs(A.trace()) + std::sqrt(disc));
}

std::optional<std::pair<double, double>> underdamped_band(double det) {
  // disc = (1 + det − αc)² − 4det < 0  ⇔  αc ∈ ((1−√det)², (1+√det)²) [eq:underdamped-cond].
  if (!(det > 0.0)) return std::nullopt;
  const double s = std::sqrt(det);
  return std::make_pair((1.0 - s) * (1.0 - s), (1.0 + s) * (1.0 + s));
}

bool underdamped(double alpha_c, double det) {
  const auto band = underdamped_band(det);  // [eq:underdamped-cond]
  return band && alpha_c > band->first && alpha_c < band->second;
}

double underdamped_edge_slope(double det, bool upper) {
  // d(1 ± √b)²/db = ±(1 ± √b)/√b [rem:underdamped-typicality].
  const double s = std::sqrt(det);
  return (upper ? 1.0 + s : 1.0 - s) / s;
}

double min_alpha_rho(double det) {
  // [lem:loss-free-det] For det > 0 the minimum √det is attained on the band. For det ≤ 0
  // the eigenvalues are real with product det, and the step αc = 1 + det (tr = 0) gives
  // the smallest radius √|det|.
  return std::sqrt(std::abs(det));
}

double lag_per_unit_drift(double contraction) {
  return contraction / (1.0 - contraction);  // [prop:nc1-main]
}

double cond_ceiling(double beta, double eta) {
  return 1.0 + eta / (1.0 - beta);  // (μ+1)/μ since λ̂ ∈ [0,1] [eq:cond-ceiling]
}

double frobenius_sq(const Vec& w) { return w.squaredNorm(); }

double weighted_mean_contraction(double beta, double eta, const Vec& w) {
  // [eq:weighted-mean] holds only for unit-sum weights; refuse others instead of
  // returning a number that is not the weighted mean.
  const double sum = w.sum();
  if (!(std::abs(sum - 1.0) <= 1e-8)) {
    throw InputError("sum of weights", show(sum), "must be 1 (unit-sum weights)");
  }
  return beta - eta * frobenius_sq(w);
}

double deployed_overhead_f(double gamma) {
  // [thm:deployed-overhead]
  if (!(gamma >= 0.0)) throw InputError("gamma", show(gamma), "must be >= 0");
  if (std::isinf(gamma)) return 4.0 / 18.0;
  return (6.0 + 4.0 * gamma) / (24.0 + 18.0 * gamma);
}

}  // namespace theory

}  // namespace akm
