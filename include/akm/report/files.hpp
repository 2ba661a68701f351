// report/files — plain and atomic writes, the writable-folder probe before any work, the
// pid tags that let a later run clean up after a killed one, and subprocesses.
#pragma once
#include <filesystem>
#include <string>

namespace akm {

/// Verifies the output root is writable before any work (InputError naming `param`).
/// Called by the process that writes: under mpirun the caller skips it on ranks other than
/// 0, which write no files (akm/sim/dist.hpp).
void require_writable_dir(const std::filesystem::path& root, const std::string& param = "--out");

/// Writes `content` to `path` through a temporary file and rename.
void write_file_atomic(const std::filesystem::path& path, const std::string& content);

namespace files {
/// This process's id as text: the tag of its staging folders and temporary files.
std::string pid_tag();
/// True when `name` is prefix + the pid of a process that no longer exists.
bool left_by_dead_process(const std::string& name, const std::string& prefix);
/// The whole file as text (std::runtime_error when unreadable).
std::string read_text(const std::filesystem::path& p);
/// Writes `content` to `p` (std::runtime_error when it cannot; no atomic rename, see write_file_atomic).
void write_text(const std::filesystem::path& p, const std::string& content);
/// std::invalid_argument unless `file` is a plain name (no slash, not . or ..).
void require_plain_name(const std::string& file);
/// True when `p` is a regular file with at least one byte.
bool non_empty_file(const std::filesystem::path& p);
/// `s` quoted for /bin/sh.
std::string shell_quote(const std::string& s);
/// What run_command() saw.
struct CommandResult {
  bool ok = false;  ///< the command exited 0
  std::string output;  ///< stdout and stderr together
};
/// Runs `cmd` through the shell and collects its output.
CommandResult run_command(const std::string& cmd);
}  // namespace files

}  // namespace akm
