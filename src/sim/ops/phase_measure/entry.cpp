// phase_measure/entry — ops::phase_measure: the backend chosen, the path beside this file run.
// The reference and cpu backends run each (point, trial) row as the per-point driver does
// (trial r of point p on Stream(point seed, r, keys)); the device backends launch the grid.
#include "akm/sim/ops/phase_measure.hpp"

#include "../../cuda/host.hpp"
#include "backends.hpp"

namespace akm::ops {

std::vector<PhaseTrial> phase_measure(const PhaseMeasure& op, const std::vector<double>& lam_sqrt,
                                      const std::vector<PhasePoint>& points, Backend backend,
                                      const Exec& exec) {
  switch (backend) {
    case Backend::reference:
    case Backend::cpu: {
      const int n = int(lam_sqrt.size());
      const Vec sl = Eigen::Map<const Vec>(lam_sqrt.data(), n);
      const std::size_t R = std::size_t(op.trials);
      std::vector<PhaseTrial> out(points.size() * R);
      parallel_for(0, out.size(), exec.threads, [&](std::size_t row) {
        const PhasePoint& pt = points[row / R];
        const std::uint64_t r = row % R;
        if (backend == Backend::cpu) {
          out[row] = phase_trial_cpu(lam_sqrt.data(), n, op, pt.beta, pt.eta, pt.direction, pt.lag, pt.seed, r);
        } else {
          Stream keys(pt.seed, r, Purpose::keys);
          out[row] = phase_trial_reference(sl, op, pt.beta, pt.eta, pt.direction, pt.lag, keys);
        }
      });
      return out;
    }
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::phase_trials_cuda(op, lam_sqrt, points);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::phase_trials_cuda_emulated(op, lam_sqrt, points, exec.threads);
  }
  throw std::invalid_argument("ops::phase_measure: unknown backend");
}

}  // namespace akm::ops
