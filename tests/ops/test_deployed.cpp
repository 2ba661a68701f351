// The deployed op (bench label W4) on every backend held to its plain reference: the native
// GEMM of the CPU engine, the CUDA backend's cuBLAS call sequence (plan.hpp) on a host float
// GEMM (docs/cuda.md), and — with a GPU — cuBLAS against both, on the cached context and on the
// per-call path. A GEMM with inner length N is off by ≤ γ_N ≈ c·N·ε relative to the product
// of norms (tests/test_engine.cpp's model).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "akm/sim/ops/deployed.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;
using engine::Precision;

TEST(Deployed, CpuMatchesReferenceBothOrders) {
  const auto [w, M0, D, X] = deployed_case(48, 80, 256, 3);
  const auto ref = ops::deployed(w, M0, D, X, Backend::reference);
  const auto d = ops::deployed(w, M0, D, X, Backend::cpu, {Precision::f64, 2});
  const auto f = ops::deployed(w, M0, D, X, Backend::cpu, {Precision::f32, 2});
  const double scale = ref.gram.norm();
  EXPECT_LE((d.gram - ref.gram).norm() / scale, kC * w.batch * kEps64);
  EXPECT_LE((d.through_n - ref.through_n).norm() / scale, kC * w.batch * kEps64);
  EXPECT_LE((f.gram - ref.gram).norm() / scale, kC * w.batch * kEps32);
  EXPECT_LE((f.through_n - ref.through_n).norm() / scale, kC * w.batch * kEps32);
  // The two orders are the same product [eq:dispatch].
  EXPECT_LE((ref.gram - ref.through_n).norm() / scale, kC * w.batch * kEps64);
}

TEST(Deployed, CudaEmulatedMatchesReferenceBothOrders) {
  const auto [w, M0, D, X] = deployed_case(48, 80, 256, 3);
  const auto ref = ops::deployed(w, M0, D, X, Backend::reference);
  const auto e = ops::deployed(w, M0, D, X, Backend::cuda_emulated);
  const double scale = ref.gram.norm();
  RecordProperty("w4_rel", sci(std::max((e.gram - ref.gram).norm(), (e.through_n - ref.through_n).norm()) / scale));
  EXPECT_LE((e.gram - ref.gram).norm() / scale, kC * w.batch * kEps32);
  EXPECT_LE((e.through_n - ref.through_n).norm() / scale, kC * w.batch * kEps32);
}

TEST(Deployed, CudaMatchesCpuAndEmulationBothOrders) {
  REQUIRE_GPU();
  const auto [w, M0, D, X] = deployed_case(64, 96, 512, 8);
  const auto cpu = ops::deployed(w, M0, D, X, Backend::cpu, {Precision::f64, 2});
  const auto gpu = ops::deployed(w, M0, D, X, Backend::cuda);
  // Against the emulation too (plan.hpp on a host GEMM): cuBLAS's summation order is its
  // own, so the same GEMM bound c·N·ε₃₂.
  const auto emu = ops::deployed(w, M0, D, X, Backend::cuda_emulated);
  const double s = cpu.gram.norm();
  for (const auto* other : {&cpu, &emu}) {
    EXPECT_LE((gpu.gram - other->gram).norm() / s, kC * w.batch * kEps32);
    EXPECT_LE((gpu.through_n - other->through_n).norm() / s, kC * w.batch * kEps32);
  }
}

// The cached context (the default) kept across calls: a small call, a larger one (its device
// buffers and staging grow past a grain, src/sim/ops/deployed/cache.hpp), the small one again
// (the front of the grown buffers), then the per-call path (Deployed::cached = false). Each is
// held to the reference by the GEMM bound in both orders, so no call reads another's data, and
// each times its GEMMs (CUDA events).
TEST(Deployed, CudaCachedGrowsAndPerCallPathMatchReference) {
  REQUIRE_GPU();
  const auto small = deployed_case(48, 80, 256, 3), large = deployed_case(128, 192, 2048, 4);
  auto held = [](const DeployedCase& c, bool cached, const char* what) {
    auto w = c.w;
    w.cached = cached;
    const auto ref = ops::deployed(w, c.M0, c.D, c.X, Backend::reference);
    const auto gpu = ops::deployed(w, c.M0, c.D, c.X, Backend::cuda);
    const double s = ref.gram.norm();
    EXPECT_LE((gpu.gram - ref.gram).norm() / s, kC * w.batch * kEps32) << what;
    EXPECT_LE((gpu.through_n - ref.through_n).norm() / s, kC * w.batch * kEps32) << what;
    EXPECT_GT(gpu.kernel_seconds, 0.0) << what;
  };
  held(small, true, "cached, first call");
  held(large, true, "cached, grown");
  held(small, true, "cached, smaller again");
  held(large, false, "per-call path");
}

