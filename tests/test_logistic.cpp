// logistic — scalar functions against finite differences and plain formulas, the data set's
// L, Ḡ, H against finite differences, the stable loss differences against long-double
// references, the GLM moment estimates against known cases, and the antithetic AK-SGD pair
// against two plain runs (akm::AkSgd).
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>
#include <boost/math/quadrature/gauss_kronrod.hpp>

#include "akm/base/errors.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/sim/glm_moments.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/rules/rules.hpp"

namespace {

using akm::Mat;
using akm::Vec;
namespace lg = akm::logistic;

long double sigmoid_ld(long double z) { return 1.0L / (1.0L + std::exp(-z)); }
long double softplus_ld(long double z) {
  return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

// ------------------------------------------------------------------ scalar functions

TEST(Logistic, DerivativesMatchCentralDifferences) {
  const double h = 1e-5;
  for (double z : {-30.0, -6.0, -1.3, -0.2, 0.0, 0.4, 2.0, 7.5, 25.0}) {
    EXPECT_NEAR(lg::sigmoid_d1(z), (lg::sigmoid(z + h) - lg::sigmoid(z - h)) / (2 * h), 1e-10) << z;
    EXPECT_NEAR(lg::sigmoid_d2(z), (lg::sigmoid_d1(z + h) - lg::sigmoid_d1(z - h)) / (2 * h), 1e-10) << z;
    EXPECT_NEAR(lg::sigmoid_d3(z), (lg::sigmoid_d2(z + h) - lg::sigmoid_d2(z - h)) / (2 * h), 1e-10) << z;
    EXPECT_NEAR(lg::sigmoid(z), (lg::softplus(z + h) - lg::softplus(z - h)) / (2 * h), 1e-10) << z;
    EXPECT_NEAR(lg::sigmoid(z) + lg::sigmoid(-z), 1.0, 1e-15);
  }
  for (double z : {-800.0, 800.0}) {
    EXPECT_TRUE(std::isfinite(lg::sigmoid(z)));
    EXPECT_TRUE(std::isfinite(lg::softplus(z)));
    EXPECT_TRUE(std::isfinite(lg::sigmoid_d2(z)));
  }
  EXPECT_DOUBLE_EQ(lg::softplus(800.0), 800.0);
}

// The suprema the experiments' bounds use are the maxima on a fine grid (and not exceeded).
TEST(Logistic, SupremaOfDerivatives) {
  double m1 = 0, m2 = 0, m3 = 0;
  for (int k = -200000; k <= 200000; ++k) {
    const double z = k * 1e-4;
    m1 = std::max(m1, lg::sigmoid_d1(z));
    m2 = std::max(m2, std::abs(lg::sigmoid_d2(z)));
    m3 = std::max(m3, std::abs(lg::sigmoid_d3(z)));
  }
  EXPECT_LE(m1, lg::kSupD1);
  EXPECT_LE(m2, lg::kSupD2 * (1 + 1e-15));
  EXPECT_LE(m3, lg::kSupD3);
  EXPECT_NEAR(m1, lg::kSupD1, 1e-12);
  EXPECT_NEAR(m2, lg::kSupD2, 1e-9);
  EXPECT_NEAR(m3, lg::kSupD3, 1e-12);
  EXPECT_NEAR(lg::kSupD2, 1.0 / (6.0 * std::sqrt(3.0)), 1e-17);
}

TEST(Logistic, HalfDifferenceIsAccurateForTinyAndLargeOffsets) {
  for (double a : {-40.0, -3.0, 0.0, 0.7, 12.0, 600.0}) {
    for (double d : {-5.0, -0.3, 1e-3, 1e-9, 1e-200, 2.0, 50.0}) {
      const long double ref =
          (sigmoid_ld(static_cast<long double>(a) + d) - sigmoid_ld(static_cast<long double>(a) - d)) / 2;
      const double got = lg::sigmoid_half_difference(a, d);
      if (std::abs(d) >= 1e-3 && std::abs(a) < 30) {
        // The long-double reference itself cancels to ~2·2^-64 absolute.
        EXPECT_NEAR(got, static_cast<double>(ref), 1e-15 * std::abs(static_cast<double>(ref)) + 2e-19)
            << a << " " << d;
      }
      // First order: σ'(a)d for tiny d, with relative precision (the naive difference is 0).
      if (std::abs(d) <= 1e-9 && std::abs(a) < 30) {
        EXPECT_NEAR(got / (lg::sigmoid_d1(a) * d), 1.0, 1e-12) << a << " " << d;
      }
      EXPECT_TRUE(std::isfinite(got));
    }
  }
}

TEST(Logistic, SoftplusChangeMatchesLongDoubleDifference) {
  for (double z : {-20.0, -2.0, -0.1, 0.0, 0.5, 3.0, 40.0}) {
    for (double h : {-3.0, -0.7, -1e-4, 1e-8, 1e-3, 0.9, 2.5}) {
      const long double ref = softplus_ld(static_cast<long double>(z) - h) - softplus_ld(z);
      const double got = lg::softplus_change(z, h);
      // The reference cancels: its own error is ~2^-64 (φ(z) + |z|).
      EXPECT_NEAR(got, static_cast<double>(ref),
                  1e-14 * std::abs(static_cast<double>(ref)) + 1e-18 * (lg::softplus(z) + std::abs(z)))
          << z << " " << h;
    }
  }
  // Tiny h: relative precision against the series −hσ + h²σ'/2 − h³σ''/6.
  for (double z : {-20.0, -2.0, 0.0, 3.0, 40.0}) {
    for (double h : {-1e-6, 1e-8, 3e-12}) {
      const double series = -h * lg::sigmoid(z) + 0.5 * h * h * lg::sigmoid_d1(z) -
                            h * h * h * lg::sigmoid_d2(z) / 6;
      EXPECT_NEAR(lg::softplus_change(z, h) / series, 1.0, 1e-14) << z << " " << h;
    }
  }
}

// ------------------------------------------------------------------ the data set

struct Fixture {
  lg::Teacher teacher;
  lg::DataSet data;
  Vec w, m;
  Fixture()
      : teacher((Vec(4) << 4.0, 2.0, 1.0, 0.5).finished(), (Vec(4) << 0.8, -0.4, 0.3, 1.0).finished()),
        data(lg::sample_data(teacher, 500, 7)),
        w((Vec(4) << 0.3, 0.2, -0.5, 0.4).finished()),
        m((Vec(4) << -0.2, 0.5, 0.1, 0.3).finished()) {}
};

TEST(Logistic, GradientAndHessianMatchFiniteDifferences) {
  const Fixture f;
  const Vec g = lg::gradient(f.data, f.w);
  const Mat H = lg::hessian(f.data, f.w);
  const double h = 1e-5;
  for (int i = 0; i < 4; ++i) {
    Vec e = Vec::Zero(4);
    e[i] = h;
    EXPECT_NEAR(g[i], (lg::loss(f.data, f.w + e) - lg::loss(f.data, f.w - e)) / (2 * h), 1e-9) << i;
    const Vec col = (lg::gradient(f.data, f.w + e) - lg::gradient(f.data, f.w - e)) / (2 * h);
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(H(j, i), col[j], 1e-9) << i << j;
  }
  EXPECT_LT((H - H.transpose()).norm(), 1e-15);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Mat>(H).eigenvalues().minCoeff(), 0.0);
  // D³L[m,m,m] = d/dt mᵀH(w + tm)m.
  const double q = (f.m.dot(lg::hessian(f.data, f.w + h * f.m) * f.m) -
                    f.m.dot(lg::hessian(f.data, f.w - h * f.m) * f.m)) / (2 * h);
  EXPECT_NEAR(lg::third_derivative(f.data, f.w, f.m), q, 1e-8);
}

TEST(Logistic, LossChangeAndTaylorResidualMatchLongDoubleReference) {
  const Fixture f;
  const Vec g = lg::gradient(f.data, f.w);
  const Mat H = lg::hessian(f.data, f.w);
  for (double alpha : {1e-3, 0.05, 0.3, 2.0}) {
    long double ref = 0;
    const Vec z = f.data.X * f.w, d = f.data.X * f.m;
    for (long long k = 0; k < f.data.size(); ++k) {
      const long double zk = z[k], dk = d[k], yk = f.data.y[k];
      ref += softplus_ld(zk - alpha * dk) - yk * (zk - alpha * dk) - softplus_ld(zk) + yk * zk;
    }
    ref /= f.data.size();
    const double dl = lg::loss_change(f.data, f.w, f.m, alpha);
    EXPECT_NEAR(dl, static_cast<double>(ref), 1e-13 * std::abs(static_cast<double>(ref))) << alpha;
    // Residual = change − (−α⟨m,Ḡ⟩ + α²/2 mᵀHm)  [eq:taylor].
    const double r = lg::taylor_residual(f.data, f.w, f.m, alpha);
    const double r_ref = dl + alpha * f.m.dot(g) - 0.5 * alpha * alpha * f.m.dot(H * f.m);
    EXPECT_NEAR(r, r_ref, 1e-12 * std::abs(dl)) << alpha;
  }
}

TEST(Logistic, TaylorResidualIsCubicWithTheThirdDerivative) {
  const Fixture f;
  const double t3 = lg::third_derivative(f.data, f.w, f.m);
  for (double alpha : {1e-3, 1e-4}) {
    const double r = lg::taylor_residual(f.data, f.w, f.m, alpha);
    EXPECT_NEAR(r / (-t3 * alpha * alpha * alpha / 6), 1.0, 50 * alpha) << alpha;
    EXPECT_LT(lg::taylor_residual_rounding(f.data, f.w, f.m, alpha), 1e-3 * std::abs(r));
  }
}

// ------------------------------------------------------------------ GLM moments

TEST(Logistic, SigmaHatEstimateMatchesExactGaussianMoments) {
  const Vec lam = (Vec(5) << 9.0, 3.0, 1.0, 1.0, 0.25).finished();
  const lg::Teacher t(lam, Vec::Zero(5));
  const auto est = lg::estimate_glm_moments(t, Vec::Zero(5), {200000, 256, 11, 2, false});
  const auto exact = akm::gaussian_key_moments(lam);
  for (int i = 0; i < 5; ++i) {
    EXPECT_LT(std::abs(est.sigma_hat(i, i) - exact.lambda_hat[i]), 5 * est.sigma_hat_se(i, i)) << i;
    // w* = 0: σ'(0) = 1/4, so K = κ/4 exactly.
    EXPECT_LT(std::abs(est.k(i, i) - 0.25 * exact.kappa[i]), 5 * est.k_se(i, i)) << i;
    // w = w*: δ has conditional mean 0, so Ĝ = 0 sample by sample.
    EXPECT_EQ(est.g_hat[i], 0.0);
  }
}

TEST(Logistic, FullAndDiagonalEstimatesAgreeAndOffDiagonalVanishOnAnEigenvector) {
  const Vec lam = (Vec(4) << 6.0, 2.0, 1.0, 0.5).finished();
  const Vec ws = (Vec(4) << 0.8, 0, 0, 0).finished();  // w* on u_1: K diagonal by symmetry
  const lg::Teacher t(lam, ws);
  const Vec w = (Vec(4) << 0.1, 0.3, -0.2, 0.4).finished();
  const auto full = lg::estimate_glm_moments(t, w, {100000, 128, 5, 2, true});
  const auto diag = lg::estimate_glm_moments(t, w, {100000, 128, 5, 2, false});
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(full.k(i, i), diag.k(i, i), 1e-13 * diag.k(i, i));
    EXPECT_NEAR(full.sigma_hat(i, i), diag.sigma_hat(i, i), 1e-13 * diag.sigma_hat(i, i));
    EXPECT_EQ(full.g_hat[i], diag.g_hat[i]);
    for (int j = 0; j < 4; ++j) {
      if (i == j) continue;
      EXPECT_LT(std::abs(full.k(i, j)), 5 * full.k_se(i, j)) << i << j;
      EXPECT_LT(std::abs(full.sigma_hat(i, j)), 5 * full.sigma_hat_se(i, j)) << i << j;
      EXPECT_EQ(full.k(i, j), full.k(j, i));
    }
  }
  EXPECT_NEAR(full.sigma_hat.trace(), 1.0, 1e-12);  // every x̂ has unit norm
}

