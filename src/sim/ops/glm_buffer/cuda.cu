// glm_buffer/cuda — the op on the device (float): one thread per trial runs trial.hpp; the rows
// come back widened to double.
#include <algorithm>

#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::glm_buffer_detail;

void glm_buffer_cuda(const GlmBufferPlain& op, std::uint64_t seed, long long first, long long count, double* rows) {
  require_device();
  require_size(op);
  const Grid g = grid_per_item(count, kThreadsPerBlock);
  const std::vector<float> cv = consts_f(op);
  const std::vector<int> ci = consts_i(op);
  DevBuf<float> dc(cv.size()), dout(std::size_t(count) * op.n_obs());
  DevBuf<int> di(ci.size());
  upload(dc, cv);
  upload(di, ci);
  const Consts c = consts_at(dc.p, di.p, op);
  const Args a = args(op, seed, first);
  if (op.n == 16) launch_per_item(g, Item<16>{c, a, dout.p});
  else if (op.n == 32) launch_per_item(g, Item<32>{c, a, dout.p});
  else launch_per_item(g, Item<64>{c, a, dout.p});
  const std::vector<float> out = download(dout, std::size_t(count) * op.n_obs());
  std::copy(out.begin(), out.end(), rows);
}

}  // namespace akm::ops::detail
