// The optimizer_loop op (T4's Monte Carlo) held to its plain reference: the fast CPU engine in
// double against the Eigen kernels of the reference, within the rounding model of
// tests/test_engine.cpp, on every arm; the moments as the sums of the recorded states; rows
// independent of the host thread count and of which call computes them; the device backends
// refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/optimizer_loop.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// A spiked law, 60 steps, α small enough that every arm contracts.
ops::OptimizerLoop op(int n, BufferKind rule) {
  ops::OptimizerLoop o;
  o.sqrt_lambda = Vec(n);
  for (int i = 0; i < n; ++i) o.sqrt_lambda[i] = std::sqrt(i < 2 ? 4.0 / (i + 1) : 0.5);
  o.rule = rule;
  o.eta = rule == BufferKind::ak_raw ? 0.1 : 0.5;
  o.alpha = 0.2;
  o.steps = 60;
  return o;
}

std::vector<double> rows(const ops::OptimizerLoop& o, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * o.n_obs());
  ops::optimizer_loop_rows(o, 11, b, first, count, threads, r.data());
  return r;
}

const BufferKind kArms[] = {BufferKind::ak_raw, BufferKind::ak_normalized, BufferKind::ema};

}  // namespace

// A step forms δ (an n-term dot), the key's norm and the AK update's dot (two more), then the
// buffer and θ updates: ≤ 3·kC·n·ε relative a step; the loop contracts, so after T steps every
// state is within T·3·kC·n·ε of the reference relative to the trial's largest state; a moment
// sums T products of such states: within T·(2·T·3·kC·n + kC·T)·ε relative to its largest.
TEST(OptimizerLoop, CpuMatchesReference) {
  for (BufferKind rule : kArms)
    for (int n : {5, 32}) {
      const auto o = op(n, rule);
      const long long first = 2, count = 4;
      const auto ref = rows(o, Backend::reference, first, count, 1);
      const auto cpu = rows(o, Backend::cpu, first, count, 2);
      const std::string what = std::string(to_string(rule)) + " n = " + std::to_string(n);
      const double ws = max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.moment(0, 0));
      const double wm = max_rel_diff_rows(ref, cpu, o.n_obs(), o.moment(0, 0), o.n_obs());
      const double T = o.steps;
      EXPECT_LE(ws, T * 3 * kC * n * kEps64) << what;
      EXPECT_LE(wm, T * (2 * T * 3 * kC * n + kC * T) * kEps64) << what;
      EXPECT_GT(ws, 0.0) << what;  // two different routes: equal bits would mean one ran twice
      EXPECT_EQ(cpu, rows(o, Backend::cpu, first, count, 1)) << what;  // threads change nothing
      const auto one = rows(o, Backend::cpu, first + 1, 1, 1);
      EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + o.n_obs())) << what;
    }
}

// On both paths each moment is the sum over t of products of the recorded states.
TEST(OptimizerLoop, MomentsAreSumsOfTheStates) {
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto o = op(6, BufferKind::ak_normalized);
    const auto r = rows(o, b, 0, 2, 1);
    for (std::size_t t = 0; t < 2; ++t) {
      const double* row = r.data() + t * o.n_obs();
      for (int i = 0; i < o.n(); ++i) {
        double q[7] = {}, mag = 0;
        for (int s = 0; s < o.steps; ++s) {
          const double e0 = row[o.state(s, i, 0)], m0 = row[o.state(s, i, 1)];
          const double e1 = row[o.state(s + 1, i, 0)], m1 = row[o.state(s + 1, i, 1)];
          const double p[7] = {e0 * e0, e0 * m0, m0 * m0, e1 * e0, e1 * m0, m1 * e0, m1 * m0};
          for (int k = 0; k < 7; ++k) q[k] += p[k], mag = std::max(mag, std::abs(p[k]));
        }
        for (int k = 0; k < 7; ++k)
          EXPECT_NEAR(row[o.moment(i, k)], q[k], kC * o.steps * kEps64 * mag * o.steps) << to_string(b) << " i=" << i << " k=" << k;
      }
    }
  }
}

// The label noise enters δ: σ = 0 and σ = 0.1 give different states after the first step (a
// path that dropped the noise would agree with σ = 0), and the first state is (1, 0) either way.
TEST(OptimizerLoop, NoiseEntersTheValue) {
  auto o = op(4, BufferKind::ema);
  const auto noisy = rows(o, Backend::cpu, 0, 1, 1);
  o.noise_sigma = 0.0;
  const auto clean = rows(o, Backend::cpu, 0, 1, 1);
  EXPECT_EQ(noisy[o.state(0, 0, 0)], 1.0);
  EXPECT_EQ(noisy[o.state(0, 0, 1)], 0.0);
  EXPECT_NE(noisy[o.state(1, 0, 1)], clean[o.state(1, 0, 1)]);
}

// A given start e_0 is the first state on both paths, and the cpu path stays within the bound
// above. Without noise the loop is linear in e_0: e_0 = 2·1 gives twice every state of e_0 = 1,
// bit for bit (a power of two scales exactly), so the start feeds the whole recursion.
TEST(OptimizerLoop, GivenStartFeedsTheLoop) {
  for (BufferKind rule : kArms) {
    auto o = op(6, rule);
    o.e0 = (Vec(6) << 0.5, -1.0, 2.0, 0.0, 1.5, -0.25).finished();
    const auto ref = rows(o, Backend::reference, 0, 3, 1), cpu = rows(o, Backend::cpu, 0, 3, 2);
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(ref[o.state(0, i, 0)], o.e0[i]) << to_string(rule);
      EXPECT_EQ(cpu[o.state(0, i, 0)], o.e0[i]) << to_string(rule);
    }
    EXPECT_LE(max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.moment(0, 0)), o.steps * 3 * kC * 6 * kEps64) << to_string(rule);
    o.noise_sigma = 0.0;
    for (Backend b : {Backend::reference, Backend::cpu}) {
      o.e0 = Vec::Ones(6);
      const auto one = rows(o, b, 0, 2, 1);
      o.e0 = Vec::Constant(6, 2.0);
      const auto two = rows(o, b, 0, 2, 1);
      for (std::size_t j = 0; j < o.moment(0, 0); ++j) EXPECT_EQ(two[j], 2.0 * one[j]) << to_string(rule) << " " << to_string(b);
    }
  }
}

TEST(OptimizerLoop, StatisticsIndependentOfThreads) {
  const auto o = op(8, BufferKind::ak_raw);
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::optimizer_loop(o, 3, Backend::cpu, mc); });
}

TEST(OptimizerLoop, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(4, BufferKind::ak_raw), change, param); };
  refused([](auto& o) { o.beta = -0.1; }, "beta");
  refused([](auto& o) { o.eta = 0; }, "eta");
  refused([](auto& o) { o.alpha = std::nan(""); }, "alpha");
  refused([](auto& o) { o.noise_sigma = -1; }, "noise_sigma");
  refused([](auto& o) { o.steps = 0; }, "steps");
  refused([](auto& o) { o.e0 = Vec::Ones(3); }, "e0");
  refused([](auto& o) { o.sqrt_lambda = Vec(); }, "sqrt_lambda");
  auto ema = op(4, BufferKind::ema);
  ema.eta = 0;  // EMA has no η
  EXPECT_NO_THROW(ema.validate());
  const auto o = op(4, BufferKind::ak_raw);  // no device kernel: refused by name, before any work
  std::vector<double> r(o.n_obs());
  expect_no_device_path([&](Backend b) { ops::optimizer_loop_rows(o, 1, b, 0, 1, 1, r.data()); });
}
