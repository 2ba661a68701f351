// dataset_spectrum — the Gram route and the Lanczos route against the dense p×p reference,
// the ridge solves against a dense solve, the QR span complement, and refusals.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "akm/spectrum/dataset_spectrum.hpp"
#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"

namespace {

using akm::InputError;
using akm::Mat;
using akm::Vec;

// p×n_s Gaussian keys with a spiked diagonal covariance, normalized (the T9 setting).
Mat spiked_keys(int p, int n_s, std::uint64_t seed) {
  akm::Stream s(seed, 0, akm::Purpose::data);
  Mat X(p, n_s);
  for (int j = 0; j < n_s; ++j)
    for (int i = 0; i < p; ++i) X(i, j) = (i < 3 ? std::sqrt(20.0 / (i + 1)) : 1.0) * s.normal();
  return akm::normalize_columns(X);
}

Mat stream_gaussian(int r, int c, std::uint64_t seed) {
  akm::Stream s(seed, 0, akm::Purpose::aux);
  Mat B(r, c);
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < r; ++i) B(i, j) = s.normal();
  return B;
}

// Eigenvectors agree up to sign: |⟨a, b⟩| = 1.
void expect_same_up_to_sign(const Vec& a, const Vec& b, double tol) {
  EXPECT_NEAR(std::abs(a.dot(b)), 1.0, tol);
  const double sign = a.dot(b) > 0 ? 1.0 : -1.0;
  EXPECT_LE((a - sign * b).norm(), std::sqrt(tol) + tol);
}

TEST(DatasetSpectrum, GramRouteMatchesDenseAtSmallP) {
  const Mat K = spiked_keys(64, 16, 11);
  const akm::DatasetSpectrum gram(K);
  const akm::EigenPairs dense = akm::dataset_spectrum_dense(K);
  ASSERT_EQ(gram.rank(), 16);
  ASSERT_EQ(dense.values.size(), 16);
  EXPECT_NEAR(gram.lambda_hat().sum(), 1.0, 1e-12);  // tr Σ̂ = 1 for unit keys
  for (int k = 0; k < 16; ++k) {
    EXPECT_NEAR(gram.lambda_hat()[k], dense.values[k], 1e-10) << "k = " << k;
    if (k > 0) {
      EXPECT_GT(gram.lambda_hat()[k - 1], gram.lambda_hat()[k]);  // simple spectrum here
    }
    // Eigenvalue gaps are ≥ 1e-3 here, so eigenvectors agree to ~1e-13/gap.
    expect_same_up_to_sign(gram.eigenvector(k), dense.vectors.col(k), 1e-10);
  }
  const Mat U = gram.eigenvectors();
  EXPECT_LE((U.transpose() * U - Mat::Identity(16, 16)).norm(), 1e-12);
  for (int k = 0; k < 16; ++k)
    EXPECT_LE((gram.apply(U.col(k)) - gram.lambda_hat()[k] * U.col(k)).norm(), 1e-12);
}

TEST(DatasetSpectrum, LanczosRouteMatchesDenseAtSmallP) {
  const Mat K = spiked_keys(64, 16, 12);
  const akm::EigenPairs dense = akm::dataset_spectrum_dense(K);
  const akm::EigenPairs top = akm::dataset_top_eigenpairs(K, 4);
  ASSERT_EQ(top.values.size(), 4);
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(top.values[k], dense.values[k], 1e-10) << "k = " << k;
    expect_same_up_to_sign(top.vectors.col(k), dense.vectors.col(k), 1e-10);
  }
}

TEST(DatasetSpectrum, DuplicateKeysLowerTheRank) {
  Mat K = spiked_keys(32, 8, 13);
  K.col(7) = K.col(2);  // a repeated sample adds no direction
  const akm::DatasetSpectrum gram(K);
  const akm::EigenPairs dense = akm::dataset_spectrum_dense(K);
  ASSERT_EQ(gram.rank(), 7);
  ASSERT_EQ(dense.values.size(), 7);
  for (int k = 0; k < 7; ++k) EXPECT_NEAR(gram.lambda_hat()[k], dense.values[k], 1e-10);
  EXPECT_NEAR(gram.lambda_hat().sum(), 1.0, 1e-12);
  EXPECT_THROW(akm::SpanComplement{K}, InputError);  // QR refuses a dependent set
}

