// engine_util — small helpers shared by the fast CPU paths of src/sim/ops/<op>/cpu.cpp.
// Private to the sim layer; no Eigen (the engine files are compiled for the native ISA).
#pragma once
#include <chrono>
#include <cmath>
#include <vector>

#include "akm/random/stream_hd.hpp"
#include "akm/sim/engine/engine.hpp"

namespace akm::engine {

/// √λ of the power-law spectrum λ_i = 1/i (unit trace when asked): ops::power_spectrum's
/// numbers, without Eigen.
inline std::vector<double> sqrt_power(int n, bool unit_trace) {
  std::vector<double> l(n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (l[i] = 1.0 / (i + 1.0));
  for (int i = 0; i < n; ++i) l[i] = std::sqrt(unit_trace ? l[i] / s : l[i]);
  return l;
}

template <class T>
inline std::vector<T> cast(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

/// The key and counter words of stream (seed, trial, purpose) at block 0: hd::philox_start's
/// layout (the one definition of the streams), in the plain arrays the engine's generators keep.
inline void stream_start(std::uint32_t* key, std::uint32_t* ctr, std::uint64_t seed, std::uint64_t trial,
                         Purpose purpose) {
  hd::PhiloxCtr c;
  hd::PhiloxKey k;
  hd::philox_start(c, k, seed, trial, std::uint32_t(purpose));
  for (int i = 0; i < 4; ++i) ctr[i] = c[i];
  for (int i = 0; i < 2; ++i) key[i] = k[i];
}

/// Normal variates per second of a generator on the calling thread: `stream.fill` in batches
/// of 4096 in precision p for at least `seconds` (normal_throughput, ziggurat_throughput).
template <class Stream>
double fill_rate(Stream& stream, Precision p, double seconds) {
  std::vector<double> d(4096);
  std::vector<float> f(4096);
  long long n = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double el = 0.0;
  volatile double sink = 0.0;
  do {
    for (int rep = 0; rep < 16; ++rep) {
      if (p == Precision::f64) {
        stream.fill(d.data(), 4096);
        sink = sink + d[17];
      } else {
        stream.fill(f.data(), 4096);
        sink = sink + f[17];
      }
      n += 4096;
    }
    el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (el < seconds);
  return double(n) / el;
}

}  // namespace akm::engine
