// engine — the fast CPU Monte-Carlo engine for W1–W4.
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
#include <string>
#include <cstdint>
#include <functional>

#include "akm/sim/phase_measure.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/workloads.hpp"

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

/// W1 on the fast engine in precision p; rows as w1_reference.
wl::Observations w1(const wl::W1& w, std::uint64_t seed, int threads, Precision p);
/// W2 on the fast engine in precision p; rows as w2_reference.
wl::Observations w2(const wl::W2& w, std::uint64_t seed, int threads, Precision p);
/// W3 on the fast engine in precision p; rows as w3_reference.
wl::Observations w3(const wl::W3& w, std::uint64_t seed, int threads, Precision p);
/// The fitting workload of `akm simulate` (rows: trial groups, see wl::Fit); the state in
/// precision p, the regression moments accumulated in double.
/// `progress(groups done, groups)` is called from worker threads when set.
wl::Observations fit(const wl::Fit& w, std::uint64_t seed, int threads, Precision p,
                     const std::function<void(long long, long long)>& progress = {});
/// One trial of `akm phase --measure`: phase::measure_trial on the stream
/// Stream(seed, trial, keys) with batched normals and vector loops (double).
phase::TrialResult phase_trial(const double* lam_sqrt, int n, const phase::MeasureOptions& o,
                               double beta, double eta, int direction, int lag,
                               std::uint64_t seed, std::uint64_t trial);
/// One trial of `akm phase --measure` with common random numbers at every point of
/// pts[0..count): the keys are drawn once per step from Stream(seed, trial, keys) and shared
/// by all points (pts[·].seed is not read). out[q] equals phase_trial(…, pts[q], seed, trial)
/// up to the summation order of the n-term sums; lanes are independent, so a point's result
/// does not depend on the other points of the call (src/sim/ops/phase_measure/cpu_shared.cpp).
void phase_shared(const double* lam_sqrt, int n, const phase::MeasureOptions& o,
                  const phase::PointPlan* pts, int count, std::uint64_t seed, std::uint64_t trial,
                  phase::TrialResult* out);
/// Both orders, computed in precision p with AVX GEMM, rows of M split into a fixed number
/// of blocks (independent of the thread count); returned in double.
wl::W4Result w4(const wl::W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat, int threads,
                Precision p);

}  // namespace akm::engine
