// clock — the core clock, read from dependent-instruction chains and cross-checked (an imul
// chain, a dependent FMA chain's whole-cycle latency, /proc/cpuinfo), and the documented FMA
// rate of the core (cores × FMA pipes × lanes × 2 × clock) that the FMA peak of limits.cpp is
// held to.
#include "akm/sim/engine/limits.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include <fmt/format.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "best_rate.hpp"

namespace akm::engine {
namespace {

double cpuinfo_hz() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("cpu MHz", 0) == 0) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) return 0.0;
      try {
        return std::stod(line.substr(colon + 1)) * 1e6;
      } catch (const std::exception&) {
        return 0.0;
      }
    }
  return 0.0;
}

}  // namespace

void judge_clock(ClockReading& c) {
  c.consistent = true;
  c.why.clear();
  auto refuse = [&](std::string why) {
    if (c.consistent) c.consistent = false, c.why = std::move(why);
  };
  if (!(c.hz >= kClockMinHz && c.hz <= kClockMaxHz))
    refuse(fmt::format("the imul chain gives {:.2f} GHz, outside the plausible {:.1f}–{:.1f} GHz", c.hz / 1e9,
                       kClockMinHz / 1e9, kClockMaxHz / 1e9));
  if (c.fma_latency > 0) {
    const double nearest = std::round(c.fma_latency);
    if (!(nearest >= 3 && nearest <= 6 && std::abs(c.fma_latency - nearest) <= kLatencySlack))
      refuse(fmt::format("a dependent FMA takes {:.2f} cycles at {:.2f} GHz, not a whole 3–6", c.fma_latency,
                         c.hz / 1e9));
  }
  if (c.cpuinfo_hz > 0 && !(c.hz >= kCpuinfoLow * c.cpuinfo_hz && c.hz <= kCpuinfoHigh * c.cpuinfo_hz))
    refuse(fmt::format("{:.2f} GHz disagrees with /proc/cpuinfo's {:.2f} GHz (allowed {:.1f}×–{:.1f}×: nominal vs boost)",
                       c.hz / 1e9, c.cpuinfo_hz / 1e9, kCpuinfoLow, kCpuinfoHigh));
}

ClockReading read_clock(double seconds) {
  ClockReading c;
#if defined(__x86_64__)
  constexpr int kCalls = 1 << 16;
  // imul r64, r64: latency 3 cycles on every x86-64 core since Intel Nehalem and AMD Zen 1
  // (the vendors' optimization manuals), and no core folds it: 3 × the chain's rate.
  long long x = 3;
  c.hz = 3.0 * best_rate(seconds, 4LL * kCalls, [&] {
    for (int k = 0; k < kCalls; ++k)
      asm volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0" : "+r"(x));
  });
  // add $1: one per cycle where adds of immediates execute; Intel Golden Cove and later fold
  // them at rename, and the chain runs several times faster than the clock: reported only.
  long long y = 0;
  c.add_chain_hz = best_rate(seconds / 2, 4LL * kCalls, [&] {
    for (int k = 0; k < kCalls; ++k)
      asm volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(y));
  });
#if defined(__FMA__)
  // A dependent FMA chain: the FMA loop's own cycles, latency = clock / rate (4 on Skylake
  // and later and on Zen 2 and later, 5 on Haswell/Broadwell and Zen 1). The chain and its
  // counter are one asm statement: in C++ GCC carried the value through a general register
  // between calls (vmovq out and back per four FMAs), which added about 1.5 cycles per FMA
  // (5.5 on Zen 4, whose FMA takes 4) and failed the whole-cycle cross-check.
  double a = 1.0;
  const double b = 0.999999, d = 1e-7;
  const double fma_rate = best_rate(seconds / 2, 4LL * kCalls, [&] {
    long long n = kCalls;
    asm volatile(
        "1:\n\t"
        "vfmadd213sd %[d], %[b], %[a]\n\tvfmadd213sd %[d], %[b], %[a]\n\t"
        "vfmadd213sd %[d], %[b], %[a]\n\tvfmadd213sd %[d], %[b], %[a]\n\t"
        "dec %[n]\n\tjnz 1b"
        : [a] "+x"(a), [n] "+r"(n)
        : [b] "x"(b), [d] "x"(d)
        : "cc");
  });
  c.fma_latency = c.hz / fma_rate;
