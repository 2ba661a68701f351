// `akm simulate`: bad input refused before any work (more rows in tests/bad_input.tsv), a
// run writes rates.csv and summary.json atomically with the documented fields, the files do
// not depend on the thread count, and --backend cuda (where no device is usable) and a PATH
// without gnuplot are refused with their reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/sim/cuda.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using akm_test::run_cli;
using akm_test::slurp;

namespace {
// Each test gets a folder of its own (ctest runs them in parallel), with the output folder
// inside it, so a test that looks for staging leftovers sees only its own.
fs::path fresh_simulate_dir(const std::string& name) {
  const fs::path home = fs::path(AKM_TEST_TMP) / "simulate_cli" / name;
  fs::remove_all(home);
  fs::create_directories(home);
  return home / "out";
}
const std::string kArgs = "simulate --spectrum power:n=8,exp=1 --trials 400 --steps 60 --seed 5 ";
}  // namespace

TEST(SimulateCli, RefusesBadInputBeforeAnyWork) {
  const fs::path out = fresh_simulate_dir("bad");
  auto r = run_cli(kArgs + "--eta 2 --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("eta = 2 is invalid"), std::string::npos) << r.out;
  r = run_cli(kArgs + "--backend tpu --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--backend = tpu is invalid"), std::string::npos) << r.out;
  r = run_cli(kArgs + "--precision half --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_FALSE(fs::exists(out));
}

TEST(SimulateCli, WritesRatesAndSummary) {
  const fs::path out = fresh_simulate_dir("run");
  const auto r = run_cli(kArgs + "--threads 2 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
  const std::string csv = slurp(out / "rates.csv");
  EXPECT_EQ(csv.rfind("arm,direction,lambda,lambda_hat,kappa,contraction_pred,", 0), 0u) << csv;
  int lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1 + 2 * 8);  // header, then ak and ema per direction
  const auto j = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_EQ(j["command"], "akm simulate");
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["precision"], "double");
  EXPECT_EQ(j["checks"].get<int>(), 6 * 8);
  EXPECT_TRUE(j["pass"].get<bool>());
  ASSERT_EQ(j["directions"].size(), 8u);
  const auto& d = j["directions"][0];
  for (const char* arm : {"ak", "ema"})
    for (const char* q : {"contraction", "coupling", "rate", "final_error"})
      EXPECT_TRUE(d[arm][q].contains("stderr")) << arm << "/" << q;
  for (const char* f : {"contraction.png", "contraction.svg", "contraction.gp", "rate.png", "rate.svg"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  // No staging folder is left behind.
  for (const auto& e : fs::directory_iterator(out.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".staging"), std::string::npos) << e.path();
}

TEST(SimulateCli, FilesDoNotDependOnThreadCount) {
  const fs::path a = fresh_simulate_dir("t1"), b = fresh_simulate_dir("t2");
  ASSERT_EQ(run_cli(kArgs + "--quiet --threads 1 --out " + a.string()).code, 0);
  ASSERT_EQ(run_cli(kArgs + "--quiet --threads 2 --out " + b.string()).code, 0);
  EXPECT_EQ(slurp(a / "rates.csv"), slurp(b / "rates.csv"));
  EXPECT_FALSE(slurp(a / "rates.csv").empty());
}

TEST(SimulateCli, CudaBackendRefusedWithoutADevice) {
  std::string why;
  if (akm::cuda::built() && !akm::cuda::device_name(&why).empty())
    GTEST_SKIP() << "a CUDA device is present";
  const fs::path out = fresh_simulate_dir("cuda");
  const auto r = run_cli(kArgs + "--backend cuda --precision float --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--backend = cuda is invalid"), std::string::npos) << r.out;
  EXPECT_TRUE(r.out.find("CUDA device is required (") != std::string::npos ||
              r.out.find("no CUDA backend") != std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out));
}

// Without gnuplot the figures cannot be drawn: the run is refused in validation (exit 2,
// naming PATH and gnuplot), before any trial runs (AKM_PROGRESS=1 would print the trial
// groups as they finish) and before --out is created.
TEST(SimulateCli, RefusedBeforeAnyWorkWithoutGnuplot) {
  const fs::path out = fresh_simulate_dir("no_gnuplot");
  const fs::path bin = out.parent_path() / "empty-bin";  // a PATH holding no gnuplot
  fs::create_directories(bin);
  const auto r = akm_test::run_cli_env("PATH=" + bin.string() + " AKM_PROGRESS=1",
                                       kArgs + "--out " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("PATH = " + bin.string() + " is invalid: must hold gnuplot"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("akm simulate"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("trial groups"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("internal error"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(out.parent_path()))
    EXPECT_EQ(e.path(), bin) << "left behind: " << e.path();
}

// `run` and `reproduce` draw every claim's figures: without gnuplot they refuse before the
// first experiment (they used to run everything, then fail with an internal error).
TEST(RunCli, RunAndReproduceRefusedBeforeAnyWorkWithoutGnuplot) {
  for (const std::string cmd : {"run T1", "reproduce"}) {
    const fs::path out = fresh_simulate_dir("no_gnuplot_" + cmd.substr(0, 3));
    const fs::path bin = out.parent_path() / "empty-bin";
    fs::create_directories(bin);
    const auto r = akm_test::run_cli_env("PATH=" + bin.string() + " AKM_PROGRESS=1",
                                         cmd + " --quick --out " + out.string());
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find("PATH = " + bin.string() + " is invalid: must hold gnuplot"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("akm " + cmd.substr(0, cmd.find(' '))), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("internal error"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(out)) << cmd;
  }
}

// `run --backend`: cpu is the default; a claim whose ops have no path on the backend asked
// (T1's row_buffers has none on cuda-emulated) runs on the CPU, and its summary says so; cuda
// is refused before any work where this build or machine has no device (tests/bad_input.tsv
// has the message rows).
TEST(RunBackend, RecordedAndCudaRefusedWithoutDevice) {
  const fs::path out = fresh_simulate_dir("run_backend");
  auto r = run_cli("run T1 --quick --backend cpu --threads 2 --quiet --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::exists(out / "T1" / "summary.json"));
  EXPECT_EQ(nlohmann::json::parse(slurp(out / "T1" / "summary.json")).count("backend"), 0u);  // the default is not written
  r = run_cli("run T1 --quick --backend cuda-emulated --threads 2 --quiet --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ran on the cpu, not cuda-emulated: no Monte Carlo on ops, or ops with no cuda-emulated path"),
            std::string::npos) << r.out;
  auto j = nlohmann::json::parse(slurp(out / "T1" / "summary.json"));
  EXPECT_EQ(j["backend"]["asked"], "cuda-emulated");
  EXPECT_EQ(j["backend"]["ran_on"], "cpu");
  r = run_cli("run T1 --quick --backend reference --threads 2 --quiet --out " + out.string());  // its op's reference
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ran on reference (its ops)"), std::string::npos) << r.out;
  j = nlohmann::json::parse(slurp(out / "T1" / "summary.json"));
  EXPECT_EQ(j["backend"]["ran_on"], "reference");
  if (akm::cuda::built() && !akm::cuda::device_name().empty()) return;  // cuda would run here
  const fs::path none = fresh_simulate_dir("run_backend_cuda");
  r = run_cli("run T1 --quick --backend cuda --out " + none.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--backend = cuda"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(none));
}
