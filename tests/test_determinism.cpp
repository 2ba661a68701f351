// Determinism: the same experiment with --threads 1, 2 and 7 writes byte-identical
// summary.json and CSV files (and gnuplot scripts). summary.json holds no timing field
// (experiment.cpp keeps wall time out of it), so every byte is compared.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

// File name → content of every summary.json, *.csv and *.gp in an experiment folder.
std::map<std::string, std::string> data_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto ext = e.path().extension().string();
    if (ext != ".csv" && ext != ".json" && ext != ".gp") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    files[e.path().filename().string()] = ss.str();
  }
  return files;
}

std::map<std::string, std::string> run_with_threads(const std::string& id, int threads) {
  const fs::path out = fs::path(AKM_TEST_TMP) / ("determinism-" + id + "-" + std::to_string(threads));
  fs::remove_all(out);
  const std::string cmd = std::string(AKM_CLI_PATH) + " run " + id + " --quick --quiet --seed 7 --threads " +
                          std::to_string(threads) + " --out " + out.string() + " > /dev/null";
  const int status = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  auto files = data_files(out / id);
  fs::remove_all(out);
  return files;
}

}  // namespace

class Determinism : public ::testing::TestWithParam<std::string> {};

TEST_P(Determinism, ThreadCountDoesNotChangeAByte) {
  const std::string id = GetParam();
  const auto one = run_with_threads(id, 1);
  ASSERT_TRUE(one.count("summary.json"));
  ASSERT_GE(one.size(), 2u) << "no CSV written";
  for (int threads : {2, 7}) {
    const auto other = run_with_threads(id, threads);
    ASSERT_EQ(other.size(), one.size()) << id << " threads " << threads;
    for (const auto& [name, content] : one) {
      ASSERT_TRUE(other.count(name)) << name;
      EXPECT_TRUE(other.at(name) == content) << id << "/" << name << " differs with --threads " << threads;
    }
  }
}

// E1 writes phase-map summaries (they once carried wall time). T1 and T3 are Monte-Carlo sweeps (jackknife groups, many workers); T12 mixes Monte Carlo
// with closed forms. Each takes a few seconds in --quick mode.
INSTANTIATE_TEST_SUITE_P(Quick, Determinism, ::testing::Values("T1", "T3", "T12", "E1"));
