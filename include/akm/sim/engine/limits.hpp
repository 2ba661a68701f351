// limits — the machine's measured ceilings that `akm bench` divides the engine by, and the
// documented FMA rate they are cross-checked against.
#pragma once
#include <cstddef>
#include <string>

#include "akm/sim/engine/engine.hpp"

namespace akm::engine {

/// FLOP/s of a register-resident FMA loop (2 flops per lane per FMA) on `threads` workers of
/// the shared pool running at once, summed.
double fma_peak(Precision p, int threads, double seconds);
/// Normal variates/s of NormalStream with `kernel` on `threads` workers at once, summed.
double normal_peak(Precision p, int threads, double seconds, NormalKernel kernel = NormalKernel::fastest);
/// Vector width the engine was compiled for, in bytes (16 SSE2, 32 AVX2, 64 AVX-512).
int simd_bytes();
/// Core clock in Hz, measured by a dependent chain of integer adds (one per cycle); 0 off x86-64.
double clock_hz(double seconds);

/// The FMA rate the vendor documents for this core at the build's vector width: FMA pipes ×
/// lanes × 2 flops per cycle. flops_per_cycle = 0 where the core is not in the table
/// (Intel parts differ in AVX-512 units per SKU), and then nothing is cross-checked.
struct DocumentedFma {
  std::string core;  ///< e.g. "Zen 5"
  int pipes = 0;  ///< FMA pipes per core
  int lanes = 0;  ///< lanes per vector in the precision
  double flops_per_cycle = 0.0;  ///< documented flops per cycle (0: not in the table)
};
/// The documented FMA rate of this CPU in precision p (from CPUID).
DocumentedFma documented_fma(Precision p);

/// Bytes/s of the STREAM triad a = b + s·c over three arrays of n doubles, each worker
/// streaming its own contiguous slice (24 bytes per element, STREAM's count).
double triad_bandwidth(int threads, double seconds, std::size_t n);

}  // namespace akm::engine
