// cuda_grid — the CUDA backend's launch geometry and block reduction order, host-side and
// testable (docs/cuda.md).
//
// Every kernel of src/sim/ops/<op>/cuda.cu maps (block, thread) to an item (a trial, or a
// grid-point × trial row) with item_of, and the threads past the last item return; the
// emulated backend (Backend::cuda_emulated, src/sim/ops/<op>/emulated.cpp) walks the same grid with the same function.
#pragma once
#include <cstdint>

#include "akm/base/hd.hpp"

namespace akm::cuda {

/// A 1-D launch: `blocks` blocks of `threads` threads for `items` items.
struct Grid {
  /// Blocks in the grid (gridDim.x).
  unsigned blocks = 0, threads = 0;  ///< Threads per block (blockDim.x).
  long long items = 0;               ///< items to cover (the threads past the last one idle)
};

/// One thread per item, `threads` per block, the last block partly idle. Refuses (InputError
/// naming the parameter) items < 1, threads not a multiple of 32 in [32, 1024], and grids of
/// more than 2³¹ − 1 blocks.
Grid grid_per_item(long long items, unsigned threads);
/// One block of `threads` threads per item (the block cooperates on it). Same refusals.
Grid grid_block_per_item(long long items, unsigned threads);

/// The item of thread `thread` of block `block` in a one-thread-per-item grid.
AKM_HD inline long long item_of(unsigned block, unsigned thread, unsigned threads) {
  return static_cast<long long>(block) * threads + thread;
}

/// The block-wide float sum of v[0..n) in the order of the kernels' block_sum
/// (src/sim/cuda/common.cuh), n a multiple of 32: within each warp of 32 the shuffle tree
/// (offsets 16, 8, 4, 2, 1: a[l] += a[l + o] for l < o), then the warps' sums added in order
/// to 0.f. Refuses n not a positive multiple of 32.
float block_sum_order(const float* v, int n);

/// Threads per block of the one-thread-per-trial kernels.
constexpr unsigned kThreadsPerBlock = 128;

}  // namespace akm::cuda
