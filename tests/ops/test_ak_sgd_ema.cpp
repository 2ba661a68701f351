// The ak_sgd_ema op (bench label W2) on every backend held to its plain reference: the fast
// CPU engine (tests/test_engine.cpp states the rounding model), the CUDA block body run on the
// host with the device's block-sum order (docs/cuda.md), and — with a GPU — the device against
// the float engine and against its emulation (the bounds of support.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/ak_sgd_ema.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;
using engine::Precision;

TEST(AkSgdEma, CpuMatchesReference) {
  ops::AkSgdEma w;
  w.n = 64;
  w.trials = 4;
  w.steps = 100;
  const auto ref = ops::ak_sgd_ema(w, 9, Backend::reference, {.threads = 1});
  const auto d = ops::ak_sgd_ema(w, 9, Backend::cpu, {Precision::f64, 2});
  const auto f = ops::ak_sgd_ema(w, 9, Backend::cpu, {Precision::f32, 2});
  // Energies are squares: relative error doubles.
  const double tol64 = 2 * w.steps * kC * w.n * kEps64;
  const double tol32 = 2 * w.steps * (kC * w.n * kEps32 + 4e-4);
  EXPECT_LE(max_rel_diff(ref, d, 0, w.n_obs()), tol64);
  EXPECT_LE(max_rel_diff(ref, f, 0, w.n_obs()), tol32);
}

TEST(AkSgdEma, CpuGenericRowCountMatchesReference) {
  ops::AkSgdEma w;  // m ≠ 8 takes the generic (run-time m) path
  w.m = 5;
  w.n = 32;
  w.trials = 3;
  w.steps = 60;
  const auto ref = ops::ak_sgd_ema(w, 4, Backend::reference, {.threads = 1});
  const auto d = ops::ak_sgd_ema(w, 4, Backend::cpu, {Precision::f64, 2});
  EXPECT_LE(max_rel_diff(ref, d, 0, w.n_obs()), 2 * w.steps * kC * w.n * kEps64);
}

class AkSgdEmaVariant : public ::testing::TestWithParam<bool> {};

// Both kernel variants: the fused reduction (true) and the earlier 1 + 3m block sums (false).
TEST_P(AkSgdEmaVariant, CudaEmulatedMatchesReference) {
  ops::AkSgdEma w;
  w.n = 64;  // two warps: the block sum's warp order is exercised
  w.trials = 3;
  w.steps = 300;
  w.alpha = 0.2;
  w.fused_reduction = GetParam();
  auto emu = [](const ops::AkSgdEma& op, int threads) {
    return ops::ak_sgd_ema(op, 9, Backend::cuda_emulated, {.threads = threads});
  };
  const auto ref = ops::ak_sgd_ema(w, 9, Backend::reference, {.threads = 2});
  const auto e = emu(w, 2);
  ASSERT_EQ(e.values.size(), ref.values.size());
  const double err = max_rel_diff(ref, e, 0, w.n_obs());
  RecordProperty("w2_rel", sci(err));
  const double zeta = std::max({normal_error(9, w.trials, hd::kKeys, (long long)w.steps * w.n),
                                normal_error(9, w.trials, hd::kNoise, (long long)w.steps * w.m),
                                normal_error(9, w.trials, hd::kInit, (long long)w.m * w.n)});
  EXPECT_LE(err, 2 * w.steps * (kC * w.n * kEps32 + zeta));
  EXPECT_EQ(e.values, emu(w, 1).values);
  ops::AkSgdEma bad = w;
  bad.m = 5;
  EXPECT_THROW(emu(bad, 1), InputError);
  for (int n : {0, 48, 2048}) {
    bad = w;
    bad.n = n;
    EXPECT_THROW(emu(bad, 1), InputError) << "n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(AkSgdEma, AkSgdEmaVariant, ::testing::Bool(),
                         [](const auto& i) { return i.param ? "Fused" : "PerSum"; });

TEST(AkSgdEma, FusedReductionIsAnotherRoundingOfTheSameSums) {
  // The variants differ only in how the step's sums round (Σ M·k against (Σ M·x)/|x|): not
  // bit for bit equal, and within the float bound of one another.
  ops::AkSgdEma w;
  w.n = 96;
  w.trials = 2;
  w.steps = 200;
  const auto f = ops::ak_sgd_ema(w, 5, Backend::cuda_emulated, {.threads = 2});
  w.fused_reduction = false;
  const auto p = ops::ak_sgd_ema(w, 5, Backend::cuda_emulated, {.threads = 2});
  EXPECT_NE(f.values, p.values);
  EXPECT_LE(max_rel_diff(f, p, 0, w.n_obs()), 2 * w.steps * kC * w.n * kEps32);
}

TEST(AkSgdEma, CudaMatchesCpuFloat) {
  REQUIRE_GPU();
  ops::AkSgdEma w;
  w.n = 64;
  w.trials = 8;
  w.steps = 100;
  const auto cpu = ops::ak_sgd_ema(w, 8, Backend::cpu, {Precision::f32, 2});
  const auto gpu = ops::ak_sgd_ema(w, 8, Backend::cuda);
  EXPECT_LE(max_rel_diff(cpu, gpu, 0, w.n_obs()), 2 * w.steps * (kC * w.n * kEps32 + 4e-4));
}

TEST_P(AkSgdEmaVariant, CudaMatchesEmulation) {
  REQUIRE_GPU();
  ops::AkSgdEma w;
  w.n = 96;  // three warps
  w.trials = 4;
  w.steps = 100;
  w.fused_reduction = GetParam();
  EXPECT_LE(max_rel_diff(ops::ak_sgd_ema(w, 8, Backend::cuda_emulated, {.threads = 2}),
                         ops::ak_sgd_ema(w, 8, Backend::cuda), 0, w.n_obs()),
            2 * w.steps * dev_step(w.n));
}
