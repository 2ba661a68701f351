// The quasi-static fixed point and the exact mean recursion (akm/theory/quasistatic.hpp)
// against independent computations: the eigenbasis form of eq:dm-eigen and a plain loop.
#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/theory/quasistatic.hpp"
#include "akm/theory/theory.hpp"
#include "random_mat.hpp"

namespace th = akm::theory;
using akm::Mat;
using akm::Vec;

namespace {
Mat random_spd(std::mt19937& gen, int n) {
  std::normal_distribution<double> z;
  Mat B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = z(gen);
  return B * B.transpose() / n + 0.1 * Mat::Identity(n, n);
}
using akm_test::random_mat;
}  // namespace

// eq:dm-eigen: M*u_i = φ_i Ĝu_i with φ_i = 1/(μ + λ_i).
TEST(QuasiStatic, FixedPointIsTheEigenbasisForm) {
  std::mt19937 gen(3);
  for (int rep = 0; rep < 50; ++rep) {
    const int n = 1 + rep % 6, m = 1 + rep % 3;
    const Mat S = random_spd(gen, n), G = random_mat(gen, m, n);
    const double beta = 0.9, eta = 0.05 + 0.01 * rep;
    const Eigen::SelfAdjointEigenSolver<Mat> es(S);
    const Mat M = th::quasi_static_fixed_point(G, S, beta, eta);
    for (int i = 0; i < n; ++i) {
      const Vec u = es.eigenvectors().col(i);
      const Vec expect = th::phi(th::mu(beta, eta), es.eigenvalues()[i]) * (G * u);
      EXPECT_LT((M * u - expect).norm(), 1e-10 * (1 + expect.norm())) << "rep " << rep << " i " << i;
    }
  }
}

TEST(QuasiStatic, FixedPointIsFixedByTheStep) {
  std::mt19937 gen(5);
  const Mat S = random_spd(gen, 4), G = random_mat(gen, 2, 4);
  const Mat M = th::quasi_static_fixed_point(G, S, 0.9, 0.2);
  EXPECT_LT((th::mean_buffer_step(M, G, S, 0.9, 0.2) - M).norm(), 1e-12);
}

// A constant schedule from M_0 = 0: along u_i the mean is the thm:fixedpoint transient.
TEST(QuasiStatic, ConstantScheduleIsTheTransient) {
  std::mt19937 gen(7);
  const int n = 3, T = 40;
  const Mat S = random_spd(gen, n), G = random_mat(gen, 1, n);
  const double beta = 0.9, eta = 0.3;
  const auto m = th::mean_buffer_trajectory(Mat::Zero(1, n), std::vector<Mat>(T, G), std::vector<Mat>(T, S),
                                            beta, eta);
  ASSERT_EQ(m.size(), static_cast<std::size_t>(T + 1));
  const Eigen::SelfAdjointEigenSolver<Mat> es(S);
  for (int t : {0, 1, 5, T})
    for (int i = 0; i < n; ++i) {
      const Vec u = es.eigenvectors().col(i);
      const double lam = es.eigenvalues()[i];
      const double target = th::phi(th::mu(beta, eta), lam) * (G * u)(0);
      EXPECT_NEAR((m[t] * u)(0), th::transient_mean(target, th::beta_tilde(beta, eta, lam), t), 1e-10);
    }
}

// A moving schedule: the trajectory equals a plain loop of M ← βM − ηMΣ̂_t + ηĜ_t written out
// entry by entry.
TEST(QuasiStatic, TrajectoryEqualsPlainLoop) {
  std::mt19937 gen(11);
  const int n = 3, m = 2, T = 25;
  std::vector<Mat> Gs, Ss;
  for (int t = 0; t < T; ++t) Gs.push_back(random_mat(gen, m, n)), Ss.push_back(random_spd(gen, n));
  const Mat M0 = random_mat(gen, m, n);
  const double beta = 0.8, eta = 0.1;
  const auto traj = th::mean_buffer_trajectory(M0, Gs, Ss, beta, eta);
  std::vector<std::vector<double>> M(m, std::vector<double>(n));
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c) M[r][c] = M0(r, c);
  for (int t = 0; t < T; ++t) {
    auto next = M;
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c) {
        double ms = 0;
        for (int k = 0; k < n; ++k) ms += M[r][k] * Ss[t](k, c);
        next[r][c] = beta * M[r][c] - eta * ms + eta * Gs[t](r, c);
      }
    M = next;
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c) EXPECT_NEAR(traj[t + 1](r, c), M[r][c], 1e-10 * (1 + std::abs(M[r][c])));
  }
}

TEST(QuasiStatic, MismatchedSchedulesAreRefused) {
  EXPECT_THROW(th::mean_buffer_trajectory(Mat::Zero(1, 2), std::vector<Mat>(3, Mat::Zero(1, 2)),
                                          std::vector<Mat>(2, Mat::Identity(2, 2)), 0.9, 0.1),
               akm::InputError);
}
