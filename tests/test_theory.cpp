// Closed forms of akm::theory against independent computations (the statements T1–T8 and T14 check, docs/claims.md).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <random>

#include "akm/base/errors.hpp"
#include "akm/theory/theory.hpp"
#include "theory_fixture.hpp"

namespace {

using akm::Key;
using akm::Mat2;
using akm::Mat;
using akm::Vec;
namespace th = akm::theory;

using namespace akm_test::theory;

TEST(Theory, SpectralRadiusMatchesEigenSolverOnRandomMatrices) {
  std::mt19937_64 rng(20240601);
  std::uniform_real_distribution<double> u(-3.0, 3.0);
  int complex_pairs = 0;
  for (int k = 0; k < 20000; ++k) {
    Mat2 A;
    A << u(rng), u(rng), u(rng), u(rng);
    if (th::discriminant(A) < 0) ++complex_pairs;
    const double ref = rho_eigen(A);
    EXPECT_NEAR(th::spectral_radius(A), ref, 1e-11 * std::max(1.0, ref)) << A;
  }
  EXPECT_GT(complex_pairs, 1000);  // both branches of the closed form were exercised
}

TEST(Theory, SpectralRadiusOfIterationMatricesMatchesEigenSolver) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 5000; ++k) {
    const double beta = 0.999 * u(rng), eta = 2.0 * u(rng) + 1e-3;
    const double alpha = 5.0 * u(rng) + 1e-3, c = 3.0 * u(rng) + 1e-3;
    const double bt = th::beta_tilde(beta, eta, u(rng));
    const Mat2 ak = th::iter_matrix_ak(alpha, c, bt);
    const Mat2 em = th::iter_matrix_ema(alpha, beta, 3.0 * u(rng));
    EXPECT_NEAR(th::spectral_radius(ak), rho_eigen(ak), 1e-11 * std::max(1.0, rho_eigen(ak)));
    EXPECT_NEAR(th::spectral_radius(em), rho_eigen(em), 1e-11 * std::max(1.0, rho_eigen(em)));
  }
}

TEST(Theory, IterationMatrixEntriesFollowThePaper) {
  // [eq:iter-matrices] entry by entry.
  const Mat2 ak = th::iter_matrix_ak(0.5, 0.3, 0.8);
  EXPECT_DOUBLE_EQ(ak(0, 0), 1.0 - 0.15);
  EXPECT_DOUBLE_EQ(ak(0, 1), -0.4);
  EXPECT_DOUBLE_EQ(ak(1, 0), 0.3);
  EXPECT_DOUBLE_EQ(ak(1, 1), 0.8);
  const Mat2 em = th::iter_matrix_ema(0.5, 0.9, 2.0);
  EXPECT_DOUBLE_EQ(em(0, 0), 1.0 - 0.5 * 0.1 * 2.0);
  EXPECT_DOUBLE_EQ(em(0, 1), -0.45);
  EXPECT_NEAR(em(1, 0), 0.2, 1e-15);
  EXPECT_DOUBLE_EQ(em(1, 1), 0.9);
}

TEST(Theory, DeterminantIdentities) {
  // [thm:detred, lem:loss-free-det]: det A^Δ = β̃, det A^EMA = β for every α, c.
  for (double alpha : {1e-3, 0.1, 1.0, 7.0}) {
    for (double c : {1e-4, 0.2, 3.0, 40.0}) {
      EXPECT_NEAR(th::iter_matrix_ak(alpha, c, 0.83).determinant(), 0.83, 1e-12 * (1 + alpha * c));
      EXPECT_NEAR(th::iter_matrix_ema(alpha, 0.9, c).determinant(), 0.9, 1e-12 * (1 + alpha * c));
    }
  }
}

TEST(Theory, BandEndpointsZeroTheDiscriminant) {
  // [eq:underdamped-cond]: at αc = (1 ∓ √β̃)² the discriminant vanishes; inside it is < 0.
  for (double det : {1e-4, 0.05, 0.5, 0.9, 0.999}) {
    const auto band = th::underdamped_band(det);
    ASSERT_TRUE(band.has_value());
    const double c = 0.37;
    for (double s : {band->first, band->second}) {
      const Mat2 A = th::iter_matrix_ak(s / c, c, det);
      EXPECT_NEAR(th::discriminant(A), 0.0, 1e-12) << det;
      EXPECT_NEAR(th::spectral_radius(A), std::sqrt(det), 1e-6);
    }
    const double mid = 0.5 * (band->first + band->second);
    EXPECT_LT(th::discriminant(th::iter_matrix_ak(mid / c, c, det)), 0.0);
    EXPECT_NEAR(band->second - band->first, 4.0 * std::sqrt(det), 1e-12);  // width 4√β̃
  }
  EXPECT_FALSE(th::underdamped_band(0.0).has_value());
  EXPECT_FALSE(th::underdamped_band(-0.2).has_value());
}

