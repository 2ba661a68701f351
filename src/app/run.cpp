// run — the --backend of `akm run` and `akm reproduce` (see the header).
#include "akm/app/run.hpp"

#include "akm/base/errors.hpp"
#include "akm/sim/backend.hpp"

namespace akm::app {

void require_cpu_backend(const std::string& backend) {
  if (parse_backend(backend, "--backend", {Backend::cpu, Backend::cuda}) == Backend::cpu) return;
  throw InputError("--backend", backend,
                   "experiments run on the CPU reference engine (no experiment has a CUDA "
                   "kernel); use cpu, or --backend cuda with akm simulate, akm phase "
                   "--measure or akm bench");
}

}  // namespace akm::app