TEST(DatasetSpectrum, RidgeSolvesAgreeWithDenseSolve) {
  const Mat K = spiked_keys(64, 16, 14);
  const Mat B = stream_gaussian(3, 64, 15);
  const akm::DatasetSpectrum gram(K);
  for (double mu : {1e-3, 0.125, 5.0}) {
    const Mat ref = akm::ridge_solve_dense(K, B, mu);
    const double scale = ref.norm();
    EXPECT_LE((gram.ridge_solve(B, mu) - ref).norm(), 1e-11 * scale) << "mu = " << mu;
    EXPECT_LE((akm::ridge_solve_woodbury(K, B, mu) - ref).norm(), 1e-11 * scale) << "mu = " << mu;
    // The fixed-point equation X(μI+Σ̂) = B, with Σ̂ applied matrix-free.
    const Mat X = gram.ridge_solve(B, mu);
    for (int r = 0; r < 3; ++r)
      EXPECT_LE((mu * X.row(r).transpose() + gram.apply(X.row(r).transpose()) - B.row(r).transpose()).norm(),
                1e-11 * B.norm());
  }
}

TEST(DatasetSpectrum, RidgeSolveOfSpanRowsStaysInTheSpan) {
  // A gradient Ĝ = ΔK̂ᵀ/n_s has rows in the key span, so Ĝ(μI+Σ̂)^{-1} has no mass off it.
  const Mat K = spiked_keys(48, 12, 16);
  const Mat G = stream_gaussian(2, 12, 17) * K.transpose() / 12.0;
  const akm::DatasetSpectrum gram(K);
  const akm::SpanComplement perp(K);
  const Mat M = gram.ridge_solve(G, 0.2);
  EXPECT_LE(perp.off_span_norm(M), 1e-13 * M.norm());
  EXPECT_LE(perp.off_span_norm(G), 1e-13 * G.norm());
}

TEST(DatasetSpectrum, SpanComplementMatchesExplicitProjector) {
  const Mat K = spiked_keys(40, 10, 18);
  const Mat B = stream_gaussian(2, 40, 19);
  const akm::SpanComplement perp(K);
  EXPECT_EQ(perp.dim_span(), 10);
  // Reference: P_⊥ = I − U Uᵀ from the dense eigenvectors of Σ̂.
  const akm::EigenPairs dense = akm::dataset_spectrum_dense(K);
  const Mat Pperp = Mat::Identity(40, 40) - dense.vectors * dense.vectors.transpose();
  EXPECT_NEAR(perp.off_span_norm(B), (B * Pperp).norm(), 1e-12 * B.norm());
  EXPECT_LE(perp.off_span_norm(K.transpose()), 1e-13 * K.norm());  // keys lie in their span
}

TEST(DatasetSpectrum, RefusesBadInput) {
  const Mat K = spiked_keys(16, 4, 20);
  EXPECT_THROW(akm::normalize_columns(Mat::Zero(4, 2)), InputError);
  EXPECT_THROW(akm::normalize_columns(Mat(0, 3)), InputError);
  EXPECT_THROW(akm::DatasetSpectrum(Mat(0, 0)), InputError);
  EXPECT_THROW(akm::DatasetSpectrum(K, -0.1), InputError);
  EXPECT_THROW(akm::DatasetSpectrum(K, 1.0), InputError);
  Mat bad = K;
  bad(0, 0) = std::nan("");
  EXPECT_THROW(akm::DatasetSpectrum{bad}, InputError);
  const akm::DatasetSpectrum gram(K);
  EXPECT_THROW(gram.eigenvector(4), InputError);
  EXPECT_THROW(gram.eigenvector(-1), InputError);
  EXPECT_THROW(gram.apply(Vec::Ones(5)), InputError);
  EXPECT_THROW(gram.ridge_solve(Mat::Ones(2, 16), 0.0), InputError);
  EXPECT_THROW(gram.ridge_solve(Mat::Ones(2, 16), std::nan("")), InputError);
  EXPECT_THROW(gram.ridge_solve(Mat::Ones(2, 15), 0.1), InputError);
  EXPECT_THROW(akm::ridge_solve_woodbury(K, Mat::Ones(2, 16), -1.0), InputError);
  EXPECT_THROW(akm::ridge_solve_dense(K, Mat::Ones(2, 17), 1.0), InputError);
  EXPECT_THROW(akm::dataset_top_eigenpairs(K, 0), InputError);
  EXPECT_THROW(akm::dataset_top_eigenpairs(K, 5), InputError);  // k > n_s
  EXPECT_THROW(akm::dataset_top_eigenpairs(K, 2, 0.0), InputError);
  EXPECT_THROW(akm::SpanComplement(spiked_keys(4, 4, 21)), InputError);  // n_s = p: no complement
  const akm::SpanComplement perp(K);
  EXPECT_THROW(perp.off_span_norm(Mat::Ones(1, 15)), InputError);
}

}  // namespace
