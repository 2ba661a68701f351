// The span_buffers op (T9's Monte Carlo) held to its plain reference: the cpu path (the AK
// buffer as coefficients on the keys, read through the Gram matrix) against the full m×p
// buffers of span_path, within the rounding model of tests/test_engine.cpp; rows independent
// of the host thread count and of which call computes them; the backends it has not refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/span_buffers.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// p > n_s random keys of unequal norms, m value rows, D random unit directions; a grid with
// the first and last steps, a window of the last half.
ops::SpanBuffers op(int p, int n_s, int m, int D) {
  ops::SpanBuffers o;
  Stream s(23, 0, Purpose::init);
  Mat X(p, n_s);
  for (Eigen::Index k = 0; k < X.size(); ++k) X.data()[k] = s.normal() * (1.0 + (k % 7));
  o.norms = X.colwise().norm().transpose();
  o.keys = X * o.norms.cwiseInverse().asDiagonal();
  o.values = Mat(m, n_s);
  for (Eigen::Index k = 0; k < o.values.size(); ++k) o.values.data()[k] = s.normal();
  o.directions = Mat(p, D);
  for (Eigen::Index k = 0; k < o.directions.size(); ++k) o.directions.data()[k] = s.normal();
  o.directions = o.directions * o.directions.colwise().norm().cwiseInverse().asDiagonal();
  o.steps = 120;
  o.grid = {1, 2, 10, 60, 120};
  o.window_start = 61;
  return o;
}

std::vector<double> rows(const ops::SpanBuffers& o, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * o.n_obs());
  ops::span_buffers_rows(o, 19, b, first, count, threads, r.data());
  return r;
}

}  // namespace

// Both paths pick the same data points (the same uniforms). A step's AK increment reads M x̂_s,
// a p-term dot in the reference and an n_s-term dot on Gram entries (each a p-term dot) in the
// cpu path: ≤ kC·(p + n_s)·ε relative a step; the projections' recursions are the same
// operations; the buffer contracts, so after T steps every entry is within
// T·kC·(p + n_s)·ε of the reference relative to the largest entry of its trial.
TEST(SpanBuffers, CpuMatchesReference) {
  for (int m : {1, 2}) {
    const auto o = op(96, 24, m, 3);
    const long long first = 4, count = 5;
    const auto ref = rows(o, Backend::reference, first, count, 1);
    const auto cpu = rows(o, Backend::cpu, first, count, 2);
    const double w = max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.n_obs());
    RecordProperty("worst_rel_diff", sci(w));
    EXPECT_LE(w, o.steps * kC * (96 + 24) * kEps64) << "m = " << m;
    EXPECT_GT(w, 0.0) << "m = " << m;  // two different routes: equal bits would mean one ran twice
    EXPECT_EQ(cpu, rows(o, Backend::cpu, first, count, 1)) << "m = " << m;  // threads change nothing
    const auto one = rows(o, Backend::cpu, first + 2, 1, 1);
    EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + 2 * o.n_obs())) << "m = " << m;
  }
}

// The window slot is the mean of the projections over [window_start, steps]: at window_start =
// steps it is the last step's record, on both paths.
TEST(SpanBuffers, WindowOfOneStepIsTheLastRecord) {
  auto o = op(48, 16, 2, 2);
  o.window_start = o.steps;
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto r = rows(o, b, 0, 2, 1);
    for (long long t = 0; t < 2; ++t)
      for (std::size_t k = 0; k < o.per_step(); ++k)
        EXPECT_DOUBLE_EQ(r[t * o.n_obs() + o.grid.size() * o.per_step() + k], r[t * o.n_obs() + (o.grid.size() - 1) * o.per_step() + k])
            << to_string(b);
  }
}

TEST(SpanBuffers, StatisticsIndependentOfThreads) {
  const auto o = op(48, 16, 2, 2);
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::span_buffers(o, 3, Backend::cpu, mc); });
}

TEST(SpanBuffers, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(48, 16, 1, 2), change, param); };
  refused([](auto& o) { o.beta = 1.0; }, "beta");
  refused([](auto& o) { o.eta = -1; }, "eta");
  refused([](auto& o) { o.norms = Vec::Ones(3); }, "norms");
  refused([](auto& o) { o.values = Mat::Zero(1, 3); }, "values");
  refused([](auto& o) { o.directions = Mat::Zero(47, 2); }, "directions");
  refused([](auto& o) { o.grid = {3, 2}; }, "grid");
  refused([](auto& o) { o.window_start = 0; }, "window_start");
  refused([](auto& o) { o.steps = 0; }, "steps");
  const auto o = op(48, 16, 1, 2);  // no device kernel: refused by name, before any work
  std::vector<double> r(o.n_obs());
  expect_no_device_path([&](Backend b) { ops::span_buffers_rows(o, 1, b, 0, 1, 1, r.data()); });
}