// n = 1: x̂ = sign(x), so Ĝ(w) = 2∫_0^∞ (σ(w√λ z) − σ(w*√λ z)) ϕ(z) dz and
// K = 2∫_0^∞ σ'(w*√λ z) √λ z ϕ(z) dz — one-dimensional quadratures.
TEST(Logistic, OneDimensionMatchesQuadrature) {
  const double lam = 2.5, sl = std::sqrt(lam), ws = 1.3, w = -0.4;
  const lg::Teacher t(Vec::Constant(1, lam), Vec::Constant(1, ws));
  const auto est = lg::estimate_glm_moments(t, Vec::Constant(1, w), {400000, 256, 3, 2, false});
  auto pdf = [](double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); };
  using GK = boost::math::quadrature::gauss_kronrod<double, 61>;
  const double inf = std::numeric_limits<double>::infinity();
  const double g = 2 * GK::integrate([&](double z) { return (lg::sigmoid(w * sl * z) - lg::sigmoid(ws * sl * z)) * pdf(z); }, 0, inf);
  const double k = 2 * GK::integrate([&](double z) { return lg::sigmoid_d1(ws * sl * z) * sl * z * pdf(z); }, 0, inf);
  EXPECT_LT(std::abs(est.g_hat[0] - g), 5 * est.g_hat_se[0]);
  EXPECT_LT(std::abs(est.k(0, 0) - k), 5 * est.k_se(0, 0));
  EXPECT_EQ(est.sigma_hat(0, 0), 1.0);
  EXPECT_GT(est.g_hat_se[0], 0.0);
}

