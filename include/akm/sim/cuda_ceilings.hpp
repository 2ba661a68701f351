// cuda_ceilings — the device's ceilings as `akm bench --backend cuda` measures them before its
// workloads (docs/cuda.md, "Device ceilings"): the FP32 FMA rate, the device memory bandwidth
// (a triad and a copy over arrays of 1 GiB each) and the normal variates per second of akm's
// own stream (hd::Stream<float>::normal, as every float kernel draws them, and the double
// stream phase_measure draws).
//
// What a thread of each measuring kernel computes is written here once (AKM_HD), so the host
// can run the same bodies: the kernels' results are checked against them on the host after
// every measurement (a kernel that skipped work would fail the check), and the tests hold the
// bodies to plain references (tests/test_cuda_ceilings.cpp). Plain C++ for the host compiler;
// the kernels are src/sim/cuda/ceilings.cu. A build without the backend refuses the
// measurement (src/sim/cuda/off.cpp).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"

namespace akm::cuda {

/// Independent FMA chains per thread of the FMA kernel (enough to cover the FMA latency with
/// a few warps per scheduler).
constexpr int kFmaChains = 8;

/// One thread of the FMA kernel: kFmaChains chains x_k ← x_k·a + b, chain k from x0 + k,
/// `iters` steps each (kFmaChains · iters FMAs), then the chains' sum. With a = b = 1 and
/// x0 = 0 every step adds exactly 1, so the result is kFmaChains·iters + Σk exactly while
/// that stays below 2²⁴: the count of FMAs done, which the bench checks.
AKM_HD inline float fma_chains(float x0, float a, float b, int iters) {
  float x[kFmaChains];
  AKM_UNROLL
  for (int k = 0; k < kFmaChains; ++k) x[k] = x0 + float(k);
#if defined(__CUDA_ARCH__)
#pragma unroll 16
#endif
  for (int i = 0; i < iters; ++i) {
    AKM_UNROLL
    for (int k = 0; k < kFmaChains; ++k) x[k] = hd::fma_(x[k], a, b);  // rounded once, host and device
  }
  float s = 0.f;
  AKM_UNROLL
  for (int k = 0; k < kFmaChains; ++k) s += x[k];
  return s;
}

/// The triad's and copy's input arrays, element i (small integers: every value exact).
AKM_HD inline float triad_b(long long i) { return float(i % 1024); }
/// (see triad_b)
AKM_HD inline float triad_c(long long i) { return float(i % 7); }
/// One element of the triad a = b + s·c (the product rounded, then the sum: --fmad=false).
AKM_HD inline float triad(float b, float s, float c) { return b + s * c; }

/// One thread of the normals kernel: the sum of the first `count` normals of stream
/// (seed, trial, keys) of precision T — the very stream and transform the ops' kernels draw
/// (hd::Stream<T>::normal). The sum keeps the draws live; it adds one addition per normal.
template <class T>
AKM_HD inline T normals_sum(std::uint64_t seed, long long trial, int count) {
  hd::Stream<T> s(seed, std::uint64_t(trial), hd::kKeys);
  T sum = T(0);
  for (int i = 0; i < count; ++i) sum += s.normal();
  return sum;
}

/// One measured rate: the best of `repeats` timed launches (CUDA events), what one launch does.
struct Rate {
  double per_s = 0;          ///< the rate (flop/s, bytes/s or normals/s) of the best launch
  double best_seconds = 0;   ///< that launch's time
  double work = 0;           ///< flops, bytes or normals per launch
  int repeats = 0;           ///< timed launches (after one untimed warm-up)
  unsigned blocks = 0;        ///< blocks of the launch
  unsigned threads = 0;       ///< threads per block
};

/// The device's measured ceilings (device 0).
struct DeviceCeilings {
  std::string device;             ///< the device's name
  int multiprocessors = 0;        ///< SMs
  Rate fma;                       ///< FP32 FMA rate, flop/s (an FMA is 2 flops)
  Rate triad;                     ///< a = b + s·c, bytes/s (3 arrays: 2 read, 1 written)
  Rate copy;                      ///< a = b, bytes/s (2 arrays)
  Rate normals_float;             ///< normals/s of hd::Stream<float> (the float kernels' stream)
  Rate normals_double;            ///< normals/s of hd::Stream<double> (phase_measure's stream)
  long long array_bytes = 0;      ///< bytes per array of the triad and the copy
  /// The worst checked normals sum's |device − host| over its bound (≤ 1 passes; float
  /// stream): the device's logf and sincosf differ from the host's libm by a few ulps.
  double normals_check_float = 0;
  double normals_check_double = 0;  ///< the same for the double stream
};

/// Measures every ceiling on device 0 (quick: fewer repeats; the arrays stay 1 GiB each, since
/// a smaller one would sit in L2). Every kernel's result is checked against its body run on
/// the host (FMA: exact; triad and copy: sampled elements exact; normals: sampled threads
/// within a few ulps per normal) and a failed check throws std::runtime_error. Throws
/// "no CUDA device: …" without a device and "this build has no CUDA backend …" in a build
/// without one, before any work.
DeviceCeilings measure_device_ceilings(bool quick);

}  // namespace akm::cuda
