// transport/emulated — the op on the emulated CUDA backend (docs/cuda.md): the kernel's body
// over the kernel's grid, on the host. Warp per trial: one pool task per block, its warps in
// order, each a HostWarp running warp.hpp's 32 lanes in lock-step, the tail's whole warps
// skipped as the kernel's return; thread per trial: trial.hpp per item (emulate.hpp).
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "../../cuda/emulate.hpp"
#include "../../cuda/host.hpp"
#include "backends.hpp"
#include "host.hpp"
#include "trial.hpp"
#include "warp.hpp"

namespace akm::ops::detail {
namespace {

using namespace cuda;
using namespace cuda::transport_detail;

template <int N>
void emulate_warps(const Grid& g, int threads, const float* sl, const Args& a, float* v) {
  parallel_for(0, g.blocks, threads, [&](std::size_t b) {
    HostWarp<N> hw;
    for (unsigned w0 = 0; w0 < g.threads; w0 += kWarp) {
      const long long i = item_of(unsigned(b), w0, g.threads);
      if (i >= g.items) return;  // the tail of the last block: whole warps
      warp_trial<N>(hw, sl, a, i / kWarp, v);
    }
  });
}

}  // namespace

Observations transport_cuda_emulated(const Transport& w, std::uint64_t seed, int threads) {
  require_size(w.n);
  const Grid g = w.warp_per_trial ? warp_grid(w.trials) : grid_per_item(w.trials, kThreadsPerBlock);
  const auto sl = cuda::detail::sqrt_power_f(w.n, false);
  std::vector<float> v(std::size_t(w.trials) * w.n);
  const Args a{w.trials, w.steps, float(w.beta), float(w.eta), seed};
  if (w.warp_per_trial) {
    if (w.n == 32) emulate_warps<32>(g, threads, sl.data(), a, v.data());
    else emulate_warps<64>(g, threads, sl.data(), a, v.data());
  } else {
    if (w.n == 32) cuda::detail::emulate_grid(g, threads, Item<32>{sl.data(), a, v.data()});
    else cuda::detail::emulate_grid(g, threads, Item<64>{sl.data(), a, v.data()});
  }
  return gather(w, v);
}

}  // namespace akm::ops::detail
