// paired — sign test, order-statistics and bootstrap intervals of paired runs (see the header).
#include "akm/check/paired.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/base/median.hpp"
#include "akm/random/random.hpp"

namespace akm {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxSeeds = 2000;  // sign_test_seeds' search limit

bool diverged(double v) { return std::isnan(v) || v == kInf; }

/// log P(Bin(n, p) = k). At p = ½ the two powers are one term, −n·log 2.
double log_binomial_pmf(int n, int k, double p) {
  const double log_choose = std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
  if (p == 0.5) return log_choose - n * std::log(2.0);
  const double a = k == 0 ? 0.0 : k * std::log(p);
  const double b = n - k == 0 ? 0.0 : (n - k) * std::log1p(-p);
  return log_choose + a + b;
}

/// P(Bin(n, p) ≤ k), summed term by term (n is a seed count: small).
double binomial_cdf(int n, int k, double p) {
  if (k < 0) return 0.0;
  if (k >= n) return 1.0;
  if (p <= 0.0) return 1.0;
  if (p >= 1.0) return 0.0;
  double s = 0.0;
  for (int i = 0; i <= k; ++i) s += std::exp(log_binomial_pmf(n, i, p));
  return std::min(1.0, s);
}

/// The largest k with 2·P(Bin(n, ½) ≤ k) ≤ alpha, or −1 when even k = 0 exceeds it: the
/// sign test rejects iff min(#pos, #neg) ≤ k.
int sign_test_critical(int n, double alpha) {
  int k = -1;
  double cdf = 0.0;  // P(Bin(n, ½) ≤ k), accumulated term by term as binomial_cdf sums it
  while (k + 1 < n) {
    const double next = cdf + std::exp(log_binomial_pmf(n, k + 1, 0.5));
    if (!(2.0 * std::min(1.0, next) <= alpha)) break;
    cdf = next;
    ++k;
  }
  return k;
}

void require_level(double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) throw InputError("alpha", show(alpha), "must be in (0, 1)");
}

}  // namespace

std::vector<double> paired_differences(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty()) throw InputError("a", "[]", "must hold one value per seed (at least one)");
  if (b.size() != a.size())
    throw InputError("b", fmt::format("{} values", b.size()), fmt::format("must hold one per seed of a ({})", a.size()));
  std::vector<double> d(a.size());
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (a[s] == -kInf || b[s] == -kInf)
      throw InputError("loss", "-inf", "must be finite, or +inf/NaN for a diverged run");
    const bool da = diverged(a[s]), db = diverged(b[s]);
    d[s] = da && db ? 0.0 : da ? kInf : db ? -kInf : a[s] - b[s];
  }
  return d;
}

double sign_test_p(int positive, int negative) {
  if (positive < 0) throw InputError("positive", std::to_string(positive), "must be >= 0");
  if (negative < 0) throw InputError("negative", std::to_string(negative), "must be >= 0");
  const int n = positive + negative;
  if (n == 0) return 1.0;
  return std::min(1.0, 2.0 * binomial_cdf(n, std::min(positive, negative), 0.5));
}

double sign_test_min_p(int n) {
  if (n < 0) throw InputError("n", std::to_string(n), "must be >= 0");
  return n == 0 ? 1.0 : std::min(1.0, std::ldexp(1.0, 1 - n));
}

double sign_test_power(int n, double alpha, double p_positive) {
  if (n < 0) throw InputError("n", std::to_string(n), "must be >= 0");
  require_level(alpha);
  if (!(p_positive >= 0.0 && p_positive <= 1.0))
    throw InputError("p_positive", show(p_positive), "must be in [0, 1]");
  const int k = sign_test_critical(n, alpha);
  if (k < 0) return 0.0;
  // Reject iff #pos ≤ k or #pos ≥ n − k (disjoint: 2·P(Bin ≤ k) ≤ α < 1 puts k below n/2).
  return binomial_cdf(n, k, p_positive) + (1.0 - binomial_cdf(n, n - k - 1, p_positive));
}

int sign_test_seeds(double alpha, double power, double p_positive) {
  if (!(power > 0.0 && power < 1.0)) throw InputError("power", show(power), "must be in (0, 1)");
  for (int n = 1; n <= kMaxSeeds; ++n)
    if (sign_test_power(n, alpha, p_positive) >= power) return n;
  throw InputError("p_positive", show(p_positive),
                   fmt::format("must be far enough from 1/2 for power {} within {} seeds", show(power), kMaxSeeds));
}

