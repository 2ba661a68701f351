// bench_machine — the machine's ceilings that `akm bench` divides by, measured in the same
// process before the workloads (docs/performance.md, "The method"): the clock and its
// cross-checks, the FMA peak (all threads and one core, against the documented rate), the
// normal-variate rate of every generator (the engine's Box–Muller kernels and the ziggurat),
// the memory and L2 triads, and the device's figures on --backend cuda.
#pragma once
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/sim/backend.hpp"
#include "akm/sim/cuda_ceilings.hpp"
#include "akm/sim/engine/engine.hpp"

namespace akm::bench {

/// The ceilings one precision's workloads are held to.
struct Limits {
  double fma = 0;  ///< FMA peak (flop/s, all threads)
  double normals = 0;  ///< the fastest generator's rate (normals/s, all threads)
  double fma_one_core = 0;  ///< one thread's FMA rate (the ceiling of one block's GEMM call)
  double l2 = 0;  ///< L2 bandwidth, bytes/s over all threads (an L2-resident triad)
};

/// Everything measured: `machine` as `akm bench --json` writes it, `limits` per precision.
struct Ceilings {
  nlohmann::json machine;  ///< the "machine" object of `akm bench --json`
  std::map<engine::Precision, Limits> limits;  ///< the ceilings per precision
  cuda::DeviceCeilings device;  ///< the device's, measured on --backend cuda (empty otherwise)
};

/// /proc/cpuinfo's "model name" (what the machine calls its processor), or "unknown".
std::string cpu_model_name();
/// Measures every ceiling on `threads` workers (quick: shorter timings, a smaller triad).
Ceilings measure_ceilings(int threads, bool quick, Backend backend);

}  // namespace akm::bench
