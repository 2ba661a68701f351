// The mlp_coord op (T13's coordinate check and Muon pair) held to its plain reference: the cpu
// path shares the arms' init, batches and probe passes but forms every result by the same
// operations on the same operands, so its rows equal the reference's bit for bit (the contract
// of src/sim/ops/mlp_coord/shared_work.cpp; a shared draw or pass taken at the wrong width, arm
// or step changes bits); the reduction's slopes and paired differences as their definitions;
// rows independent of the thread count and of which call computes them; what no backend can
// run refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/line_fit.hpp"
#include "akm/sim/ops/mlp_coord.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// Three small widths, four steps, every optimizer family paired as T13 pairs them.
ops::MlpCoord small_coord_op() {
  ops::MlpCoord o;
  o.setup.widths = {6, 12, 24};
  o.setup.steps = 4, o.setup.probe = 5, o.setup.base = 12, o.setup.batch = 4;
  o.arms = {{"ak-adamw", "ak-adamw", 1e-3, 0.0, 1}, {"adamw", "adamw", 1e-2, 0.0},
            {"ak-adamw-sqrt", "ak-adamw", 1e-3, 0.5, 1}, {"ak-sgd", "ak-sgd", 2e-3, 0.0, 4},
            {"sgd-m", "sgd-m", 0.1, 0.0}, {"ak-muon", "ak-muon", 0.05, 0.0, 6}, {"muon", "muon", 0.05, 0.0}};
  o.task = make_task("teacher", spiked_sqrt_lambda(7, {3, 2}, 1.0), 1, 0.1, 17, 8, 3);
  return o;
}

std::vector<double> coord_rows(const ops::MlpCoord& o, Backend b, long long first, long long count, int threads,
                         std::uint64_t seed = 23) {
  std::vector<double> r(std::size_t(count) * o.n_obs());
  ops::mlp_coord_rows(o, seed, b, first, count, threads, r.data());
  return r;
}

}  // namespace

TEST(MlpCoord, CpuEqualsReferenceBitForBit) {
  const auto o = small_coord_op();
  const long long first = 3, count = 3;
  const auto ref = coord_rows(o, Backend::reference, first, count, 1);
  const auto cpu = coord_rows(o, Backend::cpu, first, count, 2);
  EXPECT_EQ(ref, cpu);
  EXPECT_TRUE(std::all_of(ref.begin(), ref.end(), [](double v) { return std::isfinite(v); }));
  EXPECT_EQ(cpu, coord_rows(o, Backend::cpu, first, count, 1));  // threads change nothing
  const auto one = coord_rows(o, Backend::cpu, first + 1, 1, 1);  // nor which call computes a seed
  EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + o.n_obs()));
  EXPECT_NE(ref, coord_rows(o, Backend::reference, first, count, 1, 24));  // the root seed matters
}

