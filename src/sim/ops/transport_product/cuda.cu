// transport_product/cuda — the op on the device (float): one thread per (trial, row of P)
// runs trial.hpp; the rows come back widened to double.
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::transport_product_detail;

void transport_product_cuda(const TransportProductPlain& op, std::uint64_t seed, long long first, long long count,
                            double* rows) {
  require_device();
  require_size(op);
  const int n = op.layout.n;
  const Grid g = grid_per_item(count * n, kThreadsPerBlock);
  const std::vector<float> dv = dirs_f(op);
  DevBuf<float> ddirs(dv.size()), dout(std::size_t(count) * op.layout.size());
  upload(ddirs, dv);
  const Dirs d = dirs_at(ddirs.p, n);
  const Args a = args(op, seed, first);
  if (n == 16) launch_per_item(g, Item<16>{d, a, dout.p});
  else if (n == 32) launch_per_item(g, Item<32>{d, a, dout.p});
  else launch_per_item(g, Item<64>{d, a, dout.p});
  widen(download(dout, std::size_t(count) * op.layout.size()), rows);
}

}  // namespace akm::ops::detail
