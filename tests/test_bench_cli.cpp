// `akm bench`: bad input refused before any work, a quick run prints the documented JSON,
// and the NumPy reference agrees statistically with the engine (when python3-numpy is there).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/sim/cuda.hpp"
#include "test_util.hpp"

// The shared runner (tests/test_util.hpp); `false` keeps stderr out of the JSON tests.
using akm_test::run_cli;

TEST(BenchCli, RefusesBadInput) {
  auto r = run_cli("bench --workload W9");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--workload = W9 is invalid"), std::string::npos) << r.out;
  r = run_cli("bench --backend tpu");
  EXPECT_EQ(r.code, 2);
  r = run_cli("bench --precision half");
  EXPECT_EQ(r.code, 2);
  r = run_cli("bench --threads -1");
  EXPECT_EQ(r.code, 2);
}

TEST(BenchCli, CudaBackendRefusedWithoutADevice) {
  std::string why;
  if (akm::cuda::built() && !akm::cuda::device_name(&why).empty())
    GTEST_SKIP() << "a CUDA device is present";
  const auto r = run_cli("bench --backend cuda --quick --workload W1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--backend = cuda is invalid"), std::string::npos) << r.out;
}

// A row's fraction of its limit: a number in (0, 1], or — where this run beat a ceiling or the
// model (akm/app/bench_ceilings.hpp; e.g. the ceilings measured while another test loads the
// machine) — null, with the measurement above 1 and the contradiction named beside it.
static void expect_fraction_or_contradiction(const nlohmann::json& lim) {
  if (lim["fraction_of_limit"].is_null()) {
    EXPECT_GT(lim["measured_over_limit"].get<double>(), 1.0) << lim.dump();
    const auto why = lim["contradicted"].get<std::string>();
    EXPECT_TRUE(why == "ceiling" || why == "model") << lim.dump();
  } else {
    EXPECT_GT(lim["fraction_of_limit"].get<double>(), 0.0) << lim.dump();
    EXPECT_LE(lim["fraction_of_limit"].get<double>(), 1.0) << lim.dump();
  }
}

TEST(BenchCli, QuickJsonHasRatesAndRatios) {
  const auto r = run_cli("bench --quick --workload W1 --precision double --threads 1 --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 1u);
  const auto& row = j["results"][0];
  EXPECT_EQ(row["workload"], "W1");
  EXPECT_GT(row["trial_steps_per_s"].get<double>(), 0.0);
  EXPECT_GT(row["speedup_vs_reference"].get<double>(), 0.0);
  expect_fraction_or_contradiction(row["limit"]);
  EXPECT_GT(j["machine"]["fma_peak_gflops_double"].get<double>(), 0.0);
  EXPECT_GT(j["machine"]["triad_gbs"].get<double>(), 0.0);
  // The FMA ceiling is cross-checked against the documented rate, or says why not.
  for (const char* p : {"double", "float"}) {
    const auto& x = j["machine"][std::string("fma_cross_check_") + p];
    EXPECT_GT(x["one_core_gflops"].get<double>(), 0.0);
    if (x["documented_gflops_per_core"].is_null()) EXPECT_FALSE(x["why_not_cross_checked"].get<std::string>().empty());
    else EXPECT_GT(x["measured_over_documented"].get<double>(), 0.0);
  }
}

TEST(BenchCli, TableStatesTheCeilingsCrossCheck) {
  const auto r = run_cli("bench --quick --workload W1 --precision double --threads 1 --quiet", false);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("FMA ceiling (double): one core"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("triad"), std::string::npos) << r.out;
}

TEST(BenchCli, NumpyReferenceAgreesStatistically) {
  if (std::system("/usr/bin/python3 -c 'import numpy' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 has no numpy (apt-get install python3-numpy)";
  const auto r = run_cli("bench --quick --workload W3 --precision float --vs-numpy --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const auto& agreement = j["results"][0]["numpy"]["agreement"];
  EXPECT_TRUE(agreement["agree"].get<bool>()) << agreement.dump();
  EXPECT_EQ(agreement["statistics"].get<int>(), 16);  // 4×4 grid points in --quick
  EXPECT_TRUE(j["results"][0].contains("speedup_vs_numpy"));
}

// W3s: the phase-map kernel with shared keys, timed beside its per-point path in the same run.
TEST(BenchCli, W3HasASharedKeyRowBesideThePerPointPath) {
  const auto r = run_cli("bench --quick --workload W3 --precision double --threads 1 --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 2u);
  const auto& row = j["results"][1];
  EXPECT_EQ(row["workload"], "W3s");
  EXPECT_GT(row["trial_steps_per_s"].get<double>(), 0.0);
  EXPECT_GT(row["reference_trial_steps_per_s"].get<double>(), 0.0);
  expect_fraction_or_contradiction(row["limit"]);
}

// --vs-jax: JAX runs float32, so a double-only bench is refused before any work; where the
// interpreter cannot import jax (CI), the float row says so and the bench still succeeds.
// The agreement path itself ran on the GPU machine (results/device/bench_cuda.json).
TEST(BenchCli, JaxReferenceRefusedInDoubleAndReportedMissing) {
  auto r = run_cli("bench --quick --workload W1 --precision double --vs-jax");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--precision = double is invalid"), std::string::npos) << r.out;
  if (std::system("/usr/bin/python3 -c 'import jax' > /dev/null 2>&1") == 0)
    GTEST_SKIP() << "/usr/bin/python3 imports jax: the missing path cannot be shown here";
  r = run_cli("bench --quick --workload W1 --precision float --threads 1 --vs-jax --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_NE(j["results"][0]["jax"]["missing"].get<std::string>().find("JAX is not importable"), std::string::npos);
  EXPECT_FALSE(j["results"][0].contains("speedup_vs_jax"));
}
