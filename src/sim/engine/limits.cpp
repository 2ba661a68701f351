// limits — the machine's ceilings, measured: a register-resident FMA loop, the clock, a
// STREAM triad, and the rate of the engine's normal generator.
//
// FMA peak. Sixteen independent vector accumulators a ← a·b + c in the widest vectors the
// build ISA has — more than FMA latency (4 cycles) × FMA pipes (2) on current x86 cores.
// Each accumulator is a named variable pinned to a register by an empty asm statement: the
// first version kept them in an array, which GCC spilled to the stack every iteration, so
// the loop ran at store-forwarding speed (41 GFLOP/s on 2 Zen 5 cores whose peak is ~147)
// and W4's GEMM measured 156% of that "ceiling". The loop is cross-checked
// against the documented rate, cores × FMA pipes × lanes × 2 × clock (documented_fma()).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/engine/limits.hpp"

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

#define AKM_ACC16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

template <class T>
double fma_loop(double seconds) {
  typedef T V __attribute__((vector_size(kBytes)));
  constexpr int lanes = kBytes / int(sizeof(T));
  V b, c;
  for (int l = 0; l < lanes; ++l) b[l] = T(0.999999), c[l] = T(1e-7);
#define AKM_DECL(i) V a##i = b * T(i + 1);
  AKM_ACC16(AKM_DECL)
  long long iters = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double el = 0.0;
  constexpr long long inner = 1 << 16;
  do {
    for (long long k = 0; k < inner; ++k) {
#define AKM_FMA(i) a##i = a##i * b + c;
      AKM_ACC16(AKM_FMA)
      // Pins the accumulators to registers (an asm statement takes at most 30 operands).
      asm volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), "+v"(a6), "+v"(a7));
      asm volatile("" : "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11), "+v"(a12), "+v"(a13), "+v"(a14), "+v"(a15));
    }
    iters += inner;
    el = since(t0);
  } while (el < seconds);
  V sum = b;
#define AKM_SUM(i) sum += a##i;
  AKM_ACC16(AKM_SUM)
  asm volatile("" : : "v"(sum));
  return 2.0 * 16 * lanes * double(iters) / el;
}
#undef AKM_DECL
#undef AKM_FMA
#undef AKM_SUM
#undef AKM_ACC16

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

double clock_hz(double seconds) {
#if defined(__x86_64__)
  // A chain of dependent integer adds retires one per cycle on every x86-64 core.
  long long x = 0, adds = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double el = 0.0;
  do {
    for (int k = 0; k < (1 << 20); ++k)
      asm volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
    adds += 4LL << 20;
    el = since(t0);
  } while (el < seconds);
  return double(adds) / el;
#else
  (void)seconds;
  return 0.0;
#endif
}

DocumentedFma documented_fma(Precision p) {
  DocumentedFma d;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, dx = 0;
  if (!__get_cpuid(0, &a, &b, &c, &dx)) return d;
  const bool amd = b == 0x68747541u;  // "AuthenticAMD"
  if (!__get_cpuid(1, &a, &b, &c, &dx)) return d;
  const unsigned base = (a >> 8) & 0xF, family = base == 0xF ? base + ((a >> 20) & 0xFF) : base;
  const unsigned model = ((a >> 4) & 0xF) | (base == 0xF || base == 6 ? ((a >> 16) & 0xF) << 4 : 0);
  // AMD's software optimization guides: two FMA pipes per core on Zen 1–5; datapath 128
  // bits (Zen 1), 256 (Zen 2–4: Zen 4 runs AVX-512 as two 256-bit halves), 512 (Zen 5 server
  // and desktop parts; the mobile Zen 5 parts keep 256, so those are not claimed).
  int datapath = 0;
  if (amd && family == 0x17) datapath = model < 0x30 ? 128 : 256, d.core = model < 0x30 ? "Zen 1" : "Zen 2";
  if (amd && family == 0x19) datapath = 256, d.core = "Zen 3/4";
  if (amd && family == 0x1A && model < 0x20) datapath = 512, d.core = "Zen 5";
  if (datapath == 0) return d;  // Intel parts differ in AVX-512 units per SKU: not claimed
  const int bytes = std::min(kBytes, datapath / 8);
  d.pipes = 2;
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
  long long passes = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double el = 0.0;
  do {
    parallel_for(0, static_cast<std::size_t>(t), t, [&](std::size_t k) {
      const std::size_t lo = k * chunk, hi = std::min(n, lo + chunk);
      double* __restrict pa = a.data();
      const double* __restrict pb = b.data();
      const double* __restrict pc = c.data();
#pragma omp simd
      for (std::size_t i = lo; i < hi; ++i) pa[i] = pb[i] + s * pc[i];
    });
    ++passes;
    el = since(t0);
  } while (el < seconds || passes < 2);
  volatile double sink = a[n / 2];
  (void)sink;
  // STREAM's count: 24 bytes per element (two loads, one store; write-allocate not counted).
  return 24.0 * double(n) * double(passes) / el;
}

}  // namespace akm::engine
