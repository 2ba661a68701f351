// Property tests of the rate and contraction identities (checked by T4 and T8, docs/claims.md) over random
// valid parameters: β ∈ [0,1), η > 0, α > 0, c > 0, λ̂ ∈ [0,1].
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "akm/theory/theory.hpp"

namespace {

using akm::Mat2;
using akm::Vec;
namespace th = akm::theory;

constexpr std::int64_t kGridPoints = std::int64_t{1} << 40;

/// A double uniform on [lo, hi] on a grid of 2^40 points; shrinks toward lo.
double uniform_on_grid(double lo, double hi) {
  const auto k = *rc::gen::inRange<std::int64_t>(0, kGridPoints + 1);
  return lo + (hi - lo) * (static_cast<double>(k) / static_cast<double>(kGridPoints));
}

/// A random valid AK direction: β ∈ [0,1), η ∈ (0,2], λ̂ ∈ [0,1], c ∈ (0,10], and the
/// product s = αc ∈ (0,6] (so every regime, band included, is hit often).
struct Draw {
  double beta, eta, lam_hat, c, alpha;
  double bt() const { return th::beta_tilde(beta, eta, lam_hat); }
};

Draw draw() {
  Draw d{};
  d.beta = uniform_on_grid(0.0, 0.999999);
  d.eta = uniform_on_grid(1e-6, 2.0);
  d.lam_hat = uniform_on_grid(0.0, 1.0);
  d.c = uniform_on_grid(1e-4, 10.0);
  d.alpha = uniform_on_grid(1e-6, 6.0) / d.c;
  return d;
}

/// Draw conditioned on a positive determinant β̃ > 0 (η < β/λ̂ by construction, no discards).
Draw draw_positive_det() {
  Draw d = draw();
  d.beta = uniform_on_grid(1e-3, 0.999999);
  d.eta = uniform_on_grid(1e-6, 0.999) * d.beta / std::max(d.lam_hat, 1e-12);
  d.eta = std::min(d.eta, 1e6);
  return d;
}

double rho_eigen(const Mat2& A) {
  Eigen::EigenSolver<Mat2> es(A, false);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

/// ρ of the AK map as a function of the step size α at fixed c, β̃.
double rho_ak_at(double alpha, double c, double bt) {
  return th::spectral_radius(th::iter_matrix_ak(alpha, c, bt));
}

/// min over α ∈ [0, hi] of ρ: dense grid, then golden-section on the grid minimum's
/// neighbours. ρ(α) is quasiconvex (falls, flat on the band, rises), so the bracket holds.
double min_rho_over_alpha(double c, double bt, double hi) {
  const int grid = 4000;
  int best = 0;
  double best_rho = rho_ak_at(0.0, c, bt);
  for (int k = 1; k <= grid; ++k) {
    const double r = rho_ak_at(hi * k / grid, c, bt);
    if (r < best_rho) best_rho = r, best = k;
  }
  double a = hi * std::max(best - 1, 0) / grid, b = hi * std::min(best + 1, grid) / grid;
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int it = 0; it < 200; ++it) {
    const double x1 = b - g * (b - a), x2 = a + g * (b - a);
    if (rho_ak_at(x1, c, bt) <= rho_ak_at(x2, c, bt)) {
      b = x2;
    } else {
      a = x1;
    }
  }
  return std::min(best_rho, rho_ak_at(0.5 * (a + b), c, bt));
}

// [thm:detred, lem:loss-free-det] det A^Δ = β̃ and det A^EMA = β for every c and α.
RC_GTEST_PROP(Properties, DeterminantsIndependentOfCouplingAndStep, ()) {
  const Draw d = draw();
  const double lam = uniform_on_grid(1e-6, 10.0);
  const double ac = d.alpha * d.c;
  RC_ASSERT(std::abs(th::iter_matrix_ak(d.alpha, d.c, d.bt()).determinant() - d.bt()) <=
            1e-12 * (1.0 + ac));
  const double ema_ac = d.alpha * (1.0 - d.beta) * lam;
  RC_ASSERT(std::abs(th::iter_matrix_ema(d.alpha, d.beta, lam).determinant() - d.beta) <=
            1e-12 * (1.0 + ema_ac));
}

// [lem:det-bound] ρ(A) ≥ √det when det > 0, equality iff tr² − 4det ≤ 0. For disc > 0 the
// gap is at least √disc/2, since |tr| = √(disc + 4det) ≥ 2√det.
RC_GTEST_PROP(Properties, RhoAtLeastSqrtDetWithEqualityIffNonPositiveDiscriminant, ()) {
  const Draw d = draw_positive_det();
  const Mat2 A = th::iter_matrix_ak(d.alpha, d.c, d.bt());
  const double rho = th::spectral_radius(A), root = std::sqrt(d.bt());
  const double disc = th::discriminant(A), tol = 1e-9 * std::max(1.0, rho);
  RC_ASSERT(std::abs(rho - rho_eigen(A)) <= tol);
  RC_ASSERT(rho >= root - tol);
  if (disc <= 0.0) {
    RC_ASSERT(std::abs(rho - root) <= tol);
  } else {
    RC_ASSERT(rho - root >= 0.5 * std::sqrt(disc) - tol);
  }
}

// [eq:underdamped-cond] αc strictly inside ((1−√β̃)², (1+√β̃)²) ⇔ discriminant < 0,
// checked away from the endpoints where rounding could flip either side.
RC_GTEST_PROP(Properties, BandIffNegativeDiscriminant, ()) {
  const Draw d = draw_positive_det();
  const auto band = th::underdamped_band(d.bt());
  RC_ASSERT(band.has_value());
  const double ac = d.alpha * d.c, margin = 1e-9 * (1.0 + band->second);
  RC_PRE(std::abs(ac - band->first) > margin && std::abs(ac - band->second) > margin);
  const bool inside = band->first < ac && ac < band->second;
  RC_ASSERT(inside == (th::discriminant(th::iter_matrix_ak(d.alpha, d.c, d.bt())) < 0.0));
}

// [lem:loss-free-det] min over α of ρ(A) = √det when det > 0.
RC_GTEST_PROP(Properties, MinOverAlphaOfRhoIsSqrtDet, ()) {
  const Draw d = draw_positive_det();
  const double bt = d.bt();
  const double hi = 2.0 * (1.0 + std::sqrt(bt)) * (1.0 + std::sqrt(bt)) / d.c;
  const double found = min_rho_over_alpha(d.c, bt, hi);
  RC_ASSERT(std::abs(found - std::sqrt(bt)) <= 1e-6);
  RC_ASSERT(std::abs(th::min_alpha_rho(bt) - std::sqrt(bt)) <= 1e-15);
}

// [thm:strengthened-rate] Underdamped AK: ρ^Δ = √β̃ < √β ≤ ρ^EMA at the same α.
RC_GTEST_PROP(Properties, UnderdampedAkBeatsEma, ()) {
  Draw d = draw_positive_det();
  d.lam_hat = uniform_on_grid(1e-3, 1.0);
  d.eta = uniform_on_grid(1e-3, 0.999) * d.beta / d.lam_hat;  // keeps β̃ > 0 with ηλ̂ > 0
  const auto band = th::underdamped_band(d.bt());
  RC_ASSERT(band.has_value());
  const double s = band->first + uniform_on_grid(0.01, 0.99) * (band->second - band->first);
  const double alpha = s / d.c, lam = uniform_on_grid(1e-6, 10.0);
  const double rho_ak = th::spectral_radius(th::iter_matrix_ak(alpha, d.c, d.bt()));
  const double rho_ema = th::spectral_radius(th::iter_matrix_ema(alpha, d.beta, lam));
  RC_ASSERT(std::abs(rho_ak - std::sqrt(d.bt())) <= 1e-9 * std::sqrt(d.bt()) + 1e-15);
  RC_ASSERT(std::sqrt(d.bt()) < std::sqrt(d.beta));
  RC_ASSERT(rho_ema >= std::sqrt(d.beta) * (1.0 - 1e-12));
  RC_ASSERT(rho_ak < rho_ema);
}

// [cor:uniform-tracking, eq:weighted-mean] β − η ≤ β̃_i ≤ β and
// Σλ̂_iβ̃_i = β − η‖λ̂‖² ≤ β − η/n, with the gap η Σ(λ̂_i − 1/n)² (zero iff isotropic).
RC_GTEST_PROP(Properties, UniformBoundsAndWeightedMean, ()) {
  const int n = *rc::gen::inRange(1, 65);
  const double beta = uniform_on_grid(0.0, 0.999999), eta = uniform_on_grid(1e-6, 2.0);
  const bool isotropic = *rc::gen::inRange(0, 4) == 0;
  Vec lh(n);
  for (int i = 0; i < n; ++i) lh(i) = isotropic ? 1.0 : uniform_on_grid(1e-6, 1.0);
  lh /= lh.sum();
  double weighted = 0.0;
  for (int i = 0; i < n; ++i) {
    const double bt = th::beta_tilde(beta, eta, lh(i));
    RC_ASSERT(beta - eta - 1e-15 <= bt);
    RC_ASSERT(bt <= beta);
    weighted += lh(i) * bt;
  }
  const double closed = th::weighted_mean_contraction(beta, eta, lh);
  RC_ASSERT(std::abs(weighted - closed) <= 1e-12);
  const double gap = eta * (lh.array() - 1.0 / n).square().sum();
  RC_ASSERT(std::abs((beta - eta / n) - closed - gap) <= 1e-12);
  RC_ASSERT(closed <= beta - eta / n + 1e-12);
  if (isotropic) RC_ASSERT(std::abs(closed - (beta - eta / n)) <= 1e-12);
}

}  // namespace
