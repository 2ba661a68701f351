// transport/cuda — the op on the device (float): one warp per trial runs warp.hpp (the
// default), or one thread per trial runs trial.hpp (Transport::warp_per_trial = false, the
// earlier kernel, kept for an A/B).
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"
#include "trial.hpp"
#include "warp.hpp"

namespace akm::cuda::transport_detail {
namespace {

// The device side of warp.hpp's Warp: this thread's lane in registers, shuffles over the
// full warp (warp_grid runs only full warps, all lanes converged at every shuffle).
template <int N>
struct DeviceWarp {
  WarpLane<N> lane;
  int l;
  template <class F>
  __device__ void each(F&& f) { f(l, lane); }
  __device__ float shfl(const WarpLane<N>& q, float WarpLane<N>::*m, int src) const {
    return __shfl_sync(0xffffffffu, q.*m, src);
  }
  template <class F>
  __device__ void sums(float& a, float& b, F&& f) {
    f(lane, a, b);
    for (int o = kWarp / 2; o > 0; o >>= 1) {
      a += __shfl_xor_sync(0xffffffffu, a, o);
      b += __shfl_xor_sync(0xffffffffu, b, o);
    }
  }
};

// Threads item_of(…) = 32t … 32t + 31 are trial t's warp (blocks of whole warps); the tail
// past the last trial is whole warps, which return together.
template <int N>
__global__ void warp_kernel(long long items, const float* sl, Args a, float* v_out) {
  const long long i = item_of(blockIdx.x, threadIdx.x, blockDim.x);
  if (i >= items) return;
  DeviceWarp<N> w{{}, int(i & (kWarp - 1))};
  warp_trial<N>(w, sl, a, i / kWarp, v_out);
}

}  // namespace
}  // namespace akm::cuda::transport_detail

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::transport_detail;

Observations transport_cuda(const Transport& w, std::uint64_t seed) {
  require_device();
  require_size(w.n);
  const Grid g = w.warp_per_trial ? warp_grid(w.trials) : grid_per_item(w.trials, kThreadsPerBlock);
  DevBuf<float> dsl(w.n), dv(std::size_t(w.trials) * w.n);
  upload(dsl, sqrt_power_f(w.n, false));
  const Args a{w.trials, w.steps, float(w.beta), float(w.eta), seed};
  if (w.warp_per_trial) {
    if (w.n == 32) warp_kernel<32><<<g.blocks, g.threads>>>(g.items, dsl.p, a, dv.p);
    else warp_kernel<64><<<g.blocks, g.threads>>>(g.items, dsl.p, a, dv.p);
  } else {
    if (w.n == 32) launch_per_item(g, Item<32>{dsl.p, a, dv.p});
    else launch_per_item(g, Item<64>{dsl.p, a, dv.p});
  }
  return gather(w, download(dv, std::size_t(w.trials) * w.n));
}

}  // namespace akm::ops::detail
