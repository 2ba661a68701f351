// interrupt — SIGINT/SIGTERM leave no partial results. Staging folders and temporary files
// in flight are registered here; the handler removes them (async-signal-safe system calls
// only), puts back a previous result folder caught mid-swap, and then dies by the same
// signal. What a SIGKILL leaves behind is swept by the next ResultDir (report.cpp).
#pragma once
#include <filesystem>

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
  void no_restore();
  void release();

 private:
  int slot_ = -1;
};

}  // namespace akm::interrupt
