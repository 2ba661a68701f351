// transport_product/emulated — the op on the emulated CUDA backend (docs/cuda.md): the kernel's
// thread body (trial.hpp) over the kernel's grid, on the host.
#include <vector>

#include "../../cuda/emulate.hpp"
#include "../../cuda/host.hpp"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::transport_product_detail;

void transport_product_cuda_emulated(const TransportProductPlain& op, std::uint64_t seed, long long first,
                                     long long count, int threads, double* rows) {
  require_size(op);
  const int n = op.layout.n;
  const Grid g = grid_per_item(count * n, kThreadsPerBlock);
  const std::vector<float> dv = dirs_f(op);
  const Dirs d = dirs_at(dv.data(), n);
  const Args a = args(op, seed, first);
  std::vector<float> out(std::size_t(count) * op.layout.size());
  if (n == 16) cuda::detail::emulate_grid(g, threads, Item<16>{d, a, out.data()});
  else if (n == 32) cuda::detail::emulate_grid(g, threads, Item<32>{d, a, out.data()});
  else cuda::detail::emulate_grid(g, threads, Item<64>{d, a, out.data()});
  widen(out, rows);
}

}  // namespace akm::ops::detail
