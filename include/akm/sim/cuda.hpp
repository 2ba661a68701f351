// cuda — the CUDA offload of W1–W4 : one launcher per workload.
//
// Same Philox4x32-10 streams as the CPU (Random123's headers compile for the device), the
// same Box–Muller pairing and float arithmetic as the float CPU engine, so a CPU and a GPU
// run of one seed agree to float rounding. Built when -DAKM_CUDA=ON, or AUTO and nvcc is
// found; otherwise every launcher throws and built() is false.
#pragma once
#include <cstdint>
#include <string>

#include "akm/sim/phase_measure.hpp"
#include "akm/sim/workloads.hpp"

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

/// The launchers: same observables (and row order) as akm::engine / the references;
/// W1–W3 in float on the device; W4 via cuBLAS SGEMM in both orders.
wl::Observations w1(const wl::W1& w, std::uint64_t seed);
/// W2 on the device (float); rows as the references.
wl::Observations w2(const wl::W2& w, std::uint64_t seed);
/// W3 on the device (float); rows as the references.
wl::Observations w3(const wl::W3& w, std::uint64_t seed);
/// W4 on the device: both orders via cuBLAS SGEMM.
wl::W4Result w4(const wl::W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// The fitting workload of `akm simulate` (rows: trial groups, as engine::fit), float state,
/// double moments; one thread per trial, trials in batches that fit device memory.
wl::Observations fit(const wl::Fit& w, std::uint64_t seed);
/// Every trial of `akm phase --measure` on the device, point-major (p·trials + r): the
/// arithmetic of phase::measure_trial in double with a double device copy of akm::Stream, so
/// it agrees with the CPU paths to double rounding (device log/sin/cos ulps, sum order).
std::vector<phase::TrialResult> phase_trials(const std::vector<double>& lam_sqrt,
                                             const phase::MeasureOptions& o,
                                             const std::vector<phase::PointPlan>& points);

}  // namespace akm::cuda
