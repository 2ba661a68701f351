// sim: streaming statistics, thread-count independence, jackknife, and the allocation-free
// kernels held to the reference rules.
#include <gtest/gtest.h>

#include <cstring>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "akm/sim/sim.hpp"
#include "akm/spectrum/spectrum.hpp"

using namespace akm;

namespace {

// A kernel with a few steps of AK dynamics so results depend on the whole stream.
TrialKernel toy_kernel(std::uint64_t seed) {
  return [seed](long long trial, double* out) {
    Stream s(seed, trial);
    Mat M = Mat::Zero(2, 4);
    Vec x(4), d(2), r(2), k(4);
    const Vec sl = Vec::LinSpaced(4, 1.0, 2.0);
    for (int t = 0; t < 20; ++t) {
      kern::gaussian_key(s, sl, x);
      d << s.normal(), s.normal();
      kern::key_for(Key::normalized, x, k);
      kern::ak_step(M, d, k, 0.9, 0.5, r);
    }
    std::memcpy(out, M.data(), sizeof(double) * 8);
  };
}

}  // namespace

TEST(TrialStats, MatchesTwoPassMeanAndVariance) {
  Stream s(7, 0);
  std::vector<std::array<double, 3>> rows(1000);
  TrialStats st(3);
  for (auto& r : rows) {
    r = {s.normal(), 5 + 2 * s.normal(), s.uniform()};
    st.add(r.data());
  }
  for (int j = 0; j < 3; ++j) {
    double m = 0, v = 0;
    for (auto& r : rows) m += r[j];
    m /= rows.size();
    for (auto& r : rows) v += (r[j] - m) * (r[j] - m);
    v /= rows.size() - 1;
    EXPECT_NEAR(st.mean()[j], m, 1e-12 * (1 + std::abs(m)));
    EXPECT_NEAR(st.variance()[j], v, 1e-10 * v);
  }
}

// The third moment feeds the skew correction of the checks: one pass and merged chunks
// must agree with the two-pass m3/m2^{3/2} on a skewed sample (χ²₁, exp-like uniform).
TEST(TrialStats, SkewnessOfMeanMatchesTwoPassAndMerge) {
  Stream s(9, 0);
  std::vector<std::array<double, 2>> rows(2000);
  TrialStats all(2), a(2), b(2), c(2);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double z = s.normal();
    rows[i] = {z * z, -std::log(s.uniform())};
    all.add(rows[i].data());
    (i < 300 ? a : i < 1100 ? b : c).add(rows[i].data());
  }
  a.merge(b);
  a.merge(c);
  for (int j = 0; j < 2; ++j) {
    double m = 0, m2 = 0, m3 = 0;
    for (auto& r : rows) m += r[j];
    m /= rows.size();
    for (auto& r : rows) m2 += (r[j] - m) * (r[j] - m), m3 += std::pow(r[j] - m, 3);
    const double g = m3 / std::pow(m2, 1.5);
    EXPECT_NEAR(all.skewness_of_mean()[j], g, 1e-10 * std::abs(g));
    EXPECT_NEAR(a.skewness_of_mean()[j], g, 1e-10 * std::abs(g));
    const MeanEstimate e = all.estimate(j);
    EXPECT_EQ(e.mean, all.mean()[j]);
    EXPECT_EQ(e.se, all.stderr_mean()[j]);
    EXPECT_EQ(e.dof, 1999.0);
    EXPECT_FALSE(e.se_exact);
  }
  // χ²₁ has skewness 2√2; the mean of 2000 samples has 2√2/√2000 (sampling error ~10%).
  EXPECT_NEAR(all.skewness_of_mean()[0], 2 * std::sqrt(2.0) / std::sqrt(2000.0), 0.03);
}

