// emulate — how the emulated backend walks a kernel's grid on the host (docs/cuda.md): one
// pool task per block, its threads in order, each mapped to its item by the item_of the
// launchers use and skipped past the last item, as the kernels' tail threads return. Items
// own their outputs, so the result does not depend on the host thread count.
#pragma once
#include <cstddef>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/cuda_grid.hpp"

namespace akm::cuda::detail {

template <class Body>
void emulate_grid(const Grid& g, int host_threads, Body&& body) {
  parallel_for(0, g.blocks, host_threads, [&](std::size_t b) {
    for (unsigned t = 0; t < g.threads; ++t) {
      const long long item = item_of(unsigned(b), t, g.threads);
      if (item >= g.items) return;  // the tail of the last block
      body(item);
    }
  });
}

}  // namespace akm::cuda::detail
