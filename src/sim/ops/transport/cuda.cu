// transport/cuda — W1 on the device: one thread per trial runs trial.hpp (float).
#include "../../cuda/common.cuh"
#include "host.hpp"
#include "trial.hpp"

namespace akm::cuda {
namespace {

using namespace w1_detail;

template <int N>
__global__ void w1_kernel(const float* sl, Args a, float* v_out) {
  const long long t = item_of(blockIdx.x, threadIdx.x, blockDim.x);
  if (t >= a.trials) return;
  trial<N>(sl, a, t, v_out);
}

}  // namespace

using namespace detail;

wl::Observations w1(const wl::W1& w, std::uint64_t seed) {
  require_device();
  require_size(w.n);
  const Grid g = grid_per_item(w.trials, kThreadsPerBlock);
  DevBuf<float> dsl(w.n), dv(std::size_t(w.trials) * w.n);
  upload(dsl, sqrt_power_f(w.n, false));
  const Args a{w.trials, w.steps, float(w.beta), float(w.eta), seed};
  if (w.n == 32) w1_kernel<32><<<g.blocks, g.threads>>>(dsl.p, a, dv.p);
  else w1_kernel<64><<<g.blocks, g.threads>>>(dsl.p, a, dv.p);
  return gather(w, download(dv, std::size_t(w.trials) * w.n));
}

}  // namespace akm::cuda
