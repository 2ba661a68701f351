// The transport op (bench label W1) on every backend held to its plain reference: the fast
// CPU engine (tests/test_engine.cpp states the rounding model), the CUDA trial body run on the
// host over the kernel's grid (docs/cuda.md), and — with a GPU — the device against the float
// engine and against its emulation (the bounds of support.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/transport.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;
using engine::Precision;

TEST(Transport, CpuMatchesReference) {
  ops::Transport w;
  w.trials = 6;
  w.steps = 200;
  const auto ref = ops::transport(w, 42, Backend::reference, {.threads = 1});
  const auto d = ops::transport(w, 42, Backend::cpu, {Precision::f64, 2});
  const auto f = ops::transport(w, 42, Backend::cpu, {Precision::f32, 2});
  const double tol64 = w.steps * kC * w.n * kEps64;
  const double tol32 = w.steps * (kC * w.n * kEps32 + 4e-4);
  const double e64 = max_rel_diff(ref, d, 0, w.n), e32 = max_rel_diff(ref, f, 0, w.n);
  RecordProperty("w1_f64_rel", std::to_string(e64));
  RecordProperty("w1_f32_rel", std::to_string(e32));
  EXPECT_LE(e64, tol64);
  EXPECT_LE(e32, tol32);
  EXPECT_EQ(d.values.size(), ref.values.size());
}

TEST(Transport, CpuIsThreadCountIndependent) {
  ops::Transport w;
  w.trials = 9;
  w.steps = 50;
  auto cpu = [&](Precision p, int threads) { return ops::transport(w, 1, Backend::cpu, {p, threads}).values; };
  EXPECT_EQ(cpu(Precision::f64, 1), cpu(Precision::f64, 2));
  EXPECT_EQ(cpu(Precision::f32, 1), cpu(Precision::f32, 3));
}

TEST(Transport, CudaEmulatedMatchesReference) {
  ops::Transport w;
  w.trials = 131;  // one full block of 128 and a tail of 3
  w.steps = 100;
  auto emu = [&](int threads) { return ops::transport(w, 42, Backend::cuda_emulated, {.threads = threads}); };
  for (int n : {32, 64}) {
    w.n = n;
    const auto ref = ops::transport(w, 42, Backend::reference, {.threads = 2});
    const auto e = emu(2);
    ASSERT_EQ(e.values.size(), ref.values.size());
    const double err = max_rel_diff(ref, e, 0, w.n);
    RecordProperty("w1_rel_n" + std::to_string(n), sci(err));
    const double zeta = normal_error(42, w.trials, hd::kKeys, (long long)w.steps * n);
    EXPECT_LE(err, w.steps * (kC * w.n * kEps32 + zeta)) << "n = " << n;
    EXPECT_EQ(e.values, emu(1).values);  // host threads change nothing
  }
  w.n = 48;
  EXPECT_THROW(emu(1), InputError);
}

TEST(Transport, CudaMatchesCpuFloat) {
  REQUIRE_GPU();
  ops::Transport w;
  w.trials = 300;
  w.steps = 200;
  const auto cpu = ops::transport(w, 8, Backend::cpu, {Precision::f32, 2});
  const auto gpu = ops::transport(w, 8, Backend::cuda);
  EXPECT_LE(max_rel_diff(cpu, gpu, 0, w.n), w.steps * (kC * w.n * kEps32 + 4e-4));
}

TEST(Transport, CudaMatchesEmulation) {
  REQUIRE_GPU();
  ops::Transport w;
  w.trials = 300;  // 3 blocks, the last partly idle
  w.steps = 200;
  EXPECT_LE(max_rel_diff(ops::transport(w, 8, Backend::cuda_emulated, {.threads = 2}),
                         ops::transport(w, 8, Backend::cuda), 0, w.n),
            w.steps * dev_step(w.n));
}
