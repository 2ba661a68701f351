// moments — exact Gaussian-key moments λ̂, κ, E[x̂_i²x̂_j²] (docs/architecture.md,
// "Exact Gaussian-key moments") by one vector-valued double-exponential trapezoid rule.
//
// With t = exp((π/2) sinh v) every integrand decays double-exponentially in v at both
// ends, so the plain trapezoid rule in v converges geometrically in 1/h. All components
// share the node set and the O(n) product Π_j (1+2λ_j t)^{-1/2}, so the cost per node is
// O(n) for λ̂ and κ, plus one rank-one term (batched into a GEMM) for the fourth moments.
//
// λ̂_i sets the normalized-key forgetting β̃_i = β − ηλ̂_i [cor:fixedpoint-normalized,
// eq:iter-matrices]; κ_i is the coupling ηκ_i of [eq:iter-matrices] (tab:notation).
#include "akm/spectrum/moments.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm {
namespace {

// v ∈ [−6.75, 6.75] means |log t| ≤ 671: every exp() below stays under e^678 (no
// overflow), and for eigenvalue ratios down to kMinRatio the end terms are below 1e-38 of
// each integral (checked for n = 1, 2, 3 at the extreme ratio, where the tails are widest).
constexpr double kHalfWidth = 6.75;
constexpr double kMinRatio = 1e-250;
constexpr double kFirstStep = 0.5;
constexpr int kMaxLevels = 12;        // h down to 2^-13
constexpr int kMinLevels = 3;         // never trust agreement of the two coarsest grids
constexpr Eigen::Index kBatch = 256;  // nodes per GEMM for the fourth moments

// Running trapezoid sums Σ_k f(v_k) over every node visited so far (all levels).
struct Sums {
  Vec lhat, kappa;
  Mat fourth;  // lower triangle holds Σ_k w_k a aᵀ; the diagonal gets the factor 3 at the end
};

// Adds the integrand at nodes v = first, first+stride, … ≤ kHalfWidth.
void add_nodes(const Vec& lam, double first, double stride, bool with_fourth, Sums& sums,
               int& nodes) {
  const double inv_sqrt_pi = 1.0 / std::sqrt(std::numbers::pi);
  const Eigen::Index n = lam.size();
  Mat batch(with_fourth ? n : 0, with_fourth ? kBatch : 0);
  Eigen::Index filled = 0;
  auto flush = [&] {
    if (filled == 0) return;
    sums.fourth.selfadjointView<Eigen::Lower>().rankUpdate(batch.leftCols(filled));
    filled = 0;
  };
  for (int k = 0;; ++k) {
    const double v = first + k * stride;  // multiples of h are exact in binary
    if (v > kHalfWidth) break;
    const double s = std::numbers::pi / 2 * std::sinh(v);  // s = log t
    const double t = std::exp(s);
    const Eigen::ArrayXd x = (2.0 * t) * lam.array();
    // log of Π_j (1+2λ_j t)^{-1/2} · dt/dv, with dt/dv = t (π/2) cosh v.
    const double log_e = -0.5 * x.log1p().sum() + s + std::log(std::numbers::pi / 2 * std::cosh(v));
    const Eigen::ArrayXd a = lam.array() / (1.0 + x);  // λ_i (1+2λ_i t)^{-1}
    sums.lhat.array() += std::exp(log_e) * a;
    sums.kappa.array() += (std::exp(log_e - 0.5 * s) * inv_sqrt_pi) * a;  // t^{-1/2}/√π
    if (with_fourth) {
      batch.col(filled++) = (std::exp(0.5 * (log_e + s)) * a).matrix();  // √(t·e) a
      if (filled == kBatch) flush();
    }
    ++nodes;
  }
  if (with_fourth) flush();
}

double max_rel_change(const Vec& now, const Vec& before) {
  return ((now - before).array().abs() / now.array().abs()).maxCoeff();
}

// Largest relative change of the lower-triangle trapezoid estimate when the step halves:
// T_new = h·S_now, T_old = 2h·S_before, so the ratio needs no extra n×n temporaries.
double lower_rel_change(const Mat& now, const Mat& before) {
  double worst = 0.0;
  for (Eigen::Index j = 0; j < now.cols(); ++j)
    for (Eigen::Index i = j; i < now.rows(); ++i)
      worst = std::max(worst, std::abs(now(i, j) - 2.0 * before(i, j)) / now(i, j));
  return worst;
}

// Q from the lower-triangle sums: off-diagonal t a_i a_j, diagonal 3 t a_i² (docs/architecture.md, "Exact Gaussian-key moments").
Mat fourth_from_sums(const Mat& lower, double h) {
  Mat q = h * lower;
  q.diagonal() *= 3.0;
  for (Eigen::Index j = 1; j < q.cols(); ++j) q.col(j).head(j) = q.row(j).head(j).transpose();
  return q;
}

void validate(const Vec& lambda, double rel_tol) {
  if (lambda.size() == 0) throw InputError("lambda", "(empty)", "needs at least one eigenvalue");
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    if (!(lambda[i] > 0.0 && std::isfinite(lambda[i])))
      throw InputError(fmt::format("lambda[{}]", i), show(lambda[i]), "must be finite and > 0");
  const double ratio = lambda.minCoeff() / lambda.maxCoeff();
  if (!(ratio >= kMinRatio))
    throw InputError(
        "lambda_min/lambda_max", show(ratio),
        fmt::format("must be >= {}: the quadrature range covers no wider spread", show(kMinRatio)));
  if (!(rel_tol > 0.0 && rel_tol < 1.0))
    throw InputError("rel_tol", show(rel_tol), "must be in (0, 1)");
}

}  // namespace

