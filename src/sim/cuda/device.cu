// device.cu — the CUDA backend's device queries (name, FP32 peak, memory bandwidth); the
// operations' launchers live beside their CPU and reference paths in src/sim/ops/<op>/cuda.cu.
#include "common.cuh"

namespace akm::cuda {

using namespace detail;

bool built() { return true; }

std::string device_name(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no device";
    return "";
  }
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  return p.name;
}

double device_fp32_peak() {
  int sms = 0, khz = 0, major = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess) return 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  const int lanes = major >= 8 ? 128 : 64;  // FP32 lanes per SM (Hopper: 128)
  return 2.0 * sms * lanes * khz * 1e3;
}

double device_mem_bandwidth() {
  int khz = 0, bits = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess) return 0;
  return 2.0 * khz * 1e3 * bits / 8.0;  // double data rate
}

}  // namespace akm::cuda
