// phase_map/cuda — the op on the device: one thread per (grid point, trial) row runs trial.hpp.
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::phase_map_detail;

Observations phase_map_cuda(const PhaseMap& w, std::uint64_t seed) {
  require_device();
  require_size(w.n);
  const Args a = args(w, seed);
  const Grid g = grid_per_item(a.rows, kThreadsPerBlock);
  DevBuf<float> dsl(w.n);
  DevBuf<double> dout(a.rows);
  upload(dsl, sqrt_power_f(w.n, true));
  if (w.n == 32) launch_per_item(g, Item<32>{dsl.p, a, dout.p});
  else launch_per_item(g, Item<64>{dsl.p, a, dout.p});
  Observations o = observations(a.rows, 1);
  o.values = download(dout, std::size_t(a.rows));
  return o;
}

}  // namespace akm::ops::detail
