// limits — the machine's ceilings, measured: a register-resident FMA loop, a STREAM triad, and
// the rates of the engine's normal generators; the clock and the documented FMA rate it is
// cross-checked against are clock.cpp's.
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
#include "akm/sim/engine/limits.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/engine/ziggurat.hpp"
#include "best_rate.hpp"

namespace akm::engine {
namespace {

#if defined(__AVX512F__)
constexpr int kBytes = 64;
#elif defined(__AVX__)
constexpr int kBytes = 32;
#else
constexpr int kBytes = 16;
#endif

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
