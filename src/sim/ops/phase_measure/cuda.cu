// phase_measure/cuda — every trial of `akm phase --measure` on the device: one thread per
// (point, trial) row runs trial.hpp (double).
#include "../../cuda/common.cuh"
#include "host.hpp"

namespace akm::cuda {
namespace {

using namespace phase_detail;

__global__ void phase_kernel(const double* lam_sqrt, Args a, const Point* points, double* scratch, Out* out) {
  const long long local = item_of(blockIdx.x, threadIdx.x, blockDim.x);
  if (local >= a.nb) return;
  out[local] = trial(lam_sqrt, a, points, local, scratch);
}

}  // namespace

using namespace detail;

std::vector<phase::TrialResult> phase_trials(const std::vector<double>& lam_sqrt,
                                             const phase::MeasureOptions& o,
                                             const std::vector<phase::PointPlan>& plan) {
  require_device();
  const int n = int(lam_sqrt.size());
  const auto points = device_points(plan);
  const long long rows = (long long)points.size() * o.trials;
  std::vector<phase::TrialResult> out(static_cast<std::size_t>(rows));
  const long long B = batch_rows(n, rows, std::size_t(1) << 30);
  DevBuf<double> dsl(n), dscr(std::size_t(3) * n * B);
  DevBuf<Point> dpts(points.size());
  DevBuf<Out> dout(B);
  upload(dsl, lam_sqrt);
  upload(dpts, points);
  for (long long r0 = 0; r0 < rows; r0 += B) {
    const long long nb = std::min(B, rows - r0);
    const Grid g = grid_per_item(nb, kThreadsPerBlock);
    phase_kernel<<<g.blocks, g.threads>>>(dsl.p, args(n, o, r0, nb), dpts.p, dscr.p, dout.p);
    const auto r = download(dout, std::size_t(nb));
    for (long long b = 0; b < nb; ++b) out[std::size_t(r0 + b)] = result(r[std::size_t(b)]);
  }
  return out;
}

}  // namespace akm::cuda
