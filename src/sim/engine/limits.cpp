// limits — the machine's ceilings, measured: a register-resident FMA loop, the clock, a
// STREAM triad, and the rate of the engine's normal generator.
//
// FMA peak. Twelve independent vector accumulators a ← a·b + c in the widest vectors the
// build ISA has — more than FMA latency × FMA pipes on every x86 core of documented_fma()
// (4 × 2 on Skylake and Zen 2–5, 5 × 2 on Haswell). The whole loop, its counter included, is
// one asm statement (fma_block), so the accumulators stay in registers whatever the compiler
// does around it. Two C++ versions did not: the first kept the accumulators in an array,
// which GCC spilled to the stack every iteration (41 GFLOP/s on 2 Zen 5 cores whose peak is
// ~147; W4's GEMM then read 156% of that "ceiling"); the second pinned named variables with
// empty asm statements, which held in one build and spilled in another once the loop was
// inlined elsewhere (a third of Zen 4's documented rate; W4 then read 115–160%). The loop is
// cross-checked against the documented rate, cores × FMA pipes × lanes × 2 × clock
// (documented_fma()), and its rate is the best of ten slices (best_rate).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/engine/limits.hpp"
#include "akm/sim/engine/ziggurat.hpp"

namespace akm::engine {
namespace {

#if defined(__AVX512F__)
constexpr int kBytes = 64;
#elif defined(__AVX__)
constexpr int kBytes = 32;
#else
constexpr int kBytes = 16;
#endif

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The best rate of `chain` (ops per call) over ten slices of seconds/10: preemption, frequency
// dips and anything else sharing the core (a hypervisor's neighbour on the same physical core)
// only lower a slice's rate, so the maximum is the core's own. The clock and the FMA peak use it.
constexpr int kSlices = 10;
template <class Chain>
double best_rate(double seconds, long long ops_per_call, Chain chain) {
  double best = 0.0;
  for (int slice = 0; slice < kSlices; ++slice) {
    long long ops = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double el = 0.0;
    do {
      chain();
      ops += ops_per_call;
      el = since(t0);
    } while (el < seconds / kSlices);
    best = std::max(best, double(ops) / el);
  }
  return best;
}

constexpr int kAcc = 12;                 // independent accumulators (header)
constexpr long long kBlock = 1 << 14;    // loop iterations per fma_block call

#if defined(__x86_64__) && (defined(__FMA__) || defined(__AVX512F__))
// One asm statement runs `iters` iterations of kAcc independent FMAs a_j ← b·a_j + c; GCC
// prints each operand as the register of its vector width (xmm, ymm or zmm).
#define AKM_FMA12(sfx)                                                                        \
  "vfmadd213" sfx " %[c], %[b], %[a0]\n\t" "vfmadd213" sfx " %[c], %[b], %[a1]\n\t"          \
  "vfmadd213" sfx " %[c], %[b], %[a2]\n\t" "vfmadd213" sfx " %[c], %[b], %[a3]\n\t"          \
  "vfmadd213" sfx " %[c], %[b], %[a4]\n\t" "vfmadd213" sfx " %[c], %[b], %[a5]\n\t"          \
  "vfmadd213" sfx " %[c], %[b], %[a6]\n\t" "vfmadd213" sfx " %[c], %[b], %[a7]\n\t"          \
  "vfmadd213" sfx " %[c], %[b], %[a8]\n\t" "vfmadd213" sfx " %[c], %[b], %[a9]\n\t"          \
  "vfmadd213" sfx " %[c], %[b], %[a10]\n\t" "vfmadd213" sfx " %[c], %[b], %[a11]\n\t"
#define AKM_FMA_ASM(sfx)                                                                      \
  asm volatile("1:\n\t" AKM_FMA12(sfx) "dec %[n]\n\tjnz 1b"                                   \
               : [a0] "+v"(a[0]), [a1] "+v"(a[1]), [a2] "+v"(a[2]), [a3] "+v"(a[3]),          \
                 [a4] "+v"(a[4]), [a5] "+v"(a[5]), [a6] "+v"(a[6]), [a7] "+v"(a[7]),          \
                 [a8] "+v"(a[8]), [a9] "+v"(a[9]), [a10] "+v"(a[10]), [a11] "+v"(a[11]),      \
                 [n] "+r"(iters)                                                            \
               : [b] "v"(b), [c] "v"(c)                                                     \
               : "cc")
template <class V>
void fma_block(V (&a)[kAcc], V b, V c, long long iters) {
  if constexpr (sizeof(a[0][0]) == 8) AKM_FMA_ASM("pd");
  else AKM_FMA_ASM("ps");
}
#undef AKM_FMA_ASM
#undef AKM_FMA12
#else
// Without x86 FMA: the same loop in C++ (the compiler may fuse or not; not cross-checked).
template <class V>
void fma_block(V (&a)[kAcc], V b, V c, long long iters) {
  for (long long k = 0; k < iters; ++k) {
    for (auto& x : a) x = x * b + c;
    asm volatile("" : : "g"(&a) : "memory");
  }
}
#endif

template <class T>
double fma_loop(double seconds) {
  typedef T V __attribute__((vector_size(kBytes)));
  constexpr int lanes = kBytes / int(sizeof(T));
  V b, c, a[kAcc];
  for (int l = 0; l < lanes; ++l) b[l] = T(0.999999), c[l] = T(1e-7);
  for (int j = 0; j < kAcc; ++j) a[j] = b * T(j + 1);
  const double rate = best_rate(seconds, 2LL * kAcc * lanes * kBlock, [&] { fma_block(a, b, c, kBlock); });
  V sum = b;
  for (const V& x : a) sum += x;
  asm volatile("" : : "x"(sum));
  return rate;
}

// Runs fn() on `threads` workers of the shared pool at once and sums the rates.
template <class Fn>
double summed_on(int threads, Fn fn) {
  const int n = resolve_threads(threads);
  std::vector<double> r(static_cast<std::size_t>(n));
  parallel_for(0, r.size(), n, [&](std::size_t t) { r[t] = fn(); });
  double s = 0.0;
  for (double v : r) s += v;
  return s;
}

}  // namespace

int simd_bytes() { return kBytes; }

double fma_peak(Precision p, int threads, double seconds) {
  return summed_on(threads, [&] { return p == Precision::f64 ? fma_loop<double>(seconds) : fma_loop<float>(seconds); });
}

double normal_peak(Precision p, int threads, double seconds, NormalKernel kernel) {
  return summed_on(threads, [&] { return normal_throughput(p, seconds, kernel); });
}

double ziggurat_peak(Precision p, int threads, double seconds) {
  return summed_on(threads, [&] { return ziggurat_throughput(p, seconds); });
}

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
      case 0x55: d.core = "Skylake-SP/Cascade Lake", datapath = kBytes > 32 ? 0 : 256; break;
      case 0x6A: case 0x6C: d.core = "Ice Lake-SP", datapath = 512; break;
      case 0x7D: case 0x7E: case 0x8C: case 0x8D: case 0xA7:
        d.core = "Ice/Tiger/Rocket Lake client", datapath = 512, pipes = kBytes > 32 ? 1 : 2; break;
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
  const int bytes = std::min(kBytes, datapath / 8);
  d.pipes = pipes;
  d.lanes = bytes / (p == Precision::f64 ? 8 : 4);
  d.flops_per_cycle = 2.0 * d.pipes * d.lanes;
#else
  (void)p;
#endif
  return d;
}

