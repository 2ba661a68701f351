// jackknife — the one delete-one-group jackknife of akm.
//
// Monte-Carlo runs keep statistics of G contiguous trial groups (McResult::groups, or the
// group-mean rows of an ops::Observations); a smooth statistic f of the pooled means then gets
// the bias-corrected estimate G·f(all) − (G−1)·mean_k f(all but k) and the standard error
// √((G−1)/G · Σ_k (f_k − f̄)²). Leave-one-out means are (Σ − n_k m_k)/(N − n_k) from the
// pooled sums, so a statistic costs O(G · observables it reads), never a re-merge.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/sim/mean_estimate.hpp"
#include "akm/sim/trial_stats.hpp"

namespace akm {

/// Delete-one-group jackknife over fixed groups (use ≥ 100 groups when the standard error
/// meets a Bonferroni z ≈ 6: with G groups it carries G − 1 degrees of freedom, and a t tail
/// with few of them is far heavier than the normal). Estimates carry the pseudo-values'
/// skewness of the mean and G − 1 degrees of freedom (include/akm/check/check.hpp). The
/// group data is read in place: it must outlive the Jackknife.
class Jackknife {
 public:
  /// Groups from monte_carlo's group statistics (McResult::groups; ≥ 2).
  explicit Jackknife(const std::vector<TrialStats>& groups);
  /// Groups as the rows of a row-major table of group means (row k: n_obs doubles at
  /// means + k·n_obs) with their trial counts (counts.size() = G ≥ 2 rows).
  Jackknife(const double* means, std::size_t n_obs, std::vector<double> counts);

  /// Number of groups G.
  std::size_t groups() const { return rows_.size(); }
  std::size_t size() const { return static_cast<std::size_t>(sum_.size()); }  ///< observables

  /// A statistic of the pooled mean vector (all observables).
  MeanEstimate operator()(const std::function<double(const Vec&)>& stat) const;
  /// A statistic of the pooled means of the observables idx: stat gets v, v[j] = pooled mean of
  /// observable idx[j]. Costs O(G · idx.size()) whatever the number of observables.
  MeanEstimate operator()(const std::vector<std::size_t>& idx,
                          const std::function<double(const Vec&)>& stat) const;
  /// m statistics of the same leave-one-out means in one pass: stats(v, out) writes out[0..m).
  /// idx empty: v holds every observable. Each estimate equals its own operator() call bit
  /// for bit.
  std::vector<MeanEstimate> many(const std::vector<std::size_t>& idx, std::size_t m,
                                 const std::function<void(const Vec&, double*)>& stats) const;

 private:
  std::vector<const double*> rows_;  // group means, one row per group
  std::vector<double> counts_;       // trials per group
  Vec sum_;                          // Σ_k n_k m_k
  double n_all_ = 0;                 // Σ_k n_k
  void pool();
};

/// Jackknife(groups)(stat) as {estimate, standard error}.
std::pair<double, double> jackknife(const std::vector<TrialStats>& groups,
                                    const std::function<double(const Vec&)>& stat);
/// Jackknife(groups)(stat): the estimate for a check.
MeanEstimate jackknife_estimate(const std::vector<TrialStats>& groups,
                                const std::function<double(const Vec&)>& stat);

}  // namespace akm
