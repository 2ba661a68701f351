// log_sensitivity (experiments/sensitivity.hpp) against hand-derived derivatives of β̃^k and τ.
#include <gtest/gtest.h>

#include <cmath>

#include "../experiments/sensitivity.hpp"
#include "akm/base/linalg.hpp"
#include "akm/theory/theory.hpp"

namespace {

// Central differences with h = 1e-4 carry a relative truncation error ~h²/6 times the ratio of
// the third to the first log-derivative (≤ ~400 here, e.g. (βτ)² for τ = 1/(1−β̃)): 1e-6 covers it.
double tol(double v) { return 1e-6 * std::abs(v) + 1e-12; }

TEST(Sensitivity, CentralDifferencesMatchTheAnalyticLogDerivativesOfTheTransport) {
  const double beta = 0.9, eta = 0.5, lam = 0.3;
  const int k = 7;
  const auto d = akm::exp::log_sensitivity(
      [&](double e, double b, double s) { return std::pow(akm::theory::beta_tilde(b, e, s * lam), k); }, eta,
      beta);
  const double bt = beta - eta * lam, common = k * std::pow(bt, k - 1);
  EXPECT_NEAR(d.eta, common * (-eta * lam), tol(common * eta * lam));     // ∂/∂ln η = k β̃^{k−1} · (−ηλ)
  EXPECT_NEAR(d.beta, common * beta, tol(common * beta));            // ∂/∂ln β = k β̃^{k−1} · β
  EXPECT_NEAR(d.lambda, common * (-eta * lam), tol(common * eta * lam));  // ∂/∂ln λ = ∂/∂ln η here
}

TEST(Sensitivity, WorksOnMatricesEntryByEntryAndGivesZeroWhereNothingDepends) {
  const double beta = 0.9, eta = 0.5;
  akm::Vec lam(2);
  lam << 0.1, 0.4;
  const auto d = akm::exp::log_sensitivity(
      [&](double e, double b, double s) {
        akm::Mat out(1, 2);
        for (int i = 0; i < 2; ++i) out(0, i) = akm::theory::horizon(akm::theory::beta_tilde(b, e, s * lam[i]));
        return out;
      },
      eta, beta);
  for (int i = 0; i < 2; ++i) {
    const double tau = 1.0 / (1.0 - beta + eta * lam[i]);
    EXPECT_NEAR(d.eta(0, i), -tau * tau * eta * lam[i], tol(tau * tau * eta * lam[i]));  // τ = 1/(1−β+ηλ)
    EXPECT_NEAR(d.beta(0, i), tau * tau * beta, tol(tau * tau * beta));
  }
  const auto flat = akm::exp::log_sensitivity([](double, double b, double) { return b; }, eta, beta);
  EXPECT_NEAR(flat.eta, 0.0, 1e-12);
  EXPECT_NEAR(flat.lambda, 0.0, 1e-12);
  EXPECT_NEAR(flat.beta, beta, tol(beta));
}

}  // namespace
