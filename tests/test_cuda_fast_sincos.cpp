// The host-and-device arithmetic of akm/base/hd.hpp and akm/random/stream_hd.hpp that the CUDA
// kernels' bodies rely on beyond the IEEE + − × ÷ √ (docs/cuda.md): hd::fma_ rounds a·b + c once
// on the host, as __fmaf_rn / __fma_rn do on the device, so an update line written with it is
// the device's arithmetic in the emulated backend; and the bound of the device's optional fast
// Box–Muller angle (__sincosf, AKM_CUDA_FAST_SINCOS), derived here from the CUDA Programming
// Guide's documented maximum errors and held below the float-normal term 4e-4 of the rounding
// model (tests/test_engine.cpp, tests/rounding_bounds.hpp). No device needed.
//
// The fast path's bound, per normal z = r·cos θ (or r·sin θ), fast against precise on the device:
//   the fast angle   θ' = reduced_angle(u) ∈ (−π, π):  |θ' − 2πt| ≤ (2π − c)/2 + 2⁻²³
//                    (c the float below 2π, |t| ≤ ½, |θ'| < 4 so ulp(θ')/2 ≤ 2⁻²³);
//   __sincosf        absolute error ≤ 2^−21.41 for x in [−π, π] (Guide, intrinsic functions);
//   the precise θ = fl(2π_f·u): |θ − 2πu| ≤ (2π_f − 2π) + 2⁻²² (θ < 8, ulp/2 ≤ 2⁻²²);
//   sincosf          ≤ 2 ulp (Guide, single-precision functions), ≤ 2⁻²³ absolute as |s| ≤ 1;
//   the product r·s  rounded on each side, ≤ 2⁻²⁴·r each;
// and sin, cos are 1-Lipschitz. So |z_fast − z_precise| ≤ r_max·A with A the sum above, and
// r_max = √(−2 ln u_min) at the stream's smallest float uniform u_min = 2⁻⁵³ (k = 1; k = 0 is
// redrawn), widened by logf's 1 ulp and sqrtf's rounding: r_max·A ≈ 1.1e-5 < 4e-4.
// tests/ops/support.hpp's dev_step adds kFastNormalBound when the build uses the fast path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"
#include "ops/support.hpp"

namespace {

constexpr double kTwoPi = 6.283185307179586476925;
constexpr double kBelow2Pi = 6.2831850051879883;  // the float just below 2π
constexpr double kTwoPiF = 6.2831854820251465;   // float(2π), the precise path's constant
const double kIntrinsic = std::exp2(-21.41);  // __sincosf on [−π, π] (Programming Guide)

double fast_angle_error() { return (kTwoPi - kBelow2Pi) / 2 + 0x1p-23; }
double precise_angle_error() { return (kTwoPiF - kTwoPi) + 0x1p-22; }
// r_max: the stream's own float radius at its smallest uniform, widened for the device's logf
// (1 ulp) and sqrtf (correctly rounded).
double r_max() {
  const float u = akm::hd::uniform_of<float>(1);
  const float r = akm::hd::sqrt_(-2.f * akm::hd::log_(u));
  return double(r) * (1 + 4 * 0x1p-24);
}
double fast_normal_bound() {
  const double a = fast_angle_error() + kIntrinsic + precise_angle_error() + 0x1p-23 + 2 * 0x1p-24;
  return r_max() * a;
}

}  // namespace

TEST(CudaHdFma, FloatIsRoundedOnceWherePlainArithmeticRoundsTwice) {
  // a² = 1 + 2⁻¹¹ + 2⁻²⁴: the product rounds (a tie, to even) to 1 + 2⁻¹¹, so a·a − (1 + 2⁻¹¹)
  // is 0 in plain float arithmetic, 2⁻²⁴ exactly when rounded once.
  volatile float a = 1.f + 0x1p-12f, c = -(1.f + 0x1p-11f);
  const float plain = a * a + c;
  EXPECT_EQ(plain, 0.f);
  EXPECT_EQ(akm::hd::fma_(float(a), float(a), float(c)), 0x1p-24f);
  // A rounding where the exact result is not a float: 3·(1 + 2⁻²³) − 3 = 3·2⁻²³, exact in fma.
  volatile float b = 1.f + 0x1p-23f, three = 3.f;
  EXPECT_EQ(akm::hd::fma_(float(three), float(b), -3.f), 3 * 0x1p-23f);
  EXPECT_NE(float(three) * float(b) - 3.f, 3 * 0x1p-23f);
}

