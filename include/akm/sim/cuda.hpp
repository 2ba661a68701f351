// cuda — the CUDA device as akm sees it: whether this build has the backend, the device's
// name and peak figures, and the refusal of `--backend cuda` where it cannot run. Each op's
// launcher is behind its entry point's Backend::cuda (akm/sim/ops/<op>.hpp).
//
// Same Philox4x32-10 streams as the CPU, the same Box–Muller pairing and float arithmetic as
// the float CPU engine, so a CPU and a GPU run of one seed agree to float rounding. Built when
// -DAKM_CUDA=ON, or AUTO and nvcc is found; otherwise Backend::cuda throws and built() is false.
#pragma once
#include <string>

namespace akm::cuda {

/// True when this build contains the CUDA backend.
bool built();
/// Name of CUDA device 0, or "" when none is usable (with the reason in `why`).
std::string device_name(std::string* why = nullptr);
/// Peak figures of device 0 from its properties (0 when unknown): FP32 FLOP/s, bytes/s.
double device_fp32_peak();
/// Refuses `--backend cuda` (InputError, exit 2) unless this build has the backend and a
/// device is usable; the message says which is missing.
void require_usable();
/// Peak memory bandwidth of device 0 in bytes/s (0 when unknown).
double device_mem_bandwidth();

}  // namespace akm::cuda