// ------------------------------------------------------------------ antithetic AK-SGD

// The midpoint/half-difference form against two plain AK-SGD runs (rules reference).
TEST(Logistic, AntitheticPairMatchesTwoPlainRuns) {
  const Vec lam = (Vec(5) << 5.0, 2.0, 1.0, 1.0, 0.5).finished();
  const Vec ws = (Vec(5) << 0.5, 0, 0, 0, 0).finished();
  const lg::Teacher t(lam, ws);
  const Vec off = (Vec(5) << 0.05, -0.02, 0.03, 0.01, -0.04).finished();
  const double alpha = 0.3, beta = 0.9, eta = 0.5;
  lg::AkSgdPair pair(ws, off, alpha, beta, eta);
  akm::AkSgd plus(1, 5, alpha, beta, eta, akm::Key::normalized), minus = plus;
  Mat wp = (ws + off).transpose(), wm = (ws - off).transpose();
  akm::Stream keys(9, 0, akm::Purpose::keys), labels(9, 0, akm::Purpose::noise);
  Vec x(5);
  for (int s = 0; s < 200; ++s) {
    t.key(keys, x);
    const double y = t.label(labels, x);
    const auto info = pair.step(x, y);
    EXPECT_NEAR(info.d, (wp.row(0).transpose() - wm.row(0).transpose()).dot(x) / 2, 1e-12);
    plus.step(wp, Vec::Constant(1, lg::residual(wp.row(0).transpose(), x, y)), x);
    minus.step(wm, Vec::Constant(1, lg::residual(wm.row(0).transpose(), x, y)), x);
  }
  EXPECT_LT((pair.w_plus() - wp.row(0).transpose()).norm(), 1e-12);
  EXPECT_LT((pair.w_minus() - wm.row(0).transpose()).norm(), 1e-12);
  EXPECT_LT((pair.m_half() - (plus.M - minus.M).row(0).transpose() / 2).norm(), 1e-12);
}

