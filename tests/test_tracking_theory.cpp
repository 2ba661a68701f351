// Closed forms of the tracking theorem (akm/theory/tracking.hpp) against the plain mean
// recursions they solve, with dense matrices in a rotated basis:
//   raw   E[M_t] = E[M_{t−1}](βI − ηΣ) + η aᵀΣ            [eq:dm-update]
//   norm  E[M_t] = E[M_{t−1}](βI − ηΣ̂) + η aᵀK            [eq:dm-norm-update]
//   EMA   E[M_t] = β E[M_{t−1}] + (1−β) aᵀΣ               [eq:ema-update]
#include <cmath>
#include <random>

#include <Eigen/QR>
#include <gtest/gtest.h>

#include "akm/theory/tracking.hpp"

namespace th = akm::theory;
using akm::BufferKind;
using akm::Mat;
using akm::Vec;

namespace {

Vec uniform(std::mt19937& gen, int n, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  Vec v(n);
  for (int i = 0; i < n; ++i) v[i] = u(gen);
  return v;
}

th::TrackingShift random_shift(std::mt19937& gen, int n) {
  th::TrackingShift s;
  // Any positive moments will do: the closed forms and the recursions use them the same way.
  s.lambda0 = uniform(gen, n, 0.1, 3.0);
  s.lambda_hat0 = uniform(gen, n, 0.01, 0.2);
  s.kappa0 = uniform(gen, n, 0.05, 0.5);
  s.lambda1 = uniform(gen, n, 0.1, 3.0);
  s.lambda_hat1 = uniform(gen, n, 0.01, 0.2);
  s.kappa1 = uniform(gen, n, 0.05, 0.5);
  Mat G(n, n);
  std::normal_distribution<double> z;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) G(i, j) = z(gen);
  s.Q = Eigen::HouseholderQR<Mat>(G).householderQ() * Mat::Identity(n, n);
  s.a0 = uniform(gen, n, -1, 1);
  s.a1 = uniform(gen, n, -1, 1);
  s.beta = 0.9;
  s.noise_sigma = 0.5;
  s.t0 = 37;
  return s;
}

}  // namespace

TEST(TrackingTheory, ClosedFormsSolveTheMeanRecursions) {
  std::mt19937 gen(11);
  const int n = 6;
  const double eta_raw = 0.1, eta_norm = 0.5;
  for (int rep = 0; rep < 5; ++rep) {
    const th::TrackingShift s = random_shift(gen, n);
    const Mat I = Mat::Identity(n, n);
    const auto rot = [&](const Vec& d) -> Mat { return s.Q * d.asDiagonal() * s.Q.transpose(); };
    for (BufferKind rule : {BufferKind::ak_raw, BufferKind::ak_normalized, BufferKind::ema}) {
      const bool ema = rule == BufferKind::ema, raw = rule == BufferKind::ak_raw;
      const double eta = raw ? eta_raw : eta_norm;
      // Pre-shift: contraction C and forcing f of the row recursion m ← m C + f.
      const Mat C0 = ema ? Mat(s.beta * I) : Mat(s.beta * I - eta * rot(raw ? s.lambda0 : s.lambda_hat0));
      const Vec f0 = ema ? Vec((1 - s.beta) * rot(s.lambda0) * s.a0)
                         : Vec(eta * rot(raw ? s.lambda0 : s.kappa0) * s.a0);
      Vec m = Vec::Zero(n);
      for (int t = 0; t < s.t0; ++t) m = C0.transpose() * m + f0;
      // Post-shift: diagonal in the coordinates; the target is the recursion's fixed point.
      const Vec c1 = ema ? Vec(Vec::Constant(n, s.beta))
                         : Vec(s.beta - eta * (raw ? s.lambda1 : s.lambda_hat1).array());
      const Vec f1 = ema ? Vec((1 - s.beta) * s.lambda1.cwiseProduct(s.a1))
                         : Vec(eta * (raw ? s.lambda1 : s.kappa1).cwiseProduct(s.a1));
      const Vec target = f1.array() / (1 - c1.array());

      const th::TrackingPrediction p = th::tracking_prediction(s, rule, eta);
      for (int i = 0; i < n; ++i) {
        EXPECT_NEAR(p.m_t0[i], m[i], 1e-12) << akm::to_string(rule) << " i=" << i;
        EXPECT_NEAR(p.mstar1[i], target[i], 1e-12) << akm::to_string(rule) << " i=" << i;
        EXPECT_NEAR(p.y0[i], m[i] - target[i], 1e-12);
        EXPECT_DOUBLE_EQ(p.rate[i], c1[i]);
        EXPECT_GT(p.scale[i], 0.0);
      }
      // After k steps the mean error is rate^k y0: iterate the diagonal recursion.
      Vec mk = m;
      for (int k = 0; k < 10; ++k) mk = c1.cwiseProduct(mk) + f1;
      for (int i = 0; i < n; ++i)
        EXPECT_NEAR(mk[i] - target[i], std::pow(p.rate[i], 10) * p.y0[i], 1e-12);
    }
  }
}

TEST(TrackingTheory, EmaScaleIsTheExactStationaryStandardDeviation) {
  // Q = I, t0 large: the EMA scale is max(pre, post) of (1−β)²/(1−β²) Var(δx_i), with
  // Var(δx_i) = (aᵀΣa + σ²)λ_i + (λ_i a_i)² for Gaussian x.
  std::mt19937 gen(5);
  th::TrackingShift s = random_shift(gen, 4);
  s.Q = Mat::Identity(4, 4);
  s.t0 = 100000;
  const auto p = th::tracking_prediction(s, BufferKind::ema, 0.0);
  const double f = (1 - s.beta) * (1 - s.beta) / (1 - s.beta * s.beta), sig2 = 0.25;
  for (int i = 0; i < 4; ++i) {
    const auto var = [&](const Vec& l, const Vec& a) {
      return f * ((a.cwiseProduct(a).dot(l) + sig2) * l[i] + l[i] * a[i] * l[i] * a[i]);
    };
    EXPECT_NEAR(p.scale[i], std::sqrt(std::max(var(s.lambda0, s.a0), var(s.lambda1, s.a1))), 1e-12);
  }
}

TEST(BufferKind, OneSpellingAndTheLegacyUnderscoreOne) {
  EXPECT_STREQ(akm::to_string(BufferKind::ak_raw), "ak-raw");
  EXPECT_STREQ(akm::to_string(BufferKind::ak_normalized), "ak-normalized");
  EXPECT_STREQ(akm::to_string(BufferKind::ema), "ema");
  EXPECT_STREQ(akm::to_string(BufferKind::delta), "delta");
  EXPECT_EQ(akm::key_of(BufferKind::ak_raw), akm::Key::raw);
  EXPECT_EQ(akm::key_of(BufferKind::ak_normalized), akm::Key::normalized);
  EXPECT_ANY_THROW(akm::key_of(BufferKind::ema));
}
