// trial_stats — the one streaming accumulator of akm: mean, variance and third central
// moment of a vector of observables over trials, never holding the trials themselves.
#pragma once
#include <cstddef>

#include "akm/base/linalg.hpp"
#include "akm/sim/mean_estimate.hpp"

namespace akm {

/// Streaming mean, variance and third central moment of a vector of observables over
/// trials (Welford / Pébay; merging by Chan–Golub–LeVeque and Pébay). The third moment
/// gives the skewness of the mean, which the checks use to correct their tolerance
/// (include/akm/check/check.hpp): with a few hundred trials of a skewed observable the normal
/// tail is several times too light at a Bonferroni z.
class TrialStats {
 public:
  TrialStats() = default;
  /// Empty statistics of n_obs observables.
  explicit TrialStats(std::size_t n_obs);

  void add(const double* x);              ///< one trial's observables
  void merge(const TrialStats& other);    ///< combine two disjoint sets of trials

  /// Trials added.
  long long count() const { return count_; }
  /// Number of observables.
  std::size_t size() const { return static_cast<std::size_t>(mean_.size()); }
  /// Mean per observable.
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
  /// Writes the packed copy (packed_size(size()) doubles) to out.
  void pack(double* out) const;
  /// Rebuilds statistics from a packed copy.
  static TrialStats unpack(const double* in, std::size_t n_obs);

 private:
  long long count_ = 0;
  Vec mean_, m2_, m3_;
};

}  // namespace akm
