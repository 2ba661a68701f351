// interrupt — SIGINT/SIGTERM leave no partial results. Staging folders and temporary files
// in flight are registered here; the handler removes them (async-signal-safe system calls
// only), puts back a previous result folder caught mid-swap, and then dies by the same
// signal. What a SIGKILL leaves behind is swept by the next ResultDir (report/result_dir.cpp).
#pragma once
#include <filesystem>
#include <stdexcept>

namespace akm::interrupt {

/// A registration; releases itself when destroyed. Inactive when the table is full
/// (the next run's sweep still cleans up).
class Guard {
 public:
  Guard() = default;
  ~Guard() { release(); }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;

  /// A flat staging folder (files only) removed on a signal.
  void folder(const std::filesystem::path& staging);
  /// A temporary file unlinked on a signal.
  void file(const std::filesystem::path& tmp);
  /// While set, a signal renames `old` back to `final_dir` when `final_dir` is missing.
  void restore(const std::filesystem::path& old, const std::filesystem::path& final_dir);
  /// Ends the restore() registration (the new folder is in place).
  void no_restore();
  /// Drops every registration of this guard.
  void release();

 private:
  int slot_ = -1;
};

// ---- Cooperative stop ---------------------------------------------------------------
// A host that keeps its own SIGINT handler (the Python module: Ctrl-C, a notebook's
// "interrupt kernel") cannot let the handler above kill the process. It requests a stop
// instead; the Monte-Carlo loops (sim.cpp, ops/common.hpp, measured_map.cpp) poll the flag
// between units of work and throw Stopped, which unwinds like any error (staging folders
// are removed by ResultDir's destructor). The flag is process-wide: every run in flight stops.

/// Thrown by a loop that saw a stop request.
class Stopped : public std::runtime_error {
 public:
  Stopped() : std::runtime_error("interrupted") {}
};

/// Asks every Monte-Carlo loop in flight to stop.
void request_stop();
/// Clears a stop request before the next run.
void clear_stop();
/// True while a stop is requested.
bool stop_requested();
/// Throws Stopped when a stop was requested.
void throw_if_stop_requested();

}  // namespace akm::interrupt
