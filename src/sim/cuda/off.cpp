// cuda/off — the CUDA device queries, and the refusal of the device ceilings, when this build
// has no CUDA backend (AKM_CUDA=OFF, or AUTO without nvcc); each op's entry point refuses
// Backend::cuda itself (cuda/host.hpp).
#include "akm/sim/cuda.hpp"
#include "akm/sim/cuda_ceilings.hpp"
#include "host.hpp"

namespace akm::cuda {

bool built() { return false; }
std::string device_name(std::string* why) {
  if (why) *why = "built without CUDA";
  return "";
}
double device_fp32_peak() { return 0.0; }
double device_mem_bandwidth() { return 0.0; }
DeviceCeilings measure_device_ceilings(bool) { detail::no_cuda_backend(); }

}  // namespace akm::cuda
