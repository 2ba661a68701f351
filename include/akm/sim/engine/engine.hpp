// engine — the fast CPU engine's generator: batched normals with the streams of akm::Stream.
// The ops that run on it (their cpu backends) are akm/sim/ops/<op>.hpp.
//
// Same streams as the references (akm::Stream, Philox4x32-10 keyed by (seed, trial,
// purpose)), so the double engine reproduces them up to (a) summation order of dot
// products and norms (8/16-wide partial sums here, Eigen's packet order there), (b) fused
// multiply-add contraction, and (c) the vector log/sin/cos of glibc's libmvec (≤ 4 ulp,
// glibc's documented bound; SLEEF's ≤ 3.5 ulp in float, NormalKernel) in place of the scalar
// libm calls. The float engine draws the
// same uniforms and rounds them to float before the transform; its error analysis is in
// tests/test_engine.cpp. Trials are independent and each writes its own row, so results
// never depend on the thread count.
#pragma once
#include <cstdint>
#include <string>

#include "akm/random/random.hpp"

namespace akm::engine {

/// Arithmetic of the engine: double or float.
enum class Precision { f64, f32 };
/// "double" or "float".
const char* to_string(Precision p);
/// "double" | "float"; else InputError naming --precision.
Precision parse_precision(const std::string& s);

/// A Stream that emits normals in batches: Philox blocks are generated several at a time
/// (vectorized over consecutive counters) and transformed with vector Box–Muller. The
/// sequence equals akm::Stream(seed, trial, purpose).normal() repeated (see the header
/// comment for the rounding differences). Batches must have even length.
/// The vector math of the batched Box–Muller: glibc's libmvec log/sin/cos (≤ 4 ulp) or
/// SLEEF's log and fused sincos (Debian's libsleef-dev; 1 ulp in double, 3.5 ulp in float) —
/// the same Philox uniforms, so the two agree to their rounding; each is the other's
/// reference (tests/test_engine.cpp) and `akm bench` times both. `fastest` is the faster one
/// per precision as measured on the development machine (engine_kernel(); docs/performance.md).
/// Builds without AVX-512 or without the library fall back to libmvec (or scalar libm).
enum class NormalKernel { fastest, libmvec, sleef };
/// The kernel's name: "fastest", "libmvec" or "sleef".
const char* to_string(NormalKernel k);
/// True when this build has the kernel's AVX-512 path (`fastest`: always).
bool available(NormalKernel k);
/// What `fastest` is in precision p: libmvec in double, SLEEF in float (when available).
NormalKernel engine_kernel(Precision p);

/// Normals of Stream(seed, trial, purpose) in batches (see above).
class NormalStream {
 public:
  /// The stream of (seed, trial, purpose) through the given kernel.
  NormalStream(std::uint64_t seed, std::uint64_t trial, Purpose purpose,
               NormalKernel kernel = NormalKernel::fastest);
  /// Writes the next `count` normals (count even) in double.
  void fill(double* out, int count);
  /// Writes the next `count` normals (count even) in float.
  void fill(float* out, int count);
  /// Test hook: take the scalar path (an exact copy of akm::Stream) for every batch.
  static void set_force_scalar(bool on);

 private:
  bool aligned() const { return next_word_ == 4 && !has_spare_; }
  std::uint64_t bits();
  double uniform();
  double normal();  // scalar path: identical to akm::Stream::normal
  std::uint32_t key_[2];
  std::uint32_t ctr_[4];
  std::uint32_t out_[4] = {0, 0, 0, 0};
  int next_word_ = 4;
  bool has_spare_ = false;
  double spare_ = 0.0;
  NormalKernel kernel_;
};

/// Normal variates per second of NormalStream on one thread (the machine's normal-variate
/// throughput for the engine; `akm bench` reports the engine against it).
double normal_throughput(Precision p, double seconds, NormalKernel kernel = NormalKernel::fastest);

}  // namespace akm::engine
