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
#include "akm/sim/mean_estimate.hpp"

namespace akm {

/// Streaming mean, variance and third central moment of a vector of observables over
/// trials (Welford / Pébay; merging by Chan–Golub–LeVeque and Pébay). The third moment
/// gives the skewness of the mean, which the checks use to correct their tolerance
/// (include/akm/check.hpp): with a few hundred trials of a skewed observable the normal
/// tail is several times too light at a Bonferroni z.
class TrialStats {
 public:
  TrialStats() = default;
  explicit TrialStats(std::size_t n_obs);

  void add(const double* x);              ///< one trial's observables
  void merge(const TrialStats& other);    ///< combine two disjoint sets of trials

  long long count() const { return count_; }
  std::size_t size() const { return static_cast<std::size_t>(mean_.size()); }
  const Vec& mean() const { return mean_; }
  Vec variance() const;        ///< unbiased sample variance across trials
  Vec stderr_mean() const;     ///< sqrt(variance / count)
  /// Skewness of the trial mean's sampling distribution, γ̂/√count = m3/m2^{3/2} (0 when
  /// the observable is constant).
  Vec skewness_of_mean() const;
  /// Observable j as a Monte-Carlo estimate for a check: mean, standard error, the skewness
  /// of the mean and count − 1 degrees of freedom (a sample, studentized, error).
  MeanEstimate estimate(Eigen::Index j) const;

  /// Exact flat copy {count, mean, M2, M3} (packed_size doubles), for exchanging statistics
  /// between processes without changing a bit.
  static std::size_t packed_size(std::size_t n_obs) { return 1 + 3 * n_obs; }
  void pack(double* out) const;
  static TrialStats unpack(const double* in, std::size_t n_obs);

 private:
  long long count_ = 0;
  Vec mean_, m2_, m3_;
};

struct McOptions {
  long long trials = 1000;
  int threads = 0;                 ///< 0: all hardware threads
  int groups = 0;                  ///< > 0: also keep statistics of this many trial groups
  long long chunk_trials = 16;     ///< trials per deterministic chunk
  /// Called from worker threads with (trials done, trials total); may be empty.
  std::function<void(long long, long long)> progress;
};

struct McResult {
  TrialStats total;
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

/// Number of worker threads `threads` resolves to (0 → hardware concurrency, ≥ 1).
int resolve_threads(int threads);

/// Delete-one-group jackknife of a scalar statistic of the group-mean vector (use ≥ 100
/// groups when the standard error meets a Bonferroni z ≈ 6: with g groups it carries
/// g − 1 degrees of freedom, and a t tail with few of them is far heavier than the normal):
/// returns {estimate from all groups, jackknife standard error}.
/// `stat` receives the pooled mean vector of a subset of groups.
std::pair<double, double> jackknife(const std::vector<TrialStats>& groups,
                                    const std::function<double(const Vec&)>& stat);
/// The same as an estimate for a check: the pseudo-values' skewness and g − 1 degrees of
/// freedom travel with it (include/akm/check.hpp).
MeanEstimate jackknife_estimate(const std::vector<TrialStats>& groups,
                                const std::function<double(const Vec&)>& stat);

}  // namespace akm