// The cpu path on host GEMM g: within the GEMM bound of the reference in both precisions and
// both orders, and bit for bit the same on 1, 2 and 3 threads (fixed row blocks, each one
// single-threaded call).
void host_gemm_matches_reference(ops::HostGemm g) {
  const auto [w, M0, D, X] = deployed_case(40, 72, 300, 5);
  const auto ref = ops::deployed(w, M0, D, X, Backend::reference);
  const double scale = ref.gram.norm();
  for (auto [p, eps] : {std::pair{Precision::f64, kEps64}, std::pair{Precision::f32, kEps32}}) {
    const auto one = ops::deployed(w, M0, D, X, Backend::cpu, {p, 1}, g);
    EXPECT_LE((one.gram - ref.gram).norm() / scale, kC * w.batch * eps) << ops::to_string(g);
    EXPECT_LE((one.through_n - ref.through_n).norm() / scale, kC * w.batch * eps) << ops::to_string(g);
    for (int threads : {2, 3}) {
      const auto more = ops::deployed(w, M0, D, X, Backend::cpu, {p, threads}, g);
      EXPECT_TRUE(more.gram == one.gram) << ops::to_string(g) << " on " << threads << " threads";
      EXPECT_TRUE(more.through_n == one.through_n) << ops::to_string(g) << " on " << threads << " threads";
    }
  }
}

// OpenBLAS and BLIS are optional (.ci/deps.sh says why it does not install them): where the
// library loads it is held to the reference; where it does not, asking for it is refused,
// naming it, before any work.
void host_gemm_matches_reference_or_is_refused(ops::HostGemm g) {
  std::string why;
  if (ops::host_gemm_available(g, &why)) return host_gemm_matches_reference(g);
  EXPECT_FALSE(why.empty());
  const auto [w, M0, D, X] = deployed_case(8, 8, 16, 1);
  try {
    ops::deployed(w, M0, D, X, Backend::cpu, {Precision::f64, 1}, g);
    ADD_FAILURE() << ops::to_string(g) << " ran although it does not load";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(ops::to_string(g)), std::string::npos) << e.what();
  }
  EXPECT_THROW(ops::host_gemm_gflops(g, Precision::f64, 4, 4, 4), std::invalid_argument);
}

TEST(Deployed, EigenHostGemmMatchesReferenceAndIgnoresThreads) {
  host_gemm_matches_reference(ops::HostGemm::eigen);
}
TEST(Deployed, OpenBlasHostGemmMatchesReferenceOrIsRefused) {
  host_gemm_matches_reference_or_is_refused(ops::HostGemm::openblas);
}
TEST(Deployed, BlisHostGemmMatchesReferenceOrIsRefused) {
  host_gemm_matches_reference_or_is_refused(ops::HostGemm::blis);
}

// automatic runs the build's choice; the per-call rate is measured and positive; bad sizes refused.
TEST(Deployed, HostGemmDefaultAndRate) {
  const auto [w, M0, D, X] = deployed_case(24, 40, 64, 2);
  const auto a = ops::deployed(w, M0, D, X, Backend::cpu, {Precision::f64, 2}, ops::HostGemm::automatic);
  const auto d = ops::deployed(w, M0, D, X, Backend::cpu, {Precision::f64, 2}, ops::host_gemm_default());
  EXPECT_TRUE(a.gram == d.gram);
  EXPECT_NE(ops::host_gemm_default(), ops::HostGemm::automatic);
  EXPECT_EQ(ops::to_string(ops::HostGemm::blis), "blis");
  for (auto g : {ops::HostGemm::eigen, ops::HostGemm::openblas, ops::HostGemm::blis})
    if (ops::host_gemm_available(g)) {
      EXPECT_GT(ops::host_gemm_gflops(g, Precision::f32, 16, 16, 64, 1), 0.0);
    }
  EXPECT_THROW(ops::host_gemm_gflops(ops::HostGemm::eigen, Precision::f64, 0, 16, 16), std::invalid_argument);
}
