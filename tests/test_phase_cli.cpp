// `akm phase`: bad input (and a PATH without gnuplot) refused with exit 2 naming parameter
// and value and writing nothing; outputs are complete; --measure is identical for 1 and 2
// threads; the CSV agrees with `akm theory --json` at grid points.
#include <gtest/gtest.h>

#include <algorithm>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/sim/cuda.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;

namespace {

using PhaseRun = akm_test::CliResult;
using akm_test::run_cli;
using akm_test::slurp;
PhaseRun run(const std::string& args) { return run_cli(args); }

fs::path fresh_phase_dir(const std::string& name) {
  const fs::path d = fs::path(AKM_TEST_TMP) / ("phase-" + name);
  fs::remove_all(d);
  return d;
}

const std::string kPhaseSpec = " --spectrum spiked:n=6,spikes=20/4,floor=0.5 ";
const std::string kGood = "phase --x eta:0.05:1.5:5 --y beta:0.5:0.99:4 --metric stable" + kPhaseSpec;

struct PhaseBad {
  std::string args, param, value;
};

class PhaseBadInput : public ::testing::TestWithParam<PhaseBad> {};

TEST_P(PhaseBadInput, Exit2NamesParamAndValueAndWritesNothing) {
  const PhaseBad& b = GetParam();
  const fs::path root = fresh_phase_dir("bad");
  const fs::path out = root / "map";
  const auto r = run(b.args + " --out " + out.string() + " --quiet");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(b.param), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(b.value), std::string::npos) << r.out;
  EXPECT_TRUE(!fs::exists(root) || fs::is_empty(root)) << b.args;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, PhaseBadInput,
    ::testing::Values(
        PhaseBad{"phase --x eta:0.05:1.5 --y beta:0.5:0.9:4 --metric stable" + kPhaseSpec, "--x", "eta:0.05:1.5"},
        PhaseBad{"phase --x gamma:0.05:1.5:4 --y beta:0.5:0.9:4 --metric stable" + kPhaseSpec, "--x name", "gamma"},
        PhaseBad{"phase --x eta:0.05:1.5:1 --y beta:0.5:0.9:4 --metric stable" + kPhaseSpec, "--x N", "1"},
        PhaseBad{"phase --x eta:0.05:1.5:4 --y beta:0.5:1.5:4 --metric stable" + kPhaseSpec, "--y HI", "1.5"},
        PhaseBad{"phase --x eta:0:1.5:4:log --y beta:0.5:0.9:4 --metric stable" + kPhaseSpec, "--x LO", "0"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y eta:0.5:0.9:4 --metric stable" + kPhaseSpec, "--y", "eta:0.5:0.9:4"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric fast" + kPhaseSpec, "--metric", "fast"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric underdamped" + kPhaseSpec, "--alpha", "tuned"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric rho_ratio --alpha -1" + kPhaseSpec, "--alpha", "-1"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric rho_ratio --direction 7" + kPhaseSpec, "--direction", "7"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y alpha:0.5:0.9:4 --metric rho_ratio --beta 1" + kPhaseSpec, "--beta", "1"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric stable --key cooked" + kPhaseSpec, "key", "cooked"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric stable --spectrum iso:n=0", "n", "0"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric stable --measure --trials 1" + kPhaseSpec, "--trials", "1"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y alpha:0.5:0.9:4 --metric rho_ratio --measure" + kPhaseSpec, "--measure", "alpha"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric stable --threads -2" + kPhaseSpec, "--threads", "-2"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric stable --measure --backend tpu" + kPhaseSpec, "--backend", "tpu"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric stable --measure --keys common" + kPhaseSpec, "--keys", "common"},
        PhaseBad{"phase --x eta:0.1:1.5:4 --y beta:0.5:0.9:4 --metric stable --backend cuda" + kPhaseSpec, "--backend", "--measure only"}));

TEST(PhaseCli, MeasureOnCudaRefusedWithoutADevice) {
  std::string why;
  if (akm::cuda::built() && !akm::cuda::device_name(&why).empty())
    GTEST_SKIP() << "a CUDA device is present";
  const fs::path root = fresh_phase_dir("cuda");
  const auto r = run(kGood + "--measure --trials 4 --steps 5 --backend cuda --quiet --out " + (root / "map").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--backend = cuda is invalid"), std::string::npos) << r.out;
  EXPECT_TRUE(r.out.find("CUDA device is required (") != std::string::npos ||
              r.out.find("no CUDA backend") != std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(root));
}

// Every map is drawn with gnuplot: without it the command is refused in validation (exit 2,
// naming PATH and gnuplot), before the map or the --measure trials run (AKM_PROGRESS=1 would
// draw the points' progress line) and before --out is created.
TEST(PhaseCli, RefusedBeforeAnyWorkWithoutGnuplot) {
  const fs::path home = fresh_phase_dir("no-gnuplot");
  const fs::path bin = home / "empty-bin";  // a PATH holding no gnuplot
  fs::create_directories(bin);
  const fs::path out = home / "map";
  for (const std::string extra : {"", "--measure --trials 20 --steps 50 "}) {
    const auto r = akm_test::run_cli_env("PATH=" + bin.string() + " AKM_PROGRESS=1",
                                         kGood + extra + "--out " + out.string());
    EXPECT_EQ(r.code, 2) << extra << r.out;
    EXPECT_NE(r.out.find("PATH = " + bin.string() + " is invalid: must hold gnuplot"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("akm phase"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("points"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("internal error"), std::string::npos) << r.out;
    for (const auto& e : fs::directory_iterator(home))
      EXPECT_EQ(e.path(), bin) << "left behind: " << e.path();
  }
}

TEST(PhaseCli, WritesCsvFiguresAndSummary) {
  const fs::path out = fresh_phase_dir("good") / "map";
  const auto r = run(kGood + "--out " + out.string() + " --quiet");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* f : {"phase.csv", "phase.gp", "summary.json"}) EXPECT_TRUE(fs::exists(out / f)) << f;
  const auto j = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_EQ(j["points"], 20);
  // header + 20 rows
  const std::string csv = slurp(out / "phase.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 21);
}

// The CSV's rho_ratio columns at a grid point equal `akm theory --json` there.
TEST(PhaseCli, AgreesWithTheoryJsonAtGridPoints) {
  const fs::path out = fresh_phase_dir("theory") / "map";
  const auto r = run("phase --x eta:0.01:0.07:3 --y beta:0.6:0.9:2 --metric rho_ratio --direction 2 --alpha 0.3 --key raw" +
                     kPhaseSpec + "--out " + out.string() + " --quiet");
  ASSERT_EQ(r.code, 0) << r.out;
  std::istringstream csv(slurp(out / "phase.csv"));
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "x,y,eta,beta,alpha,rho_ratio,rho_ak,rho_ema");
  int rows = 0;
  while (std::getline(csv, line)) {
    std::vector<double> v;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) v.push_back(std::stod(c));
    std::ostringstream a;
    a.precision(17);
    a << "theory --json --key raw --alpha 0.3 --eta " << v[2] << " --beta " << v[3] << kPhaseSpec;
    const auto t = run(a.str());
    ASSERT_EQ(t.code, 0) << t.out;
    const auto d = nlohmann::json::parse(t.out)["directions"][1];
    EXPECT_NEAR(v[6], d["rho_ak"].get<double>(), 1e-13) << line;
    EXPECT_NEAR(v[7], d["rho_ema"].get<double>(), 1e-13) << line;
    EXPECT_NEAR(v[5], d["rho_ak"].get<double>() / d["rho_ema"].get<double>(), 1e-13) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 6);
}

// --measure: the same seed gives byte-identical CSVs with 1 and 2 threads.
TEST(PhaseCli, MeasureIsThreadCountIndependent) {
  const std::string base = "phase --x eta:0.05:1.2:3 --y beta:0.5:0.95:3 --metric stable --key normalized --measure "
                           "--trials 16 --steps 60 --quiet" + kPhaseSpec;
  const fs::path a = fresh_phase_dir("t1") / "map", b = fresh_phase_dir("t2") / "map";
  ASSERT_EQ(run(base + "--seed 5 --threads 1 --out " + a.string()).code, 0);
  ASSERT_EQ(run(base + "--seed 5 --threads 2 --out " + b.string()).code, 0);
  const std::string ca = slurp(a / "phase.csv");
  EXPECT_NE(ca.find("measured_rate"), std::string::npos);
  EXPECT_EQ(ca, slurp(b / "phase.csv"));
  const fs::path c = fresh_phase_dir("t3") / "map";
  const auto r = run(base + "--threads 1 --seed 6 --out " + c.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(ca, slurp(c / "phase.csv"));  // the seed matters
  // Shared keys are the default; the per-point reference is one flag away, also thread-free.
  const fs::path d = fresh_phase_dir("t4") / "map", e = fresh_phase_dir("t5") / "map";
  ASSERT_EQ(run(base + "--seed 5 --threads 1 --keys per-point --out " + d.string()).code, 0);
  ASSERT_EQ(run(base + "--seed 5 --threads 2 --keys per-point --out " + e.string()).code, 0);
  EXPECT_EQ(slurp(d / "phase.csv"), slurp(e / "phase.csv"));
  EXPECT_NE(ca, slurp(d / "phase.csv"));
  EXPECT_NE(slurp(a / "summary.json").find("\"keys\": \"shared\""), std::string::npos);
  EXPECT_NE(slurp(d / "summary.json").find("\"keys\": \"per-point\""), std::string::npos);
}

}  // namespace
