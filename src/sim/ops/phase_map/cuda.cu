// phase_map/cuda — W3 on the device: one thread per (grid point, trial) row runs trial.hpp.
#include "../../cuda/common.cuh"
#include "host.hpp"

namespace akm::cuda {

using namespace detail;
using namespace w3_detail;

wl::Observations w3(const wl::W3& w, std::uint64_t seed) {
  require_device();
  require_size(w.n);
  const Args a = args(w, seed);
  const Grid g = grid_per_item(a.rows, kThreadsPerBlock);
  DevBuf<float> dsl(w.n);
  DevBuf<double> dout(a.rows);
  upload(dsl, sqrt_power_f(w.n, true));
  if (w.n == 32) launch_per_item(g, Item<32>{dsl.p, a, dout.p});
  else launch_per_item(g, Item<64>{dsl.p, a, dout.p});
  wl::Observations o = observations(a.rows, 1);
  o.values = download(dout, std::size_t(a.rows));
  return o;
}

}  // namespace akm::cuda