TEST(Logistic, RefusesBadInput) {
  const Vec lam = Vec::Ones(3);
  EXPECT_THROW(lg::Teacher((Vec(3) << 1, -1, 1).finished(), Vec::Zero(3)), akm::InputError);
  EXPECT_THROW(lg::Teacher(lam, Vec::Zero(2)), akm::InputError);
  EXPECT_THROW(lg::Teacher(lam, Vec::Constant(3, std::nan(""))), akm::InputError);
  const lg::Teacher t(lam, Vec::Zero(3));
  EXPECT_THROW(lg::sample_data(t, 0, 1), akm::InputError);
  EXPECT_THROW(lg::estimate_glm_moments(t, Vec::Zero(2), {}), akm::InputError);
  EXPECT_THROW(lg::estimate_glm_moments(t, Vec::Zero(3), {100, 256, 0, 1, false}), akm::InputError);
  EXPECT_THROW(lg::estimate_glm_moments(t, Vec::Zero(3), {1000, 0, 0, 1, false}), akm::InputError);
  const auto d = lg::sample_data(t, 10, 1);
  EXPECT_THROW(lg::loss(d, Vec::Zero(4)), akm::InputError);
  EXPECT_THROW(lg::taylor_residual(d, Vec::Zero(3), Vec::Zero(2), 0.1), akm::InputError);
  EXPECT_THROW(lg::AkSgdPair(Vec::Zero(3), Vec::Zero(3), -1.0, 0.9, 0.5), akm::InputError);
  EXPECT_THROW(lg::AkSgdPair(Vec::Zero(3), Vec::Zero(3), 0.1, 1.0, 0.5), akm::InputError);
  EXPECT_THROW(lg::AkSgdPair(Vec::Zero(3), Vec::Zero(2), 0.1, 0.9, 0.5), akm::InputError);
}

}  // namespace
