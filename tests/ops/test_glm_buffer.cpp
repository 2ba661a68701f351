// The glm_buffer op (T10's part A Monte Carlo) on every backend held to its plain reference:
// the fast CPU engine in double and the CUDA thread body run on the host over its grid
// (docs/cuda.md), both within the rounding model of tests/test_engine.cpp; rows independent of
// the host thread count and of which call computes them; and, with a GPU, the device against
// its emulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/glm_buffer.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// A spiked spectrum, a teacher and two w with margins of order 1 (so σ is exercised away from
// 0.5 both before and after the switch), every direction recorded at a few steps, four at all.
ops::GlmBuffer op(int n) {
  ops::GlmBuffer p;
  p.lambda = Vec(n);
  for (int i = 0; i < n; ++i) p.lambda[i] = i < 3 ? 10.0 / (i + 1) : 0.5;
  Stream s(11, 0, Purpose::init);
  p.w_star = Vec(n), p.w0 = Vec(n), p.w1 = Vec(n);
  for (int i = 0; i < n; ++i) p.w_star[i] = s.normal() / std::sqrt(n), p.w0[i] = 0.5 * s.normal() / std::sqrt(n),
                              p.w1[i] = s.normal() / std::sqrt(n);
  p.t0 = 30;
  p.post = 20;
  p.checkpoints = {1, 5, 30, 31, 50};
  p.shown = {0, 1, 4, n - 1};
  return p;
}

std::vector<double> rows(const ops::GlmBuffer& p, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * p.n_obs());
  ops::glm_buffer_rows(p, 17, b, first, count, threads, r.data());
  return r;
}

double worst(const ops::GlmBuffer& p, const std::vector<double>& a, const std::vector<double>& b) {
  return max_rel_diff_rows(a, b, p.n_obs(), 0, p.n_obs());
}

}  // namespace

// A step forms the key, two n-term dots through σ (the label's w*ᵀx and δ's wᵀx; σ adds a few
// ulp and |σ'| ≤ 1/4), the key's norm, M·x̂ and the row update: ≤ 4·kC·n·ε relative a step on
// keys whose normals differ by ≤ ζ, and the buffer contracts, so after T steps every entry is
// within T·(4·kC·n·ε + ζ) of the reference relative to the row's largest entry. The labels
// compare the same uniform with σ(w*ᵀx): the cpu path draws the uniforms bit for bit, the
// float body differs by its roundings, so a label flips only where u lies within ~1e-7 of σ
// (about 1e-4 over these 250 draws); a flip would fail the comparison (δ moves by 1).
TEST(GlmBuffer, CpuAndEmulatedMatchReference) {
  for (int n : {16, 32}) {
    const auto p = op(n);
    const long long first = 2, count = 5, T = p.steps();
    const auto ref = rows(p, Backend::reference, first, count, 1);
    const auto cpu = rows(p, Backend::cpu, first, count, 2);
    const auto emu = rows(p, Backend::cuda_emulated, first, count, 2);
    const double zeta = normal_error(17, first + count, hd::kKeys, T * n);
    EXPECT_LE(worst(p, ref, cpu), T * 4 * kC * n * kEps64) << "n = " << n;
    EXPECT_LE(worst(p, ref, emu), T * (4 * kC * n * kEps32 + zeta)) << "n = " << n;
    EXPECT_EQ(emu, rows(p, Backend::cuda_emulated, first, count, 1)) << "n = " << n;  // host threads change nothing
    EXPECT_EQ(cpu, rows(p, Backend::cpu, first, count, 1)) << "n = " << n;
    const auto one = rows(p, Backend::cpu, first + 3, 1, 1);  // a trial's row whichever call computes it
    EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + 3 * p.n_obs())) << "n = " << n;
  }
}

// The recorded layout: checkpoint c holds all of M_{checkpoints[c]}, and the shown directions'
// rows agree with it at those steps (a backend that shifted a step or a direction would not).
TEST(GlmBuffer, ShownStepsAgreeWithCheckpoints) {
  const auto p = op(16);
  for (Backend b : {Backend::reference, Backend::cpu, Backend::cuda_emulated}) {
    const auto r = rows(p, b, 0, 2, 1);
    for (long long t = 0; t < 2; ++t)
      for (std::size_t c = 0; c < p.checkpoints.size(); ++c)
        for (std::size_t d = 0; d < p.shown.size(); ++d)
          EXPECT_EQ(r[t * p.n_obs() + p.checkpoint_obs(c, p.shown[d])], r[t * p.n_obs() + p.shown_obs(d, p.checkpoints[c])])
              << to_string(b) << " checkpoint " << p.checkpoints[c] << " direction " << p.shown[d];
  }
}

TEST(GlmBuffer, StatisticsIndependentOfThreadsAndBatches) {
  const auto p = op(16);
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::glm_buffer(p, 3, Backend::cpu, mc); });
  // Batches of 7 trials (however a backend batches its launches) fold to the same bits.
  const McOptions mc = small_mc(3);
  const McResult a = ops::glm_buffer(p, 3, Backend::cpu, mc);
  const McResult c = monte_carlo_rows(mc, p.n_obs(), [&](long long first, long long count, int threads, double* r) {
    ops::glm_buffer_rows(p, 3, Backend::cpu, first, count, threads, r);
  }, 7);
  EXPECT_TRUE(a.total.mean() == c.total.mean());
  for (std::size_t g = 0; g < a.groups.size(); ++g) EXPECT_TRUE(a.groups[g].mean() == c.groups[g].mean());
}

TEST(GlmBuffer, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(16), change, param); };
  refused([](auto& p) { p.beta = 1.0; }, "beta");
  refused([](auto& p) { p.eta = 0; }, "eta");
  refused([](auto& p) { p.lambda[2] = -1; }, "lambda");
  refused([](auto& p) { p.w1 = Vec::Zero(15); }, "w1");
  refused([](auto& p) { p.w_star[0] = std::nan(""); }, "w_star");
  refused([](auto& p) { p.t0 = 0; }, "t0");
  refused([](auto& p) { p.checkpoints = {5, 5}; }, "checkpoints");
  refused([](auto& p) { p.checkpoints = {51}; }, "checkpoints");
  refused([](auto& p) { p.shown = {16}; }, "shown");
  const auto p24 = op(24);  // the device kernel is unrolled for 16, 32 and 64
  std::vector<double> r(p24.n_obs());
  EXPECT_THROW(ops::glm_buffer_rows(p24, 1, Backend::cuda_emulated, 0, 1, 1, r.data()), InputError);
}

TEST(GlmBuffer, CudaMatchesEmulation) {
  REQUIRE_GPU();
  const auto p = op(32);
  const long long count = 301, T = p.steps();  // 3 blocks, the last partly idle
  EXPECT_LE(worst(p, rows(p, Backend::cuda_emulated, 0, count, 2), rows(p, Backend::cuda, 0, count, 1)),
            T * (dev_step(32) + 2 * kC * 32 * kEps32));
}
