// The momentum buffers of akm::rules against hand-written formulas, the two contraction
// orders of the deployed rule against each other, and the transport expansion against the
// recursion (checked by T3, T14 and T15, docs/claims.md).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "akm/rules/rules.hpp"

namespace {

using akm::Key;
using akm::Mat;
using akm::Vec;
namespace rules = akm::rules;

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : eng_(seed) {}
  Mat mat(int r, int c) {
    Mat a(r, c);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) a(i, j) = normal_(eng_);
    return a;
  }
  Vec vec(int n) { return mat(n, 1).col(0); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(eng_); }

 private:
  std::mt19937_64 eng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

double rel_diff(const Mat& a, const Mat& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

TEST(Rules, EmaMatchesElementwiseFormula) {
  Rng rng(1);
  const Mat M0 = rng.mat(3, 4);
  const Vec d = rng.vec(3), x = rng.vec(4);
  Mat M = M0;
  rules::ema(M, d, x, 0.9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(M(i, j), 0.9 * M0(i, j) + 0.1 * d(i) * x(j), 1e-14);
}

/// M_ij ← βM_ij + η(δ_i − Σ_k M_ik x_k) x_j, written out by loops [eq:dm-update].
Mat ak_by_loops(const Mat& M0, const Vec& d, const Vec& x, double beta, double eta) {
  Mat M(M0.rows(), M0.cols());
  for (int i = 0; i < M0.rows(); ++i) {
    double mx = 0.0;
    for (int k = 0; k < M0.cols(); ++k) mx += M0(i, k) * x(k);
    for (int j = 0; j < M0.cols(); ++j) M(i, j) = beta * M0(i, j) + eta * (d(i) - mx) * x(j);
  }
  return M;
}

TEST(Rules, AkRawNormalizedPureDeltaHebbianMatchLoops) {
  Rng rng(2);
  const Mat M0 = rng.mat(4, 6);
  const Vec d = rng.vec(4), x = 3.0 * rng.vec(6);
  Mat raw = M0, nz = M0, pd = M0, hb = M0, via_key = M0;
  rules::ak_raw(raw, d, x, 0.9, 0.05);
  EXPECT_LT(rel_diff(raw, ak_by_loops(M0, d, x, 0.9, 0.05)), 1e-14);
  rules::ak_normalized(nz, d, x, 0.9, 0.4);
  EXPECT_LT(rel_diff(nz, ak_by_loops(M0, d, x / x.norm(), 0.9, 0.4)), 1e-14);
  rules::ak(via_key, d, x, 0.9, 0.4, Key::normalized);
  EXPECT_EQ(via_key, nz);
  via_key = M0;
  rules::ak(via_key, d, x, 0.9, 0.05, Key::raw);
  EXPECT_EQ(via_key, raw);
  rules::pure_delta(pd, d, x, 0.05);  // [eq:delta-rule]: β = 1
  EXPECT_LT(rel_diff(pd, ak_by_loops(M0, d, x, 1.0, 0.05)), 1e-14);
  rules::hebbian(hb, d, x);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(hb(i, j), M0(i, j) + d(i) * x(j), 1e-14);
}

TEST(Rules, NormalizedKeyIsScaleInvariant) {
  // [prop:bounded-sigma-hat] x̂ does not see the input scale.
  Rng rng(3);
  const Mat M0 = rng.mat(2, 5);
  const Vec d = rng.vec(2), x = rng.vec(5);
  Mat a = M0, b = M0;
  rules::ak_normalized(a, d, x, 0.9, 0.4);
  rules::ak_normalized(b, d, 1e3 * x, 0.9, 0.4);
  EXPECT_LT(rel_diff(a, b), 1e-14);
}

TEST(Rules, ZeroKeyIsRefused) {
  Mat M = Mat::Zero(2, 3);
  const Vec d = Vec::Ones(2), zero = Vec::Zero(3);
  EXPECT_THROW(rules::ak_normalized(M, d, zero, 0.9, 0.4), std::invalid_argument);
  EXPECT_THROW(rules::ak(M, d, zero, 0.9, 0.4, Key::normalized), std::invalid_argument);
  EXPECT_TRUE(M.allFinite());
  Mat X = Mat::Ones(3, 3);
  X.row(1).setZero();
  EXPECT_THROW(rules::normalize_rows(X), std::invalid_argument);
  akm::AkSgd opt(2, 3, 0.1, 0.9, 0.4, Key::normalized);
  Mat W = Mat::Ones(2, 3);
  EXPECT_THROW(opt.step(W, d, zero), std::invalid_argument);
  // The raw key accepts a zero key: the update is then a pure decay.
  rules::ak_raw(M, d, zero, 0.9, 0.4);
  EXPECT_TRUE(M.isZero());
}

TEST(Rules, ShapeMismatchIsRefused) {
  Mat M = Mat::Zero(2, 3);
  EXPECT_THROW(rules::ema(M, Vec::Ones(3), Vec::Ones(3), 0.9), std::invalid_argument);
  EXPECT_THROW(rules::ak_raw(M, Vec::Ones(2), Vec::Ones(4), 0.9, 0.1), std::invalid_argument);
  EXPECT_THROW(rules::deployed(M, Mat::Ones(4, 2), Mat::Ones(5, 3), 0.9, 0.1, rules::Order::gram),
               std::invalid_argument);
  EXPECT_THROW(rules::deployed(M, Mat::Ones(0, 2), Mat::Ones(0, 3), 0.9, 0.1, rules::Order::gram),
               std::invalid_argument);
}

TEST(Rules, NormalizeRowsGivesUnitRowsAlongTheSameDirection) {
  Rng rng(4);
  const Mat X = rng.mat(7, 5);
  const Mat Xh = rules::normalize_rows(X);
  for (int r = 0; r < 7; ++r) {
    EXPECT_NEAR(Xh.row(r).norm(), 1.0, 1e-14);
    EXPECT_LT(rel_diff(Xh.row(r) * X.row(r).norm(), X.row(r)), 1e-14);
  }
}

TEST(Rules, DispatchRule) {
  // [eq:dispatch] Gram iff n < 2m, i.e. iff its leading cost 2n²N beats 4mnN.
  EXPECT_EQ(rules::dispatch(3, 2), rules::Order::gram);
  EXPECT_EQ(rules::dispatch(4, 2), rules::Order::through_n);  // tie goes through N
  EXPECT_EQ(rules::dispatch(5, 2), rules::Order::through_n);
  EXPECT_EQ(rules::dispatch(1024, 1024), rules::Order::gram);
  EXPECT_EQ(rules::dispatch(2731, 1024), rules::Order::through_n);  // W_down at γ = 8/3
  for (int n = 1; n <= 40; ++n) {
    for (int m = 1; m <= 40; ++m) {
      const long long gram = 2LL * n * n, through = 4LL * m * n;  // per unit N
      EXPECT_EQ(rules::dispatch(n, m) == rules::Order::gram, gram < through) << n << " " << m;
    }
  }
}

TEST(Rules, DeployedGramAndThroughNOrdersAgree) {
  // [eq:dispatch, T15] both contraction orders give the same update to relative 1e-12.
  Rng rng(5);
  int gram_side = 0, through_side = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int m = rng.integer(1, 24), n = rng.integer(1, 60), N = rng.integer(1, 80);
    (n < 2 * m ? gram_side : through_side)++;
    const Mat M0 = rng.mat(m, n), Delta = rng.mat(N, m);
    const Mat Xh = rules::normalize_rows(rng.mat(N, n));
    Mat a = M0, b = M0;
    rules::deployed(a, Delta, Xh, 0.95, 0.4, rules::Order::gram);
    rules::deployed(b, Delta, Xh, 0.95, 0.4, rules::Order::through_n);
    EXPECT_LT(rel_diff(a, b), 1e-12) << m << "x" << n << " N=" << N;
    // And against the formula written out: βM + η(ΔᵀX̂/N − M X̂ᵀX̂/N).
    const Mat ref = 0.95 * M0 + 0.4 * (Delta.transpose() * Xh - M0 * Xh.transpose() * Xh) / N;
    EXPECT_LT(rel_diff(a, ref), 1e-12);
  }
  EXPECT_GT(gram_side, 5);
  EXPECT_GT(through_side, 5);
}

TEST(Rules, DeployedWithOneSampleIsThePerSampleNormalizedRule) {
  Rng rng(6);
  const Mat M0 = rng.mat(3, 7);
  const Vec d = rng.vec(3), x = rng.vec(7);
  Mat per_sample = M0;
  rules::ak_normalized(per_sample, d, x, 0.9, 0.4);
  for (auto order : {rules::Order::gram, rules::Order::through_n}) {
    Mat batch = M0;
    rules::deployed(batch, d.transpose(), rules::normalize_rows(x.transpose()), 0.9, 0.4, order);
    EXPECT_LT(rel_diff(batch, per_sample), 1e-13);
  }
}

TEST(Rules, TransportExpansionEqualsRecursion) {
  // [eq:transport-expansion] M_t = η Σ_ℓ δ_ℓ x_ℓᵀ P_{ℓ→t}, P_{ℓ→t} = Π_{j=ℓ+1..t}(βI − ηx_jx_jᵀ),
  // against ak_raw iterated from M_0 = 0 on one random path.
  Rng rng(7);
  const int m = 3, n = 5, T = 40;
  const double beta = 0.9, eta = 0.05;
  std::vector<Vec> ds, xs;
  for (int t = 0; t < T; ++t) ds.push_back(rng.vec(m)), xs.push_back(rng.vec(n));
  Mat M = Mat::Zero(m, n);
  for (int t = 0; t < T; ++t) rules::ak_raw(M, ds[t], xs[t], beta, eta);

  Mat expansion = Mat::Zero(m, n);
  const Mat I = Mat::Identity(n, n);
  for (int l = 0; l < T; ++l) {
    Mat P = I;  // P_{t→t} = I
    for (int j = l + 1; j < T; ++j) P = P * (beta * I - eta * xs[j] * xs[j].transpose());
    expansion += eta * ds[l] * xs[l].transpose() * P;
  }
  EXPECT_LT(rel_diff(M, expansion), 1e-10);
  EXPECT_GT(M.norm(), 1e-3);  // a nontrivial path
}

TEST(Optimizers, AkSgdOneAndTwoSteps) {
  // Buffer first with its key, then W ← W − αM [sec:methodology].
  Rng rng(8);
  const double alpha = 0.1, beta = 0.9, eta = 0.4;
  const Mat W0 = rng.mat(2, 3);
  const Vec d1 = rng.vec(2), x1 = rng.vec(3), d2 = rng.vec(2), x2 = rng.vec(3);
  akm::AkSgd opt(2, 3, alpha, beta, eta, Key::normalized);
  EXPECT_TRUE(opt.M.isZero());
  Mat W = W0;
  opt.step(W, d1, x1);
  const Vec h1 = x1 / x1.norm(), h2 = x2 / x2.norm();
  const Mat M1 = eta * d1 * h1.transpose();  // from M_0 = 0 the residual is δ
  EXPECT_LT(rel_diff(opt.M, M1), 1e-14);
  EXPECT_LT(rel_diff(W, W0 - alpha * M1), 1e-14);
  opt.step(W, d2, x2);
  const Mat M2 = beta * M1 + eta * (d2 - M1 * h2) * h2.transpose();
  EXPECT_LT(rel_diff(opt.M, M2), 1e-14);
  EXPECT_LT(rel_diff(W, W0 - alpha * M1 - alpha * M2), 1e-14);

  akm::AkSgd raw(2, 3, alpha, beta, 0.05, Key::raw);
  Mat Wr = W0;
  raw.step(Wr, d1, x1);
  EXPECT_LT(rel_diff(Wr, W0 - alpha * 0.05 * d1 * x1.transpose()), 1e-14);
}

TEST(Optimizers, SgdEmaOneAndTwoSteps) {
  Rng rng(9);
  const double alpha = 0.2, beta = 0.8;
  const Mat W0 = rng.mat(3, 2);
  const Vec d1 = rng.vec(3), x1 = rng.vec(2), d2 = rng.vec(3), x2 = rng.vec(2);
  akm::SgdEma opt(3, 2, alpha, beta);
  EXPECT_TRUE(opt.M.isZero());
  Mat W = W0;
  opt.step(W, d1, x1);
  const Mat M1 = (1 - beta) * d1 * x1.transpose();
  EXPECT_LT(rel_diff(opt.M, M1), 1e-14);
  EXPECT_LT(rel_diff(W, W0 - alpha * M1), 1e-14);
  opt.step(W, d2, x2);
  const Mat M2 = beta * M1 + (1 - beta) * d2 * x2.transpose();
  EXPECT_LT(rel_diff(opt.M, M2), 1e-14);
  EXPECT_LT(rel_diff(W, W0 - alpha * (M1 + M2)), 1e-14);
}

}  // namespace
