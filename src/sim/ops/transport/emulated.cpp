// transport/emulated — the op on the emulated CUDA backend: the kernel's trial body
// (trial.hpp) over the kernel's grid, on the host (docs/cuda.md).
#include <vector>

#include "../../cuda/emulate.hpp"
#include "../../cuda/host.hpp"
#include "backends.hpp"
#include "host.hpp"
#include "trial.hpp"

namespace akm::ops::detail {

Observations transport_cuda_emulated(const Transport& w, std::uint64_t seed, int threads) {
  using namespace cuda;
  using namespace cuda::transport_detail;
  require_size(w.n);
  const Grid g = grid_per_item(w.trials, kThreadsPerBlock);
  const auto sl = cuda::detail::sqrt_power_f(w.n, false);
  std::vector<float> v(std::size_t(w.trials) * w.n);
  const Args a{w.trials, w.steps, float(w.beta), float(w.eta), seed};
  if (w.n == 32) cuda::detail::emulate_grid(g, threads, Item<32>{sl.data(), a, v.data()});
  else cuda::detail::emulate_grid(g, threads, Item<64>{sl.data(), a, v.data()});
  return gather(w, v);
}

}  // namespace akm::ops::detail
