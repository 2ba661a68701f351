// progress — the "[i/N] ID title · elapsed · ETA" lines of multi-step runs (reproduce,
// bench) and the redrawn "label: done/total · elapsed · ETA" counter of long sweeps (phase
// --measure), drawn on stderr only when it is a terminal, --quiet is absent and this is MPI
// rank 0 (cli::show_progress, RunOptions::progress).
#pragma once
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

namespace akm {

/// Human duration: 42 s, 3 min 05 s, 1 h 02 min.
std::string format_duration(double seconds);

/// The `[i/N] ID … · elapsed · ETA` lines of `akm run` and `akm reproduce` (stderr).
class RunProgress {
 public:
  /// Progress of `total` experiments; prints nothing unless `enabled`.
  RunProgress(std::size_t total, bool enabled);
  /// Announces experiment k (0-based) before it runs, with an ETA from the ones done so far
  /// (mean time per finished experiment × the number left; none before the first ends).
  void begin(std::size_t k, const std::string& id, const std::string& title);
  /// The ETA line's estimate of seconds left after `done` of `total` finished in `elapsed`.
  static double eta_seconds(std::size_t done, std::size_t total, double elapsed);

 private:
  std::size_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

/// One redrawn line "\r\<label\>: done/total units (p%) · elapsed · ETA", at most every
/// 0.2 s and once at the end (then a newline). Safe to call from worker threads.
class CountProgress {
 public:
  /// A line labelled `label` counting `unit`; prints nothing unless `enabled`.
  CountProgress(std::string label, std::string unit, bool enabled);
  /// Redraws the line for `done` of `total` (rate-limited).
  void update(long long done, long long total);
  /// The line drawn for `done` of `total` after `elapsed` seconds (without "\r").
  std::string line(long long done, long long total, double elapsed) const;

 private:
  std::string label_, unit_;
  bool enabled_;
  std::mutex mu_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false, finished_ = false;
};

}  // namespace akm
