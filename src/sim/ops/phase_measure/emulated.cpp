// phase_measure/emulated — `phase --measure` on the emulated CUDA backend: the kernel's
// trial body (trial.hpp) over the kernel's batches and grids, on the host (docs/cuda.md).
#include "akm/sim/cuda_emulated.hpp"

#include <vector>

#include "../../cuda/emulate.hpp"
#include "host.hpp"

namespace akm::cuda::emulated {

std::vector<phase::TrialResult> phase_trials(const std::vector<double>& lam_sqrt,
                                             const phase::MeasureOptions& o,
                                             const std::vector<phase::PointPlan>& plan) {
  using namespace phase_detail;
  const int n = int(lam_sqrt.size());
  const auto points = device_points(plan);
  const long long rows = (long long)points.size() * o.trials;
  std::vector<phase::TrialResult> out(static_cast<std::size_t>(rows));
  const long long B = batch_rows(n, rows, std::size_t(1) << 24);
  std::vector<double> scratch(std::size_t(3) * n * B);
  for (long long r0 = 0; r0 < rows; r0 += B) {
    const long long nb = std::min(B, rows - r0);
    const Args a = args(n, o, r0, nb);
    const Grid g = grid_per_item(nb, kThreadsPerBlock);
    detail::emulate_grid(g, o.threads, [&](long long local) {
      out[std::size_t(r0 + local)] = result(trial(lam_sqrt.data(), a, points.data(), local, scratch.data()));
    });
  }
  return out;
}

}  // namespace akm::cuda::emulated
