// The tracking op (T5's Monte Carlo) on every backend held to its plain reference: the fast CPU
// engine in double and the CUDA thread body run on the host over its grid (docs/cuda.md), both
// within the rounding model of tests/test_engine.cpp; rows independent of the host thread count
// and of which call computes them; and, with a GPU, the device against its emulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/tracking.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// A power-law pre-shift law in a random basis (or none), a spiked post-shift law, m value rows
// of which row 0 is recorded, centres 0 (the observables are the buffers' row 0 itself).
ops::Tracking op(int n, int m, bool rotated) {
  ops::Tracking p;
  p.sqrt_lambda0 = Vec(n);
  p.sqrt_lambda1 = Vec(n);
  for (int i = 0; i < n; ++i) {
    p.sqrt_lambda0[i] = std::sqrt(1.0 / (i + 1));
    p.sqrt_lambda1[i] = std::sqrt(i < 3 ? 10.0 / (i + 1) : 0.5);
  }
  Stream s(7, 0, Purpose::init);
  p.A0 = Mat(m, n);
  p.A1 = Mat(m, n);
  for (Eigen::Index k = 0; k < p.A0.size(); ++k) p.A0.data()[k] = s.normal(), p.A1.data()[k] = s.normal();
  if (rotated) {
    Mat G(n, n);
    for (Eigen::Index k = 0; k < G.size(); ++k) G.data()[k] = s.normal();
    p.Q = Eigen::HouseholderQR<Mat>(G).householderQ();
  }
  p.eta_raw = 0.4 / 10.0;
  p.t0 = 30;
  p.post = 20;
  p.center = Mat::Zero(3, n);
  return p;
}

std::vector<double> rows(const ops::Tracking& p, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * p.n_obs());
  ops::tracking_rows(p, 13, b, first, count, threads, r.data());
  return r;
}

// Worst over trials and rules of max |a − b| / max |a| over the rule's entries.
double worst(const ops::Tracking& p, const std::vector<double>& a, const std::vector<double>& b) {
  double w = 0;
  for (int r = 0; r < 3; ++r) w = std::max(w, max_rel_diff_rows(a, b, p.n_obs(), p.obs(r, 0, 0), p.obs(r + 1, 0, 0)));
  return w;
}

}  // namespace

// A step forms the key (a rotation: one more n-term dot), δ (one dot) and each buffer's update
// (one dot and a row update): ≤ 2·kC·n·ε relative a step on keys whose normals differ by ≤ ζ,
// and the buffers contract, so after T steps every entry is within T·(2·kC·n·ε + ζ) of the
// reference relative to the rule's largest entry.
TEST(Tracking, CpuAndEmulatedMatchReference) {
  for (bool rotated : {false, true})
    for (int m : {1, 3}) {
      const auto p = op(32, m, rotated);
      const long long first = 2, count = 5, T = p.t0 + p.post;
      const auto ref = rows(p, Backend::reference, first, count, 1);
      const auto cpu = rows(p, Backend::cpu, first, count, 2);
      const auto emu = rows(p, Backend::cuda_emulated, first, count, 2);
      const double zeta = std::max(normal_error(13, first + count, hd::kKeys, T * 32),
                                   normal_error(13, first + count, hd::kNoise, T * m));
      const std::string what = std::string(rotated ? "rotated" : "aligned") + ", m = " + std::to_string(m);
      EXPECT_LE(worst(p, ref, cpu), T * 2 * kC * 32 * kEps64) << what;
      EXPECT_LE(worst(p, ref, emu), T * (2 * kC * 32 * kEps32 + zeta)) << what;
      EXPECT_EQ(emu, rows(p, Backend::cuda_emulated, first, count, 1)) << what;  // host threads change nothing
      EXPECT_EQ(cpu, rows(p, Backend::cpu, first, count, 1)) << what;
      const auto one = rows(p, Backend::cpu, first + 3, 1, 1);  // a trial's row whichever call computes it
      EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + 3 * p.n_obs())) << what;
    }
}

// Only row 0 is recorded, but the other rows' noise is drawn: m changes no recorded number of
// row 0 beyond the noise stream's shift, so m = 1 and m = 3 differ (a backend that forgot the
// other rows' draws would agree with m = 1 and fail the comparison above).
TEST(Tracking, OtherRowsDrawTheirNoise) {
  auto p1 = op(32, 1, false), p3 = op(32, 3, false);
  p3.A0.row(0) = p1.A0.row(0);
  p3.A1.row(0) = p1.A1.row(0);
  EXPECT_NE(rows(p1, Backend::reference, 0, 2, 1), rows(p3, Backend::reference, 0, 2, 1));
}

TEST(Tracking, StatisticsIndependentOfThreadsAndBatches) {
  const auto p = op(16, 1, true);
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::tracking(p, 3, Backend::cpu, mc); });
  // Batches of 7 trials (however a backend batches its launches) fold to the same bits.
  const McOptions mc = small_mc(3);
  const McResult a = ops::tracking(p, 3, Backend::cpu, mc);
  const McResult c = monte_carlo_rows(mc, p.n_obs(), [&](long long first, long long count, int threads, double* r) {
    ops::tracking_rows(p, 3, Backend::cpu, first, count, threads, r);
  }, 7);
  EXPECT_TRUE(a.total.mean() == c.total.mean());
  for (std::size_t g = 0; g < a.groups.size(); ++g) EXPECT_TRUE(a.groups[g].mean() == c.groups[g].mean());
}

TEST(Tracking, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(16, 1, false), change, param); };
  refused([](auto& p) { p.beta = -0.1; }, "beta");
  refused([](auto& p) { p.eta_raw = 0; }, "eta_raw");
  refused([](auto& p) { p.eta_normalized = std::nan(""); }, "eta_normalized");
  refused([](auto& p) { p.t0 = 0; }, "t0");
  refused([](auto& p) { p.Q = Mat::Identity(3, 3); }, "Q");
  refused([](auto& p) { p.A1 = Mat::Zero(2, 16); }, "A0, A1");
  refused([](auto& p) { p.center = Mat::Zero(2, 16); }, "center");
  refused([](auto& p) { p.noise_sigma = -1; }, "noise_sigma");
  const auto p24 = op(24, 1, false);  // the device kernel is unrolled for 16, 32 and 64
  std::vector<double> r(p24.n_obs());
  EXPECT_THROW(ops::tracking_rows(p24, 1, Backend::cuda_emulated, 0, 1, 1, r.data()), InputError);
}

TEST(Tracking, CudaMatchesEmulation) {
  REQUIRE_GPU();
  for (bool rotated : {false, true}) {
    const auto p = op(32, 1, rotated);
    const long long count = 301, T = p.t0 + p.post;  // 3 blocks, the last partly idle
    EXPECT_LE(worst(p, rows(p, Backend::cuda_emulated, 0, count, 2), rows(p, Backend::cuda, 0, count, 1)),
              T * (dev_step(32) + kC * 32 * kEps32))
        << (rotated ? "rotated" : "aligned");
  }
}
