// The host logic of the deployed op's cached device context (src/sim/ops/deployed/cache.hpp):
// how a kept buffer grows — with a counting allocator in place of cudaMalloc, so it runs
// without a device — the conversion kernels' grid, and plan.hpp's timing hooks on the
// emulated backend, which the cached flag does not change.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include "../../src/sim/ops/deployed/cache.hpp"
#include "akm/sim/ops/deployed.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm::cuda::deployed_detail;

namespace {

// Counts what it hands out and takes back; refuses past `limit` bytes, as cudaMalloc would.
struct Counting {
  int* live;
  std::vector<std::size_t>* sizes;
  std::size_t limit = std::size_t(-1);
  void* acquire(std::size_t bytes) {
    if (bytes > limit) throw std::bad_alloc();
    sizes->push_back(bytes);
    ++*live;
    return std::malloc(bytes);
  }
  void release(void* p) {
    --*live;
    std::free(p);
  }
};

}  // namespace

TEST(DeployedCache, CapacityKeptWhenItFitsElseWholeGrainsAndAtLeastHalfAgain) {
  EXPECT_EQ(grown_capacity(kGrain, 10), kGrain);  // fits: unchanged, never shrinks
  EXPECT_EQ(grown_capacity(kGrain, kGrain), kGrain);
  EXPECT_EQ(grown_capacity(0, 1), kGrain);  // whole grains
  EXPECT_EQ(grown_capacity(0, kGrain + 1), 2 * kGrain);
  EXPECT_EQ(grown_capacity(4 * kGrain, 4 * kGrain + 1), 6 * kGrain);  // 1.5× beats one more grain
  EXPECT_EQ(grown_capacity(2 * kGrain, 9 * kGrain), 9 * kGrain);  // a big jump: what it needs
  // Sizes growing by one element a call reallocate a logarithmic number of times.
  std::size_t cap = 0;
  int grows = 0;
  for (std::size_t need = 1; need <= 64 * kGrain; need += kGrain / 16) {
    const std::size_t next = grown_capacity(cap, need);
    EXPECT_GE(next, need);
    grows += next != cap;
    cap = next;
  }
  EXPECT_LE(grows, 12);
}

TEST(DeployedCache, BufferReusedWhileItFitsAndReleasedOnce) {
  int live = 0;
  std::vector<std::size_t> sizes;
  {
    Growing<float, Counting> b(Counting{&live, &sizes});
    float* first = b.reserve(1000);
    EXPECT_EQ(b.capacity(), kGrain);
    EXPECT_EQ(b.reserve(kGrain), first);  // fits: the same memory, no allocation
    EXPECT_EQ(b.reserve(10), first);
    EXPECT_EQ(b.grows(), 1);
    b.reserve(kGrain + 1);  // grows: the old buffer released before the new one is taken
    EXPECT_EQ(b.grows(), 2);
    EXPECT_EQ(b.capacity(), 2 * kGrain);
    EXPECT_EQ(live, 1);
    ASSERT_EQ(sizes.size(), 2u);
    EXPECT_EQ(sizes[1], 2 * kGrain * sizeof(float));
  }
  EXPECT_EQ(live, 0);
}

TEST(DeployedCache, FailedGrowthLeavesTheBufferEmptyNotDangling) {
  int live = 0;
  std::vector<std::size_t> sizes;
  Growing<double, Counting> b(Counting{&live, &sizes, kGrain * sizeof(double)});
  b.reserve(5);
  EXPECT_THROW(b.reserve(kGrain + 1), std::bad_alloc);
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(b.capacity(), 0u);
  EXPECT_EQ(live, 0);
  EXPECT_NE(b.reserve(5), nullptr);  // and usable again
  EXPECT_EQ(live, 1);
}

TEST(DeployedCache, ConversionGridNeverEmptyNeverPastTheLimit) {
  EXPECT_EQ(convert_blocks(0), 1u);
  EXPECT_EQ(convert_blocks(1), 1u);
  EXPECT_EQ(convert_blocks(256), 1u);
  EXPECT_EQ(convert_blocks(257), 2u);
  EXPECT_EQ(convert_blocks(std::size_t(1) << 40), 65535u);
}

// The emulated backend runs plan.hpp with the same hooks: its GEMMs are timed (host clock), and
// the cached flag, a device matter, leaves its numbers bit for bit the same.
TEST(DeployedCache, CudaEmulatedTimesItsGemmsAndIgnoresTheCachedFlag) {
  const auto c = akm_test::deployed_case(24, 40, 96, 7);
  auto per_call = c.w;
  per_call.cached = false;
  const auto a = ops::deployed(c.w, c.M0, c.D, c.X, Backend::cuda_emulated);
  const auto b = ops::deployed(per_call, c.M0, c.D, c.X, Backend::cuda_emulated);
  EXPECT_TRUE(a.gram == b.gram);
  EXPECT_TRUE(a.through_n == b.through_n);
  EXPECT_GT(a.kernel_seconds, 0.0);
  EXPECT_EQ(ops::deployed(c.w, c.M0, c.D, c.X, Backend::reference).kernel_seconds, 0.0);
}
