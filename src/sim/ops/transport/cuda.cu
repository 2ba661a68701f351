// transport/cuda — the op on the device: one thread per trial runs trial.hpp (float).
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"
#include "trial.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::transport_detail;

Observations transport_cuda(const Transport& w, std::uint64_t seed) {
  require_device();
  require_size(w.n);
  const Grid g = grid_per_item(w.trials, kThreadsPerBlock);
  DevBuf<float> dsl(w.n), dv(std::size_t(w.trials) * w.n);
  upload(dsl, sqrt_power_f(w.n, false));
  const Args a{w.trials, w.steps, float(w.beta), float(w.eta), seed};
  if (w.n == 32) launch_per_item(g, Item<32>{dsl.p, a, dv.p});
  else launch_per_item(g, Item<64>{dsl.p, a, dv.p});
  return gather(w, download(dv, std::size_t(w.trials) * w.n));
}

}  // namespace akm::ops::detail
