// The direction table of akm::theory (theory/direction_table.hpp, what `akm theory` prints)
// against independent computations: weighted means, per-direction rates, the underdamped flag
// and band, the JSON contract, and the refusals.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <random>

#include "akm/base/errors.hpp"
#include "akm/theory/direction_table.hpp"
#include "akm/theory/theory.hpp"
#include "theory_fixture.hpp"

namespace {

using akm::Key;
using akm::Mat2;
using akm::Mat;
using akm::Vec;
namespace th = akm::theory;
using namespace akm_test::theory;

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
