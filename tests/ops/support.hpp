// support — what the per-op tests (tests/ops/test_<op>.cpp) share besides the rounding model
// of tests/rounding_bounds.hpp: the GPU skip, the float normals' measured error, the
// device-against-emulation step bound, the refusal and thread-independence checks, and a short
// number for the test's XML record.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../rounding_bounds.hpp"
#include "akm/base/errors.hpp"
#include "akm/random/stream_hd.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/sim.hpp"

namespace akm_test {

// Why the GPU checks cannot run here ("" when they can).
inline std::string gpu_missing() {
  if (!akm::cuda::built()) return "built without the CUDA backend (AKM_CUDA=OFF or no nvcc)";
  std::string why;
  if (akm::cuda::device_name(&why).empty())
    return "no CUDA device on this machine (" + why + "); GPU checks need a GPU host";
  return "";
}

// GTEST_SKIP returns from the function it is in, so it must be expanded in the test body.
#define REQUIRE_GPU()                                   \
  do {                                                  \
    const std::string why_ = akm_test::gpu_missing();   \
    if (!why_.empty()) GTEST_SKIP() << why_;            \
  } while (0)

// A measured error for the test's XML record, three significant digits.
inline std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

// The largest |float normal − double normal| among the first `count` normals of the streams
// (seed, t, purpose), t < trials: the float normals' error the trials actually met. It stands
// for the model's per-step normal term in place of its worst case 4e-4 (u → 1), which would
// leave room for a wrong key sequence to pass.
inline double normal_error(std::uint64_t seed, long long trials, std::uint32_t purpose, long long count) {
  double worst = 0.0;
  for (long long t = 0; t < trials; ++t) {
    akm::hd::Stream<float> f(seed, std::uint64_t(t), purpose);
    akm::hd::Stream<double> d(seed, std::uint64_t(t), purpose);
    for (long long i = 0; i < count; ++i) worst = std::max(worst, std::abs(double(f.normal()) - d.normal()));
  }
  return worst;
}

// Worst over the trials (rows of n_obs) of max_j |a − b| / max_j |a| on observables [j0, j1):
// the rows of an op's *_rows entry point, which the claims' ops write.
inline double max_rel_diff_rows(const std::vector<double>& a, const std::vector<double>& b, std::size_t n_obs,
                                std::size_t j0, std::size_t j1) {
  double worst = 0;
  for (std::size_t t = 0; t * n_obs < a.size(); ++t) {
    double scale = 0, diff = 0;
    for (std::size_t j = j0; j < j1; ++j) {
      scale = std::max(scale, std::abs(a[t * n_obs + j]));
      diff = std::max(diff, std::abs(a[t * n_obs + j] - b[t * n_obs + j]));
    }
    worst = std::max(worst, diff / std::max(scale, 1e-300));
  }
  return worst;
}

// `base` changed by `change` must be refused by its validate() with an InputError naming `param`.
template <class Op, class Change>
void expect_refused(Op base, Change change, const char* param) {
  change(base);
  try {
    base.validate();
    ADD_FAILURE() << param << " accepted";
  } catch (const akm::InputError& e) {
    EXPECT_EQ(e.param(), param);
  }
}

// An op's statistics do not depend on the thread count: `run(mc)` (its McResult entry point on
// the cpu backend) over 29 trials in 3 groups and chunks of 4, on 1 and on 3 threads, gives
// the same bits (the rows are folded in chunk order, whatever thread made them).
// A small run (29 trials in 3 groups, chunks of 4) on `threads` threads.
inline akm::McOptions small_mc(int threads) {
  akm::McOptions mc;
  mc.trials = 29;
  mc.groups = 3;
  mc.chunk_trials = 4;
  mc.threads = threads;
  return mc;
}
template <class Run>
void expect_statistics_independent_of_threads(Run run) {
  const akm::McResult a = run(small_mc(1)), b = run(small_mc(3));
  EXPECT_TRUE(a.total.mean() == b.total.mean());
  EXPECT_TRUE(a.total.stderr_mean() == b.total.stderr_mean());
  ASSERT_EQ(a.groups.size(), b.groups.size());
  for (std::size_t g = 0; g < a.groups.size(); ++g) EXPECT_TRUE(a.groups[g].mean() == b.groups[g].mean());
}

// For an op with no device kernel: `rows_on(b)` (its *_rows entry point on backend b) must
// refuse cuda and cuda-emulated by name (an InputError naming "backend"), before any work.
template <class RowsOn>
void expect_no_device_path(RowsOn rows_on) {
  for (akm::Backend b : {akm::Backend::cuda, akm::Backend::cuda_emulated}) {
    try {
      rows_on(b);
      ADD_FAILURE() << akm::to_string(b) << " accepted";
    } catch (const akm::InputError& e) {
      EXPECT_EQ(e.param(), "backend");
    }
  }
}

// The device against its emulation: the same trial bodies, the same uniforms, summation
// orders and IEEE float operations (nvcc --fmad=false), so the only differences are the
// device's logf/sincosf (≤ 2 ulp each, CUDA programming guide) against the host's:
// |Δz| ≤ 8·ε₃₂·(1 + |z|), |z| ≤ 8.6 at the 2⁻⁵³ grid, i.e. ≤ 80·ε₃₂ per normal. With the
// model of tests/test_engine.cpp a T-step trial differs by ≤ T·dev_step(n) relative (2× for
// energies) — two orders tighter than against the CPU engine, so a device-side fault
// (indexing, launch, shared memory, reduction) cannot hide in the rounding. A build whose device
// takes the Box–Muller angle from __sincosf (hd::kFastSincos) differs from the emulation's
// precise sincos by ≤ kFastNormalBound more per normal, derived in tests/test_cuda_fast_sincos.cpp
// from the CUDA Programming Guide's maximum errors (its test holds the derivation below this).
constexpr double kFastNormalBound = akm::hd::kFastSincosBound;
inline double dev_step(int n) {
  return kC * n * kEps32 + 80 * kEps32 + (akm::hd::kFastSincos ? kFastNormalBound : 0.0);
}

}  // namespace akm_test
