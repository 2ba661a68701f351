// cuda/off — the CUDA device queries when this build has no CUDA backend (AKM_CUDA=OFF, or
// AUTO without nvcc); each op's entry point refuses Backend::cuda itself (cuda/host.hpp).
#include "akm/sim/cuda.hpp"

namespace akm::cuda {

bool built() { return false; }
std::string device_name(std::string* why) {
  if (why) *why = "built without CUDA";
  return "";
}
double device_fp32_peak() { return 0.0; }
double device_mem_bandwidth() { return 0.0; }

}  // namespace akm::cuda
