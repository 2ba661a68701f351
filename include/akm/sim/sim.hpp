// sim — trials × steps Monte Carlo with streaming statistics.
//
// Each trial writes a fixed vector of observables (projections a check needs); the engine
// keeps only their running mean and variance (never all trials). Trials are grouped into
// fixed chunks whose statistics are merged in chunk order, so the numbers are identical
// for any thread count (the merge order never depends on scheduling).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/base/thread_pool.hpp"  // resolve_threads, parallel_for
#include "akm/sim/jackknife.hpp"     // the jackknife of group statistics
#include "akm/sim/trial_stats.hpp"  // TrialStats, the streaming accumulator

namespace akm {

/// How monte_carlo() runs: trials, threads, trial groups, chunking, progress.
struct McOptions {
  long long trials = 1000;  ///< number of trials
  int threads = 0;                 ///< 0: all hardware threads
  int groups = 0;                  ///< > 0: also keep statistics of this many trial groups
  long long chunk_trials = 16;     ///< trials per deterministic chunk
  /// Called from worker threads with (trials done, trials total); may be empty.
  std::function<void(long long, long long)> progress;
};

/// Statistics of a Monte-Carlo run: all trials together and per trial group.
struct McResult {
  TrialStats total;  ///< statistics over all trials
  std::vector<TrialStats> groups;  ///< contiguous trial groups (for jackknife errors)
};

/// Writes the observables of trial `trial` into out[0..n_obs).
using TrialKernel = std::function<void(long long trial, double* out)>;

/// Runs `trials` independent trials of `kernel` on a thread pool. Under MPI (dist.hpp) the
/// outermost call on the main thread splits the chunks across ranks and gathers their
/// statistics, folded in chunk order: every rank returns the single-process result, bit for
/// bit. The kernel must be a pure function of the trial index (it already runs on any
/// thread in any order).
McResult monte_carlo(const McOptions& opts, std::size_t n_obs, const TrialKernel& kernel);

/// Bytes of chunk statistics gathered per exchange round across ranks (64 MiB; the
/// environment variable AKM_DIST_ROUND_BYTES overrides it, e.g. to test many rounds).
std::size_t dist_round_bytes();

}  // namespace akm
