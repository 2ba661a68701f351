// progress — the "[i/N] ID title · elapsed · ETA" lines of multi-experiment runs, drawn on
// stderr only when it is a terminal and --quiet is absent (RunOptions::progress).
#pragma once
#include <chrono>
#include <cstddef>
#include <string>

namespace akm {

/// Human duration: 42 s, 3 min 05 s, 1 h 02 min.
std::string format_duration(double seconds);

class RunProgress {
 public:
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

}  // namespace akm
