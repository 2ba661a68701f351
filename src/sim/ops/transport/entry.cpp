// transport/entry — ops::transport: the backend chosen, the path beside this file run.
#include "akm/sim/ops/transport.hpp"

#include "../../cuda/host.hpp"
#include "backends.hpp"

namespace akm::ops {

Observations transport(const Transport& op, std::uint64_t seed, Backend backend, const Exec& exec) {
  switch (backend) {
    case Backend::reference: return detail::transport_reference(op, seed, exec.threads);
    case Backend::cpu: return detail::transport_cpu(op, seed, exec.threads, exec.precision);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::transport_cuda(op, seed);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::transport_cuda_emulated(op, seed, exec.threads);
  }
  throw std::invalid_argument("ops::transport: unknown backend");
}

}  // namespace akm::ops
