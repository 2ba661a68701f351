// ak_sgd_ema/cuda — the op on the device: one block of n threads per trial runs trial.hpp (float).
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"

namespace akm::cuda::ak_sgd_ema_detail {
namespace {

// The device side of trial.hpp's Block: this thread's lane in registers, block_sum, barriers.
struct DeviceBlock {
  Lane lane;
  float* sh;
  template <class F>
  __device__ void each(F&& f) { f(int(threadIdx.x), lane); }
  template <class F>
  __device__ float sum(F&& f) { return detail::block_sum(f(lane), sh); }
  template <int V, class F>
  __device__ void sums(float* s, F&& f) {
    f(lane, s);
    detail::block_sums<V>(s, sh);
  }
  __device__ void sync() { __syncthreads(); }
};

// Fused: one block_sums of kSums values a step; otherwise the earlier kernel's block_sum each.
template <bool Fused>
__global__ void block_kernel(const float* sl, Args a, float* e_out) {
  __shared__ float sh[Fused ? 33 * kSums : 33];
  __shared__ float z[1024], eps[kM];
  DeviceBlock blk{{}, sh};
  trial<Fused>(blk, sl, a, (long long)blockIdx.x, z, eps, e_out);
}

}  // namespace
}  // namespace akm::cuda::ak_sgd_ema_detail

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::ak_sgd_ema_detail;

Observations ak_sgd_ema_cuda(const AkSgdEma& w, std::uint64_t seed) {
  require_device();
  require_size(w);
  const Grid g = grid_block_per_item(w.trials, unsigned(w.n));
  DevBuf<float> dsl(w.n), de(per_trial(w) * w.trials);
  upload(dsl, sqrt_power_f(w.n, false));
  if (w.fused_reduction)
    block_kernel<true><<<g.blocks, g.threads>>>(dsl.p, args(w, seed), de.p);
  else
    block_kernel<false><<<g.blocks, g.threads>>>(dsl.p, args(w, seed), de.p);
  return gather(w, download(de, per_trial(w) * w.trials));
}

}  // namespace akm::ops::detail
