// run — the --backend of `akm run`, `akm reproduce` and `akm.run` (see the header).
#include "akm/app/run.hpp"

#include "akm/sim/cuda.hpp"

namespace akm::app {

Backend run_backend(const std::string& name) {
  const Backend b =
      parse_backend(name, "--backend", {Backend::reference, Backend::cpu, Backend::cuda, Backend::cuda_emulated});
  if (b == Backend::cuda) cuda::require_usable();
  return b;
}

}  // namespace akm::app
