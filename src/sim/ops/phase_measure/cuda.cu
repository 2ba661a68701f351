// phase_measure/cuda — every trial of `akm phase --measure` on the device: one thread per
// (point, trial) row runs trial.hpp (double).
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::phase_detail;

std::vector<PhaseTrial> phase_trials_cuda(const PhaseMeasure& o, const std::vector<double>& lam_sqrt,
                                          const std::vector<PhasePoint>& plan) {
  require_device();
  const int n = int(lam_sqrt.size());
  const auto points = device_points(plan);
  const long long rows = (long long)points.size() * o.trials;
  std::vector<PhaseTrial> out(static_cast<std::size_t>(rows));
  const long long B = batch_rows(n, rows, std::size_t(1) << 30);
  DevBuf<double> dsl(n), dscr(std::size_t(3) * n * B);
  DevBuf<Point> dpts(points.size());
  DevBuf<Out> dout(B);
  upload(dsl, lam_sqrt);
  upload(dpts, points);
  for (long long r0 = 0; r0 < rows; r0 += B) {
    const long long nb = std::min(B, rows - r0);
    launch_per_item(grid_per_item(nb, kThreadsPerBlock), Item{dsl.p, args(n, o, r0, nb), dpts.p, dscr.p, dout.p});
    const auto r = download(dout, std::size_t(nb));
    for (long long b = 0; b < nb; ++b) out[std::size_t(r0 + b)] = result(r[std::size_t(b)]);
  }
  return out;
}

}  // namespace akm::ops::detail
