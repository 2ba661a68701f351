// Helpers shared by the tests that drive the `akm` program or read the files it writes.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace akm_test {

struct CliResult {
  int code;         // the program's exit code
  std::string out;  // stdout and stderr together
};

// Runs `ENV akm ARGS` (AKM_CLI_PATH) through the shell and collects its output (stdout only
// when merge_stderr is false); ENV is "" or shell assignments for akm alone ("PATH=/x AKM_PROGRESS=1").
inline CliResult run_cli_env(const std::string& env, const std::string& args, bool merge_stderr = true) {
  const std::string cmd = (env.empty() ? "" : env + " ") + std::string(AKM_CLI_PATH) + " " + args +
                          (merge_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  const int status = pclose(p);
  return {WEXITSTATUS(status), out};
}

// Runs `akm ARGS` (AKM_CLI_PATH) through the shell and collects its output (stdout only
// when merge_stderr is false).
inline CliResult run_cli(const std::string& args, bool merge_stderr = true) {
  return run_cli_env("", args, merge_stderr);
}

// A whole file, byte for byte ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace akm_test
