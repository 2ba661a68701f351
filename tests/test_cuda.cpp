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
#include "akm/sim/cuda_emulated.hpp"
#include "akm/sim/engine/engine.hpp"
#include "rounding_bounds.hpp"

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

TEST(Cuda, W4MatchesCpuAndEmulationBothOrders) {
  REQUIRE_GPU();
  const auto [w, M0, D, X] = akm_test::w4_case(64, 96, 512, 8);
  const auto cpu = engine::w4(w, M0, D, X, 2, engine::Precision::f64);
  const auto gpu = cuda::w4(w, M0, D, X);
  // Against the emulation too (plan.hpp on a host GEMM): cuBLAS's summation order is its
  // own, so the same GEMM bound c·N·ε₃₂ of tests/test_engine.cpp.
  const auto emu = cuda::emulated::w4(w, M0, D, X);
  const double s = cpu.gram.norm();
  for (const auto* other : {&cpu, &emu}) {
    EXPECT_LE((gpu.gram - other->gram).norm() / s, kC * w.batch * kEps32);
    EXPECT_LE((gpu.through_n - other->through_n).norm() / s, kC * w.batch * kEps32);
  }
}

// The device against its emulation (tests/test_cuda_emulated.cpp): the same trial bodies, the
// same uniforms, summation orders and IEEE float operations (nvcc --fmad=false), so the only
// differences are the device's logf/sincosf (≤ 2 ulp each, CUDA programming guide) against the
// host's: |Δz| ≤ 8·ε₃₂·(1 + |z|), |z| ≤ 8.6 at the 2⁻⁵³ grid, i.e. ≤ 80·ε₃₂ per normal. With
// the model of tests/test_engine.cpp a T-step trial differs by ≤ T·(c·n·ε₃₂ + 80·ε₃₂)
// relative (2× for energies) — two orders tighter than against the CPU engine, so a device-
// side fault (indexing, launch, shared memory, reduction) cannot hide in the rounding.
namespace {
double dev_step(int n) { return kC * n * kEps32 + 80 * kEps32; }
}  // namespace

TEST(Cuda, DeviceMatchesEmulationW1W2W3) {
  REQUIRE_GPU();
  wl::W1 w1;
  w1.trials = 300;  // 3 blocks, the last partly idle
  w1.steps = 200;
  EXPECT_LE(max_rel(cuda::emulated::w1(w1, 8, 2), cuda::w1(w1, 8), 0, w1.n), w1.steps * dev_step(w1.n));
  wl::W2 w2;
  w2.n = 96;  // three warps
  w2.trials = 4;
  w2.steps = 100;
  EXPECT_LE(max_rel(cuda::emulated::w2(w2, 8, 2), cuda::w2(w2, 8), 0, w2.n_obs()), 2 * w2.steps * dev_step(w2.n));
  wl::W3 w3;
  w3.n_eta = w3.n_beta = 4;
  w3.trials = 9;
  w3.steps = 200;
  const auto e3 = cuda::emulated::w3(w3, 8, 2), g3 = cuda::w3(w3, 8);
  for (long long r = 0; r < e3.trials; ++r) EXPECT_NEAR(e3.at(r, 0), g3.at(r, 0), 2 * dev_step(w3.n)) << "row " << r;
}

TEST(Cuda, DeviceMatchesEmulationFitAndPhase) {
  REQUIRE_GPU();
  wl::Fit w;
  for (int i = 0; i < 8; ++i) w.lambda.push_back(i < 2 ? 2.0 : 0.5);
  w.trials = 200;  // two blocks
  w.groups = 10;
  w.steps = 100;
  const auto e = cuda::emulated::fit(w, 3, 2), g = cuda::fit(w, 3);
  ASSERT_EQ(e.values.size(), g.values.size());
  EXPECT_LE(akm_test::fit_worst_ratio(w, e, g, dev_step(w.n())), 1.0);
  // `phase --measure` is double: device log/exp/sin/cos within a few ulps of the host's, inside
  // the per-step δ of tests/test_phase_engine.cpp (ρ = 0, normalized keys, factors of norm ≤ 1).
  phase::MeasureOptions o;
  o.trials = 150;
  o.steps = 80;
  const std::vector<double> sl{1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1};
  const std::vector<phase::PointPlan> plan{{0.5, 0.9, 0, 10, 99}, {1.2, 0.5, 3, 4, 7}};
  const auto pe = cuda::emulated::phase_trials(sl, o, plan), pg = cuda::phase_trials(sl, o, plan);
  ASSERT_EQ(pe.size(), pg.size());
  for (std::size_t r = 0; r < pe.size(); ++r) {
    const auto& pt = plan[r / std::size_t(o.trials)];
    const double dl = (kC * 8 + 160.0) * 1.1102230246251565e-16 * (1.0 + pt.beta + pt.eta);
    EXPECT_NEAR(pe[r].projection, pg[r].projection, pt.lag * dl * std::sqrt(8.0)) << r;
    EXPECT_NEAR(pe[r].log_growth, pg[r].log_growth, 2.0 * o.steps * dl / std::exp(pe[r].log_growth / 2)) << r;
    EXPECT_EQ(pe[r].diverged, pg[r].diverged) << r;
  }
}
