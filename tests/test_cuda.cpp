// The CUDA backend against the float CPU engine on every workload (small sizes). Skips,
// saying why, when the build has no CUDA backend or the machine has no CUDA device.
//
// Both sides draw the same Philox uniforms, round them to float and apply float Box–Muller
// (libmvec on the CPU, CUDA's logf/sincosf on the device, each within a few ulps), then run
// the same float recurrences with different summation orders. The bounds are those of
// tests/test_engine.cpp for float: T steps × (c·n·ε_f + normal-transform error).
#include <gtest/gtest.h>

#include <cmath>

#include "akm/sim/cuda.hpp"
#include "akm/sim/engine/engine.hpp"

using namespace akm;

namespace {
constexpr double kEps32 = 5.9604644775390625e-08, kC = 4.0;

// Why the GPU checks cannot run here ("" when they can).
std::string gpu_missing() {
  if (!cuda::built()) return "built without the CUDA backend (AKM_CUDA=OFF or no nvcc)";
  std::string why;
  if (cuda::device_name(&why).empty())
    return "no CUDA device on this machine (" + why + "); GPU checks need a GPU host";
  return "";
}

// GTEST_SKIP returns from the function it is in, so it must be expanded in the test body.
#define REQUIRE_GPU()                                   \
  do {                                                  \
    const std::string why_ = gpu_missing();             \
    if (!why_.empty()) GTEST_SKIP() << why_;            \
  } while (0)

double max_rel(const wl::Observations& a, const wl::Observations& b, int j0, int j1) {
  double worst = 0.0;
  for (long long t = 0; t < a.trials; ++t) {
    double scale = 1e-300, diff = 0.0;
    for (int j = j0; j < j1; ++j) {
      scale = std::max(scale, std::abs(a.at(t, j)));
      diff = std::max(diff, std::abs(a.at(t, j) - b.at(t, j)));
    }
    worst = std::max(worst, diff / scale);
  }
  return worst;
}
}  // namespace

TEST(Cuda, ReportsBuildAndDevice) {
  std::string why;
  const std::string name = cuda::device_name(&why);
  if (!cuda::built()) {
    EXPECT_TRUE(name.empty());
    GTEST_SKIP() << "built without the CUDA backend";
  }
  if (name.empty()) {
    // Built with CUDA but no device: the backend must say why instead of failing silently.
    EXPECT_FALSE(why.empty());
    GTEST_SKIP() << "no CUDA device (" << why << ")";
  }
  EXPECT_GT(cuda::device_fp32_peak(), 0.0);
}

TEST(Cuda, W1MatchesCpuFloat) {
  REQUIRE_GPU();
  wl::W1 w;
  w.trials = 300;
  w.steps = 200;
  const auto cpu = engine::w1(w, 8, 2, engine::Precision::f32);
  const auto gpu = cuda::w1(w, 8);
  EXPECT_LE(max_rel(cpu, gpu, 0, w.n), w.steps * (kC * w.n * kEps32 + 4e-4));
}

TEST(Cuda, W2MatchesCpuFloat) {
  REQUIRE_GPU();
  wl::W2 w;
  w.n = 64;
  w.trials = 8;
  w.steps = 100;
  const auto cpu = engine::w2(w, 8, 2, engine::Precision::f32);
  const auto gpu = cuda::w2(w, 8);
  EXPECT_LE(max_rel(cpu, gpu, 0, w.n_obs()), 2 * w.steps * (kC * w.n * kEps32 + 4e-4));
}

TEST(Cuda, W3MatchesCpuFloat) {
  REQUIRE_GPU();
  wl::W3 w;
  w.n_eta = w.n_beta = 4;
  w.trials = 16;
  w.steps = 200;
  const auto cpu = engine::w3(w, 8, 2, engine::Precision::f32);
  const auto gpu = cuda::w3(w, 8);
  for (long long r = 0; r < cpu.trials; ++r)
    EXPECT_NEAR(cpu.at(r, 0), gpu.at(r, 0), 2 * (kC * w.n * kEps32 + 4e-4)) << "row " << r;
}

TEST(Cuda, W4MatchesCpuFloatBothOrders) {
  REQUIRE_GPU();
  wl::W4 w;
  w.m = 64;
  w.n = 96;
  w.batch = 512;
  Mat M0, D, X;
  wl::w4_data(w, 8, M0, D, X);
  const auto cpu = engine::w4(w, M0, D, X, 2, engine::Precision::f64);
  const auto gpu = cuda::w4(w, M0, D, X);
  const double s = cpu.gram.norm();
  EXPECT_LE((gpu.gram - cpu.gram).norm() / s, kC * w.batch * kEps32);
  EXPECT_LE((gpu.through_n - cpu.through_n).norm() / s, kC * w.batch * kEps32);
}
