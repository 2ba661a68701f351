// paired — robust statistics of paired training runs: the two optimizers of a comparison run
// on the same evaluation seeds (same initialization, same data), so each seed gives one
// difference d_s = a_s − b_s of the criterion (final held-out loss; lower is better).
//
// A training run may diverge. A diverged run is the worst outcome, so it is recorded as
// +∞ and the statistics below stay defined: d_s = +∞ when only a diverged, −∞ when only b
// diverged, 0 (a tie) when both did. Means and standard errors do not survive an infinity;
// ranks and signs do, which is why these statistics are order-based:
//  - the exact two-sided sign test of "P(d > 0) = ½" (ties dropped);
//  - the distribution-free interval for the median of d from order statistics, the
//    inversion of the same sign test (coverage ≥ 1 − α for any continuous law of d);
//  - a percentile bootstrap interval for the median of d, reported beside it (it uses the
//    data's shape; the order-statistics interval is the one decisions rest on);
//  - the design quantities: the smallest p-value n seeds can reach, and the power of the
//    sign test when each seed favours one side with probability p — a design must be able
//    to reach the declared rate before its seeds are run.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/base/median.hpp"  // median_of

namespace akm {

/// The paired comparison of a against b over the same seeds (header).
struct PairedComparison {
  int n = 0;                         ///< seeds compared
  int positive = 0;                  ///< seeds with d > 0 (a worse, or only a diverged)
  int negative = 0;                  ///< seeds with d < 0
  int ties = 0;                      ///< d = 0, including both diverged
  int diverged_a = 0;                ///< seeds where a diverged
  int diverged_b = 0;                ///< seeds where b diverged
  double median = 0;                 ///< median of d (may be ±∞)
  double sign_p = 1;                 ///< exact two-sided sign test p-value
  double exact_lower = 0;            ///< order-statistics interval for the median, level ≥ 1 − α
  double exact_upper = 0;            ///< its upper end (−∞/+∞ when n is too small for the level)
  double exact_level = 0;            ///< its exact coverage 1 − 2·P(Bin(n, ½) < k)
  double bootstrap_lower = 0;        ///< percentile bootstrap interval for the median, level 1 − α
  double bootstrap_upper = 0;        ///< (its upper end)
};

/// The differences d_s = a_s − b_s with the divergence rule of the header (a value that is
/// +∞ or NaN is a divergence). a and b of equal, non-zero length, else InputError.
std::vector<double> paired_differences(const std::vector<double>& a, const std::vector<double>& b);

/// Exact two-sided sign test: the probability, under P(+) = ½, of a split at least as uneven as
/// the observed one, n = positive + negative
/// (ties dropped); 1 when n = 0. positive, negative ≥ 0, else InputError.
double sign_test_p(int positive, int negative);

/// The smallest two-sided sign-test p-value n untied seeds can reach: 2^(1−n) (1 for n = 0).
double sign_test_min_p(int n);

/// P(the two-sided exact sign test rejects at level alpha) when each of n untied seeds is
/// positive with probability p_positive independently. n ≥ 0, alpha ∈ (0, 1),
/// p_positive ∈ [0, 1], else InputError.
double sign_test_power(int n, double alpha, double p_positive);

/// The smallest n with sign_test_power(n, alpha, p_positive) ≥ power, searching n ≤ 2000
/// (InputError if none: p_positive too close to ½ for the power asked).
int sign_test_seeds(double alpha, double power, double p_positive);

/// The distribution-free interval for the median of d from order statistics (header):
/// [d_(k), d_(n−k+1)] with k the largest rank whose coverage 1 − 2·P(Bin(n, ½) ≤ k − 1) is
/// ≥ 1 − alpha; (−∞, +∞) with level 1 when n is too small for alpha. Values may be ±∞.
struct MedianInterval {
  double lower = 0;  ///< d_(k)
  double upper = 0;  ///< d_(n−k+1)
  double level = 0;  ///< its exact coverage
  int rank = 0;      ///< k (0: no finite interval)
};
/// The interval of MedianInterval for d (non-empty, no NaN) at level ≥ 1 − alpha,
/// alpha ∈ (0, 1), else InputError.
MedianInterval median_interval(std::vector<double> d, double alpha);

/// P(the order-statistics interval of MedianInterval at level ≥ 1 − alpha, from n seeds,
/// lies inside (−1, 1)) when each seed's d is below −1 with probability p_below and above +1
/// with probability p_above independently: fewer than k seeds on each side (a trinomial
/// sum; 0 when n is too small for alpha). p_below, p_above ≥ 0 with sum ≤ 1, n ≥ 1.
double median_interval_inside(int n, double alpha, double p_below, double p_above);

/// The paired comparison of the header at level 1 − alpha, with `resamples` bootstrap
/// resamples drawn from the Philox stream of `seed` (same seed → same interval).
/// alpha ∈ (0, 1), resamples ≥ 100, else InputError.
PairedComparison paired_compare(const std::vector<double>& a, const std::vector<double>& b, double alpha,
                                int resamples, std::uint64_t seed);

}  // namespace akm
