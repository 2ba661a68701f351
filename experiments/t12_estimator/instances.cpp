// T12 estimator — the random instances and the identities and bounds checked on each.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "t12_estimator.hpp"

namespace akm::exp::t12 {
namespace {

double max_abs(const Mat& A) { return A.cwiseAbs().maxCoeff(); }

/// lower/value as a "≤ 1" ratio; +∞ when value ≤ 0 so a sign flip can never pass.
double ratio_at_least(double lower, double value) {
  return value > 0.0 ? lower / value : std::numeric_limits<double>::infinity();
}

/// Best ⟨M,Ĝ⟩ over `draws` random M rescaled onto N(M) = 1: Gaussian M, and perturbations of
/// the maximizer at relative sizes 1e-1 and 1e-4 (the neighbourhood where a wrong maximizer
/// would show first).
double best_random_value(const Instance& in, est::Constraint c, const Mat& opt, Stream& rng, int draws) {
  double best = -std::numeric_limits<double>::infinity();
  Mat R(in.m, in.n);
  for (int d = 0; d < draws; ++d) {
    for (Eigen::Index j = 0; j < R.size(); ++j) R.data()[j] = rng.normal();
    Mat M = R;
    if (d % 3 == 1) M = opt + 1e-1 * opt.norm() * R / R.norm();
    if (d % 3 == 2) M = opt + 1e-4 * opt.norm() * R / R.norm();
    best = std::max(best, est::frobenius_inner(M, in.G) / est::constraint_norm(M, in.s, c));
  }
  return best;
}

}  // namespace

Instance make_instance(std::uint64_t seed, int k) {
  Stream rng(seed, static_cast<std::uint64_t>(k), Purpose::aux);
  Instance in;
  in.n = 2 + static_cast<int>(rng.uniform() * 31);  // 2..32
  in.m = 1 + static_cast<int>(rng.uniform() * 6);   // 1..6
  // Every 10th instance sits at the largest conditioning; the rest spread over 0..12 decades.
  in.decades = k % 10 == 9 ? kMaxDecades : kMaxDecades * rng.uniform();
  in.zeros = k % 3 == 2 ? 1 + static_cast<int>(rng.uniform() * (in.n - 1)) : 0;
  in.beta = 0.999 * rng.uniform();
  in.eta = 0.01 + 0.99 * rng.uniform();
  in.s = est::random_unit_trace_psd(in.n, in.decades, in.zeros, derive_seed(seed, fmt::format("psd{}", k)));
  Mat G0(in.m, in.n);
  for (int j = 0; j < in.n; ++j)
    for (int r = 0; r < in.m; ++r) G0(r, j) = rng.normal();
  const Mat range = in.s.U.leftCols(in.n - in.zeros);  // eigenvalues sorted, zeros last
  in.G = G0 * range * range.transpose();
  return in;
}

Row measure_instance(const Instance& in, int k, Margins& mg, Stream& rng, int draws) {
  const est::PsdFactors& s = in.s;
  const int n = in.n;
  const double mu = in.mu(), lmax = s.lambda_max(), lmin = s.lambda_min();
  const Mat sigma = s.matrix();

  // ((1−β)I+ηΣ̂)^{-1} ≻ 0 [app:estimator-and-preconditioner]: the plain reference (form, LDLT)
  // against the factored form and against the closed-form eigenvalues.
  const Mat P_ref = est::ak_preconditioner_reference(sigma, in.beta, in.eta);
  const Mat P = est::ak_preconditioner(s, in.beta, in.eta);
  mg.identity("preconditioner/factored = reference (max entry diff / max entry)", max_abs(P - P_ref) / max_abs(P), k);
  const Vec ev = Eigen::SelfAdjointEigenSolver<Mat>(P_ref, Eigen::EigenvaluesOnly).eigenvalues();
  std::vector<double> closed;
  for (int i = 0; i < n; ++i) closed.push_back(1.0 / ((1.0 - in.beta) + in.eta * s.lambda[i]));
  std::sort(closed.begin(), closed.end());
  double ev_err = 0;
  for (int i = 0; i < n; ++i) ev_err = std::max(ev_err, std::abs(ev[i] - closed[static_cast<std::size_t>(i)]) / closed[static_cast<std::size_t>(i)]);
  mg.identity("preconditioner/eigenvalues = 1/((1-β)+ηλ̂_i) (max rel err)", ev_err, k);
  mg.bound("preconditioner/λ_min ≥ 1/((1-β)+η) > 0 (ratio bound/λ_min ≤ 1)",
         ratio_at_least(1.0 / ((1.0 - in.beta) + in.eta), ev[0]), k);

  // Descent preserved [app:estimator-and-preconditioner, cor:fixedpoint-normalized].
  const Mat M = est::fixed_point(in.G, s, in.beta, in.eta);
  const Mat M_ref = est::fixed_point_reference(in.G, sigma, in.beta, in.eta);
  mg.identity("fixed-point/Ĝ(μI+Σ̂)^{-1} = ηĜ((1-β)I+ηΣ̂)^{-1} (max entry diff / max entry)",
         max_abs(M - M_ref) / max_abs(M), k);
  const double inner = est::frobenius_inner(M, in.G), g2 = in.G.squaredNorm();
  const double inner_ratio = ratio_at_least(g2 / (mu + lmax), inner);
  mg.bound("descent/⟨M*,Ĝ⟩ ≥ ‖Ĝ‖²/(μ+λ̂_max) > 0 (ratio ≤ 1)", inner_ratio, k);
  const double kappa = (mu + lmax) / (mu + lmin);
  mg.bound("descent/cond(μI+Σ̂) ≤ 1+η/(1-β) [eq:cond-ceiling] (ratio ≤ 1)", kappa / (1.0 + 1.0 / mu), k);
  const double cos_star = est::cosine(M, in.G), floor = est::kantorovich_cosine(kappa);
  mg.bound("descent/cos(M*,Ĝ) ≥ 2√κ/(1+κ) Kantorovich (ratio ≤ 1)", ratio_at_least(floor, cos_star), k);
  const Mat grad = M * (sigma + mu * Mat::Identity(n, n)) - in.G;  // ∇(J_f + μJ_w) at M*
  mg.identity("descent/M* minimizes J_f+μJ_w: ‖∇‖ / (‖Ĝ‖+‖M*‖(μ+1))",
         max_abs(grad) / (max_abs(in.G) + max_abs(M) * (mu + 1.0)), k);

  // One functional, three norms [def:wms, def:fms, app:estimator-and-preconditioner].
  const std::vector<std::pair<std::string, est::Constraint>> norms{
      {"J_w ‖M‖_F", est::weight_space()}, {"J_f E‖Mx̂‖²", est::function_space()},
      {"Tikhonov μ‖M‖²+E‖Mx̂‖²", est::tikhonov(mu)}};
  for (const auto& [label, c] : norms) {
    const est::Maximizer mx = est::constrained_maximizer(in.G, s, c);
    mg.identity(fmt::format("maximizer/{}/feasible |N(M)−1|", label), std::abs(est::constraint_norm(mx.M, s, c) - 1.0), k);
    mg.identity(fmt::format("maximizer/{}/attains value (rel err)", label),
           std::abs(est::frobenius_inner(mx.M, in.G) - mx.value) / mx.value, k);
    mg.bound(fmt::format("maximizer/{}/no random feasible M beats it (best/value ≤ 1)", label),
           best_random_value(in, c, mx.M, rng, draws) / mx.value, k);
    if (c.a == 1.0 && c.b == 0.0)
      mg.identity("maximizer/J_w ‖M‖_F/closed form Ĝ/‖Ĝ‖ (max entry diff)", max_abs(mx.M - in.G / in.G.norm()), k);
    if (c.a == 0.0) {
      // Normal equations of the regression of δ on x̂: (value·M)Σ̂ = Ĝ, i.e. M ∝ ĜΣ̂^{+};
      // residual relative to the size of the product (a backward-error measure).
      const Mat W = mx.value * mx.M;
      mg.identity("maximizer/J_f E‖Mx̂‖²/normal equations MΣ̂ ∝ Ĝ (backward error)",
             max_abs(W * sigma - in.G) / (max_abs(W) * lmax * n), k);
    }
    if (c.a > 0.0 && c.b > 0.0)
      mg.identity("maximizer/Tikhonov/∝ AK fixed point M* (1 − cos)", 1.0 - est::cosine(mx.M, M), k);
  }

  // Tikhonov interpolation over μ, per eigen-column (exact zeros on the null space). Each
  // side is a difference of two terms formed to relative precision u, hence the 4u floor.
  Mat C = in.G * s.U;
  double lmin_pos = lmax;
  for (int i = 0; i < n; ++i) {
    if (s.lambda[i] == 0.0) C.col(i).setZero();
    else lmin_pos = std::min(lmin_pos, s.lambda[i]);
  }
  for (double mu_g : kMuGrid) {
    Mat Cs = C, Cw = C;
    for (int i = 0; i < n; ++i) {
      Cs.col(i) /= mu_g + s.lambda[i];
      if (s.lambda[i] > 0.0) Cw.col(i) /= s.lambda[i];
    }
    mg.bound("interpolation/‖μM*−Ĝ‖ ≤ ‖Ĝ‖λ̂_max/(μ+λ̂_max) (ratio ≤ 1)",
           (mu_g * Cs - C).norm() / (C.norm() * (lmax / (mu_g + lmax) + 4 * kU)), k);
    mg.bound("interpolation/‖M*−ĜΣ̂⁺‖ ≤ ‖ĜΣ̂⁺‖μ/(μ+λ̂_min⁺) (ratio ≤ 1)",
           (Cs - Cw).norm() / (Cw.norm() * (mu_g / (mu_g + lmin_pos) + 4 * kU)), k);
  }
  return {s.cond_on_range(), kappa, cos_star, floor, inner_ratio};
}

double efficiency(const Mat& M, const Mat& G, const est::PsdFactors& s, est::Constraint c) {
  return est::frobenius_inner(M, G) / (est::constraint_norm(M, s, c) * est::constrained_maximizer(G, s, c).value);
}

MuSweep mu_sweep(std::uint64_t seed) {
  // It is 1 for ‖M‖_F as μ → ∞ (EMA's Ĝ) and 1 for E‖Mx̂‖² as μ → 0 (Wiener ĜΣ̂^{-1}).
  MuSweep sw;
  sw.s = est::random_unit_trace_psd(16, 6.0, 0, derive_seed(seed, "T12/sweep"));
  sw.G = Mat(3, 16);
  Stream gs(derive_seed(seed, "T12/sweep-G"), 0, Purpose::aux);
  for (Eigen::Index j = 0; j < sw.G.size(); ++j) sw.G.data()[j] = gs.normal();
  for (int q = 0; q <= 64; ++q) {
    const double mu = std::pow(10.0, -10.0 + 14.0 * q / 64.0);
    Mat C = sw.G * sw.s.U;
    for (int i = 0; i < 16; ++i) C.col(i) /= mu + sw.s.lambda[i];
    const Mat M = C * sw.s.U.transpose();
    sw.table.add({mu, std::string("J_w"), efficiency(M, sw.G, sw.s, est::weight_space())});
    sw.table.add({mu, std::string("J_f"), efficiency(M, sw.G, sw.s, est::function_space())});
    sw.table.add({mu, std::string("Tikhonov"), efficiency(M, sw.G, sw.s, est::tikhonov(mu))});
  }
  return sw;
}

}  // namespace akm::exp::t12