#endif
  c.cpuinfo_hz = cpuinfo_hz();
  judge_clock(c);
#else
  (void)seconds;
  c.why = "no clock measurement off x86-64";
#endif
  return c;
}

double clock_hz(double seconds) {
  const ClockReading c = read_clock(seconds);
  return c.consistent ? c.hz : 0.0;
}

DocumentedFma documented_fma(Precision p) {
  DocumentedFma d;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, dx = 0;
  if (!__get_cpuid(0, &a, &b, &c, &dx)) return d;
  const bool amd = b == 0x68747541u;    // "AuthenticAMD"
  const bool intel = b == 0x756e6547u;  // "GenuineIntel"
  if (!__get_cpuid(1, &a, &b, &c, &dx)) return d;
  const unsigned base = (a >> 8) & 0xF, family = base == 0xF ? base + ((a >> 20) & 0xFF) : base;
  const unsigned model = ((a >> 4) & 0xF) | (base == 0xF || base == 6 ? ((a >> 16) & 0xF) << 4 : 0);
  // AMD's software optimization guides: two FMA pipes per core on Zen 1–5; datapath 128
  // bits (Zen 1), 256 (Zen 2–4: Zen 4 runs AVX-512 as two 256-bit halves), 512 (Zen 5 server
  // and desktop parts; the mobile Zen 5 parts keep 256, so those are not claimed).
  int datapath = 0, pipes = 2;
  if (amd && family == 0x17) datapath = model < 0x30 ? 128 : 256, d.core = model < 0x30 ? "Zen 1" : "Zen 2";
  if (amd && family == 0x19) datapath = 256, d.core = "Zen 3/4";
  if (amd && family == 0x1A && model < 0x20) datapath = 512, d.core = "Zen 5";
  // Intel's optimization reference manual: two 256-bit FMA units per core from Haswell on.
  // 512-bit FMA units: two on every Ice Lake-SP, Sapphire/Emerald Rapids and Granite Rapids
  // Xeon; one on the client Ice Lake, Tiger Lake and Rocket Lake cores (ports 0+1 fused);
  // Skylake-SP/Cascade Lake Xeons have one or two by SKU, which CPUID does not tell — those
  // are claimed only at 256 bits. Other models are not claimed.
  if (intel && family == 6) {
    switch (model) {
      case 0x3C: case 0x3F: case 0x45: case 0x46: d.core = "Haswell", datapath = 256; break;
      case 0x3D: case 0x47: case 0x4F: case 0x56: d.core = "Broadwell", datapath = 256; break;
      case 0x4E: case 0x5E: case 0x8E: case 0x9E: case 0xA5: case 0xA6: d.core = "Skylake client", datapath = 256; break;
      case 0x55: d.core = "Skylake-SP/Cascade Lake", datapath = simd_bytes() > 32 ? 0 : 256; break;
      case 0x6A: case 0x6C: d.core = "Ice Lake-SP", datapath = 512; break;
      case 0x7D: case 0x7E: case 0x8C: case 0x8D: case 0xA7:
        d.core = "Ice/Tiger/Rocket Lake client", datapath = 512, pipes = simd_bytes() > 32 ? 1 : 2; break;
      case 0x8F: case 0xCF: d.core = "Sapphire/Emerald Rapids", datapath = 512; break;
      case 0xAD: case 0xAE: d.core = "Granite Rapids", datapath = 512; break;
      default: break;
    }
  }
  if (datapath == 0) {  // not in the documented-rate table: named for the message
    if (d.core.empty())
      d.core = (intel ? "Intel" : amd ? "AMD" : "x86-64") + fmt::format(" family {:#x} model {:#x}", family, model);
    return d;
  }
  const int bytes = std::min(simd_bytes(), datapath / 8);
  d.pipes = pipes;
  d.lanes = bytes / (p == Precision::f64 ? 8 : 4);
  d.flops_per_cycle = 2.0 * d.pipes * d.lanes;
#else
  (void)p;
#endif
  return d;
}

}  // namespace akm::engine
