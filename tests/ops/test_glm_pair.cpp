// The glm_pair op (T10's part B Monte Carlo) held to its plain reference: the cpu path (plain
// loops, batched normals) against logistic::AkSgdPair, within the rounding model of
// tests/test_engine.cpp; rows independent of the host thread count and of which call computes
// them; the layout's fixed points; the backends it has not refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/glm_pair.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// A spiked spectrum, w* of margin 2 on the top direction (T10's teacher), the offset of equal
// share on every direction at ε = 1e-3, and a step in the pair's mean-square stable range.
ops::GlmPair op(int n, bool soft) {
  ops::GlmPair p;
  p.lambda = Vec(n);
  for (int i = 0; i < n; ++i) p.lambda[i] = i < 3 ? 10.0 / (i + 1) : 0.5;
  p.w_star = Vec::Zero(n);
  p.w_star[0] = 2.0 / std::sqrt(p.lambda[0]);
  p.offset = Vec(n);
  for (int i = 0; i < n; ++i) p.offset[i] = 1e-3 / std::sqrt(n * p.lambda[i]);
  p.soft = soft;
  p.alpha = 0.2;
  p.steps = 120;
  p.stride = 3;
  p.shown = {0, 2, n - 1};
  return p;
}

std::vector<double> rows(const ops::GlmPair& p, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * p.n_obs());
  ops::glm_pair_rows(p, 13, b, first, count, threads, r.data());
  return r;
}

// Worst over trials of max |a − b| over the observables [j0, j1) relative to the largest |a|
// among [s0, s1) of the same trial.
double worst(const ops::GlmPair& p, const std::vector<double>& a, const std::vector<double>& b, std::size_t j0,
             std::size_t j1, std::size_t s0, std::size_t s1) {
  double w = 0;
  for (std::size_t t = 0; t * p.n_obs() < a.size(); ++t) {
    const std::size_t o = t * p.n_obs();
    double scale = 0, diff = 0;
    for (std::size_t j = s0; j < s1; ++j) scale = std::max(scale, std::abs(a[o + j]));
    for (std::size_t j = j0; j < j1; ++j) diff = std::max(diff, std::abs(a[o + j] - b[o + j]));
    w = std::max(w, diff / std::max(scale, 1e-300));
  }
  return w;
}

}  // namespace

// Both paths draw the same normals and uniforms. A step forms six n-term dots (w*ᵀx, w̄ᵀx, Δwᵀx,
// ‖x‖², M̄ᵀx̂, ΔMᵀx̂) through σ, its derivative and the half-difference (each a few ulp, |σ'| ≤
// 1/4): ≤ 8·kC·n·ε relative a step, and the pair's step map contracts in mean at this α, so
// after T steps the state (Δw, ΔM) is within δ_T = T·8·kC·n·ε of the reference relative to its
// scale: the shown trajectories Δw_i/v_i relative to their largest point (each starts at 1), the
// squared Σ-norm's within 2δ_T; the regression sums, products of two
// states summed over T steps, within 2δ_T + T·kC·ε relative to their direction's largest sum;
// the remainder Σ|Δδ − σ'd| (a cancellation: O(ε³) against O(ε)) and Σ|σ'd| within δ_T of
// Σ|σ'd|; the midpoint's spread as below. A Bernoulli label compares the same uniform with σ(w*ᵀx) on both paths: a flip needs
// u within a few ulp of σ (about 1e-14 over these draws) and would fail the comparison.
TEST(GlmPair, CpuMatchesReference) {
  for (bool soft : {true, false})
    for (int n : {6, 12}) {
      const auto p = op(n, soft);
      const long long first = 2, count = 4, T = p.steps;
      const auto ref = rows(p, Backend::reference, first, count, 1);
      const auto cpu = rows(p, Backend::cpu, first, count, 2);
      const double dT = T * 8 * kC * n * kEps64;
      const std::size_t r0 = p.rem(0);
      double w_mom = 0;
      for (int i = 0; i < n; ++i) w_mom = std::max(w_mom, worst(p, ref, cpu, p.mom(i, 0), p.mom(i, 7), p.mom(i, 0), p.mom(i, 7)));
      RecordProperty(soft ? "worst_moments_soft" : "worst_moments_bernoulli", sci(w_mom));
      EXPECT_LE(w_mom, 2 * dT + T * kC * kEps64) << "n = " << n << (soft ? " soft" : " bernoulli");
      const std::size_t S = p.shown.size();  // the shown directions' Δw_i/v_i, each 1 at step 0; then ‖Δw‖²_Σ/‖v‖²_Σ
      EXPECT_LE(worst(p, ref, cpu, p.traj(0, 0), p.traj(S, 0), p.traj(0, 0), p.traj(S, 0)), dT) << "n = " << n;
      EXPECT_LE(worst(p, ref, cpu, p.traj(S, 0), r0, p.traj(S, 0), r0), 2 * dT) << "n = " << n;
      EXPECT_LE(worst(p, ref, cpu, r0, r0 + 2, r0 + 1, r0 + 2), dT) << "n = " << n;
      // The midpoint's spread (1/T)Σ(w̄ᵀx − w*ᵀx)² is a cancellation too: w̄ᵀx − w*ᵀx moves by ≤ e =
      // 2δ_T·A, A = 8.6·Σ|w*_i|√λ_i ≥ |w*ᵀx| (|z| ≤ 8.6; w̄ within O(ε²) of w*), so the mean
      // square by ≤ (2√spread + e)·e.
      const double A = 8.6 * (p.w_star.cwiseAbs().array() * p.lambda.array().sqrt()).sum(), e = 2 * dT * A;
      for (long long t = 0; t < count; ++t) {
        const double sr = ref[t * p.n_obs() + r0 + 2], sc = cpu[t * p.n_obs() + r0 + 2];
        EXPECT_LE(std::abs(sr - sc), (2 * std::sqrt(sr) + e) * e) << "n = " << n << ", trial " << t;
      }
      EXPECT_NE(ref, cpu) << "n = " << n;  // two different summation orders: equal bits would mean one ran twice
      EXPECT_EQ(cpu, rows(p, Backend::cpu, first, count, 1)) << "n = " << n;  // threads change nothing
      const auto one = rows(p, Backend::cpu, first + 2, 1, 1);
      EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + 2 * p.n_obs())) << "n = " << n;
    }
}

