// Crash safety: SIGINT or SIGTERM in the middle of an experiment leaves the previous
// results byte for byte and no partial file or staging folder; what a SIGKILL leaves is
// swept (and a previous result caught mid-swap put back) by the next run.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

namespace fs = std::filesystem;

namespace {

std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    files[fs::relative(e.path(), dir).string()] = ss.str();
  }
  return files;
}

// Spawns akm with `args`, returns its pid.
pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(AKM_CLI_PATH));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!freopen("/dev/null", "w", stdout)) _exit(127);
    execv(AKM_CLI_PATH, argv.data());
    _exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

bool staging_exists(const fs::path& root) {
  for (const auto& e : fs::directory_iterator(root))
    if (e.path().filename().string().find(".staging-") != std::string::npos) return true;
  return false;
}

fs::path fresh(const std::string& name) {
  const fs::path d = fs::path(AKM_TEST_TMP) / ("crash-" + name);
  fs::remove_all(d);
  return d;
}

// Previous results from a --quick run, then a full run (seconds of work) is interrupted as
// soon as its staging folder appears.
void interrupted_run_keeps_previous(int sig) {
  const fs::path root = fresh(std::to_string(sig));
  ASSERT_EQ(WEXITSTATUS(wait_for(spawn({"run", "T3", "--quick", "--quiet", "--out", root.string()}))), 0);
  const auto before = snapshot(root);
  ASSERT_FALSE(before.empty());

  const pid_t pid = spawn({"run", "T3", "--quiet", "--threads", "1", "--out", root.string()});
  const auto t0 = std::chrono::steady_clock::now();
  while (!staging_exists(root) && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(staging_exists(root)) << "the run never started an experiment";
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, sig);
  const int status = wait_for(pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "akm finished before the signal; make the run longer";
  EXPECT_EQ(WTERMSIG(status), sig);

  EXPECT_EQ(snapshot(root), before) << "previous results changed";
  for (const auto& e : fs::directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "T3" || name == "summary.json" || name == "index.html" || name == "katex") << name;
  }
}

}  // namespace

TEST(CrashSafety, SigtermMidExperimentLeavesPreviousResultsAndNoPartialFiles) {
  interrupted_run_keeps_previous(SIGTERM);
}

TEST(CrashSafety, SigintMidExperimentLeavesPreviousResultsAndNoPartialFiles) {
  interrupted_run_keeps_previous(SIGINT);
}

TEST(CrashSafety, NextRunSweepsWhatASigkillLeftAndRestoresAHalfSwappedResult) {
  const fs::path root = fresh("kill");
  ASSERT_EQ(WEXITSTATUS(wait_for(spawn({"run", "T12", "--quick", "--quiet", "--out", root.string()}))), 0);
  const auto before = snapshot(root / "T12");
  // What SIGKILL between commit()'s two renames leaves: the previous folder moved aside and
  // a staging folder, both tagged with a pid that no longer runs.
  const pid_t dead = spawn({"--version"});
  wait_for(dead);
  const std::string tag = std::to_string(dead);
  fs::rename(root / "T12", root / (".T12.old-" + tag));
  fs::create_directory(root / (".T12.staging-" + tag));
  std::ofstream(root / (".T12.staging-" + tag) / "half.csv") << "x\n1";
  std::ofstream(root / ("summary.json.tmp-" + tag)) << "{";

  // The next run into the folder, of any experiment, sweeps and restores.
  ASSERT_EQ(WEXITSTATUS(wait_for(spawn({"run", "T3", "--quick", "--quiet", "--out", root.string()}))), 0);
  EXPECT_EQ(snapshot(root / "T12"), before);
  for (const auto& e : fs::directory_iterator(root))
    EXPECT_EQ(e.path().filename().string().find(tag), std::string::npos) << e.path();
}
