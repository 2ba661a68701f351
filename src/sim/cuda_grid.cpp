// cuda_grid — launch geometry of the CUDA backend (akm/sim/cuda_grid.hpp); compiled in every
// build, so the emulated backend and its tests use what the device launchers use.
#include "akm/sim/cuda_grid.hpp"

#include <string>

#include "akm/base/errors.hpp"

namespace akm::cuda {
namespace {
constexpr long long kMaxBlocks = 2147483647LL;  // gridDim.x limit (compute capability ≥ 3.0)

void require_threads(unsigned threads) {
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    throw InputError("threads per block", std::to_string(threads), "a multiple of 32 in [32, 1024]");
}
void require_items(long long items) {
  if (items < 1) throw InputError("trials", std::to_string(items), "at least 1 on --backend cuda");
}
}  // namespace

Grid grid_per_item(long long items, unsigned threads) {
  require_items(items);
  require_threads(threads);
  const long long blocks = items / threads + (items % threads != 0);  // no overflow near 2⁶³
  if (blocks > kMaxBlocks)
    throw InputError("trials", std::to_string(items),
                     "at most " + std::to_string(kMaxBlocks) + " blocks of " + std::to_string(threads));
  return {unsigned(blocks), threads, items};
}

Grid grid_block_per_item(long long items, unsigned threads) {
  require_items(items);
  require_threads(threads);
  if (items > kMaxBlocks)
    throw InputError("trials", std::to_string(items), "at most " + std::to_string(kMaxBlocks) + " (one block each)");
  return {unsigned(items), threads, items};
}

float block_sum_order(const float* v, int n) {
  if (n < 32 || n % 32 != 0) throw InputError("threads per block", std::to_string(n), "a positive multiple of 32");
  float s = 0.f;
  for (int w = 0; w < n / 32; ++w) {
    float a[32];
    for (int l = 0; l < 32; ++l) a[l] = v[32 * w + l];
    for (int o = 16; o > 0; o >>= 1)
      for (int l = 0; l < o; ++l) a[l] += a[l + o];
    s += a[0];
  }
  return s;
}

}  // namespace akm::cuda
