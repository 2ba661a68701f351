// bench_device — what `akm bench --backend cuda` holds the device's rows to: the device's
// ceilings measured in the same run (akm/sim/cuda_ceilings.hpp) as `machine.device_ceilings`,
// and each row's binding limit with its fraction of it (docs/cuda.md, "Device ceilings").
//
// The model is the CPU bench's (docs/performance.md, "The method"): a trial-step's normals at
// the measured normals rate of akm's float stream plus its flops at the measured FP32 FMA rate
// (the generator's log and sincos and the trial's arithmetic share the same pipes); W4's GEMMs
// are held to the FMA rate alone. The ceilings are named device_normals_float and
// device_fma_float, so akm/app/bench_ceilings.hpp judges them as it judges the CPU's: a row
// above a ceiling on that ceiling's part alone contradicts it, and no fraction above 1 is
// ever printed as a percentage.
#pragma once
#include <nlohmann/json.hpp>

#include "akm/sim/cuda_ceilings.hpp"

namespace akm::bench {

/// The measured device ceilings as `machine.device_ceilings` of `akm bench --json`: each rate
/// with its best launch's seconds, its work, its repeats and its geometry.
nlohmann::json device_ceilings_json(const cuda::DeviceCeilings& d);

/// The limit of a trial-step row on the device: `tput` trial-steps/s measured, each drawing
/// `normals_per_ts` normals of the float stream and doing `flops_per_ts` flops. Binding:
/// "normal variates" when the normals' time is ≥ 90% of the sum, "FMA peak" when ≤ 10%,
/// "normals + FMA" otherwise; "ceilings" holds each part's fraction alone.
nlohmann::json device_limit(double tput, double normals_per_ts, double flops_per_ts, const cuda::DeviceCeilings& d);

/// The limit of W4 on the device: its flops per second (model flops, both orders) against the
/// measured FP32 FMA rate ("FMA peak").
nlohmann::json device_gemm_limit(double flops_per_s, const cuda::DeviceCeilings& d);

}  // namespace akm::bench