TEST(TrialStats, MergeEqualsSequential) {
  Stream s(8, 0);
  TrialStats all(2), a(2), b(2);
  for (int i = 0; i < 500; ++i) {
    const double x[2] = {s.normal(), s.normal() * 3};
    all.add(x);
    (i < 173 ? a : b).add(x);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  for (int j = 0; j < 2; ++j) {
    EXPECT_NEAR(a.mean()[j], all.mean()[j], 1e-13);
    EXPECT_NEAR(a.variance()[j], all.variance()[j], 1e-11);
  }
}

TEST(MonteCarlo, BitIdenticalForAnyThreadCount) {
  McOptions o;
  o.trials = 777;
  o.groups = 7;
  std::vector<McResult> res;
  for (int th : {1, 2, 7}) {
    o.threads = th;
    res.push_back(monte_carlo(o, 8, toy_kernel(42)));
  }
  for (std::size_t k = 1; k < res.size(); ++k) {
    EXPECT_EQ(0, std::memcmp(res[0].total.mean().data(), res[k].total.mean().data(), 8 * sizeof(double)));
    const Vec v0 = res[0].total.variance(), vk = res[k].total.variance();
    EXPECT_EQ(0, std::memcmp(v0.data(), vk.data(), 8 * sizeof(double)));
    for (std::size_t g = 0; g < 7; ++g)
      EXPECT_EQ(0, std::memcmp(res[0].groups[g].mean().data(), res[k].groups[g].mean().data(), 8 * sizeof(double)));
  }
  EXPECT_EQ(res[0].total.count(), 777);
  long long n = 0;
  for (const auto& g : res[0].groups) n += g.count();
  EXPECT_EQ(n, 777);
}

TEST(MonteCarlo, SameSeedSameNumbersOtherSeedOtherNumbers) {
  McOptions o;
  o.trials = 64;
  const auto a = monte_carlo(o, 8, toy_kernel(1)), b = monte_carlo(o, 8, toy_kernel(1)),
             c = monte_carlo(o, 8, toy_kernel(2));
  EXPECT_EQ(a.total.mean(), b.total.mean());
  EXPECT_NE(a.total.mean(), c.total.mean());
}

TEST(MonteCarlo, KernelExceptionPropagates) {
  McOptions o;
  o.trials = 100;
  o.threads = 2;
  EXPECT_THROW(monte_carlo(o, 1, [](long long t, double*) { if (t == 50) throw std::runtime_error("boom"); }),
               std::runtime_error);
}

TEST(Jackknife, LinearStatisticGivesTheStandardError) {
  // For the mean itself the jackknife standard error equals the usual s/√n over groups.
  McOptions o;
  o.trials = 4000;
  o.groups = 40;
  const auto r = monte_carlo(o, 1, [](long long t, double* out) {
    Stream s(3, t);
    out[0] = s.normal();
  });
  const auto [est, se] = jackknife(r.groups, [](const Vec& m) { return m[0]; });
  EXPECT_NEAR(est, r.total.mean()[0], 1e-12);
  // Group-level standard error of the mean, the exact jackknife answer for a linear stat.
  double gm = 0, ss = 0;
  for (const auto& g : r.groups) gm += g.mean()[0];
  gm /= 40;
  for (const auto& g : r.groups) ss += std::pow(g.mean()[0] - gm, 2);
  EXPECT_NEAR(se, std::sqrt(ss / 39 / 40), 1e-12);
}

// The allocation-free kernels perform the reference rules' arithmetic.
TEST(Kernels, AkStepMatchesReferenceRules) {
  Stream s(11, 0);
  for (Key key : {Key::raw, Key::normalized}) {
    Mat M = Mat::Random(3, 5), R = M;
    Vec x(5), d(3), k(5), r(3);
    for (int t = 0; t < 10; ++t) {
      for (int i = 0; i < 5; ++i) x[i] = s.normal();
      for (int i = 0; i < 3; ++i) d[i] = s.normal();
      kern::key_for(key, x, k);
      kern::ak_step(M, d, k, 0.9, 0.3, r);
      rules::ak(R, d, x, 0.9, 0.3, key);
    }
    EXPECT_LT((M - R).norm(), 1e-12 * R.norm()) << to_string(key);
  }
}

TEST(Kernels, EmaAndTransportMatchReference) {
  Stream s(12, 0);
  Mat M = Mat::Zero(2, 4), R = M, P = Mat::Identity(4, 4), Pref = P;
  Vec x(4), d(2), r(4);
  for (int t = 0; t < 10; ++t) {
    for (int i = 0; i < 4; ++i) x[i] = s.normal();
    d << s.normal(), s.normal();
    kern::ema_step(M, d, x, 0.8);
    rules::ema(R, d, x, 0.8);
    kern::transport_step(P, x, 0.8, 0.1, r);
    Pref = Pref * (0.8 * Mat::Identity(4, 4) - 0.1 * x * x.transpose());
  }
  EXPECT_LT((M - R).norm(), 1e-12 * R.norm());
  EXPECT_LT((P - Pref).norm(), 1e-12 * Pref.norm());
}

// Simulating in the eigenbasis is exact: the rules are equivariant under M → MU, x → Uᵀx
// (docs/architecture.md, "Simulating in the eigenbasis"), for both keys.
TEST(Kernels, EigenbasisSimulationEqualsFullBasis) {
  const Spectrum sp = parse_spectrum("spiked:n=6,spikes=9/4,floor=1,basis=random", 5);
  const Mat U = sp.basis;
  const Vec sl = sp.lambda.cwiseSqrt();
  for (Key key : {Key::raw, Key::normalized}) {
    Stream a(9, 0), b(9, 0);
    Mat Me = Mat::Zero(2, 6), Mf = Mat::Zero(2, 6);
    Vec xe(6), k(6), d(2), r(2);
    for (int t = 0; t < 30; ++t) {
      kern::gaussian_key(a, sl, xe);
      d << a.normal(), a.normal();
      kern::key_for(key, xe, k);
      kern::ak_step(Me, d, k, 0.9, key == Key::raw ? 0.05 : 0.5, r);
      rules::ak(Mf, d, U * xe, 0.9, key == Key::raw ? 0.05 : 0.5, key);  // x = U x_eig
      (void)b;
    }
    EXPECT_LT((Mf - Me * U.transpose()).norm(), 1e-11 * Mf.norm()) << to_string(key);
  }
}