KeyMoments gaussian_key_moments(const Vec& lambda, bool with_fourth, double rel_tol) {
  validate(lambda, rel_tol);
  const Eigen::Index n = lambda.size();
  // Scale invariance: λ̂ and Q do not change under λ → cλ, κ scales by √c. Normalizing to
  // unit trace puts the bulk of every integrand at t ≈ 1, i.e. v ≈ 0 (max first: no overflow).
  const double top = lambda.maxCoeff();
  const double scale = top * (lambda / top).sum();
  const Vec lam = lambda / scale;

  Sums sums{Vec::Zero(n), Vec::Zero(n), with_fourth ? Mat::Zero(n, n) : Mat()};
  int nodes = 0;
  double h = kFirstStep;
  add_nodes(lam, -kHalfWidth, h, with_fourth, sums, nodes);
  Vec lhat = h * sums.lhat, kappa = h * sums.kappa;
  Mat before;  // fourth-moment sums of the previous level
  bool converged = false;
  for (int level = 1; level <= kMaxLevels && !converged; ++level) {
    if (with_fourth) before = sums.fourth;
    h /= 2;  // the new nodes are the midpoints of the previous grid
    add_nodes(lam, -kHalfWidth + h, 2 * h, with_fourth, sums, nodes);
    const Vec lhat_new = h * sums.lhat, kappa_new = h * sums.kappa;
    double change = std::max(max_rel_change(lhat_new, lhat), max_rel_change(kappa_new, kappa));
    if (with_fourth) change = std::max(change, lower_rel_change(sums.fourth, before));
    lhat = lhat_new;
    kappa = kappa_new;
    converged = level >= kMinLevels && change < rel_tol;
  }
  if (!converged)
    throw std::runtime_error(
        fmt::format("gaussian_key_moments: quadrature did not reach rel_tol = {} with step {} ({} "
                    "nodes, n = {})",
                    show(rel_tol), show(h), nodes, n));

  // Built-in checks: tr Σ̂ = E‖x̂‖² = 1, and Σ_j E[x̂_i²x̂_j²] = E[x̂_i²‖x̂‖²] = λ̂_i.
  const double check_tol = std::max(1e-10, 10 * rel_tol);
  Mat fourth = with_fourth ? fourth_from_sums(sums.fourth, h) : Mat();
  KeyMoments m;
  m.trace_error = std::abs(lhat.sum() - 1.0);
  if (!(m.trace_error <= check_tol))
    throw std::runtime_error(
        fmt::format("gaussian_key_moments: sum of lambda_hat - 1 = {} "
                    "exceeds {} (n = {})",
                    show(lhat.sum() - 1.0), show(check_tol), n));
  if (with_fourth) {
    const double err = ((fourth.rowwise().sum() - lhat).array() / lhat.array()).abs().maxCoeff();
    if (!(err <= check_tol))
      throw std::runtime_error(
          fmt::format("gaussian_key_moments: row sums of E[x_i^2 x_j^2] "
                      "differ from lambda_hat by {} relative (n = {})",
                      show(err), n));
  }
  m.lambda = lambda;
  m.lambda_hat = std::move(lhat);
  m.kappa = std::sqrt(scale) * kappa;
  m.fourth = std::move(fourth);
  m.nodes = nodes;
  m.step = h;
  return m;
}

}  // namespace akm
