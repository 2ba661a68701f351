// transport/cuda — W1 on the device: one thread per trial runs trial.hpp (float).
#include "../../cuda/common.cuh"
#include "host.hpp"
#include "trial.hpp"

namespace akm::cuda {

using namespace detail;
using namespace w1_detail;

wl::Observations w1(const wl::W1& w, std::uint64_t seed) {
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

}  // namespace akm::cuda