// Step 0 of every trajectory is 1 (Δw_0 = v), and the soft pair's remainder is a small fraction
// of its linear part (O(ε²) relative, ε = 1e-3) on both paths: a path that dropped the label or
// the half-difference would not keep either.
TEST(GlmPair, LayoutAndLinearization) {
  const auto p = op(6, true);
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto r = rows(p, b, 0, 3, 1);
    for (long long t = 0; t < 3; ++t) {
      const double* o = r.data() + t * p.n_obs();
      for (std::size_t d = 0; d <= p.shown.size(); ++d) EXPECT_EQ(o[p.traj(d, 0)], 1.0) << to_string(b);
      EXPECT_GT(o[p.rem(1)], 0.0) << to_string(b);
      EXPECT_LT(o[p.rem(0)], 1e-3 * o[p.rem(1)]) << to_string(b);
      EXPECT_GT(o[p.mom(0, 0)], 0.0) << to_string(b);
    }
  }
}

TEST(GlmPair, StatisticsIndependentOfThreads) {
  const auto p = op(6, false);
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::glm_pair(p, 3, Backend::cpu, mc); });
}

TEST(GlmPair, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(6, true), change, param); };
  refused([](auto& p) { p.lambda[2] = 0.0; }, "lambda");
  refused([](auto& p) { p.lambda = Vec(); }, "lambda");
  refused([](auto& p) { p.w_star = Vec::Zero(5); }, "w_star");
  refused([](auto& p) { p.offset = Vec::Zero(6); }, "offset");
  refused([](auto& p) { p.offset[0] = std::nan(""); }, "offset");
  refused([](auto& p) { p.alpha = 0.0; }, "alpha");
  refused([](auto& p) { p.beta = 1.0; }, "beta");
  refused([](auto& p) { p.eta = -1.0; }, "eta");
  refused([](auto& p) { p.steps = 0; }, "steps");
  refused([](auto& p) { p.stride = 0; }, "stride");
  refused([](auto& p) { p.shown = {6}; }, "shown");
  refused([](auto& p) { p.offset[5] = 0.0; }, "shown");
  const auto p = op(6, true);  // no device kernel: refused by name, before any work
  std::vector<double> r(p.n_obs());
  expect_no_device_path([&](Backend b) { ops::glm_pair_rows(p, 1, b, 0, 1, 1, r.data()); });
}
