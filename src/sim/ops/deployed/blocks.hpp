// deployed/blocks — the cpu paths' fixed work split (cpu.cpp's Eigen products and cblas.cpp's
// BLAS calls), written once. No Eigen here: cpu.cpp renames Eigen for the native ISA.
#pragma once
#include <algorithm>
#include <cstddef>

#include "akm/base/thread_pool.hpp"

namespace akm::ops::detail {

/// Rows of M (and columns of Σ̂_B) go in kBlocks blocks whatever the thread count, each block
/// one thread's, so the numbers never depend on the threads.
constexpr int kBlocks = 8;

/// fn(b) for b = 0..kBlocks−1 on `threads` threads of the shared pool; block b covers
/// [size·b/kBlocks, size·(b+1)/kBlocks).
template <class Fn>
void parallel_blocks(int threads, Fn&& fn) {
  parallel_for(0, kBlocks, std::max(1, threads), [&](std::size_t b) { fn(int(b)); });
}

}  // namespace akm::ops::detail
