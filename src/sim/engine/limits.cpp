// limits — the machine's arithmetic ceiling, measured: a register-resident FMA loop.
//
// Twelve independent vector accumulators a ← a·b + c (enough to cover FMA latency × pipes
// on current x86 cores), in the widest vectors the build ISA has. What one core reaches
// here is the denominator of the engine's "fraction of FMA peak".
#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

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

template <class T>
double fma_loop(double seconds) {
  typedef T V __attribute__((vector_size(kBytes)));
  constexpr int lanes = kBytes / int(sizeof(T));
  constexpr int acc = 12;
  V a[acc], b, c;
  for (int l = 0; l < lanes; ++l) {
    b[l] = T(0.999999);
    c[l] = T(1e-7);
  }
  for (int i = 0; i < acc; ++i)
    for (int l = 0; l < lanes; ++l) a[i][l] = T(i + l);
  long long iters = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double el = 0.0;
  constexpr long long inner = 1 << 16;
  do {
    for (long long k = 0; k < inner; ++k) {
      for (int i = 0; i < acc; ++i) a[i] = a[i] * b + c;
      asm volatile("" : "+v"(a[0]), "+v"(a[1]), "+v"(a[2]), "+v"(a[3]), "+v"(a[4]), "+v"(a[5]));
    }
    iters += inner;
    el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (el < seconds);
  T sink = 0;
  for (int i = 0; i < acc; ++i)
    for (int l = 0; l < lanes; ++l) sink += a[i][l];
  asm volatile("" : : "g"(&sink) : "memory");
  return 2.0 * acc * lanes * double(iters) / el;
}

template <class Fn>
double on_threads(int threads, Fn fn) {
  std::vector<double> r(std::max(1, threads));
  std::vector<std::thread> pool;
  for (int t = 1; t < int(r.size()); ++t) pool.emplace_back([&, t] { r[t] = fn(); });
  r[0] = fn();
  for (auto& th : pool) th.join();
  double s = 0.0;
  for (double v : r) s += v;
  return s;
}

}  // namespace

int simd_bytes() { return kBytes; }

double fma_peak(Precision p, int threads, double seconds) {
  return on_threads(threads, [&] {
    return p == Precision::f64 ? fma_loop<double>(seconds) : fma_loop<float>(seconds);
  });
}

double normal_peak(Precision p, int threads, double seconds) {
  return on_threads(threads, [&] { return normal_throughput(p, seconds); });
}

}  // namespace akm::engine
