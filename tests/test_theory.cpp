// Closed forms of akm::theory against independent computations (the statements T1–T8 and T14 check, docs/claims.md).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <random>

#include "akm/base/errors.hpp"
#include "akm/theory/direction_table.hpp"
#include "akm/theory/theory.hpp"

namespace {

using akm::Key;
using akm::Mat2;
using akm::Mat;
using akm::Vec;
namespace th = akm::theory;

/// Largest eigenvalue modulus by Eigen's general eigensolver: the reference for ρ.
double rho_eigen(const Mat2& A) {
  Eigen::EigenSolver<Mat2> es(A, false);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

akm::Spectrum spectrum_of(std::initializer_list<double> values) {
  akm::Spectrum s;
  s.kind = "list";
  s.lambda = Vec(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double v : values) s.lambda(i++) = v;
  s.basis = akm::Mat::Identity(s.n(), s.n());
  return s;
}

akm::Spectrum iso(int n) {
  akm::Spectrum s;
  s.kind = "iso";
  s.lambda = Vec::Constant(n, 2.0);
  s.basis = akm::Mat::Identity(n, n);
  return s;
}

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

TEST(TheoryReport, IsotropicWeightedMeanIsBetaMinusEtaOverN) {
  // [eq:weighted-mean]: Σλ̂β̃ = β − η‖λ̂‖² = β − η/n exactly when Σ̂ = I/n.
  const int n = 8;
  const auto r = akm::make_theory_report({0.9, 0.4, 0.5, Key::normalized}, iso(n));
  ASSERT_EQ(r.directions.size(), static_cast<size_t>(n));
  EXPECT_NEAR(r.weighted_mean_contraction, 0.9 - 0.4 / n, 1e-10);
  EXPECT_NEAR(r.frobenius_sq, 1.0 / n, 1e-10);
  for (const auto& d : r.directions) EXPECT_NEAR(d.lambda_hat, 1.0 / n, 1e-10);
}

TEST(TheoryReport, SpikedWeightedMeanIsStrictlyBelow) {
  const auto s = spectrum_of({10, 5, 2, 1, 1, 1, 1, 1});
  const auto r = akm::make_theory_report({0.9, 0.4, 0.5, Key::normalized}, s);
  EXPECT_LT(r.weighted_mean_contraction, 0.9 - 0.4 / 8 - 1e-3);
  Vec lh(8);
  for (int i = 0; i < 8; ++i) lh(i) = r.directions[i].lambda_hat;
  EXPECT_NEAR(r.weighted_mean_contraction, th::weighted_mean_contraction(0.9, 0.4, lh), 1e-10);
  EXPECT_NEAR(r.frobenius_sq, lh.squaredNorm(), 1e-14);
}

TEST(TheoryReport, DirectionsMatchIndependentComputation) {
  const auto s = spectrum_of({4, 2, 1, 0.5});
  const double beta = 0.9, eta = 0.3, alpha = 0.7;
  for (Key key : {Key::normalized, Key::raw}) {
    const auto r = akm::make_theory_report({beta, eta, alpha, key}, s);
    EXPECT_EQ(r.key, key);
    EXPECT_DOUBLE_EQ(r.mu, (1 - beta) / eta);
    EXPECT_DOUBLE_EQ(r.cond_ceiling, 1 + eta / (1 - beta));
    double lam_sum = s.lambda.sum(), wmean = 0, frob = 0, lh_sum = 0;
    for (int i = 0; i < 4; ++i) {
      const auto& d = r.directions[i];
      const bool nz = key == Key::normalized;
      EXPECT_DOUBLE_EQ(d.lambda, s.lambda(i));
      EXPECT_GT(d.kappa, 0.0);
      lh_sum += d.lambda_hat;
      const double fl = nz ? d.lambda_hat : d.lambda;
      const double c = nz ? eta * d.kappa : eta * d.lambda;
      EXPECT_NEAR(d.beta_tilde, beta - eta * fl, 1e-15);
      EXPECT_NEAR(d.tau, 1 / (1 - d.beta_tilde), 1e-12);
      EXPECT_NEAR(d.phi, 1 / (r.mu + fl), 1e-12);
      EXPECT_NEAR(d.coupling_ak, c, 1e-15);
      EXPECT_NEAR(d.coupling_ema, (1 - beta) * d.lambda, 1e-15);
      Mat2 ak, em;
      ak << 1 - alpha * c, -alpha * d.beta_tilde, c, d.beta_tilde;
      em << 1 - alpha * (1 - beta) * d.lambda, -alpha * beta, (1 - beta) * d.lambda, beta;
      EXPECT_NEAR(d.det_ak, ak.determinant(), 1e-12);
      EXPECT_NEAR(d.det_ema, em.determinant(), 1e-12);
      EXPECT_NEAR(d.rho_ak, rho_eigen(ak), 1e-11);
      EXPECT_NEAR(d.rho_ema, rho_eigen(em), 1e-11);
      const double tr = ak.trace();
      EXPECT_EQ(d.underdamped_ak, tr * tr - 4 * ak.determinant() < 0);
      EXPECT_EQ(d.band.has_value(), d.beta_tilde > 0);
      EXPECT_NEAR(d.lag_ak_per_unit_drift, d.beta_tilde / (1 - d.beta_tilde), 1e-12);
      EXPECT_NEAR(d.lag_ema_per_unit_drift, beta / (1 - beta), 1e-12);
      const double w = nz ? d.lambda_hat : d.lambda / lam_sum;
      wmean += w * d.beta_tilde;
      frob += w * w;
    }
    EXPECT_NEAR(lh_sum, 1.0, 1e-10);  // tr Σ̂ = 1 [prop:bounded-sigma-hat]
    EXPECT_NEAR(r.weighted_mean_contraction, wmean, 1e-13);
    EXPECT_NEAR(r.frobenius_sq, frob, 1e-13);
  }
}

TEST(TheoryReport, UnderdampedFlagAndBandAgree) {
  // Pick α so α·c sits mid-band on the top direction: flagged and ρ^Δ = √β̃.
  const auto s = spectrum_of({3, 1});
  const auto probe = akm::make_theory_report({0.95, 0.2, 1.0, Key::normalized}, s);
  const auto& d0 = probe.directions[0];
  ASSERT_TRUE(d0.band);
  const double alpha = 0.5 * (d0.band->first + d0.band->second) / d0.coupling_ak;
  const auto r = akm::make_theory_report({0.95, 0.2, alpha, Key::normalized}, s);
  EXPECT_TRUE(r.directions[0].underdamped_ak);
  EXPECT_NEAR(r.directions[0].rho_ak, std::sqrt(r.directions[0].beta_tilde), 1e-12);
}

TEST(TheoryReport, JsonHasEveryContractKey) {
  const auto r = akm::make_theory_report({0.9, 0.4, 0.5, Key::raw}, spectrum_of({3, 2, 1}));
  const auto j = akm::to_json(r);
  for (const char* k : {"beta", "eta", "alpha", "key", "mu", "weighted_mean_contraction",
                        "frobenius_sq", "cond_ceiling", "directions"}) {
    EXPECT_TRUE(j.contains(k)) << k;
  }
  EXPECT_EQ(j["key"], "raw");
  EXPECT_DOUBLE_EQ(j["beta"].get<double>(), 0.9);
  ASSERT_EQ(j["directions"].size(), 3u);
  for (const auto& d : j["directions"]) {
    for (const char* k : {"lambda", "lambda_hat", "kappa", "beta_tilde", "tau", "phi", "det_ak",
                          "det_ema", "rho_ak", "rho_ema", "underdamped_ak", "band",
                          "lag_ak_per_unit_drift", "lag_ema_per_unit_drift", "coupling_ak",
                          "coupling_ema"}) {
      EXPECT_TRUE(d.contains(k)) << k;
    }
    EXPECT_TRUE(d["underdamped_ak"].is_boolean());
  }
  EXPECT_DOUBLE_EQ(j["directions"][0]["lambda"].get<double>(), 3.0);
  // Raw key, ηλ = 0.4: β̃ = 0.5 > 0 on the last direction, so its band is [lo, hi].
  const auto& band = j["directions"][2]["band"];
  ASSERT_TRUE(band.is_array());
  ASSERT_EQ(band.size(), 2u);
  EXPECT_DOUBLE_EQ(band[0].get<double>(), r.directions[2].band->first);
  EXPECT_DOUBLE_EQ(band[1].get<double>(), r.directions[2].band->second);
}

TEST(TheoryReport, JsonBandIsNullWhenEmpty) {
  // Raw key with ηλ > β: β̃ < 0, no underdamped band.
  const auto r = akm::make_theory_report({0.5, 0.4, 0.5, Key::raw}, spectrum_of({3, 0.1}));
  ASSERT_LT(r.directions[0].beta_tilde, 0.0);
  const auto j = akm::to_json(r);
  EXPECT_TRUE(j["directions"][0]["band"].is_null());
  EXPECT_TRUE(j["directions"][1]["band"].is_array());
  EXPECT_FALSE(j["directions"][0]["underdamped_ak"].get<bool>());
}

TEST(TheoryReport, BadInputsThrowInputError) {
  const auto s = spectrum_of({2, 1});
  const double nan = std::nan("");
  for (double beta : {-0.1, 1.0, 1.5, nan}) {
    EXPECT_THROW(akm::make_theory_report({beta, 0.4, 0.5, Key::normalized}, s), akm::InputError);
  }
  for (double eta : {0.0, -1.0, nan, std::numeric_limits<double>::infinity()}) {
    EXPECT_THROW(akm::make_theory_report({0.9, eta, 0.5, Key::normalized}, s), akm::InputError);
  }
  for (double alpha : {0.0, -0.5, nan}) {
    EXPECT_THROW(akm::make_theory_report({0.9, 0.4, alpha, Key::normalized}, s), akm::InputError);
  }
  akm::Spectrum empty;
  EXPECT_THROW(akm::make_theory_report({0.9, 0.4, 0.5, Key::normalized}, empty), akm::InputError);
}

}  // namespace
