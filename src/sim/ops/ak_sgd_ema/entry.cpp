// ak_sgd_ema/entry — ops::ak_sgd_ema: the backend chosen, the path beside this file run.
#include "akm/sim/ops/ak_sgd_ema.hpp"

#include "../../cuda/host.hpp"
#include "backends.hpp"

namespace akm::ops {

Observations ak_sgd_ema(const AkSgdEma& op, std::uint64_t seed, Backend backend, const Exec& exec) {
  switch (backend) {
    case Backend::reference: return detail::ak_sgd_ema_reference(op, seed, exec.threads);
    case Backend::cpu: return detail::ak_sgd_ema_cpu(op, seed, exec.threads, exec.precision);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::ak_sgd_ema_cuda(op, seed);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::ak_sgd_ema_cuda_emulated(op, seed, exec.threads);
  }
  throw std::invalid_argument("ops::ak_sgd_ema: unknown backend");
}

}  // namespace akm::ops
