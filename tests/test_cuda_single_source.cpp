// The pieces of the CUDA backend that are host functions too (docs/cuda.md): the device stream
// (akm/random/stream_hd.hpp) against akm::Stream, the launch geometry and block reduction order
// (akm/sim/cuda_grid.hpp), the device queries, and the no-device refusal of every op's
// Backend::cuda. No device needed. Each op's backends are held to its reference in tests/ops/.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/random/stream_hd.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/cuda_grid.hpp"
#include "akm/sim/ops/ak_sgd_ema.hpp"
#include "akm/sim/ops/deployed.hpp"
#include "akm/sim/ops/fit.hpp"
#include "akm/sim/ops/phase_map.hpp"
#include "akm/sim/ops/phase_measure.hpp"
#include "akm/sim/ops/transport.hpp"
#include "rounding_bounds.hpp"

using namespace akm;

namespace {
using akm_test::kEps32;  // tests/rounding_bounds.hpp

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST(DeviceStream, DoubleStreamIsAkmStreamBitForBit) {
  for (std::uint64_t seed : {0ULL, 7ULL, 0xFFFFFFFF12345678ULL})
    for (std::uint64_t trial : {0ULL, 3ULL, 0x100000001ULL})
      for (Purpose p : {Purpose::keys, Purpose::noise, Purpose::init}) {
        Stream ref(seed, trial, p);
        hd::Stream<double> dev(seed, trial, std::uint32_t(p));
        for (int i = 0; i < 40; ++i) {
          ASSERT_EQ(dev.bits(), ref.bits());
          ASSERT_TRUE(same_bits(dev.uniform(), ref.uniform()));
          ASSERT_TRUE(same_bits(dev.normal(), ref.normal())) << "draw " << i;
        }
      }
}

TEST(DeviceStream, AlignedFastPathIsTheGeneralPathAndAkmStream) {
  // normal() reads a fresh block's words at fixed indices; normal_general() chooses them at
  // run time (philox_next): both, and akm::Stream, give the same numbers bit for bit.
  for (std::uint64_t seed : {0ULL, 7ULL, 0xFFFFFFFF12345678ULL})
    for (Purpose p : {Purpose::keys, Purpose::noise, Purpose::init}) {
      Stream ref(seed, 3, p);
      hd::Stream<double> fast(seed, 3, std::uint32_t(p)), gen = fast;
      hd::Stream<float> ffast(seed, 3, std::uint32_t(p)), fgen = ffast;
      for (int i = 0; i < 200; ++i) {
        const double r = ref.normal();
        ASSERT_TRUE(same_bits(fast.normal(), r)) << "draw " << i;
        ASSERT_TRUE(same_bits(gen.normal_general(), r)) << "draw " << i;
        const float a = ffast.normal(), b = fgen.normal_general();
        ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "draw " << i;
      }
    }
}

TEST(DeviceStream, OddBitsCallLeavesTheFastPathForTheGeneralOne) {
  // One bits() call misaligns the stream (a pair then straddles two blocks): normal() must
  // take normal_general() and still be akm::Stream's numbers; a uniform between normals too.
  Stream ref(5, 2, Purpose::keys);
  hd::Stream<double> fast(5, 2, hd::kKeys), gen = fast;
  const std::uint64_t w = ref.bits();
  ASSERT_EQ(fast.bits(), w);
  ASSERT_EQ(gen.bits(), w);
  for (int i = 0; i < 100; ++i) {
    const double r = ref.normal();
    ASSERT_TRUE(same_bits(fast.normal(), r)) << "draw " << i;
    ASSERT_TRUE(same_bits(gen.normal_general(), r)) << "draw " << i;
    if (i % 7 == 3) {
      const double u = ref.uniform();
      ASSERT_TRUE(same_bits(fast.uniform(), u));
      ASSERT_TRUE(same_bits(gen.uniform(), u));
    }
  }
}

TEST(DeviceStream, ZeroWordInAFreshBlockFallsBackToTheRedraw) {
  // k = 0 (probability 2⁻⁵³ a word) cannot be met by drawing: hand-built blocks with a zero
  // radius word, then a zero angle word, go to normal_general() from word 0, which redraws
  // from the next block as akm::Stream's philox_next does.
  for (int zero : {0, 2}) {
    hd::Stream<double> fast(9, 4, hd::kNoise);
    fast.seek(6);
    ++fast.ctr[0];  // as if normal() had just drawn block 6 into `out`
    const std::uint32_t words[4] = {0x12345678u, 0x9abcdef0u, 0x0fedcba9u, 0x87654321u};
    for (int i = 0; i < 4; ++i) fast.out[i] = words[i];
    fast.out[zero] = 0;
    fast.out[zero + 1] = 0x7ffu;  // k = 0x7ff >> 11 = 0
    hd::Stream<double> gen = fast;
    gen.next_word = 0;
    ASSERT_TRUE(same_bits(fast.normal_from_block(), gen.normal_general())) << zero;
    EXPECT_EQ(fast.ctr[0], 8u) << "one block redrawn";
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(same_bits(fast.normal(), gen.normal_general())) << zero << " " << i;
  }
}

TEST(DeviceStream, SeekStartsAtThatPhiloxBlock) {
  // Block b holds normals 2b and 2b + 1 when no uniform is redrawn (probability 2⁻⁵³ a draw).
  Stream ref(11, 5, Purpose::keys);
  std::vector<double> z(64);
  for (auto& v : z) v = ref.normal();
  hd::Stream<double> dev(11, 5, hd::kKeys);
  for (std::uint32_t b : {31u, 0u, 17u}) {
    dev.normal();  // leave a spare pending: seek must drop it
    dev.seek(b);
    EXPECT_TRUE(same_bits(dev.normal(), z[2 * b]));
    EXPECT_TRUE(same_bits(dev.normal(), z[2 * b + 1]));
  }
}

TEST(DeviceStream, FloatUniformsAreTheDoubleOnesRoundedAndNormalsClose) {
  hd::Stream<double> d(3, 9, hd::kKeys);
  hd::Stream<float> f(3, 9, hd::kKeys);
  double worst = 0.0;
  for (int i = 0; i < 4000; ++i) {
    hd::Stream<double> d2 = d;
    hd::Stream<float> f2 = f;
    ASSERT_EQ(f2.uniform(), float(d2.uniform()));
    worst = std::max(worst, std::abs(double(f.normal()) - d.normal()));
  }
  // tests/test_engine.cpp's bound for float normals: √(2·ε·2) at u → 1 plus a few ulps of |z| ≤ 8.
  EXPECT_LE(worst, std::sqrt(2.0 * kEps32 * 2) + 8 * kEps32 * 8);
}

TEST(CudaGrid, OneThreadPerItemCoversEveryItemOnce) {
  for (long long items : {1LL, 127LL, 128LL, 129LL, 1000LL, 4096LL}) {
    const cuda::Grid g = cuda::grid_per_item(items, 128);
    EXPECT_EQ(g.threads, 128u);
    EXPECT_GE((long long)g.blocks * g.threads, items) << items;
    EXPECT_LT((long long)(g.blocks - 1) * g.threads, items) << items;  // no idle block
    std::vector<int> seen(std::size_t(items), 0);
    long long idle = 0;
    for (unsigned b = 0; b < g.blocks; ++b)
      for (unsigned t = 0; t < g.threads; ++t) {
        const long long i = cuda::item_of(b, t, g.threads);
        if (i < items) ++seen[std::size_t(i)];
        else ++idle;
      }
    for (int s : seen) ASSERT_EQ(s, 1);
    EXPECT_EQ(idle, (long long)g.blocks * g.threads - items);
  }
  // Past 2³² threads the index must not wrap in 32 bits.
  EXPECT_EQ(cuda::item_of(40000000u, 127u, 128u), 40000000LL * 128 + 127);
}

TEST(CudaGrid, RefusesBadGeometryNamingIt) {
  auto refused = [](auto f, const std::string& param) {
    try {
      f();
    } catch (const InputError& e) {
      return e.param() == param;
    }
    return false;
  };
  EXPECT_TRUE(refused([] { cuda::grid_per_item(0, 128); }, "trials"));
  EXPECT_TRUE(refused([] { cuda::grid_per_item(-5, 128); }, "trials"));
  EXPECT_TRUE(refused([] { cuda::grid_per_item(10, 0); }, "threads per block"));
  EXPECT_TRUE(refused([] { cuda::grid_per_item(10, 48); }, "threads per block"));
  EXPECT_TRUE(refused([] { cuda::grid_per_item(10, 2048); }, "threads per block"));
  EXPECT_TRUE(refused([] { cuda::grid_per_item(2147483648LL * 128, 128); }, "trials"));
  EXPECT_NO_THROW(cuda::grid_per_item(2147483647LL * 128, 128));
  EXPECT_TRUE(refused([] { cuda::grid_block_per_item(2147483648LL, 64); }, "trials"));
  EXPECT_TRUE(refused([] { cuda::grid_block_per_item(4, 1056); }, "threads per block"));
  const cuda::Grid g = cuda::grid_block_per_item(5, 64);
  EXPECT_EQ(g.blocks, 5u);
  EXPECT_EQ(g.threads, 64u);
}

TEST(CudaGrid, BlockSumIsTheWarpTreeThenTheWarpsInOrder) {
  const float big = 16777216.f;  // 2²⁴: adding 1 rounds back (ties to even), adding 2 does not
  std::vector<float> v(64, 0.f);
  v[0] = big;
  v[1] = 1.f;
  v[17] = 1.f;  // lanes 1 and 17 meet first (offset 16), then join lane 0 as 2
  EXPECT_EQ(cuda::block_sum_order(v.data(), 32), big + 2.f);
  float seq = 0.f;
  for (int i = 0; i < 32; ++i) seq += v[std::size_t(i)];
  EXPECT_EQ(seq, big);  // a left-to-right sum loses both ones: the order matters
  v[40] = 1.f;  // the second warp's sum (1) is added to the first's: big + 2 + 1 rounds to even
  EXPECT_EQ(cuda::block_sum_order(v.data(), 64), big + 4.f);
  EXPECT_THROW(cuda::block_sum_order(v.data(), 48), InputError);
  EXPECT_THROW(cuda::block_sum_order(v.data(), 0), InputError);
}

TEST(CudaRefusal, EveryLauncherSaysWhyWithoutADevice) {
  std::string why;
  if (cuda::built() && !cuda::device_name(&why).empty()) GTEST_SKIP() << "a CUDA device is present";
  const std::string expect = cuda::built() ? "no CUDA device" : "no CUDA backend";
  auto says = [&](auto f) {
    try {
      f();
    } catch (const std::exception& e) {
      return std::string(e.what()).find(expect) != std::string::npos;
    }
    return false;
  };
  // Sizes the kernels do not support: the missing device is still what is reported first.
  ops::Transport w1;
  w1.n = 5;
  ops::AkSgdEma w2;
  w2.m = 3;
  ops::PhaseMap w3;
  ops::Fit fit;
  fit.lambda = {1.0, 0.5};
  EXPECT_TRUE(says([&] { ops::transport(w1, 1, Backend::cuda); }));
  EXPECT_TRUE(says([&] { ops::ak_sgd_ema(w2, 1, Backend::cuda); }));
  EXPECT_TRUE(says([&] { ops::phase_map(w3, 1, Backend::cuda); }));
  EXPECT_TRUE(says([&] {
    ops::deployed(ops::Deployed{}, Mat::Zero(2, 2), Mat::Zero(4, 2), Mat::Zero(4, 2), Backend::cuda);
  }));
  EXPECT_TRUE(says([&] { ops::fit(fit, 1, Backend::cuda); }));
  EXPECT_TRUE(says([&] { ops::phase_measure(ops::PhaseMeasure{}, {1.0}, {}, Backend::cuda); }));
}

TEST(Cuda, ReportsBuildAndDevice) {
  std::string why;
  const std::string name = cuda::device_name(&why);
  if (!cuda::built()) {
    EXPECT_TRUE(name.empty());
    GTEST_SKIP() << "built without the CUDA backend";
  }
  if (name.empty()) {
    // Built with CUDA but no device: the backend must say why instead of failing silently.
    EXPECT_FALSE(why.empty());
    GTEST_SKIP() << "no CUDA device (" << why << ")";
  }
  EXPECT_GT(cuda::device_fp32_peak(), 0.0);
}
