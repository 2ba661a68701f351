// The closed-form fourth-moment step of E1 (akm/spectrum/fourth_moment.hpp) against its plain
// reference: exact Gauss–Hermite quadrature of E[(v_k u_a)²(v_k u_b)²] over every key of
// every step. v_k is a polynomial of degree ≤ 2 per step in each key coordinate, so
// (v u_a)²(v u_b)² has degree ≤ 8 per coordinate and 5 nodes (exact to degree 9) suffice.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "akm/spectrum/fourth_moment.hpp"
#include "akm/theory/phase.hpp"

namespace akm {
namespace {

/// Nodes and weights of the m-point rule for the standard normal law (Golub–Welsch on
/// the probabilists' Hermite recurrence).
std::pair<Vec, Vec> gauss_hermite(int m) {
  Mat J = Mat::Zero(m, m);
  for (int k = 1; k < m; ++k) J(k, k - 1) = J(k - 1, k) = std::sqrt(static_cast<double>(k));
  Eigen::SelfAdjointEigenSolver<Mat> es(J);
  Vec w = es.eigenvectors().row(0).transpose().array().square();
  return {es.eigenvalues(), w};
}

/// F after K steps from v_0 = e_iᵀ, by summing over every node tuple of K keys.
Mat quadrature_fourth(const Vec& lambda, double beta, double eta, int i, int K) {
  const int n = static_cast<int>(lambda.size()), m = 5;
  const auto [z, w] = gauss_hermite(m);
  long long tuples = 1;
  for (int d = 0; d < n * K; ++d) tuples *= m;
  Mat F = Mat::Zero(n, n);
  std::vector<int> idx(static_cast<std::size_t>(n * K));
  for (long long t = 0; t < tuples; ++t) {
    long long r = t;
    double weight = 1;
    for (auto& d : idx) d = static_cast<int>(r % m), r /= m, weight *= w[d];
    Vec v = Vec::Unit(n, i), x(n);
    for (int k = 0; k < K; ++k) {
      for (int j = 0; j < n; ++j) x[j] = std::sqrt(lambda[j]) * z[idx[static_cast<std::size_t>(k * n + j)]];
      v = beta * v - eta * v.dot(x) * x;  // v ← v(βI − ηxxᵀ)
    }
    const Vec v2 = v.array().square();
    F += weight * v2 * v2.transpose();
  }
  return F;
}

TEST(FourthMoment, StepMatchesExactQuadrature) {
  const Vec lambda = (Vec(3) << 2.0, 0.7, 0.3).finished();
  for (int i = 0; i < 3; ++i) {
    Mat F = Mat::Zero(3, 3);
    F(i, i) = 1;
    for (int K = 1; K <= 3; ++K) {
      F = fourth::step_raw(lambda, 0.8, 0.3, F);
      const Mat ref = quadrature_fourth(lambda, 0.8, 0.3, i, K);
      // Rounding only: the reference sums 5^{3K} nonnegative terms (relative error ≤ N·ε
      // for naive summation) whose nodes carry the eigensolver's few-ε error through a
      // degree-8 polynomial; 4N + 1000 ulps covers both.
      const double terms = std::pow(5.0, 3 * K), eps = std::numeric_limits<double>::epsilon();
      EXPECT_LT((F - ref).cwiseAbs().maxCoeff(), (4 * terms + 1000) * eps * ref.cwiseAbs().maxCoeff())
          << "i=" << i << " K=" << K;
    }
  }
}

TEST(FourthMoment, DiagonalSequenceFollowsTheStep) {
  const Vec lambda = (Vec(4) << 5.0, 1.0, 1.0, 0.2).finished();
  const auto d = fourth::diagonal_fourth_raw(lambda, 0.9, 0.05, 1, 6);
  Mat F = Mat::Zero(4, 4);
  F(1, 1) = 1;
  for (int k = 0; k < 6; ++k) {
    F = fourth::step_raw(lambda, 0.9, 0.05, F);
    EXPECT_DOUBLE_EQ(d[static_cast<std::size_t>(k)], F(1, 1));
  }
  // Jensen per step: E[P⁴] ≥ (E[P²])², with E[P²] from the second-moment map S^k.
  const Mat S = phase::ms_matrix_raw(lambda, 0.9, 0.05);
  Vec s = Vec::Unit(4, 1);
  for (int k = 0; k < 6; ++k) {
    s = S * s;
    EXPECT_GE(d[static_cast<std::size_t>(k)], s[1] * s[1]);
  }
}

TEST(FourthMoment, NoKeyStepIsBetaToTheFourth) {
  const Vec lambda = (Vec(3) << 1.0, 2.0, 3.0).finished();
  const Mat F = (Mat(3, 3) << 1, 0.2, 0.3, 0.2, 2, 0.1, 0.3, 0.1, 3).finished();
  EXPECT_LT((fourth::step_raw(lambda, 0.7, 0.0, F) - std::pow(0.7, 4) * F).cwiseAbs().maxCoeff(), 1e-15);
}

}  // namespace
}  // namespace akm
