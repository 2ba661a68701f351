// glm_buffer/emulated — the op on the emulated CUDA backend (docs/cuda.md): the kernel's thread
// body (trial.hpp) over the kernel's grid, on the host.
#include <algorithm>
#include <vector>

#include "../../cuda/emulate.hpp"
#include "../../cuda/host.hpp"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::glm_buffer_detail;

void glm_buffer_cuda_emulated(const GlmBufferPlain& op, std::uint64_t seed, long long first, long long count,
                              int threads, double* rows) {
  require_size(op);
  const Grid g = grid_per_item(count, kThreadsPerBlock);
  const std::vector<float> cv = consts_f(op);
  const std::vector<int> ci = consts_i(op);
  const Consts c = consts_at(cv.data(), ci.data(), op);
  const Args a = args(op, seed, first);
  std::vector<float> out(std::size_t(count) * op.n_obs());
  if (op.n == 16) cuda::detail::emulate_grid(g, threads, Item<16>{c, a, out.data()});
  else if (op.n == 32) cuda::detail::emulate_grid(g, threads, Item<32>{c, a, out.data()});
  else cuda::detail::emulate_grid(g, threads, Item<64>{c, a, out.data()});
  std::copy(out.begin(), out.end(), rows);
}

}  // namespace akm::ops::detail
