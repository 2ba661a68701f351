// cuda_usable — the one refusal of `--backend cuda` shared by bench, simulate and phase
// (compiled in every build: it only asks the backend, src/sim/cuda/device.cu or off.cpp).
#include <string>

#include "akm/sim/cuda.hpp"
#include "akm/base/errors.hpp"

namespace akm::cuda {

void require_usable() {
  if (!built())
    throw InputError("--backend", "cuda",
                     "this build has no CUDA backend (configure with -DAKM_CUDA=ON where nvcc exists)");
  std::string why;
  if (device_name(&why).empty()) throw InputError("--backend", "cuda", "a CUDA device is required (" + why + ")");
}

}  // namespace akm::cuda
