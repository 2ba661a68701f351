// python_module — see the header.
#include "python_module.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::exp {
namespace {

/// A shell word: single-quoted, with each ' written as '\''.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The last `lines` lines of `text`.
std::string tail(const std::string& text, int lines) {
  std::size_t at = text.size();
  for (int k = 0; k <= lines; ++k) {
    if (at == 0) return text;
    at = text.rfind('\n', at - 1);
    if (at == std::string::npos) return text;
  }
  return text.substr(at + 1);
}

}  // namespace

std::string python_interpreter() {
  if (const char* env = std::getenv("AKM_PYTHON"); env != nullptr && *env != '\0') return quoted(env);
#ifdef AKM_PYTHON_EXECUTABLE
  return quoted(AKM_PYTHON_EXECUTABLE);
#else
  return "python3";
#endif
}

nlohmann::json run_python_module(const std::string& module, const std::vector<std::string>& args) {
  std::string env;
#ifdef AKM_PYTHON_PACKAGE_DIR
  if (std::filesystem::is_directory(AKM_PYTHON_PACKAGE_DIR)) {
    const char* old = std::getenv("PYTHONPATH");
    env = "PYTHONPATH=" + quoted(std::string(AKM_PYTHON_PACKAGE_DIR) + (old != nullptr && *old ? std::string(":") + old : ""));
  }
#endif
  std::string cmd = python_interpreter() + " -m " + quoted(module);
  for (const auto& a : args) cmd += " " + quoted(a);
  const std::string shown = cmd;
  // stderr joins stdout: Python's warnings and tracebacks go there, and the JSON line is the last.
  cmd = (env.empty() ? "" : env + " ") + cmd + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(cmd.c_str(), "r"), ::pclose);
  if (!pipe) throw std::runtime_error("cannot start " + shown);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe.get()) != nullptr) out += buf;
  const int rc = ::pclose(pipe.release());
  const int status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  const auto fail = [&](const std::string& why) {
    return std::runtime_error(fmt::format("{} {}. Its last output:\n{}", shown, why, tail(out, 6)));
  };
  // No interpreter (the shell's 126/127) or a module it cannot import is the machine's set-up,
  // refused like bad input (exit 2) with what to install; any other failure is the measurement's.
  if (status == 126 || status == 127 || out.find("ModuleNotFoundError") != std::string::npos)
    throw InputError("AKM_PYTHON", python_interpreter(),
                     fmt::format("an interpreter that imports {} with PyTorch: akm's Python module (built with "
                                 "python3-dev and pybind11-dev, PYTHONPATH=build/python) and python3-torch "
                                 "(Debian); it said: {}", module, tail(out, 2)));
  if (status != 0) throw fail(fmt::format("exited with status {}", status));
  std::istringstream lines(out);
  nlohmann::json last;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '{') continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded()) last = std::move(j);
  }
  if (last.is_null()) throw fail("printed no JSON line");
  return last;
}

}  // namespace akm::exp
