// phase_map/emulated — the op on the emulated CUDA backend: the kernel's row body (trial.hpp)
// over the kernel's grid, on the host (docs/cuda.md).
#include "../../cuda/emulate.hpp"
#include "../../cuda/host.hpp"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

Observations phase_map_cuda_emulated(const PhaseMap& w, std::uint64_t seed, int threads) {
  using namespace cuda;
  using namespace cuda::phase_map_detail;
  require_size(w.n);
  const Args a = args(w, seed);
  const Grid g = grid_per_item(a.rows, kThreadsPerBlock);
  const auto sl = cuda::detail::sqrt_power_f(w.n, true);
  Observations o = cuda::detail::observations(a.rows, 1);
  if (w.n == 32) cuda::detail::emulate_grid(g, threads, Item<32>{sl.data(), a, o.values.data()});
  else cuda::detail::emulate_grid(g, threads, Item<64>{sl.data(), a, o.values.data()});
  return o;
}

}  // namespace akm::ops::detail
