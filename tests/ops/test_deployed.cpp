// The deployed op (bench label W4) on every backend held to its plain reference: the native
// GEMM of the CPU engine, the CUDA backend's cuBLAS call sequence (plan.hpp) on a host float
// GEMM (docs/cuda.md), and — with a GPU — cuBLAS against both. A GEMM with inner length N is
// off by ≤ γ_N ≈ c·N·ε relative to the product of norms (tests/test_engine.cpp's model).
#include <gtest/gtest.h>

#include <algorithm>

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
