// The transport-product op (T3's Monte Carlo) on every backend held to its plain reference:
// the fast CPU engine in double and the CUDA thread body run on the host over its grid
// (docs/cuda.md), both within the rounding model of tests/test_engine.cpp; the statistics the
// claims read do not depend on the thread count or on how a backend batches its trials; and,
// with a GPU, the device against its emulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/transport_product.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// A spiked-like law on n directions, λ_i = 1/(i+1): raw keys with ηλ_max = 0.4 (T3's rule),
// or normalized keys with η = 0.5; E[k_i²] = λ_i or the trace-normalized λ_i/Σλ (any finite
// value serves: the control variate's arithmetic is what the backends must agree on).
ops::TransportProduct op(int n, Key key) {
  ops::TransportProduct p;
  p.sqrt_lambda = Vec(n);
  p.second_moment = Vec(n);
  double tr = 0;
  for (int i = 0; i < n; ++i) tr += 1.0 / (i + 1);
  for (int i = 0; i < n; ++i) {
    p.sqrt_lambda[i] = std::sqrt(1.0 / (i + 1));
    p.second_moment[i] = key == Key::raw ? 1.0 / (i + 1) : 1.0 / (i + 1) / tr;
  }
  p.key = key;
  p.beta = 0.9;
  p.eta = key == Key::raw ? 0.4 : 0.5;
  p.steps = 60;
  p.lags = 20;
  p.full_lags = {1, 5, 20};
  return p;
}

std::vector<double> rows(const ops::TransportProduct& p, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * p.layout().size());
  ops::transport_product_rows(p, 11, b, first, count, threads, r.data());
  return r;
}

// The observables' four parts, each with its own scale: lag diagonals and full matrices (|P| ≲ 1),
// horizon sums (≈ τ_i), the same diagonals and sums less their control variates.
struct Part {
  const char* name;
  std::size_t j0, j1;
};
std::vector<Part> parts(const ops::TransportProductLayout& L) {
  std::vector<Part> p{{"diagonals and full matrices", 0, L.horizon(0)},
                      {"horizon sums", L.horizon(0), L.cv_diag(1, 0)},
                      {"control-variate diagonals", L.cv_diag(1, 0), L.cv_horizon(0)},
                      {"control-variate horizon sums", L.cv_horizon(0), L.cv_horizon(L.n)}};
  if (L.squares) p.push_back({"squared diagonals", L.cv_horizon(L.n), L.size()});
  return p;
}

// Worst over trials of max |a − b| / max |a| within a part.
double worst(const std::vector<double>& a, const std::vector<double>& b, std::size_t n_obs, const Part& part) {
  return max_rel_diff_rows(a, b, n_obs, part.j0, part.j1);
}

}  // namespace

// Per step a row of P takes a dot product and an update (≤ kC·n·ε relative, tests/test_engine.cpp)
// on keys whose normals differ by ≤ ζ; a sum over the steps adds ≤ ε a term. So after T steps every
// part is within T·(kC·n·ε + ζ + ε) of the reference, relative to the part's largest entry; a
// square within twice that.
TEST(TransportProduct, CpuAndEmulatedMatchReference) {
  for (Key key : {Key::raw, Key::normalized})
    for (int n : {16, 32}) {
      auto p = op(n, key);
      p.squares = n == 32;
      const std::size_t n_obs = p.layout().size();
      const long long first = 3, count = 5;  // trials 3..7: rows start at a trial other than 0
      const auto ref = rows(p, Backend::reference, first, count, 1);
      const auto cpu = rows(p, Backend::cpu, first, count, 2);
      const auto emu = rows(p, Backend::cuda_emulated, first, count, 2);
      const double zeta = normal_error(11, first + count, hd::kKeys, (long long)p.steps * n);
      for (const Part& part : parts(p.layout())) {
        const std::string what = std::string(to_string(key)) + " n=" + std::to_string(n) + ", " + part.name;
        const double sq = part.j0 == p.layout().cv_horizon(n) ? 2.0 : 1.0;
        EXPECT_LE(worst(ref, cpu, n_obs, part), sq * p.steps * (kC * n + 1) * kEps64) << what;
        EXPECT_LE(worst(ref, emu, n_obs, part), sq * p.steps * (kC * n * kEps32 + zeta + kEps32)) << what;
      }
      EXPECT_EQ(emu, rows(p, Backend::cuda_emulated, first, count, 1));  // host threads change nothing
      EXPECT_EQ(cpu, rows(p, Backend::cpu, first, count, 1));
      // A trial's row is the same whichever call computes it.
      const auto one = rows(p, Backend::cpu, first + 2, 1, 1);
      EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + 2 * n_obs));
    }
}