double triad_bandwidth(int threads, double seconds, std::size_t n) {
  const int t = resolve_threads(threads);
  std::vector<double> a(n), b(n), c(n);
  const std::size_t chunk = (n + static_cast<std::size_t>(t) - 1) / static_cast<std::size_t>(t);
  auto slice = [&](std::size_t k, auto&& body) {
    const std::size_t lo = k * chunk, hi = std::min(n, lo + chunk);
    for (std::size_t i = lo; i < hi; ++i) body(i);
  };
  // First touch by the thread that later streams the slice (the pages land near it).
  parallel_for(0, static_cast<std::size_t>(t), t, [&](std::size_t k) {
    slice(k, [&](std::size_t i) { a[i] = 0.0, b[i] = 1.0, c[i] = 2.0; });
  });
  const double s = 0.5;
  // A small n (a cache-resident triad) repeats its slice inside each worker, so the pool's
  // dispatch does not dominate; the memory clobber keeps every repeat.
  const std::size_t reps = std::max<std::size_t>(1, (std::size_t(1) << 22) / std::max<std::size_t>(chunk, 1));
  long long passes = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double el = 0.0;
  do {
    parallel_for(0, static_cast<std::size_t>(t), t, [&](std::size_t k) {
      const std::size_t lo = k * chunk, hi = std::min(n, lo + chunk);
      double* __restrict pa = a.data();
      const double* __restrict pb = b.data();
      const double* __restrict pc = c.data();
      for (std::size_t r = 0; r < reps; ++r) {
#pragma omp simd
        for (std::size_t i = lo; i < hi; ++i) pa[i] = pb[i] + s * pc[i];
        asm volatile("" ::: "memory");
      }
    });
    ++passes;
    el = since(t0);
  } while (el < seconds || passes < 2);
  volatile double sink = a[n / 2];
  (void)sink;
  // STREAM's count: 24 bytes per element (two loads, one store; write-allocate not counted).
  return 24.0 * double(n) * double(passes) * double(reps) / el;
}

std::size_t l1d_bytes() {
  const long v = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  return v > 0 ? std::size_t(v) : 0;
}

}  // namespace akm::engine
