// Newton–Schulz (akm/rules/newton_schulz.hpp) held to its plain reference and to the algebra
// of NS(G) = U p^k(Σ/‖G‖_F) Vᵀ [cor:mup-base-lr, AK-Muon]: the fast iteration equals the SVD
// form within the derived rounding bounds, the singular values land in the quintic's band
// (computed, not typed), a tall G is the transpose of the wide case, the Frobenius
// normalisation makes NS scale-free, Muon's coefficients, and bad input refused.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "akm/base/errors.hpp"
#include "akm/rules/newton_schulz.hpp"
#include "ns_bounds.hpp"

namespace {

using akm::Mat;
using akm::Vec;
namespace ns = akm::ns;

using akm_test::gaussian;

// U diag(s) Vᵀ with orthonormal U, V (from QR) and singular values spread over [lo, hi].
Mat conditioned(int m, int n, double lo, double hi, std::uint64_t seed) {
  const int k = std::min(m, n);
  const Mat U = Eigen::HouseholderQR<Mat>(gaussian(m, k, seed)).householderQ() * Mat::Identity(m, k);
  const Mat V = Eigen::HouseholderQR<Mat>(gaussian(n, k, seed + 1)).householderQ() * Mat::Identity(n, k);
  const Vec s = Vec::LinSpaced(k, lo, hi);
  return U * s.asDiagonal() * V.transpose();
}

using akm_test::agreement_bound;

TEST(NewtonSchulz, MuonsCoefficientsAndSteps) {
  EXPECT_EQ(ns::kMuon.a, 3.4445);
  EXPECT_EQ(ns::kMuon.b, -4.7750);
  EXPECT_EQ(ns::kMuon.c, 2.0315);
  EXPECT_EQ(ns::kSteps, 5);
  EXPECT_DOUBLE_EQ(ns::quintic(1.0), 3.4445 - 4.7750 + 2.0315);
  EXPECT_DOUBLE_EQ(ns::quintic_slope(0.0), 3.4445);  // small singular values grow by a per step
  EXPECT_DOUBLE_EQ(ns::quintic(-0.3), -ns::quintic(0.3));  // odd: NS keeps singular vectors' signs
  EXPECT_DOUBLE_EQ(ns::iterate(0.4, 2), ns::quintic(ns::quintic(0.4)));
}

TEST(NewtonSchulz, DiagonalInputIsTheQuinticOnEachEntry) {
  const Vec s = (Vec(4) << 3.0, 1.0, 0.4, 0.05).finished();
  const Mat got = ns::newton_schulz(Mat(s.asDiagonal()));
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(got(i, i), ns::iterate(s[i] / s.norm(), 5), ns::error_model(4, 4).rounding);
  EXPECT_NEAR((got - Mat(got.diagonal().asDiagonal())).norm(), 0.0, ns::error_model(4, 4).rounding);
}

TEST(NewtonSchulz, EqualsTheSvdReferenceWithinTheDerivedBound) {
  for (auto [m, n] : {std::pair{6, 9}, {9, 6}, {8, 8}, {1, 7}, {7, 1}, {32, 64}, {64, 32}, {48, 48}})
    for (int steps : {1, 3, 5}) {
      const Mat G = gaussian(m, n, 100 + m * 7 + n + steps);
      const double diff = (ns::newton_schulz(G, steps) - ns::newton_schulz_svd(G, steps)).norm();
      EXPECT_LE(diff, agreement_bound(G, steps)) << m << "x" << n << " steps " << steps;
    }
}

RC_GTEST_PROP(NewtonSchulz, FastPathEqualsReferenceOnRandomShapes, ()) {
  const int m = *rc::gen::inRange(1, 25), n = *rc::gen::inRange(1, 25), steps = *rc::gen::inRange(1, 7);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  const double scale = std::ldexp(1.0, *rc::gen::inRange(-30, 31));
  const Mat G = scale * gaussian(m, n, seed);
  RC_ASSERT((ns::newton_schulz(G, steps) - ns::newton_schulz_svd(G, steps)).norm() <= agreement_bound(G, steps));
}

TEST(NewtonSchulz, SingularValuesLandInTheQuinticsBand) {
  // Each singular value σ_i/‖G‖_F ≥ floor goes to p⁵ of it, so the result's singular values
  // lie in quintic_band(floor) up to the rounding bound (Weyl: ‖E‖₂ ≤ ‖E‖_F).
  for (auto [m, n] : {std::pair{16, 16}, {16, 48}, {48, 16}, {64, 64}}) {
    const Mat G = conditioned(m, n, 0.5, 2.0, 7 + m + n);
    const Vec s = Eigen::JacobiSVD<Mat>(G).singularValues();
    const ns::Band band = ns::quintic_band(s.minCoeff() / G.norm(), 5);
    ASSERT_LT(band.lo, 1.0);
    ASSERT_GT(band.hi, 1.0);
    const Vec out = Eigen::JacobiSVD<Mat>(ns::newton_schulz(G)).singularValues();
    const double tol = ns::error_model(m, n).rounding;
    EXPECT_GE(out.minCoeff(), band.lo - tol) << m << "x" << n;
    EXPECT_LE(out.maxCoeff(), band.hi + tol) << m << "x" << n;
  }
  // The band holds every σ ≥ 1% of ‖G‖_F after 5 steps; Muon's write-up quotes about [0.68, 1.13].
  const ns::Band b = ns::quintic_band(0.01, 5);
  EXPECT_LT(b.lo, 1.0);
  EXPECT_GT(b.hi, 1.0);
  for (double s : {0.01, 0.1, 0.3, 0.5, 0.77, 1.0}) {
    EXPECT_GE(ns::iterate(s, 5), b.lo);
    EXPECT_LE(ns::iterate(s, 5), b.hi);
  }
}

TEST(NewtonSchulz, SingularValuesFarBelowTheBandAreNotOrthogonalised) {
  // A control: a direction at 1e-4 of ‖G‖_F grows by at most a per step, far below the band.
  const Mat G = Vec((Vec(2) << 1.0, 1e-4).finished()).asDiagonal();
  const Vec out = Eigen::JacobiSVD<Mat>(ns::newton_schulz(G)).singularValues();
  EXPECT_LE(out.minCoeff(), std::pow(ns::kMuon.a, 5) * 1e-4 + ns::error_model(2, 2).rounding);
  EXPECT_LT(out.minCoeff(), ns::quintic_band(0.01, 5).lo);
}

TEST(NewtonSchulz, ErrorModelHoldsEveryIterate) {
  const ns::ErrorModel e = ns::error_model(8, 8);
  for (int i = 0; i <= 10000; ++i)
    for (int t = 1; t <= 5; ++t) {
      const double s = i / 10000.0;
      EXPECT_LE(ns::iterate(s, t), e.s_max);
      EXPECT_LE(std::abs(ns::quintic_slope(ns::iterate(s, t - 1))), e.lipschitz);
    }
}

RC_GTEST_PROP(NewtonSchulz, TallIsTheTransposeOfWide, ()) {
  const int m = *rc::gen::inRange(1, 20), n = *rc::gen::inRange(1, 20);
  const Mat G = gaussian(m, n, *rc::gen::inRange<std::uint64_t>(0, 1u << 30));
  const Mat a = ns::newton_schulz(G.transpose()), b = ns::newton_schulz(G).transpose();
  if (m != n)  // the tall case transposes in and runs the wide case's arithmetic on the same numbers: same bits
    RC_ASSERT(a == b);
  else  // a square G runs as given both ways: the same exact NS, each within the rounding bound
    RC_ASSERT((a - b).norm() <= 2 * ns::error_model(m, n).rounding);
}

TEST(NewtonSchulz, FrobeniusNormalisationMakesItScaleFree) {
  const Mat G = gaussian(7, 10, 6);
  const Mat base = ns::newton_schulz(G);
  // A power of 2 scales G and ‖G‖_F exactly: X₀ and everything after it are the same bits.
  for (int e : {-40, -3, 5, 60}) EXPECT_EQ(ns::newton_schulz(std::ldexp(1.0, e) * G), base);
  // Other factors: both results are within the rounding bound of the one exact NS(G).
  for (double c : {0.5e-3, 3.7, 1e5}) EXPECT_LE((ns::newton_schulz(c * G) - base).norm(), 2 * ns::error_model(7, 10).rounding);
  EXPECT_GT((ns::newton_schulz(G, 4) - base).norm(), 2 * ns::error_model(7, 10).rounding);  // the steps matter
}

void expect_refused(const Mat& G, int steps, const std::string& param, const std::string& fragment) {
  try {
    ns::newton_schulz(G, steps);
    ADD_FAILURE() << "not refused: " << param;
  } catch (const akm::InputError& e) {
    EXPECT_EQ(e.param(), param);
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is invalid"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ns::newton_schulz_svd(G, steps), akm::InputError);
}

TEST(NewtonSchulz, BadInputIsRefusedNamingParameterValueAndRange) {
  Mat nan = Mat::Ones(3, 4), inf = Mat::Ones(3, 4);
  nan(1, 2) = std::numeric_limits<double>::quiet_NaN();
  inf(0, 0) = -std::numeric_limits<double>::infinity();
  expect_refused(nan, 5, "G", "NaN or inf entries is invalid: every entry must be finite");
  expect_refused(inf, 5, "G", "every entry must be finite");
  expect_refused(Mat::Zero(3, 4), 5, "G", "the zero matrix is invalid: must have ‖G‖_F > 0");
  expect_refused(Mat(0, 3), 5, "G", "0x3 is invalid: must have at least one row and one column");
  expect_refused(Mat(3, 0), 5, "G", "3x0 is invalid");
  expect_refused(Mat::Ones(2, 2), 0, "steps", "steps = 0 is invalid: must be >= 1");
  EXPECT_THROW(ns::quintic_band(1.0, 5), akm::InputError);
  EXPECT_THROW(ns::error_model(0, 3), akm::InputError);
}

}  // namespace
