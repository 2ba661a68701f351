// The transport op (bench label W1) on every backend held to its plain reference: the fast
// CPU engine (tests/test_engine.cpp states the rounding model), the CUDA bodies (one warp per
// trial, one thread per trial) run on the host over their kernels' grids (docs/cuda.md), the
// warp's keys against the serial stream, and — with a GPU — the device against the float
// engine and against its emulation (the bounds of support.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <type_traits>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/transport.hpp"
#include "support.hpp"
#include "../../src/sim/ops/transport/warp.hpp"

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

class TransportKernel : public ::testing::TestWithParam<bool> {};

// Both kernels: one warp per trial (true, the default) and one thread per trial (false). Trial
// counts: one warp; 5 and 131, a last block of 4 warps (or 128 threads) partly idle.
TEST_P(TransportKernel, CudaEmulatedMatchesReference) {
  ops::Transport w;
  w.steps = 100;
  w.warp_per_trial = GetParam();
  auto emu = [&](int threads) { return ops::transport(w, 42, Backend::cuda_emulated, {.threads = threads}); };
  for (long long trials : {1LL, 5LL, 131LL})
    for (int n : {32, 64}) {
      w.n = n;
      w.trials = trials;
      const auto ref = ops::transport(w, 42, Backend::reference, {.threads = 2});
      const auto e = emu(2);
      ASSERT_EQ(e.values.size(), ref.values.size());
      const double err = max_rel_diff(ref, e, 0, w.n);
      if (trials == 131) RecordProperty(std::string(GetParam() ? "w1_warp" : "w1") + "_rel_n" + std::to_string(n), sci(err));
      const double zeta = normal_error(42, w.trials, hd::kKeys, (long long)w.steps * n);
      EXPECT_LE(err, w.steps * (kC * w.n * kEps32 + zeta)) << "n = " << n << ", trials = " << trials;
      EXPECT_EQ(e.values, emu(1).values) << "n = " << n;  // host threads change nothing
      EXPECT_EQ(e.values, emu(3).values) << "n = " << n;
    }
  w.n = 48;
  EXPECT_THROW(emu(1), InputError);
  w.n = 32;
  w.trials = 0;
  EXPECT_THROW(emu(1), InputError);
}

INSTANTIATE_TEST_SUITE_P(Transport, TransportKernel, ::testing::Bool(),
                         [](const auto& i) { return i.param ? "WarpPerTrial" : "ThreadPerTrial"; });

TEST(Transport, WarpKeysAreTheSerialStreamsNormals) {
  // Every lane's normals, bit for bit the serial trial's (hd::Stream::normal() in turn), over
  // steps that start and end rounds of 64 normals (N = 32: two steps a round), two trials.
  using namespace cuda::transport_detail;
  auto check = [](auto n_tag) {
    constexpr int N = decltype(n_tag)::value;
    for (long long t : {0LL, 77LL}) {
      HostWarp<N> hw;
      hd::Stream<float> warp_st(3, std::uint64_t(t), hd::kKeys), serial(3, std::uint64_t(t), hd::kKeys);
      for (int step = 0; step < 7; ++step) {
        warp_keys<N>(hw, warp_st, step);
        for (int i = 0; i < N; ++i) {
          const float z = serial.normal();
          ASSERT_EQ(std::memcmp(&z, &hw.lanes[i % kWarp].z[i / kWarp], sizeof z), 0)
              << "N = " << N << ", trial " << t << ", step " << step << ", coordinate " << i;
        }
      }
    }
  };
  check(std::integral_constant<int, 32>{});
  check(std::integral_constant<int, 64>{});
}

TEST(Transport, WarpAndThreadKernelsAreRoundingsOfTheSameKeys) {
  // The same keys, sums in another order (lane partials and a butterfly against left to right):
  // not bit for bit equal, within the float sum bound with no normal term — keys shifted by
  // even one normal would miss it by orders.
  ops::Transport w;
  w.trials = 9;
  w.steps = 40;
  for (int n : {32, 64}) {
    w.n = n;
    w.warp_per_trial = true;
    const auto warp = ops::transport(w, 6, Backend::cuda_emulated, {.threads = 2});
    w.warp_per_trial = false;
    const auto thread = ops::transport(w, 6, Backend::cuda_emulated, {.threads = 2});
    EXPECT_NE(warp.values, thread.values) << "n = " << n;
    const double err = max_rel_diff(thread, warp, 0, w.n);
    RecordProperty("w1_warp_vs_thread_rel_n" + std::to_string(n), sci(err));
    EXPECT_LE(err, w.steps * kC * w.n * kEps32) << "n = " << n;
  }
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

TEST_P(TransportKernel, CudaMatchesEmulation) {
  REQUIRE_GPU();
  ops::Transport w;
  w.trials = 301;  // 3 blocks of threads, 76 of 4 warps; the last partly idle
  w.steps = 200;
  w.warp_per_trial = GetParam();
  EXPECT_LE(max_rel_diff(ops::transport(w, 8, Backend::cuda_emulated, {.threads = 2}),
                         ops::transport(w, 8, Backend::cuda), 0, w.n),
            w.steps * dev_step(w.n));
}
