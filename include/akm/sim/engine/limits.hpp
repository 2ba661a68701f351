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
/// Normal variates/s of ZigguratStream (akm/sim/engine/ziggurat.hpp) on `threads` workers at once, summed.
double ziggurat_peak(Precision p, int threads, double seconds);
/// Vector width the engine was compiled for, in bytes (16 SSE2, 32 AVX2, 64 AVX-512).
int simd_bytes();
/// Lowest plausible core clock of an x86-64 part, Hz.
inline constexpr double kClockMinHz = 0.4e9;
/// Highest plausible core clock (the fastest stock boost is about 6.2 GHz), Hz.
inline constexpr double kClockMaxHz = 7.0e9;
/// The measured clock may lie this far below /proc/cpuinfo's "cpu MHz", which reports the
/// nominal clock in most virtual machines and the current one on bare metal.
inline constexpr double kCpuinfoLow = 0.5;
/// … and this far above it (boost over nominal).
inline constexpr double kCpuinfoHigh = 2.5;
/// A dependent FMA's measured latency must lie this close to a whole number of cycles.
inline constexpr double kLatencySlack = 0.25;

/// The core clock, measured and cross-checked. `hz` is 3 × the rate of a dependent imul
/// chain (latency 3 on every x86-64 core since Nehalem and Zen 1); it is `consistent` only
/// when it is plausible, a dependent FMA then takes a whole 3–6 cycles, and /proc/cpuinfo
/// agrees within its band. A dependent add-immediate chain is reported beside it: on Intel
/// Golden Cove and later it runs several times faster than the clock (immediates folded at
/// rename), which is why it is not the clock.
struct ClockReading {
  double hz = 0.0;            ///< 3 × the dependent imul chain's rate, Hz
  double add_chain_hz = 0.0;  ///< the dependent add-immediate chain's rate, per second
  double fma_latency = 0.0;  ///< cycles per dependent FMA at `hz` (0 without FMA)
  double cpuinfo_hz = 0.0;   ///< /proc/cpuinfo's "cpu MHz" (0 where absent)
  bool consistent = false;   ///< every cross-check agrees: `hz` may be printed and used
  std::string why;           ///< why not consistent
};
/// Measures the clock for about `seconds` (ten slices per chain, the best slice kept) and judges it.
ClockReading read_clock(double seconds);
/// Sets `consistent` and `why` of a reading from its measured fields (the rules above).
void judge_clock(ClockReading& c);
/// read_clock(seconds).hz when consistent, else 0 (nothing is then cross-checked against it).
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
/// streaming its own contiguous slice (24 bytes per element, STREAM's count). With n far
/// beyond the caches it is the memory bandwidth; with each worker's 24·n/threads bytes past L1
/// and within L2, the L2 bandwidth (a small slice is repeated inside each worker).
double triad_bandwidth(int threads, double seconds, std::size_t n);

/// The L1 data cache of one core in bytes (sysconf), 0 when unknown.
std::size_t l1d_bytes();

}  // namespace akm::engine