MedianInterval median_interval(std::vector<double> d, double alpha) {
  require_level(alpha);
  if (d.empty()) throw InputError("d", "[]", "must hold one difference per seed (at least one)");
  for (double x : d)
    if (std::isnan(x)) throw InputError("d", "NaN", "must be a number or ±inf (a divergence)");
  // Order statistics: [d_(k), d_(n−k+1)] covers the median with probability
  // 1 − 2·P(Bin(n, ½) ≤ k − 1); k the largest with that ≥ 1 − α.
  std::sort(d.begin(), d.end());
  const int n = static_cast<int>(d.size());
  MedianInterval m;
  m.rank = sign_test_critical(n, alpha) + 1;  // ≥ 0; 0 means no finite interval
  if (m.rank >= 1) {
    m.lower = d[m.rank - 1];
    m.upper = d[n - m.rank];
    m.level = 1.0 - 2.0 * binomial_cdf(n, m.rank - 1, 0.5);
  } else {
    m.lower = -kInf;
    m.upper = kInf;
    m.level = 1.0;
  }
  return m;
}

double median_interval_inside(int n, double alpha, double p_below, double p_above) {
  if (n < 1) throw InputError("n", std::to_string(n), "must be >= 1");
  require_level(alpha);
  if (!(p_below >= 0.0 && p_above >= 0.0 && p_below + p_above <= 1.0 + 1e-12))
    throw InputError("p_below + p_above", show(p_below + p_above), "must be in [0, 1], each >= 0");
  const int k = sign_test_critical(n, alpha) + 1;
  if (k < 1) return 0.0;
  // Σ over b, a < k of n! / (b! a! (n−b−a)!) · p_b^b · p_a^a · (1 − p_b − p_a)^(n−b−a).
  const double p_in = std::max(0.0, 1.0 - p_below - p_above);
  const auto log_pow = [](int e, double p) { return e == 0 ? 0.0 : e * std::log(p); };
  double s = 0.0;
  for (int b = 0; b < k; ++b)
    for (int a = 0; a < k && a + b <= n; ++a) {
      if ((b > 0 && p_below == 0.0) || (a > 0 && p_above == 0.0) || (n - a - b > 0 && p_in == 0.0)) continue;
      s += std::exp(std::lgamma(n + 1.0) - std::lgamma(b + 1.0) - std::lgamma(a + 1.0) - std::lgamma(n - a - b + 1.0) +
                    log_pow(b, p_below) + log_pow(a, p_above) + log_pow(n - a - b, p_in));
    }
  return std::min(1.0, s);
}

PairedComparison paired_compare(const std::vector<double>& a, const std::vector<double>& b, double alpha,
                                int resamples, std::uint64_t seed) {
  require_level(alpha);
  if (resamples < 100) throw InputError("resamples", std::to_string(resamples), "must be >= 100");
  const std::vector<double> d = paired_differences(a, b);
  PairedComparison r;
  r.n = static_cast<int>(d.size());
  for (std::size_t s = 0; s < d.size(); ++s) {
    r.diverged_a += diverged(a[s]);
    r.diverged_b += diverged(b[s]);
    if (d[s] > 0) ++r.positive;
    else if (d[s] < 0) ++r.negative;
    else ++r.ties;
  }
  r.median = median_of(d);
  r.sign_p = sign_test_p(r.positive, r.negative);

  const MedianInterval exact = median_interval(d, alpha);
  r.exact_lower = exact.lower;
  r.exact_upper = exact.upper;
  r.exact_level = exact.level;

  // Percentile bootstrap of the median: resample the seeds with replacement.
  Stream stream(seed, 0, Purpose::aux);
  std::vector<double> medians(resamples), sample(d.size());
  for (int b = 0; b < resamples; ++b) {
    for (auto& x : sample) {
      const auto i = static_cast<std::size_t>(stream.uniform() * static_cast<double>(d.size()));
      x = d[std::min(i, d.size() - 1)];
    }
    medians[b] = median_of(sample);
  }
  std::sort(medians.begin(), medians.end());
  const auto at = [&](double q) {
    const double pos = q * (resamples - 1);
    return medians[static_cast<std::size_t>(std::llround(pos))];
  };
  r.bootstrap_lower = at(alpha / 2);
  r.bootstrap_upper = at(1 - alpha / 2);
  return r;
}

}  // namespace akm
