// report/files — plain and atomic file writes, the writable-folder probe, subprocesses,
// and the pid tags that let a later run clean up after a killed one.
#include "akm/report/files.hpp"

#include <sys/wait.h>
#include <csignal>
#include <cerrno>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/base/interrupt.hpp"

namespace akm::files {

namespace fs = std::filesystem;

std::string pid_tag() { return std::to_string(static_cast<long long>(::getpid())); }

// True when `name` is prefix + the pid of a process that no longer exists: what a killed
// (SIGKILL, power loss) run left behind. A live pid's files belong to a concurrent run.
bool left_by_dead_process(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return false;
  const std::string digits = name.substr(prefix.size());
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const long pid = std::stol(digits);
  return pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& p, const std::string& content) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

// Experiment code names files; a slash or a dot-name would escape the result folder.
void require_plain_name(const std::string& file) {
  if (file.empty() || file == "." || file == ".." || file.find('/') != std::string::npos ||
      file.find('\0') != std::string::npos)
    throw std::invalid_argument("not a plain file name: '" + file + "'");
}

namespace {

// The outermost ancestor that does not exist yet: everything create_directories makes
// lies under it, so removing it undoes a failed attempt completely.
std::optional<fs::path> first_missing_ancestor(const fs::path& p) {
  std::optional<fs::path> missing;
  std::error_code ec;
  for (fs::path q = p; !q.empty(); q = q.parent_path()) {
    if (fs::exists(fs::symlink_status(q, ec))) break;
    missing = q;
    if (q == q.parent_path()) break;
  }
  return missing;
}

bool probe_write(const fs::path& dir) {
  const fs::path probe = dir / (".akm-write-probe-" + pid_tag());
  bool ok = false;
  {
    std::ofstream out(probe, std::ios::binary | std::ios::trunc);
    out << "akm";
    out.close();
    ok = static_cast<bool>(out);
  }
  std::error_code ec;
  fs::remove(probe, ec);
  return ok && !ec;
}

}  // namespace

// popen with 2>&1: gnuplot reports problems on stderr and writes nothing else to stdout.
CommandResult run_command(const std::string& cmd) {
  CommandResult r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(p);
  r.ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return r;
}

bool non_empty_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && fs::file_size(p, ec) > 0 && !ec;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace akm::files

namespace akm {

namespace fs = std::filesystem;
using namespace files;

void require_writable_dir(const fs::path& root, const std::string& param) {
  const auto fail = [&] { throw InputError(param, root.string(), "must be a writable folder"); };
  if (root.empty()) fail();
  const auto created = first_missing_ancestor(root);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (!ec && fs::is_directory(root, ec) && probe_write(root)) return;
  if (created) fs::remove_all(*created, ec);  // leave the file system as we found it
  fail();
}

void write_file_atomic(const fs::path& path, const std::string& content) {
  fs::path tmp = path;
  tmp += ".tmp-" + pid_tag();
  interrupt::Guard guard;
  guard.file(tmp);
  try {
    write_text(tmp, content);
    fs::rename(tmp, path);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
}

}  // namespace akm