TEST(CudaHdFma, DoubleIsRoundedOnceWherePlainArithmeticRoundsTwice) {
  volatile double a = 1.0 + 0x1p-27, c = -(1.0 + 0x1p-26);
  const double plain = a * a + c;
  EXPECT_EQ(plain, 0.0);
  EXPECT_EQ(akm::hd::fma_(double(a), double(a), double(c)), 0x1p-54);
}

TEST(CudaHdFma, MatchesTheExactResultOnAFloatGrid) {
  // Float a·b is exact in double (48 bits), and for c of the same binade as a·b the double sum
  // a·b + c is exact too (≤ 50 bits), so its float rounding is the exactly rounded result.
  akm::hd::Stream<float> s(7, 0, akm::hd::kKeys);
  for (int i = 0; i < 20000; ++i) {
    const float a = 1.f + s.uniform(), b = 1.f + s.uniform();
    const float c = -(1.f + s.uniform()) * 2.f;  // a·b ∈ [1, 4), |c| ∈ [2, 4)
    const double exact = double(a) * double(b) + double(c);
    ASSERT_EQ(akm::hd::fma_(a, b, c), float(exact)) << a << " " << b << " " << c;
  }
}

TEST(CudaFastSincos, ReducedAngleStaysInsideMinusPiPiAndNearTheTrueAngle) {
  // The edges of the float uniforms (u_min, ½ and its neighbours, the largest below 1, 1 itself:
  // k near 2⁵³ rounds to 1.f) and the uniforms a stream draws.
  const float edges[] = {akm::hd::uniform_of<float>(1), 0.25f, std::nextafter(0.5f, 0.f), 0.5f,
                         std::nextafter(0.5f, 1.f), std::nextafter(1.f, 0.f), 1.f};
  akm::hd::Stream<float> s(11, 3, akm::hd::kKeys);
  auto check = [](float u) {
    const float th = akm::hd::reduced_angle(u);
    ASSERT_LT(std::abs(double(th)), M_PI) << "u = " << u;
    const double t = u >= 0.5f ? double(u) - 1.0 : double(u);
    ASSERT_LE(std::abs(double(th) - kTwoPi * t), fast_angle_error()) << "u = " << u;
    ASSERT_LE(std::abs(std::sin(double(th)) - std::sin(kTwoPi * double(u))), fast_angle_error() + 1e-15);
  };
  for (float u : edges) check(u);
  for (int i = 0; i < 100000; ++i) check(s.uniform());
}

TEST(CudaFastSincos, BoundIsBelowTheFloatNormalTermAndDevStepUsesIt) {
  // The smallest float uniform is 2⁻⁵³ (k = 1; float(k) is monotone in k, k = 0 redrawn).
  EXPECT_EQ(akm::hd::uniform_of<float>(1), 0x1p-53f);
  EXPECT_NEAR(r_max(), std::sqrt(106 * std::log(2.0)), 1e-5);  // 8.5716
  const double bound = fast_normal_bound();
  RecordProperty("fast_sincos_normal_bound", akm_test::sci(bound));
  EXPECT_LT(bound, 4e-4);    // the rounding model's float-normal term
  EXPECT_LT(bound, 1.2e-5);  // as docs/cuda.md and stream_hd.hpp state it
  EXPECT_GE(akm_test::kFastNormalBound, bound);
  if (akm::hd::kFastSincos)
    EXPECT_EQ(akm_test::dev_step(0), 80 * akm_test::kEps32 + akm_test::kFastNormalBound);
  else
    EXPECT_EQ(akm_test::dev_step(0), 80 * akm_test::kEps32);
}
