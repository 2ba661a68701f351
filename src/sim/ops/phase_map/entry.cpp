// phase_map/entry — ops::phase_map: the backend chosen, the path beside this file run.
#include "akm/sim/ops/phase_map.hpp"

#include "../../cuda/host.hpp"
#include "backends.hpp"

namespace akm::ops {

Observations phase_map(const PhaseMap& op, std::uint64_t seed, Backend backend, const Exec& exec) {
  switch (backend) {
    case Backend::reference: return detail::phase_map_reference(op, seed, exec.threads);
    case Backend::cpu: return detail::phase_map_cpu(op, seed, exec.threads, exec.precision);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::phase_map_cuda(op, seed);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::phase_map_cuda_emulated(op, seed, exec.threads);
  }
  throw std::invalid_argument("ops::phase_map: unknown backend");
}

}  // namespace akm::ops
