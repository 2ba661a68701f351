// Progress of `akm phase --measure` and `akm bench` (akm/base/progress.hpp): drawn on stderr when
// it is a terminal (a pseudo-terminal here), absent with --quiet or when stderr is a pipe.
#include <fcntl.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "test_util.hpp"

namespace {

namespace fs = std::filesystem;

// Runs `akm ARGS` with stdout on /dev/null and stderr on a pseudo-terminal; returns what it
// drew there.
std::string stderr_on_terminal(const std::string& args) {
  int master = -1, slave = -1;
  if (openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return "openpty failed";
  const std::string cmd = std::string(AKM_CLI_PATH) + " " + args;
  const pid_t pid = fork();
  if (pid == 0) {
    ::close(master);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(slave, STDERR_FILENO);
    ::unsetenv("AKM_PROGRESS");
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(slave);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(master);  // read ends with EIO once the child closed the terminal
  int status = 0;
  ::waitpid(pid, &status, 0);
  return out;
}

const fs::path kTmp = fs::path(AKM_TEST_TMP) / "progress_cli";

std::string phase_args(const std::string& out) {
  return "phase --x eta:0.2:1.2:4 --y beta:0.5:0.95:3 --metric stable "
         "--spectrum spiked:n=4,spikes=5,floor=1 --measure --trials 16 --steps 50 --threads 1 --out " +
         (kTmp / out).string();
}

TEST(ProgressCli, PhaseMeasureCountsPointsOnATerminal) {
  const std::string err = stderr_on_terminal(phase_args("tty"));
  EXPECT_NE(err.find("akm phase --measure: "), std::string::npos) << err;
  EXPECT_NE(err.find("12/12 points (100%)"), std::string::npos) << err;
}

TEST(ProgressCli, PhaseMeasureQuietOrPipedDrawsNothing) {
  EXPECT_EQ(stderr_on_terminal(phase_args("quiet") + " --quiet"), "");
  const auto r = akm_test::run_cli(phase_args("pipe"));  // stderr is a pipe
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("points ("), std::string::npos) << r.out;
}

TEST(ProgressCli, BenchShowsStagesOnATerminalOnly) {
  const std::string args = "bench --quick --workload W1 --precision double --threads 1";
  const std::string err = stderr_on_terminal(args);
  EXPECT_NE(err.find("[1/2] limits"), std::string::npos) << err;
  EXPECT_NE(err.find("[2/2] W1"), std::string::npos) << err;
  EXPECT_EQ(stderr_on_terminal(args + " --quiet"), "");
  const auto r = akm_test::run_cli(args);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("[1/2]"), std::string::npos) << r.out;
}

}  // namespace
