// moments — exact Gaussian-key moments against closed forms, Boost.Math quadrature and
// Monte Carlo (docs/architecture.md, "Exact Gaussian-key moments").
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>

#include "akm/base/errors.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/spectrum.hpp"

namespace {

using akm::gaussian_key_moments;
using akm::Mat;
using akm::Vec;

double rel(double a, double b) { return std::abs(a - b) / std::abs(b); }

// Isotropic Σ = sI: x̂ is uniform on the sphere, so λ̂_i = 1/n, E[x̂_i⁴] = 3/(n(n+2)),
// E[x̂_i²x̂_j²] = 1/(n(n+2)); κ_i = E[x_i²/‖x‖] = E‖x‖/n with
// E‖x‖ = √(2s) Γ((n+1)/2)/Γ(n/2) (chi distribution).
TEST(Moments, IsotropicClosedForms) {
  for (int n : {1, 2, 3, 7, 64, 300}) {
    for (double s : {1.0, 1e-3, 250.0}) {
      const auto m = gaussian_key_moments(Vec::Constant(n, s), n <= 64);
      const double norm =
          std::sqrt(2 * s) * std::exp(std::lgamma((n + 1) / 2.0) - std::lgamma(n / 2.0));
      for (int i = 0; i < n; ++i) {
        EXPECT_LT(rel(m.lambda_hat[i], 1.0 / n), 1e-11) << "n=" << n << " s=" << s;
        EXPECT_LT(rel(m.kappa[i], norm / n), 1e-11) << "n=" << n << " s=" << s;
      }
      if (n > 64) continue;
      const double d = n * (n + 2.0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          EXPECT_LT(rel(m.fourth(i, j), (i == j ? 3.0 : 1.0) / d), 1e-11) << n << " " << i << j;
    }
  }
}

TEST(Moments, OneDimension) {
  for (double lam : {1e-6, 0.3, 1.0, 42.0}) {
    const auto m = gaussian_key_moments(Vec::Constant(1, lam), true);
    EXPECT_LT(rel(m.lambda_hat[0], 1.0), 1e-13);
    EXPECT_LT(rel(m.kappa[0], std::sqrt(2 * lam / std::numbers::pi)), 1e-12);  // E|x|
    EXPECT_LT(rel(m.fourth(0, 0), 1.0), 1e-12);
  }
}

// n = 2: E[x₁²/(x₁²+x₂²)] = √λ₁/(√λ₁+√λ₂) (angle of an ellipse-distributed point).
TEST(Moments, TwoDimensionsExtremeRatio) {
  for (double r : {0.5, 1e-4, 1e-8, 1e-12}) {
    const auto m = gaussian_key_moments((Vec(2) << 1.0, r).finished(), true);
    const double a = 1.0 / (1.0 + std::sqrt(r));
    EXPECT_LT(rel(m.lambda_hat[0], a), 1e-11) << r;
    EXPECT_LT(rel(m.lambda_hat[1], std::sqrt(r) / (1.0 + std::sqrt(r))), 1e-11) << r;
  }
}

TEST(Moments, UnitTraceOnSpikedAndPowerSpectra) {
  for (const char* spec :
       {"spiked:n=64,spikes=100/30/10,floor=1", "spiked:n=200,spikes=1e4,floor=1e-2",
        "power:n=128,exp=1", "power:n=256,exp=2", "power:n=50,exp=0.5,scale=1e-8"}) {
    const auto s = akm::parse_spectrum(spec);
    const auto m = gaussian_key_moments(s.lambda, s.n() <= 128);
    EXPECT_LT(m.trace_error, 1e-12) << spec;
    EXPECT_NEAR(m.lambda_hat.sum(), 1.0, 1e-12) << spec;
    for (int i = 1; i < s.n(); ++i) {  // order is kept: larger λ, larger λ̂ and κ
      EXPECT_LE(m.lambda_hat[i], m.lambda_hat[i - 1] * (1 + 1e-13)) << spec;
      EXPECT_LE(m.kappa[i], m.kappa[i - 1] * (1 + 1e-13)) << spec;
    }
    if (m.fourth.size() == 0) continue;
    EXPECT_LT((m.fourth - m.fourth.transpose()).cwiseAbs().maxCoeff(), 1e-15) << spec;
    EXPECT_LT(
        ((m.fourth.rowwise().sum() - m.lambda_hat).array() / m.lambda_hat.array()).abs().maxCoeff(),
        1e-11)
        << spec;
  }
}

// λ̂ and Q are scale-invariant; κ scales like √c; a permutation of λ permutes the outputs.
TEST(Moments, ScaleAndPermutation) {
  const Vec lam = (Vec(5) << 3, 0.2, 7, 1, 1).finished();
  const auto a = gaussian_key_moments(lam, true);
  const auto b = gaussian_key_moments(1e6 * lam, true);
  for (int i = 0; i < 5; ++i) {
    EXPECT_LT(rel(b.lambda_hat[i], a.lambda_hat[i]), 1e-12);
    EXPECT_LT(rel(b.kappa[i], 1e3 * a.kappa[i]), 1e-12);
  }
  EXPECT_LT((b.fourth - a.fourth).cwiseAbs().maxCoeff(), 1e-14);
  const Vec perm = (Vec(5) << 7, 3, 1, 1, 0.2).finished();
  const auto c = gaussian_key_moments(perm);
  EXPECT_LT(rel(c.lambda_hat[0], a.lambda_hat[2]), 1e-12);
  EXPECT_LT(rel(c.kappa[4], a.kappa[1]), 1e-12);
  EXPECT_EQ(gaussian_key_moments(lam).lambda_hat, a.lambda_hat);  // fourth does not change λ̂
}

// An independent evaluation of the four integrals, one at a time, by Boost.Math.
struct Integrands {
  Vec lam;
  double prod(double t) const { return std::exp(-0.5 * (2 * t * lam.array()).log1p().sum()); }
  double a(int i, double t) const { return lam[i] / (1 + 2 * lam[i] * t); }
};

TEST(Moments, AgreesWithBoostQuadrature) {
  const Vec lam = (Vec(6) << 10, 5, 2, 1, 1, 1).finished();
  const Integrands f{lam};
  const auto m = gaussian_key_moments(lam, true);
  boost::math::quadrature::exp_sinh<double> es;
  boost::math::quadrature::tanh_sinh<double> ts;
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 6; ++i) {
    const double lh = es.integrate([&](double t) { return f.a(i, t) * f.prod(t); }, 1e-14);
    const double ka = ts.integrate([&](double t) { return f.a(i, t) * f.prod(t) / std::sqrt(t); },
                                   0.0, inf, 1e-14) /
                      std::sqrt(std::numbers::pi);
    EXPECT_LT(rel(m.lambda_hat[i], lh), 1e-10) << i;
    EXPECT_LT(rel(m.kappa[i], ka), 1e-10) << i;
    for (int j = 0; j < 6; ++j) {
      const double c = i == j ? 3.0 : 1.0;
      const double q =
          es.integrate([&](double t) { return c * t * f.a(i, t) * f.a(j, t) * f.prod(t); }, 1e-14);
      EXPECT_LT(rel(m.fourth(i, j), q), 1e-10) << i << "," << j;
    }
  }
}

// Monte Carlo with akm::Stream: x_i = √λ_i z_i over 10⁶ keys; every estimate within five
// of its own standard errors (sample standard deviation / √N).
TEST(Moments, AgreesWithMonteCarlo) {
  const Vec lam = (Vec(8) << 100, 40, 15, 6, 3, 2, 1.3, 1).finished();
  const int n = 8, draws = 1'000'000;
  const auto m = gaussian_key_moments(lam, true);
  const std::vector<std::pair<int, int>> pairs{{0, 0}, {0, 1}, {2, 5}, {7, 7}, {3, 3}};
  const int k = 2 * n + static_cast<int>(pairs.size());
  Vec sum = Vec::Zero(k), sum2 = Vec::Zero(k), x(n), est(k);
  akm::Stream rng(20240611, 0, akm::Purpose::keys);
  for (int d = 0; d < draws; ++d) {
    for (int i = 0; i < n; ++i) x[i] = std::sqrt(lam[i]) * rng.normal();
    const double norm = x.norm();
    const Vec xh2 = (x / norm).array().square();
    est << xh2, norm * xh2, Vec::Zero(static_cast<Eigen::Index>(pairs.size()));
    for (std::size_t p = 0; p < pairs.size(); ++p)
      est[2 * n + p] = xh2[pairs[p].first] * xh2[pairs[p].second];
    sum += est;
    sum2 += est.array().square().matrix();
  }
  const Vec mean = sum / draws;
  const Vec se = ((sum2 / draws - mean.array().square().matrix()) / (draws - 1.0)).array().sqrt();
  Vec exact(k);
  exact << m.lambda_hat, m.kappa, Vec::Zero(static_cast<Eigen::Index>(pairs.size()));
  for (std::size_t p = 0; p < pairs.size(); ++p)
    exact[2 * n + p] = m.fourth(pairs[p].first, pairs[p].second);
  for (int c = 0; c < k; ++c)
    EXPECT_LT(std::abs(mean[c] - exact[c]), 5 * se[c])
        << "component " << c << " mc=" << mean[c] << " exact=" << exact[c] << " se=" << se[c];
}

TEST(Moments, LargePowerLawIsFast) {
  const auto s = akm::parse_spectrum("power:n=4096,exp=1");
  const auto t0 = std::chrono::steady_clock::now();
  const auto m = gaussian_key_moments(s.lambda);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(m.trace_error, 1e-12);
  EXPECT_TRUE((m.lambda_hat.array() > 0).all() && (m.kappa.array() > 0).all());
  RecordProperty("seconds", std::to_string(secs));
  RecordProperty("nodes", m.nodes);
  std::printf("n=4096 power-law: %.4f s, %d nodes, final step %g\n", secs, m.nodes, m.step);
}

TEST(Moments, RefusesBadInput) {
  EXPECT_THROW(gaussian_key_moments(Vec()), akm::InputError);
  EXPECT_THROW(gaussian_key_moments((Vec(2) << 1, 0).finished()), akm::InputError);
  EXPECT_THROW(gaussian_key_moments((Vec(2) << 1, -1).finished()), akm::InputError);
  EXPECT_THROW(gaussian_key_moments((Vec(2) << 1, std::nan("")).finished()), akm::InputError);
  EXPECT_THROW(gaussian_key_moments((Vec(2) << 1, INFINITY).finished()), akm::InputError);
  EXPECT_THROW(gaussian_key_moments(Vec::Ones(2), false, 0.0), akm::InputError);
}

}  // namespace