TEST(Theory, UnderdampedPredicateMatchesEigenSolver) {
  // [eq:underdamped-cond] against the reference: Eigen's eigenvalues of the delta-rule map
  // form a complex pair. Points within 1e-9 (relative) of an edge are skipped: there the
  // sign of the discriminant is decided by rounding.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int inside = 0, outside = 0;
  for (int k = 0; k < 20000; ++k) {
    const double det = 0.999 * u(rng) + 1e-4, c = 3.0 * u(rng) + 1e-3;
    const double alpha_c = 5.0 * u(rng) * u(rng);
    const double lo = (1 - std::sqrt(det)) * (1 - std::sqrt(det)), hi = (1 + std::sqrt(det)) * (1 + std::sqrt(det));
    if (std::abs(alpha_c - lo) < 1e-9 * lo || std::abs(alpha_c - hi) < 1e-9 * hi) continue;
    Eigen::EigenSolver<Mat2> es(th::iter_matrix_ak(alpha_c / c, c, det), false);
    const bool complex_pair = es.eigenvalues().imag().cwiseAbs().maxCoeff() > 0.0;
    EXPECT_EQ(th::underdamped(alpha_c, det), complex_pair) << alpha_c << " " << det;
    (complex_pair ? inside : outside)++;
  }
  EXPECT_GT(inside, 1000);  // both sides of the window were exercised
  EXPECT_GT(outside, 1000);
  EXPECT_FALSE(th::underdamped(0.5, 0.0));  // det ≤ 0: real eigenvalues for every αc
  EXPECT_FALSE(th::underdamped(0.5, -0.3));
}

TEST(Theory, UnderdampedEdgeSlopeIsTheEdgeDerivative) {
  // d(1 ∓ √b)²/db by a central difference, and the slopes decrease in b (the leading-order
  // bound of rem:underdamped-typicality takes the slope at the smaller memory β̃).
  auto edge = [](double b, bool upper) { return upper ? (1 + std::sqrt(b)) * (1 + std::sqrt(b)) : (1 - std::sqrt(b)) * (1 - std::sqrt(b)); };
  for (double b : {0.01, 0.3, 0.7, 0.95}) {
    for (bool upper : {false, true}) {
      const double h = 1e-6, fd = (edge(b + h, upper) - edge(b - h, upper)) / (2 * h);
      EXPECT_NEAR(th::underdamped_edge_slope(b, upper), std::abs(fd), 1e-6) << b << upper;
      EXPECT_GT(th::underdamped_edge_slope(b, upper), th::underdamped_edge_slope(b + 0.04, upper));
    }
  }
}

TEST(Theory, MinAlphaRhoIsSqrtDet) {
  EXPECT_DOUBLE_EQ(th::min_alpha_rho(0.81), 0.9);
  // det < 0: tr = 0 (αc = 1 + det) gives eigenvalues ±√|det|.
  const double det = -0.25, c = 0.5;
  const Mat2 A = th::iter_matrix_ak((1.0 + det) / c, c, det);
  EXPECT_NEAR(rho_eigen(A), th::min_alpha_rho(det), 1e-12);
}

TEST(Theory, ScalarClosedForms) {
  EXPECT_DOUBLE_EQ(th::mu(0.9, 0.5), 0.2);
  EXPECT_DOUBLE_EQ(th::beta_tilde(0.9, 0.5, 0.4), 0.7);
  EXPECT_NEAR(th::horizon(0.7), 1.0 / 0.3, 1e-14);
  // τ_i = 1/((1−β) + ηλ_i) [eq:horizon].
  EXPECT_NEAR(th::horizon(th::beta_tilde(0.9, 0.5, 0.4)), 1.0 / (0.1 + 0.2), 1e-14);
  EXPECT_DOUBLE_EQ(th::phi(0.2, 0.3), 2.0);
  EXPECT_NEAR(th::ratio_r(0.9, 0.5, 0.4), 2.0, 1e-14);
  // Horizon ratio EMA/AK = 1 + r [eq:ratio].
  EXPECT_NEAR(th::horizon(0.9) / th::horizon(th::beta_tilde(0.9, 0.5, 0.4)),
              1.0 + th::ratio_r(0.9, 0.5, 0.4), 1e-13);
  EXPECT_DOUBLE_EQ(th::transient_mean(3.0, 0.5, 0), 0.0);
  EXPECT_DOUBLE_EQ(th::transient_mean(3.0, 0.5, 2), 2.25);
  EXPECT_NEAR(th::lag_per_unit_drift(0.9), 9.0, 1e-12);
  EXPECT_NEAR(th::cond_ceiling(0.9, 0.4), 5.0, 1e-12);
  // The ceiling is (μ+1)/μ [eq:cond-ceiling].
  const double mu = th::mu(0.9, 0.4);
  EXPECT_NEAR(th::cond_ceiling(0.9, 0.4), (mu + 1.0) / mu, 1e-12);
}

TEST(Theory, TransientMeanMatchesIteratedRecursion) {
  // E[m_t] = β̃ E[m_{t−1}] + (1−β̃)·target from m_0 = 0 [thm:fixedpoint].
  const double bt = 0.87, target = -1.7;
  double m = 0.0;
  for (long long t = 1; t <= 50; ++t) {
    m = bt * m + (1.0 - bt) * target;
    EXPECT_NEAR(th::transient_mean(target, bt, t), m, 1e-13);
  }
}

