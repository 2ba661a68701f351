// The batch_rule op (T15's Monte Carlo) held to its plain reference: the cpu path (the factored
// form in plain loops) against rules::deployed in the order of eq:dispatch, within the rounding
// model of tests/test_engine.cpp; rows independent of the host thread count and of which call
// computes them; batch sizes on their own streams; the backends it has not refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/batch_rule.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// n keys of a unit-trace power-law spectrum, an m×n value map of unit normals, a centre of unit
// normals (so that ‖M_T − C‖² is of the entries' scale, not a cancellation).
ops::BatchRule op(int m, int n, std::vector<int> batches) {
  ops::BatchRule o;
  Stream s(29, 0, Purpose::init);
  o.sqrt_lambda = Vec(n);
  double tr = 0;
  for (int i = 0; i < n; ++i) tr += 1.0 / (i + 1);
  for (int i = 0; i < n; ++i) o.sqrt_lambda[i] = std::sqrt(1.0 / ((i + 1) * tr));
  o.A = Mat(m, n);
  for (Eigen::Index k = 0; k < o.A.size(); ++k) o.A.data()[k] = s.normal();
  o.center = Mat(m, n);
  for (Eigen::Index k = 0; k < o.center.size(); ++k) o.center.data()[k] = s.normal();
  o.steps = 60;
  o.batches = std::move(batches);
  return o;
}

std::vector<double> rows(const ops::BatchRule& o, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * o.n_obs());
  ops::batch_rule_rows(o, 17, b, first, count, threads, r.data());
  return r;
}

}  // namespace

// Both paths draw the same normals (NormalStream is akm::Stream's sequence). An update's
// increment η(G − MΣ̂_B) is, entry by entry, a sum over the batch of n-term dots, so either order
// is within kC(n + N)ε of the exact increment relative to the sum of the absolute terms,
// η(S_Δ + n·S_M) with S_Δ ≥ |Δ| (|z|, |ξ| ≤ 8.6 on the 2⁻⁵³ grid: S_Δ = 8.6(max_c Σ_i|A_ci|√λ_i
// + σ)) and S_M the buffer's scale (|x̂_i| ≤ 1). The update contracts (Σ̂_B's eigenvalues lie in
// [0, 1], so βI − ηΣ̂_B has norm ≤ max(β, |β − η|) < 1): the errors of T updates add, ≤
// T·kC(n + N)ε·η(S_Δ + n·S_M) per entry, with S_M the largest entry of M_T (the buffer rises
// from 0 towards its fixed point). The squared distance then moves by ≤ (2d + e)e, d = ‖M_T − C‖_F,
// e = √(mn) times the entries' bound, plus its own mn-term sum's kC·mn·ε·d².
TEST(BatchRule, CpuMatchesReference) {
  // n ≥ 2m: the reference's through-N order; (m, n) = (5, 6): its Gram order [eq:dispatch].
  for (auto [m, n] : {std::pair{1, 8}, std::pair{3, 8}, std::pair{5, 6}}) {
    const auto o = op(m, n, {1, 4, 16});
    const long long first = 3, count = 4;
    const auto ref = rows(o, Backend::reference, first, count, 1);
    const auto cpu = rows(o, Backend::cpu, first, count, 2);
    double s_delta = 0;
    for (int c = 0; c < m; ++c) s_delta = std::max(s_delta, (o.A.row(c).cwiseAbs() * o.sqrt_lambda.asDiagonal()).sum());
    s_delta = 8.6 * (s_delta + o.sigma);
    double worst = 0;  // |cpu − ref| over its bound, every trial, batch size and observable
    for (long long t = 0; t < count; ++t)
      for (std::size_t b = 0; b < o.batches.size(); ++b) {
        const double* r = ref.data() + t * o.n_obs() + o.obs(b, 0);
        const double* c = cpu.data() + t * o.n_obs() + o.obs(b, 0);
        const std::size_t ne = std::size_t(m) * n;
        double s_m = 0;
        for (std::size_t e = 0; e < ne; ++e) s_m = std::max(s_m, std::abs(r[e]));
        const double entry = o.steps * kC * (n + o.batches[b]) * kEps64 * o.eta * (s_delta + n * s_m);
        for (std::size_t e = 0; e < ne; ++e) worst = std::max(worst, std::abs(r[e] - c[e]) / entry);
        const double ef = std::sqrt(double(ne)) * entry, d = std::sqrt(r[ne]);
        worst = std::max(worst, std::abs(r[ne] - c[ne]) / ((2 * d + ef) * ef + kC * ne * kEps64 * r[ne]));
      }
    RecordProperty("worst_over_bound", sci(worst));
    EXPECT_LE(worst, 1.0) << "m = " << m << ", n = " << n;
    EXPECT_NE(ref, cpu) << "m = " << m;  // two different orders: equal bits would mean one ran twice
    EXPECT_EQ(cpu, rows(o, Backend::cpu, first, count, 1)) << "m = " << m;  // threads change nothing
    const auto one = rows(o, Backend::cpu, first + 1, 1, 1);
    EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + o.n_obs())) << "m = " << m;
  }
}

// Batch size b of trial t runs on its own streams (16t + b): dropping a later size leaves the
// earlier sizes' rows unchanged.
TEST(BatchRule, BatchSizesOnTheirOwnStreams) {
  const auto both = op(2, 6, {2, 8}), first_only = op(2, 6, {2});
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto r2 = rows(both, b, 0, 2, 1), r1 = rows(first_only, b, 0, 2, 1);
    for (long long t = 0; t < 2; ++t)
      EXPECT_TRUE(std::equal(r1.begin() + t * first_only.n_obs(), r1.begin() + (t + 1) * first_only.n_obs(),
                             r2.begin() + t * both.n_obs()))
          << to_string(b);
  }
}

TEST(BatchRule, StatisticsIndependentOfThreads) {
  const auto o = op(2, 6, {1, 4});
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::batch_rule(o, 3, Backend::cpu, mc); });
}

TEST(BatchRule, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(2, 6, {1, 4}), change, param); };
  refused([](auto& o) { o.beta = 1.0; }, "beta");
  refused([](auto& o) { o.eta = 0.0; }, "eta");
  refused([](auto& o) { o.sigma = -1.0; }, "sigma");
  refused([](auto& o) { o.sqrt_lambda = Vec(); }, "sqrt_lambda");
  refused([](auto& o) { o.sqrt_lambda[1] = std::nan(""); }, "sqrt_lambda");
  refused([](auto& o) { o.A = Mat::Zero(2, 5); }, "A");
  refused([](auto& o) { o.center = Mat::Zero(6, 2); }, "center");
  refused([](auto& o) { o.batches = {}; }, "batches");
  refused([](auto& o) { o.batches = {4, 0}; }, "batches");
  refused([](auto& o) { o.batches = std::vector<int>(17, 1); }, "batches");
  refused([](auto& o) { o.steps = 0; }, "steps");
  const auto o = op(2, 6, {1});  // no device kernel: refused by name, before any work
  std::vector<double> r(o.n_obs());
  expect_no_device_path([&](Backend b) { ops::batch_rule_rows(o, 1, b, 0, 1, 1, r.data()); });
}
