// The fit op of `akm simulate` on every backend held to its plain reference: the fast engine
// (double and float state), the CUDA trial body run on the host over the kernel's batches and
// grids (docs/cuda.md), and — with a GPU — the device against the float engine and against its
// emulation. The driver's analysis of the op's moments is tests/test_simulate.cpp's.
//
// Rounding model (as tests/test_engine.cpp). ε = 2⁻⁵³ or 2⁻²⁴; a length-n dot product is
// reordered/fused by the engine, off by ≤ c·n·ε relative to the sum of |terms| (c = 4); the
// float normals are the double ones rounded, off by ≤ 4e-4 (worst case u → 1). The state's
// maps contract (β̃, β < 1 and small α), so per-step errors add at most linearly: after t
// steps the state is off by ≤ t·δ·S^{1/2}, δ = c·n·ε (+ 4e-4 in float) and S = 1 + Σ_i
// Σ_t (e_{t,i}² + μ_{t,i}²) (squared size of the whole trajectory, every direction: a
// rounding in a dot product moves every direction). A moment Σ_t a_t b_t is then off by
// ≤ 2·T·δ·S, and e_T by ≤ T·δ·S^{1/2} (fit_worst_ratio, tests/rounding_bounds.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "akm/sim/ops/fit.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;
using engine::Precision;

namespace {

// A small case on a spiked spectrum: the plain reference is slow, so a few trials in 6 groups.
ops::Fit small_fit(bool normalized) {
  const Spectrum s = parse_spectrum("spiked:n=8,spikes=4/2,floor=0.5");
  ops::Fit w;
  w.lambda.assign(s.lambda.data(), s.lambda.data() + s.n());
  w.normalized = normalized;
  w.beta = 0.9;
  w.eta = normalized ? 0.5 : 0.1;
  w.alpha = 0.05;
  w.sigma = 0.1;
  w.steps = 120;
  w.trials = 24;
  w.groups = 6;
  return w;
}

}  // namespace

TEST(Fit, CpuMatchesReference) {
  for (bool normalized : {true, false}) {
    const ops::Fit w = small_fit(normalized);
    const auto ref = ops::fit(w, 7, Backend::reference, {.threads = 1});
    const auto d = ops::fit(w, 7, Backend::cpu, {Precision::f64, 2});
    const auto f = ops::fit(w, 7, Backend::cpu, {Precision::f32, 2});
    ASSERT_EQ(d.values.size(), ref.values.size());
    const double r64 = fit_worst_ratio(w, ref, d, kC * w.n() * kEps64);
    const double r32 = fit_worst_ratio(w, ref, f, kC * w.n() * kEps32 + 4e-4);
    RecordProperty(normalized ? "normalized_f64_ratio" : "raw_f64_ratio", std::to_string(r64));
    RecordProperty(normalized ? "normalized_f32_ratio" : "raw_f32_ratio", std::to_string(r32));
    EXPECT_LE(r64, 1.0) << (normalized ? "normalized" : "raw");
    EXPECT_LE(r32, 1.0) << (normalized ? "normalized" : "raw");
  }
}

TEST(Fit, ReferenceAndCpuAreThreadCountIndependent) {
  const ops::Fit w = small_fit(true);
  EXPECT_EQ(ops::fit(w, 3, Backend::reference, {.threads = 1}).values,
            ops::fit(w, 3, Backend::reference, {.threads = 2}).values);
  for (Precision p : {Precision::f64, Precision::f32}) {
    const auto one = ops::fit(w, 3, Backend::cpu, {p, 1});
    EXPECT_EQ(one.values, ops::fit(w, 3, Backend::cpu, {p, 2}).values);
    EXPECT_EQ(one.values, ops::fit(w, 3, Backend::cpu, {p, 3}).values);
  }
}

TEST(Fit, CudaEmulatedMatchesReferenceInEveryBatching) {
  ops::Fit w;
  for (int i = 0; i < 8; ++i) w.lambda.push_back(i < 2 ? 2.0 : 0.5);
  w.alpha = 0.05;
  w.trials = 24;
  w.groups = 6;
  w.steps = 120;
  for (bool normalized : {true, false}) {
    w.normalized = normalized;
    w.eta = normalized ? 0.5 : 0.1;
    const auto ref = ops::fit(w, 7, Backend::reference, {.threads = 2});
    const auto e = ops::fit(w, 7, Backend::cuda_emulated, {.threads = 2});
    ASSERT_EQ(e.values.size(), ref.values.size());
    const double zeta = std::max(normal_error(7, w.trials, hd::kKeys, (long long)w.steps * w.n()),
                                 normal_error(7, w.trials, hd::kNoise, w.steps));
    const double ratio = fit_worst_ratio(w, ref, e, kC * w.n() * kEps32 + zeta);
    RecordProperty(normalized ? "fit_normalized_ratio" : "fit_raw_ratio", sci(ratio));
    EXPECT_LE(ratio, 1.0) << normalized;
    // Batches of 5 trials (the last one 4): the trials' numbers and the group sums' order
    // do not depend on the batching.
    const std::size_t per_trial = std::size_t(w.n()) * (5 * sizeof(float) + 16 * sizeof(double));
    EXPECT_EQ(ops::fit(w, 7, Backend::cuda_emulated, {.threads = 1, .batch_bytes = 5 * per_trial}).values,
              e.values);
  }
}

TEST(Fit, CudaMatchesCpuFloat) {
  REQUIRE_GPU();
  const ops::Fit w = small_fit(true);
  const auto cpu = ops::fit(w, 11, Backend::cpu, {Precision::f32, 2});
  const auto gpu = ops::fit(w, 11, Backend::cuda);
  ASSERT_EQ(cpu.values.size(), gpu.values.size());
  // Both float: each off the exact trajectory by the float model, so by twice it from each other.
  EXPECT_LE(fit_worst_ratio(w, cpu, gpu, 2 * (kC * w.n() * kEps32 + 4e-4)), 1.0);
}

TEST(Fit, CudaMatchesEmulation) {
  REQUIRE_GPU();
  ops::Fit w;
  for (int i = 0; i < 8; ++i) w.lambda.push_back(i < 2 ? 2.0 : 0.5);
  w.trials = 200;  // two blocks
  w.groups = 10;
  w.steps = 100;
  const auto e = ops::fit(w, 3, Backend::cuda_emulated, {.threads = 2});
  const auto g = ops::fit(w, 3, Backend::cuda);
  ASSERT_EQ(e.values.size(), g.values.size());
  EXPECT_LE(fit_worst_ratio(w, e, g, dev_step(w.n())), 1.0);
}
