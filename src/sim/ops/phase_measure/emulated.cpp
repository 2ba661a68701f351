// phase_measure/emulated — `phase --measure` on the emulated CUDA backend: the kernel's
// trial body (trial.hpp) over the kernel's batches and grids, on the host (docs/cuda.md).
#include <vector>

#include "../../cuda/emulate.hpp"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

std::vector<PhaseTrial> phase_trials_cuda_emulated(const PhaseMeasure& o, const std::vector<double>& lam_sqrt,
                                                   const std::vector<PhasePoint>& plan, int threads) {
  using namespace cuda;
  using namespace cuda::phase_detail;
  const int n = int(lam_sqrt.size());
  const auto points = device_points(plan);
  const long long rows = (long long)points.size() * o.trials;
  std::vector<PhaseTrial> out(static_cast<std::size_t>(rows));
  const long long B = batch_rows(n, rows, std::size_t(1) << 24);
  std::vector<double> scratch(std::size_t(3) * n * B);
  std::vector<Out> r(static_cast<std::size_t>(B));
  for (long long r0 = 0; r0 < rows; r0 += B) {
    const long long nb = std::min(B, rows - r0);
    cuda::detail::emulate_grid(grid_per_item(nb, kThreadsPerBlock), threads,
                         Item{lam_sqrt.data(), args(n, o, r0, nb), points.data(), scratch.data(), r.data()});
    for (long long b = 0; b < nb; ++b) out[std::size_t(r0 + b)] = result(r[std::size_t(b)]);
  }
  return out;
}

}  // namespace akm::ops::detail
