// keys — the key-law grammar and its refusals, the samplers' covariances, and the
// normalized-key moments (exact forms against Monte Carlo, fast Monte Carlo against its
// plain reference).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "akm/check/check.hpp"
#include "akm/base/errors.hpp"
#include "akm/sim/key_law_moments.hpp"
#include "akm/spectrum/keys.hpp"
#include "akm/spectrum/moments.hpp"

namespace {

using akm::InputError;
using akm::KeySampler;
using akm::Mat;
using akm::parse_key_law;
using akm::Vec;

// z for a test's family of comparisons at a 1e-6 false-alarm rate (Bonferroni).
double z_for(long long comparisons) { return akm::z_two_sided(1e-6 / static_cast<double>(comparisons)); }

Vec test_lambda() {
  Vec l(5);
  l << 9.0, 4.0, 1.0, 0.5, 0.25;
  return l;
}

// Throws InputError whose message names `param` and contains `needle`.
void expect_refused(const std::string& spec, const std::string& param, const std::string& needle) {
  try {
    parse_key_law(spec);
    ADD_FAILURE() << "accepted: " << spec;
  } catch (const InputError& e) {
    EXPECT_EQ(e.param(), param) << spec << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << spec << ": " << e.what();
  }
}

TEST(KeyLaw, ParsesAndNormalizes) {
  EXPECT_EQ(parse_key_law("gaussian").spec, "gaussian");
  EXPECT_EQ(parse_key_law(" rademacher ").kind, "rademacher");
  const auto t = parse_key_law("student:nu=3");
  EXPECT_EQ(t.kind, "student");
  EXPECT_EQ(t.nu, 3.0);
  EXPECT_EQ(t.spec, "student:nu=3");
  const auto m = parse_key_law("mixture:weights=0.25/0.75,scales=1/100");
  EXPECT_EQ(m.weights, (std::vector<double>{0.25, 0.75}));
  EXPECT_EQ(m.scales, (std::vector<double>{1.0, 100.0}));
  EXPECT_EQ(m.bases, (std::vector<std::string>{"identity", "identity"}));
  EXPECT_EQ(m.spec, "mixture:weights=0.25/0.75,scales=1/100,bases=identity/identity");
  const auto r = parse_key_law("mixture:scales=1/10/100,bases=identity/reverse/random,weights=0.2/0.3/0.5");
  EXPECT_EQ(r.bases, (std::vector<std::string>{"identity", "reverse", "random"}));
  EXPECT_EQ(parse_key_law(r.spec).spec, r.spec);  // the normalized form parses to itself
}

TEST(KeyLaw, RefusesBadSpecs) {
  expect_refused("", "keys", "gaussian");
  expect_refused("cauchy", "keys kind", "gaussian, rademacher, student, mixture");
  expect_refused("gaussian:nu=3", "keys.nu", "takes no keys");
  expect_refused("student", "keys.nu", "(missing)");
  expect_refused("student:nu=2", "keys.nu", "> 2 (finite variance");
  expect_refused("student:nu=1.5", "keys.nu", "> 2 (finite variance");
  expect_refused("student:nu=inf", "keys.nu", "finite");
  expect_refused("student:nu=nan", "keys.nu", "> 2");
  expect_refused("student:nu=3x", "keys.nu", "must be a number");
  expect_refused("student:nu=3,nu=4", "keys.nu", "more than once");
  expect_refused("student:3", "keys", "key=value");
  expect_refused("mixture:scales=1/2", "keys.weights", "(missing)");
  expect_refused("mixture:weights=0.5/0.4,scales=1/2", "keys.weights", "sum to 1");
  expect_refused("mixture:weights=1.5/-0.5,scales=1/2", "keys.weights", "> 0");
  expect_refused("mixture:weights=0/1,scales=1/2", "keys.weights", "> 0");
  expect_refused("mixture:weights=0.5/0.5", "keys.scales", "(missing)");
  expect_refused("mixture:weights=0.5/0.5,scales=1", "keys.scales", "one scale > 0 per component");
  expect_refused("mixture:weights=0.5/0.5,scales=1/0", "keys.scales", "> 0");
  expect_refused("mixture:weights=0.5/0.5,scales=1/inf", "keys.scales", "finite");
  expect_refused("mixture:weights=0.5/0.5,scales=1/2,bases=identity", "keys.bases", "one basis per component");
  expect_refused("mixture:weights=0.5/0.5,scales=1/2,bases=identity/diag", "keys.bases",
                 "identity, reverse or random");
  expect_refused("mixture:weights=0.5/0.5,scales=1/2,shift=3", "keys.shift", "valid keys");
}

TEST(KeySampler, RefusesBadEigenvalues) {
  const auto g = parse_key_law("gaussian");
  EXPECT_THROW(KeySampler(g, Vec()), InputError);
  Vec bad = test_lambda();
  bad[2] = -1.0;
  EXPECT_THROW(KeySampler(g, bad), InputError);
  bad[2] = std::nan("");
  EXPECT_THROW(KeySampler(g, bad), InputError);
}

// Sample E[xxᵀ] entry by entry with its standard error against the exact covariance.
void expect_covariance(const KeySampler& law, long long N, bool diagonal_entries, std::uint64_t seed) {
  const int n = law.n();
  Mat sum = Mat::Zero(n, n), sq = Mat::Zero(n, n);
  akm::Stream s(seed, 0);
  Vec x(n), w(n);
  for (long long t = 0; t < N; ++t) {
    law.draw(s, x, w);
    const Mat p = x * x.transpose();
    sum += p;
    sq += p.cwiseAbs2();
  }
  const Mat mean = sum / static_cast<double>(N);
  const Mat se = ((sq / static_cast<double>(N) - mean.cwiseAbs2()).cwiseMax(0.0) / static_cast<double>(N - 1)).cwiseSqrt();
  const Mat c = law.covariance();
  const double z = z_for(static_cast<long long>(n) * (n + 1) / 2);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      if (i == j && !diagonal_entries) continue;
      // Rademacher's diagonal is exact per sample (x_i² = λ_i): rounding only.
      EXPECT_LE(std::abs(mean(i, j) - c(i, j)), z * se(i, j) + 1e-12 * std::abs(c(i, j)))
          << law.law().spec << " entry (" << i << "," << j << ") mean " << mean(i, j) << " want " << c(i, j);
    }
}