// Dependent keys (AR(1), ρ = 0.9; E2): the cpu path within the same bound of the reference (the
// chain adds two products and a sum a step, ≤ 3ε relative on a key whose terms share a sign
// pattern, inside the kC·n·ε of the dot), on both keys; the chain at ρ = 0 is the independent
// law bit for bit; and no device path.
TEST(TransportProduct, DependentKeysCpuMatchesReference) {
  for (Key key : {Key::raw, Key::normalized}) {
    auto p = op(16, key);
    const auto independent = rows(p, Backend::cpu, 3, 4, 2);
    p.key_rho = 0.9;
    const std::size_t n_obs = p.layout().size();
    const auto ref = rows(p, Backend::reference, 3, 4, 1), cpu = rows(p, Backend::cpu, 3, 4, 2);
    EXPECT_NE(cpu, independent) << to_string(key);
    for (const Part& part : parts(p.layout()))
      EXPECT_LE(worst(ref, cpu, n_obs, part), p.steps * (kC * 16 + 4) * kEps64) << to_string(key) << ", " << part.name;
    p.key_rho = 0.0;
    EXPECT_EQ(rows(p, Backend::cpu, 3, 4, 2), independent) << to_string(key);
  }
  auto p = op(16, Key::raw);
  p.key_rho = 0.5;
  std::vector<double> r(p.layout().size());
  expect_no_device_path([&](Backend b) { ops::transport_product_rows(p, 1, b, 0, 1, 1, r.data()); });
}

// The statistics the claims read: the same numbers for any thread count and any batching
// (monte_carlo_rows folds every chunk in trial order and the chunks in order), and equal to
// monte_carlo() with a per-trial kernel that writes the same rows.
TEST(TransportProduct, StatisticsIndependentOfThreadsAndBatches) {
  const auto p = op(16, Key::normalized);
  const std::size_t n_obs = p.layout().size();
  McOptions mc;
  mc.trials = 37;
  mc.groups = 4;
  mc.chunk_trials = 3;
  auto kernel = [&](long long first, long long count, int threads, double* r) {
    ops::transport_product_rows(p, 5, Backend::cpu, first, count, threads, r);
  };
  auto same = [&](const McResult& a, const McResult& b, const std::string& what) {
    EXPECT_EQ(a.total.count(), b.total.count()) << what;
    EXPECT_TRUE(a.total.mean() == b.total.mean()) << what;
    EXPECT_TRUE(a.total.stderr_mean() == b.total.stderr_mean()) << what;
    ASSERT_EQ(a.groups.size(), b.groups.size()) << what;
    for (std::size_t g = 0; g < a.groups.size(); ++g) EXPECT_TRUE(a.groups[g].mean() == b.groups[g].mean()) << what;
  };
  mc.threads = 1;
  const McResult base = monte_carlo_rows(mc, n_obs, kernel);
  const McResult per_trial = monte_carlo(mc, n_obs, [&](long long t, double* out) { kernel(t, 1, 1, out); });
  same(base, per_trial, "monte_carlo");
  for (long long batch : {1LL, 5LL, 1000LL}) same(base, monte_carlo_rows(mc, n_obs, kernel, batch), "batch " + std::to_string(batch));
  mc.threads = 3;
  same(base, monte_carlo_rows(mc, n_obs, kernel), "3 threads");
  same(base, ops::transport_product(p, 5, Backend::cpu, mc), "ops::transport_product");
}

TEST(TransportProduct, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(16, Key::raw), change, param); };
  refused([](auto& p) { p.beta = 1.0; }, "beta");
  refused([](auto& p) { p.eta = 0.0; }, "eta");
  refused([](auto& p) { p.eta = std::nan(""); }, "eta");
  refused([](auto& p) { p.lags = p.steps + 1; }, "lags");
  refused([](auto& p) { p.full_lags = {5, 5}; }, "full_lags");
  refused([](auto& p) { p.second_moment = Vec(3); }, "second_moment");
  refused([](auto& p) { p.sqrt_lambda[2] = std::nan(""); }, "sqrt_lambda");
  refused([](auto& p) { p.key_rho = 1.0; }, "key_rho");
  const auto p24 = op(24, Key::raw);  // the device kernel is unrolled for 16, 32 and 64
  std::vector<double> r(p24.layout().size());
  EXPECT_THROW(ops::transport_product_rows(p24, 1, Backend::cuda_emulated, 0, 1, 1, r.data()), InputError);
}

TEST(TransportProduct, CudaMatchesEmulation) {
  REQUIRE_GPU();
  for (Key key : {Key::raw, Key::normalized}) {
    auto p = op(32, key);
    p.squares = true;
    const std::size_t n_obs = p.layout().size();
    const long long count = 301;  // 9632 threads: 76 blocks, the last partly idle
    const auto emu = rows(p, Backend::cuda_emulated, 0, count, 2), gpu = rows(p, Backend::cuda, 0, count, 1);
    for (const Part& part : parts(p.layout()))
      EXPECT_LE(worst(emu, gpu, n_obs, part), (part.j0 == p.layout().cv_horizon(32) ? 2.0 : 1.0) * p.steps * (dev_step(32) + kEps32))
          << to_string(key) << " " << part.name;
  }
}