TEST(Theory, DenseFixedPointIsPhiAlongEachEigenvector) {
  // Independent route: S = UΛUᵀ from a random orthogonal U, then M*u_i = Gu_i/(μ+λ_i)
  // [eq:dm-eigen] column by column; μ = 0 against an explicit inverse GS^{-1}.
  std::mt19937 gen(7);
  std::normal_distribution<double> nd;
  const int n = 5, m = 3;
  Mat Z(n, n), G(m, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) Z(i, j) = nd(gen);
  for (int r = 0; r < m; ++r)
    for (int j = 0; j < n; ++j) G(r, j) = nd(gen);
  const Mat U = Eigen::HouseholderQR<Mat>(Z).householderQ();
  Vec lam(n);
  lam << 4.0, 2.0, 1.0, 0.3, 0.05;
  const Mat S = U * lam.asDiagonal() * U.transpose();
  for (double mu : {0.0, 0.01, 0.7, 50.0}) {
    const Mat Ms = th::fixed_point(G, S, mu);
    for (int i = 0; i < n; ++i)
      EXPECT_LT((Ms * U.col(i) - G * U.col(i) / (mu + lam[i])).norm(), 1e-10 * G.norm() / lam[n - 1]);
  }
  EXPECT_LT((th::fixed_point(G, S, 0.0) - G * S.inverse()).norm(), 1e-10 * (G * S.inverse()).norm());
}

TEST(Theory, DenseTransientMeanMatchesIteratedRecursion) {
  // E[M_t] = βE[M_{t−1}] + η(G − E[M_{t−1}]S) from M_0 = 0 [thm:fixedpoint], iterated.
  Mat S(3, 3), G(2, 3);
  S << 2.0, 0.4, 0.1, 0.4, 1.0, -0.2, 0.1, -0.2, 0.5;
  G << 1.0, -2.0, 0.5, 0.3, 0.7, -1.1;
  const double beta = 0.95, eta = 0.2;
  Mat M = Mat::Zero(2, 3);
  for (long long t = 1; t <= 40; ++t) {
    M = beta * M + eta * (G - M * S);
    EXPECT_LT((th::transient_mean(G, S, beta, eta, t) - M).norm(), 1e-12 * (1.0 + M.norm()));
  }
}

TEST(Theory, WeightedMeanAndFrobenius) {
  const Vec w = (Vec(4) << 0.4, 0.3, 0.2, 0.1).finished();
  EXPECT_NEAR(th::frobenius_sq(w), 0.30, 1e-15);
  double direct = 0.0;
  for (int i = 0; i < 4; ++i) direct += w(i) * th::beta_tilde(0.95, 0.3, w(i));
  EXPECT_NEAR(th::weighted_mean_contraction(0.95, 0.3, w), direct, 1e-14);
  EXPECT_THROW(th::weighted_mean_contraction(0.95, 0.3, Vec::Ones(3)), akm::InputError);
}

TEST(Theory, DeployedOverheadF) {
  // [thm:deployed-overhead]
  EXPECT_DOUBLE_EQ(th::deployed_overhead_f(0.0), 0.25);
  EXPECT_NEAR(th::deployed_overhead_f(2.0), 0.2333333333333333, 1e-15);
  EXPECT_NEAR(th::deployed_overhead_f(8.0 / 3.0), 50.0 / 216.0, 1e-15);
  EXPECT_NEAR(100.0 * th::deployed_overhead_f(8.0 / 3.0), 23.148, 5e-4);  // "23.148%"
  EXPECT_NEAR(th::deployed_overhead_f(1e12), 2.0 / 9.0, 1e-12);
  EXPECT_DOUBLE_EQ(th::deployed_overhead_f(std::numeric_limits<double>::infinity()), 2.0 / 9.0);
  double prev = th::deployed_overhead_f(0.0);
  for (double g = 0.01; g < 100.0; g *= 1.05) {
    const double f = th::deployed_overhead_f(g);
    EXPECT_LT(f, prev) << g;  // strictly decreasing
    EXPECT_GT(f, 2.0 / 9.0);
    prev = f;
  }
  EXPECT_THROW(th::deployed_overhead_f(-1.0), akm::InputError);
  EXPECT_THROW(th::deployed_overhead_f(std::nan("")), akm::InputError);
}

TEST(Theory, KeyRoundTrip) {
  EXPECT_EQ(akm::parse_key("raw"), Key::raw);
  EXPECT_EQ(akm::parse_key("normalized"), Key::normalized);
  EXPECT_EQ(akm::to_string(Key::raw), "raw");
  EXPECT_EQ(akm::to_string(Key::normalized), "normalized");
  EXPECT_THROW(akm::parse_key("norm"), akm::InputError);
  EXPECT_THROW(akm::parse_key(""), akm::InputError);
}

}  // namespace
