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
  /// Unit roundoff of the arithmetic the trials ran in: 2⁻⁵³ (double), 2⁻²⁴ where an op ran
  /// on a float backend (cuda, cuda_emulated). Tells a rounding-level spread from a Monte-Carlo one.
  double unit_roundoff = 0x1p-53;
};

/// Writes the observables of trial `trial` into out[0..n_obs).
using TrialKernel = std::function<void(long long trial, double* out)>;

/// Runs `trials` independent trials of `kernel` on a thread pool. Under MPI (dist.hpp) the
/// outermost call on the main thread splits the chunks across ranks and gathers their
/// statistics, folded in chunk order: every rank returns the single-process result, bit for
/// bit. The kernel must be a pure function of the trial index (it already runs on any
/// thread in any order).
McResult monte_carlo(const McOptions& opts, std::size_t n_obs, const TrialKernel& kernel);

/// Writes the observables of trials [first, first + count) as `count` rows of n_obs, on `threads`
/// host threads (an op's backend: a device ignores the threads).
using RowsKernel = std::function<void(long long first, long long count, int threads, double* rows)>;

/// monte_carlo() for a kernel that writes many trials at once, an op's backend (akm/sim/ops/).
/// batch = 0: one call per trial, the trials spread over the threads as monte_carlo() spreads
/// them (the host backends); batch > 0: calls of at least `batch` whole chunks' trials in turn,
/// each given every thread (a device's launches; under MPI the calls are per trial). Every
/// chunk's statistics are built in trial order and folded in chunk order either way, so the
/// result equals monte_carlo() with a kernel writing the same rows, bit for bit, whatever the
/// batch or thread count.
McResult monte_carlo_rows(const McOptions& opts, std::size_t n_obs, const RowsKernel& rows, long long batch = 0);

/// Bytes of chunk statistics gathered per exchange round across ranks (64 MiB; the
/// environment variable AKM_DIST_ROUND_BYTES overrides it, e.g. to test many rounds).
std::size_t dist_round_bytes();

}  // namespace akm