TEST(KeySampler, CovarianceIsDiagLambda) {
  const Vec l = test_lambda();
  for (const char* spec : {"gaussian", "rademacher", "student:nu=5"}) {
    const KeySampler law(parse_key_law(spec), l);
    EXPECT_TRUE(law.covariance().isApprox(Mat(l.asDiagonal()), 0.0));
    expect_covariance(law, 200000, true, 11);
  }
  // ν = 3: E x⁴ = ∞, so the diagonal's sample variance does not estimate its error; the
  // off-diagonal products x_i x_j (i ≠ j) have finite variance λ_iλ_j.
  expect_covariance(KeySampler(parse_key_law("student:nu=3"), l), 200000, false, 12);
}

TEST(KeySampler, MixtureCovariance) {
  const Vec l = test_lambda();
  const KeySampler law(parse_key_law("mixture:weights=0.3/0.3/0.4,scales=1/3/0.5,bases=identity/reverse/random"),
                       l, 99);
  EXPECT_FALSE(law.diagonal());
  Mat want = Mat::Zero(5, 5);
  for (int k = 0; k < 3; ++k) {
    const Mat& B = law.basis(k);
    EXPECT_TRUE((B.transpose() * B).isIdentity(1e-12));
    const double w = std::vector<double>{0.3, 0.3, 0.4}[k], s = std::vector<double>{1, 3, 0.5}[k];
    want += w * s * s * B * l.asDiagonal() * B.transpose();
  }
  EXPECT_TRUE(law.covariance().isApprox(want, 1e-14));
  expect_covariance(law, 200000, true, 13);
  // The reverse basis puts λ_1 on the last coordinate.
  EXPECT_EQ(law.basis(1)(4, 0), 1.0);
}

TEST(KeySampler, SameStreamSameKeys) {
  const KeySampler law(parse_key_law("student:nu=3.5"), test_lambda());
  akm::Stream a(5, 7), b(5, 7);
  Vec x(5), y(5), w(5);
  for (int t = 0; t < 50; ++t) {
    law.draw(a, x, w);
    law.draw(b, y, w);
    EXPECT_EQ(x, y);
  }
}