// The reduction: each step and window slope is the OLS slope of the logged values over log n,
// each paired difference the arm's window slope less its reference's, m̄ positive and the
// step-1 ratio statistics consistent (RMS(R) ≥ median|R|/√2).
TEST(MlpCoord, SlopesAndPairedDifferencesAreTheirDefinitions) {
  const auto o = small_coord_op();
  const auto lay = o.layout();
  const auto r = coord_rows(o, Backend::cpu, 0, 1, 1);
  std::vector<double> lx;
  for (int n : o.setup.widths) lx.push_back(std::log(n));
  for (int a = 0; a < lay.arms; ++a)
    for (int l = 0; l < lay.layers; ++l)
      for (int q = 0; q < 2; ++q) {
        std::vector<double> ly, lw;
        for (int w = 0; w < lay.widths; ++w) {
          ly.push_back(std::log(r[lay.value(a, w, 2, l, q)]));
          double m = 0;
          for (int t = 1; t < lay.steps; ++t) m += r[lay.value(a, w, t, l, q)] / (lay.steps - 1);
          lw.push_back(std::log(m));
        }
        EXPECT_DOUBLE_EQ(r[lay.step_slope(a, 2, l, q)], ols_slope(lx, ly));
        EXPECT_DOUBLE_EQ(r[lay.window_slope(a, 1, l, q)], ols_slope(lx, lw));
      }
  for (int a : lay.paired)
    for (int k = 0; k < ops::MlpCoordLayout::kWindows; ++k)
      for (int l = 0; l < lay.layers; ++l) {
        const int ref = o.arms[a].reference;
        EXPECT_EQ(r[lay.diff(a, k, l)], r[lay.window_slope(a, k, l, 1)] - r[lay.window_slope(ref, k, l, 1)]);
        EXPECT_EQ(r[lay.diff_act(a, k, l)], r[lay.window_slope(a, k, l, 0)] - r[lay.window_slope(ref, k, l, 0)]);
      }
  for (int w = 0; w < lay.widths; ++w) {
    EXPECT_GT(r[lay.step1(w, 0)], 0.0);
    EXPECT_GE(r[lay.step1(w, 1)], r[lay.step1(w, 2)] / std::sqrt(2.0));  // RMS² ≥ ½·median² for |R| ≥ 0
  }
}

// The pairing: every arm starts from the same init and sees the same first batch, so at step 1
// the AK arm and its √w twin hold the same moments and differ only by the rate factor w^½ on
// every fan-in-n layer (hidden, output); the input layer's fan-in is not the width. The ratio
// is exact up to the rounding of ΔW = (W₀ − αu) − W₀, relative ε·|W₀|/(α|u|) ≲ 1e-13 here.
TEST(MlpCoord, TheSqrtArmIsTheAkArmTimesRootWidthAtStepOne) {
  const auto o = small_coord_op();
  const auto lay = o.layout();
  const auto r = coord_rows(o, Backend::reference, 1, 1, 1);
  for (int w = 0; w < lay.widths; ++w) {
    const double root_w = std::sqrt(o.setup.widths[w] / double(o.setup.base));
    EXPECT_NEAR(r[lay.value(2, w, 0, 0, 1)] / r[lay.value(0, w, 0, 0, 1)], 1.0, 1e-12) << "input layer, w " << w;
    for (int l : {1, 2})
      EXPECT_NEAR(r[lay.value(2, w, 0, l, 1)] / r[lay.value(0, w, 0, l, 1)], root_w, 1e-9 * root_w) << "layer " << l;
  }
}

TEST(MlpCoord, StatisticsIndependentOfThreads) {
  auto o = small_coord_op();
  o.setup.widths = {4, 8};
  o.setup.steps = 2;
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::mlp_coord(o, 3, Backend::cpu, mc); });
}

TEST(MlpCoord, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(small_coord_op(), change, param); };
  refused([](auto& o) { o.setup.widths = {8}; }, "widths");
  refused([](auto& o) { o.setup.widths = {8, 0}; }, "widths");
  refused([](auto& o) { o.setup.steps = 1; }, "steps");
  refused([](auto& o) { o.setup.probe = 0; }, "probe");
  refused([](auto& o) { o.setup.batch = 0; }, "batch");
  refused([](auto& o) { o.setup.base = 0; }, "base");
  refused([](auto& o) { o.setup.beta = 1.0; }, "beta");
  refused([](auto& o) { o.setup.eta = 0.0; }, "eta");
  refused([](auto& o) { o.arms.resize(1); }, "arms");
  refused([](auto& o) { o.arms[1].reference = 1; }, "arms[1].reference");
  refused([](auto& o) { o.arms[0].optimizer = "lion"; }, "optimizer");
  refused([](auto& o) { o.arms[0].lr = -1; }, "lr");
  const auto o = small_coord_op();  // no device kernel: refused by name, before any work
  std::vector<double> r(o.n_obs());
  expect_no_device_path([&](Backend b) { ops::mlp_coord_rows(o, 1, b, 0, 1, 1, r.data()); });
}
