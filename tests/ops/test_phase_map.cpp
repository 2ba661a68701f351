// The phase_map op (bench label W3) on every backend held to its plain reference: the fast
// CPU engine (tests/test_engine.cpp states the rounding model), the CUDA row body run on the
// host over the kernel's grid (docs/cuda.md), and — with a GPU — the device against the float
// engine and against its emulation (the bounds of support.hpp). The exponent is an average of
// log-norm increments, each off by ≤ c·n·ε (+ the float normals' error), so the average is off
// by at most that much.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/phase_map.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;
using engine::Precision;

TEST(PhaseMap, CpuMatchesReference) {
  ops::PhaseMap w;
  w.n_eta = 3;
  w.n_beta = 3;
  w.trials = 3;
  w.steps = 200;
  const auto ref = ops::phase_map(w, 5, Backend::reference, {.threads = 1});
  const auto d = ops::phase_map(w, 5, Backend::cpu, {Precision::f64, 2});
  const auto f = ops::phase_map(w, 5, Backend::cpu, {Precision::f32, 2});
  for (long long r = 0; r < ref.trials; ++r) {
    EXPECT_NEAR(d.at(r, 0), ref.at(r, 0), 2 * kC * w.n * kEps64 * 100) << "row " << r;
    EXPECT_NEAR(f.at(r, 0), ref.at(r, 0), 2 * (kC * w.n * kEps32 + 4e-4)) << "row " << r;
  }
}

TEST(PhaseMap, CudaEmulatedMatchesReference) {
  ops::PhaseMap w;
  w.n_eta = w.n_beta = 3;
  w.trials = 5;
  w.steps = 150;
  const auto ref = ops::phase_map(w, 5, Backend::reference, {.threads = 2});
  const auto e = ops::phase_map(w, 5, Backend::cuda_emulated, {.threads = 2});
  ASSERT_EQ(e.values.size(), ref.values.size());
  const double zeta = normal_error(5, ref.trials, hd::kKeys, (long long)w.steps * w.n);
  double worst = 0.0;
  for (long long r = 0; r < ref.trials; ++r) {
    worst = std::max(worst, std::abs(e.at(r, 0) - ref.at(r, 0)));
    EXPECT_NEAR(e.at(r, 0), ref.at(r, 0), 2 * (kC * w.n * kEps32 + zeta)) << "row " << r;
  }
  RecordProperty("w3_abs", sci(worst));
  w.n = 16;
  EXPECT_THROW(ops::phase_map(w, 5, Backend::cuda_emulated, {.threads = 1}), InputError);
}

TEST(PhaseMap, CudaMatchesCpuFloat) {
  REQUIRE_GPU();
  ops::PhaseMap w;
  w.n_eta = w.n_beta = 4;
  w.trials = 16;
  w.steps = 200;
  const auto cpu = ops::phase_map(w, 8, Backend::cpu, {Precision::f32, 2});
  const auto gpu = ops::phase_map(w, 8, Backend::cuda);
  for (long long r = 0; r < cpu.trials; ++r)
    EXPECT_NEAR(cpu.at(r, 0), gpu.at(r, 0), 2 * (kC * w.n * kEps32 + 4e-4)) << "row " << r;
}

TEST(PhaseMap, CudaMatchesEmulation) {
  REQUIRE_GPU();
  ops::PhaseMap w;
  w.n_eta = w.n_beta = 4;
  w.trials = 9;
  w.steps = 200;
  const auto e = ops::phase_map(w, 8, Backend::cuda_emulated, {.threads = 2});
  const auto g = ops::phase_map(w, 8, Backend::cuda);
  for (long long r = 0; r < e.trials; ++r) EXPECT_NEAR(e.at(r, 0), g.at(r, 0), 2 * dev_step(w.n)) << "row " << r;
}