TEST(KeySampler, FourthMomentOfTheNorm) {
  const Vec l = test_lambda();
  for (const char* spec : {"gaussian", "rademacher", "student:nu=9", "mixture:weights=0.5/0.5,scales=1/2,bases=identity/random"}) {
    const KeySampler law(parse_key_law(spec), l, 3);
    akm::Stream s(17, 0);
    Vec x(5), w(5);
    const long long N = 200000;
    double sum = 0, sq = 0;
    for (long long t = 0; t < N; ++t) {
      law.draw(s, x, w);
      const double q = x.squaredNorm() * x.squaredNorm();
      sum += q, sq += q * q;
    }
    const double mean = sum / N, se = std::sqrt((sq / N - mean * mean) / (N - 1));
    EXPECT_LE(std::abs(mean - law.fourth_moment_norm()), z_for(4) * se) << spec;
  }
  EXPECT_TRUE(std::isinf(KeySampler(parse_key_law("student:nu=4"), l).fourth_moment_norm()));
  EXPECT_FALSE(KeySampler(parse_key_law("student:nu=3"), l).finite_fourth_moment());
}

// Monte-Carlo Σ̂ and K against an exact form, entry by entry within standard errors.
void expect_moments_agree(const akm::KeyLawMoments& mc, const akm::KeyLawMoments& exact, const std::string& what) {
  const int n = static_cast<int>(mc.sigma_hat.rows());
  const double z = z_for(static_cast<long long>(n) * (n + 1));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      if (mc.sigma_hat_se(i, j) == 0.0) {  // not estimated: diagonal law, off-diagonal entry
        EXPECT_EQ(exact.sigma_hat(i, j), 0.0) << what;
        continue;
      }
      EXPECT_LE(std::abs(mc.sigma_hat(i, j) - exact.sigma_hat(i, j)), z * mc.sigma_hat_se(i, j))
          << what << " Σ̂(" << i << "," << j << ")";
      EXPECT_LE(std::abs(mc.K(i, j) - exact.K(i, j)), z * mc.K_se(i, j)) << what << " K(" << i << "," << j << ")";
    }
}

TEST(KeyMoments, GaussianMonteCarloMatchesQuadrature) {
  const KeySampler law(parse_key_law("gaussian"), test_lambda());
  const auto exact = akm::exact_key_moments(law);
  const auto q = akm::gaussian_key_moments(test_lambda());
  EXPECT_EQ(exact.method, "quadrature");
  EXPECT_TRUE(exact.lambda_hat().isApprox(q.lambda_hat, 0.0));
  EXPECT_TRUE(exact.kappa().isApprox(q.kappa, 0.0));
  const auto mc = akm::key_moments_mc(law, 400000, 21);
  EXPECT_EQ(mc.samples, 400000);
  expect_moments_agree(mc, exact, "gaussian");
}

TEST(KeyMoments, RademacherClosedForm) {
  const Vec l = test_lambda();
  const KeySampler law(parse_key_law("rademacher"), l);
  const auto exact = akm::key_law_moments(law, 0, 0);
  EXPECT_TRUE(exact.exact);
  EXPECT_NEAR(exact.lambda_hat().sum(), 1.0, 1e-15);
  EXPECT_NEAR(exact.kappa()[0], 9.0 / std::sqrt(l.sum()), 1e-15);
  // Every sample has ‖x‖² = Σλ, so Σ̂ is exact in every batch: the estimate equals the closed
  // form to rounding and its standard error is rounding noise.
  const auto mc = akm::key_moments_mc(law, 20000, 22);
  EXPECT_TRUE(mc.sigma_hat.isApprox(exact.sigma_hat, 1e-13));
  EXPECT_TRUE(mc.K.isApprox(exact.K, 1e-13));
}

TEST(KeyMoments, MixtureIsWeightedSumOfComponents) {
  const Vec l = test_lambda();
  const KeySampler law(parse_key_law("mixture:weights=0.3/0.3/0.4,scales=1/100/0.01,bases=identity/reverse/random"),
                       l, 5);
  const auto exact = akm::exact_key_moments(law);
  EXPECT_NEAR(exact.sigma_hat.trace(), 1.0, 1e-12);
  const auto mc = akm::key_moments_mc(law, 400000, 23);
  EXPECT_NEAR(mc.sigma_hat.trace(), 1.0, 1e-12);
  expect_moments_agree(mc, exact, "mixture");
  // A diagonal mixture (permutation bases) is estimated on the diagonal only.
  const KeySampler diag(parse_key_law("mixture:weights=0.5/0.5,scales=1/100,bases=identity/reverse"), l);
  EXPECT_TRUE(diag.diagonal());
  expect_moments_agree(akm::key_moments_mc(diag, 200000, 24), akm::exact_key_moments(diag), "diagonal mixture");
}

