// fit/entry — ops::fit: the backend chosen, the path beside this file run.
#include "akm/sim/ops/fit.hpp"

#include "../../cuda/host.hpp"
#include "backends.hpp"

namespace akm::ops {

Observations fit(const Fit& op, std::uint64_t seed, Backend backend, const Exec& exec) {
  switch (backend) {
    case Backend::reference: return detail::fit_reference(op, seed, exec.threads);
    case Backend::cpu:
      return exec.precision == engine::Precision::f64 ? detail::fit_cpu<double>(op, seed, exec.threads, exec.progress)
                                                      : detail::fit_cpu<float>(op, seed, exec.threads, exec.progress);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::fit_cuda(op, seed, exec.batch_bytes > 0 ? exec.batch_bytes : std::size_t(1) << 30);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated:
      return detail::fit_cuda_emulated(op, seed, exec.threads,
                                       exec.batch_bytes > 0 ? exec.batch_bytes : std::size_t(1) << 24);
  }
  throw std::invalid_argument("ops::fit: unknown backend");
}

}  // namespace akm::ops
