// limits — the machine's measured ceilings that `akm bench` divides the engine by.
#pragma once
#include "akm/sim/engine/engine.hpp"

namespace akm::engine {

/// FLOP/s of a register-resident FMA loop (2 flops per lane per FMA) on `threads` threads
/// running at once, summed.
double fma_peak(Precision p, int threads, double seconds);
/// Normal variates/s of NormalStream on `threads` threads at once, summed.
double normal_peak(Precision p, int threads, double seconds);
/// Vector width the engine was compiled for, in bytes (16 SSE2, 32 AVX2, 64 AVX-512).
int simd_bytes();

}  // namespace akm::engine