TEST(KeyMoments, StudentHasNoClosedFormAndUnitTrace) {
  const KeySampler law(parse_key_law("student:nu=3"), test_lambda());
  EXPECT_THROW(akm::exact_key_moments(law), std::logic_error);
  const auto m = akm::key_law_moments(law, 100000, 25);
  EXPECT_FALSE(m.exact);
  EXPECT_EQ(m.method, "monte carlo");
  EXPECT_NEAR(m.sigma_hat.trace(), 1.0, 1e-12);  // every x̂x̂ᵀ has trace 1 [prop:bounded-sigma-hat]
  EXPECT_TRUE((m.lambda_hat_se().array() > 0).all());
  EXPECT_TRUE((m.lambda_hat().array() >= 0).all() && (m.lambda_hat().array() <= 1).all());
}

// Q_ij = E[x̂_i²x̂_j²] by Monte Carlo against the exact forms (quadrature, closed form,
// permutation mixture).
TEST(KeyMoments, FourthMomentsMatchExactForms) {
  const Vec l = test_lambda();
  for (const char* spec : {"gaussian", "mixture:weights=0.5/0.5,scales=1/100,bases=identity/reverse"}) {
    const KeySampler law(parse_key_law(spec), l);
    const auto ex = akm::exact_key_moments(law, true);
    const auto mc = akm::key_moments_mc(law, 400000, 41, 0, true);
    ASSERT_EQ(mc.fourth.rows(), 5);
    EXPECT_NEAR(ex.fourth.sum(), 1.0, 1e-12) << spec;  // Σ_ij x̂_i²x̂_j² = ‖x̂‖⁴ = 1
    EXPECT_NEAR(mc.fourth.sum(), 1.0, 1e-12) << spec;
    const double z = z_for(15);
    for (int j = 0; j < 5; ++j)
      for (int i = 0; i <= j; ++i)
        EXPECT_LE(std::abs(mc.fourth(i, j) - ex.fourth(i, j)), z * mc.fourth_se(i, j)) << spec << " Q(" << i << "," << j << ")";
  }
  const KeySampler rad(parse_key_law("rademacher"), l);
  EXPECT_TRUE(akm::key_moments_mc(rad, 5000, 42, 0, true).fourth.isApprox(akm::exact_key_moments(rad, true).fourth, 1e-13));
  const KeySampler rot(parse_key_law("mixture:weights=0.5/0.5,scales=1/2,bases=identity/random"), l, 1);
  EXPECT_THROW(akm::exact_key_moments(rot, true), std::logic_error);
  EXPECT_THROW(akm::key_moments_mc(rot, 5000, 1, 0, true), std::logic_error);
  EXPECT_TRUE(akm::key_moments_mc(rad, 5000, 42).fourth.size() == 0);  // not requested
}

TEST(KeyMoments, FastMonteCarloMatchesReference) {
  {
    const KeySampler law(parse_key_law("student:nu=3"), test_lambda());
    const auto ref = akm::key_moments_mc_reference(law, 5000, 32, true);
    const auto fast = akm::key_moments_mc(law, 5000, 32, 2, true);
    EXPECT_TRUE(fast.fourth.isApprox(ref.fourth, 1e-12));
    EXPECT_TRUE(fast.fourth_se.isApprox(ref.fourth_se, 1e-9));
  }
  for (const char* spec : {"student:nu=4.5", "mixture:weights=0.5/0.5,scales=1/10,bases=identity/random"}) {
    const KeySampler law(parse_key_law(spec), test_lambda(), 8);
    const auto ref = akm::key_moments_mc_reference(law, 5000, 31);
    for (int threads : {1, 3}) {
      const auto fast = akm::key_moments_mc(law, 5000, 31, threads);
      EXPECT_EQ(fast.samples, ref.samples);
      EXPECT_TRUE(fast.sigma_hat.isApprox(ref.sigma_hat, 1e-12)) << spec;
      EXPECT_TRUE(fast.K.isApprox(ref.K, 1e-12)) << spec;
      EXPECT_TRUE(fast.sigma_hat_se.isApprox(ref.sigma_hat_se, 1e-9)) << spec;
      EXPECT_TRUE(fast.K_se.isApprox(ref.K_se, 1e-9)) << spec;
    }
    // Any thread count gives the same numbers (deterministic chunked reduction).
    EXPECT_EQ(akm::key_moments_mc(law, 5000, 31, 1).sigma_hat, akm::key_moments_mc(law, 5000, 31, 4).sigma_hat);
  }
  EXPECT_THROW(akm::key_moments_mc(KeySampler(parse_key_law("gaussian"), test_lambda()), 10, 1), InputError);
}

}  // namespace
