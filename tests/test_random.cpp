// random — Philox streams are reproducible per (seed, trial, purpose) and have the right laws.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "akm/random/random.hpp"

namespace {

using akm::Purpose;
using akm::Stream;

constexpr double kZ = 5.0;  // a z of 5: a false alarm about once in 1.7 million runs
constexpr int kDraws = 1'000'000;

std::vector<std::uint64_t> first_bits(Stream s, int count = 16) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < count; ++i) out.push_back(s.bits());
  return out;
}

TEST(Random, SameKeySameNumbers) {
  Stream a(42, 7, Purpose::noise), b(42, 7, Purpose::noise);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(a.bits(), b.bits());
    ASSERT_EQ(a.normal(), b.normal());
    ASSERT_EQ(a.uniform(), b.uniform());
    ASSERT_EQ(a.rademacher(), b.rademacher());
  }
}

TEST(Random, EveryKeyPartSeparatesStreams) {
  const auto base = first_bits(Stream(42, 7, Purpose::keys));
  EXPECT_NE(base, first_bits(Stream(43, 7, Purpose::keys)));
  EXPECT_NE(base, first_bits(Stream(42 + (1ULL << 32), 7, Purpose::keys)));  // seed high word
  EXPECT_NE(base, first_bits(Stream(42, 8, Purpose::keys)));
  EXPECT_NE(base, first_bits(Stream(42, 7 + (1ULL << 32), Purpose::keys)));  // trial high word
  EXPECT_NE(base, first_bits(Stream(42, 7, Purpose::noise)));
  EXPECT_NE(base, first_bits(Stream(42, 7, Purpose::basis)));
}

TEST(Random, DefaultPurposeIsKeys) {
  EXPECT_EQ(first_bits(Stream(3, 4)), first_bits(Stream(3, 4, Purpose::keys)));
}

TEST(Random, NoRepeatsAcrossBlocks) {
  Stream s(1, 0);
  const auto v = first_bits(s, 64);
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = i + 1; j < v.size(); ++j) ASSERT_NE(v[i], v[j]) << i << "," << j;
}

TEST(Random, UniformOpenIntervalAndMoments) {
  Stream s(2024, 1, Purpose::aux);
  double sum = 0, lo = 1, hi = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double u = s.uniform();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    lo = std::min(lo, u);
    hi = std::max(hi, u);
  }
  EXPECT_NEAR(sum / kDraws, 0.5, kZ * std::sqrt(1.0 / 12.0 / kDraws));
  EXPECT_LT(lo, 1e-4);  // P(min > 1e-4) = (1-1e-4)^1e6 ≈ e^-100
  EXPECT_GT(hi, 1 - 1e-4);
}

// Central moments of N(0,1): E z = 0, E z² = 1, E z³ = 0, E z⁴ = 3; standard errors of
// the sample means are sqrt(Var/N) with Var(z)=1, Var(z²)=2, Var(z³)=15, Var(z⁴)=96.
TEST(Random, NormalMomentsWithinStandardErrors) {
  Stream s(7, 3, Purpose::noise);
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double z = s.normal();
    ASSERT_TRUE(std::isfinite(z));
    m1 += z;
    m2 += z * z;
    m3 += z * z * z;
    m4 += z * z * z * z;
  }
  const double n = kDraws;
  EXPECT_NEAR(m1 / n, 0.0, kZ * std::sqrt(1.0 / n));
  EXPECT_NEAR(m2 / n, 1.0, kZ * std::sqrt(2.0 / n));
  EXPECT_NEAR(m3 / n, 0.0, kZ * std::sqrt(15.0 / n));
  EXPECT_NEAR(m4 / n, 3.0, kZ * std::sqrt(96.0 / n));
}

// Box–Muller pairs are independent: the lag-1 correlation of consecutive normals is 0.
TEST(Random, NormalPairsUncorrelated) {
  Stream s(11, 0, Purpose::keys);
  double c = 0;
  for (int i = 0; i < kDraws / 2; ++i) c += s.normal() * s.normal();
  EXPECT_NEAR(c / (kDraws / 2), 0.0, kZ * std::sqrt(2.0 / kDraws));
}

TEST(Random, RademacherSigns) {
  Stream s(5, 9, Purpose::data);
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double r = s.rademacher();
    ASSERT_TRUE(r == 1.0 || r == -1.0);
    sum += r;
  }
  EXPECT_NEAR(sum / kDraws, 0.0, kZ / std::sqrt(double(kDraws)));
}

}  // namespace
