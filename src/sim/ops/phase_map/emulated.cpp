// phase_map/emulated — W3 on the emulated CUDA backend: the kernel's row body (trial.hpp)
// over the kernel's grid, on the host (docs/cuda.md).
#include "akm/sim/cuda_emulated.hpp"

#include "../../cuda/emulate.hpp"
#include "../../cuda/host.hpp"
#include "host.hpp"

namespace akm::cuda::emulated {

wl::Observations w3(const wl::W3& w, std::uint64_t seed, int threads) {
  using namespace w3_detail;
  require_size(w.n);
  const Args a = args(w, seed);
  const Grid g = grid_per_item(a.rows, kThreadsPerBlock);
  const auto sl = detail::sqrt_power_f(w.n, true);
  wl::Observations o = detail::observations(a.rows, 1);
  if (w.n == 32) detail::emulate_grid(g, threads, Item<32>{sl.data(), a, o.values.data()});
  else detail::emulate_grid(g, threads, Item<64>{sl.data(), a, o.values.data()});
  return o;
}

}  // namespace akm::cuda::emulated
