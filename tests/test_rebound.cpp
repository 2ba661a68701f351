// The rebound term of eq:rebound (akm/theory/rebound.hpp) against a plain computation: the
// change of the population gradient (W − A)Σ of the quadratic task, Σ a dense matrix.
#include <random>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/theory/rebound.hpp"
#include "random_mat.hpp"

namespace th = akm::theory;
using akm::Mat;
using akm::Vec;

using akm_test::random_mat;

TEST(Rebound, EqualsTheGradientChangeOfTheQuadraticLoss) {
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> lam_of(0.1, 50.0);
  for (int rep = 0; rep < 50; ++rep) {
    const int r = 1 + rep % 4, c = 2 + rep % 7;
    Vec lambda(c);
    for (int j = 0; j < c; ++j) lambda[j] = lam_of(gen);
    Mat Sigma = Mat::Zero(c, c);
    for (int j = 0; j < c; ++j) Sigma(j, j) = lambda[j];
    const Mat A = random_mat(gen, r, c), W0 = random_mat(gen, r, c), M = random_mat(gen, r, c);
    const Mat step = random_mat(gen, r, c);
    const Mat W1 = W0 + step;
    // ⟨M, ∇L(θ_t)⟩ − ⟨M, ∇L(θ_{t−1})⟩ = −R on the quadratic loss (Taylor exact).
    double before = 0, after = 0;
    const Mat g0 = (W0 - A) * Sigma, g1 = (W1 - A) * Sigma;
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) before += M(i, j) * g0(i, j), after += M(i, j) * g1(i, j);
    const double R = th::rebound_term(M, step, lambda);
    EXPECT_NEAR(after - before, -R, 1e-9 * (1 + std::abs(R)));
  }
}

TEST(Rebound, NonNegativeForAPreconditionedDescentStep) {
  // Δθ = −α P⊙M with P > 0 elementwise (SGD: P = 1; Adam: 1/(√V+ε)) gives R ≥ 0, and for
  // SGD R = α tr(MΣMᵀ) = α⟨M, HM⟩.
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> pos(0.01, 10.0);
  for (int rep = 0; rep < 50; ++rep) {
    const int r = 1 + rep % 3, c = 3 + rep % 5;
    Vec lambda(c);
    for (int j = 0; j < c; ++j) lambda[j] = pos(gen);
    const Mat M = random_mat(gen, r, c);
    Mat P(r, c);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) P(i, j) = pos(gen);
    const double alpha = 0.03;
    EXPECT_GE(th::rebound_term(M, -alpha * P.cwiseProduct(M), lambda), 0.0);
    const double sgd = th::rebound_term(M, -alpha * M, lambda);
    const double trace = alpha * (M * lambda.asDiagonal() * M.transpose()).trace();
    EXPECT_NEAR(sgd, trace, 1e-12 * trace);
  }
  // An ascent step gives a negative term: the sign is the step's, not the formula's.
  Vec lambda = Vec::Ones(2);
  Mat M(1, 2);
  M << 1.0, -2.0;
  EXPECT_LT(th::rebound_term(M, 0.1 * M, lambda), 0.0);
}

TEST(Rebound, RefusesMismatchedShapes) {
  const Mat M = Mat::Ones(2, 3);
  EXPECT_THROW(th::rebound_term(M, Mat::Ones(3, 2), Vec::Ones(3)), akm::InputError);
  EXPECT_THROW(th::rebound_term(M, Mat::Ones(2, 3), Vec::Ones(2)), akm::InputError);
}
