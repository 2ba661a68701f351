// median — the median of values that may be infinite (a diverged training run counts +∞),
// and the robust scale built on it.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "akm/base/errors.hpp"

namespace akm {

/// Median of values: the middle one for odd counts, the mean of the two middle ones for even
/// counts, where an infinite middle value wins (its side dominates) and −∞ with +∞ gives 0.
/// Non-empty, no NaN, else InputError.
inline double median_of(std::vector<double> values) {
  if (values.empty()) throw InputError("values", "[]", "must be non-empty");
  for (double v : values)
    if (std::isnan(v)) throw InputError("values", "NaN", "must not hold NaN");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  if (n % 2 == 1) return values[n / 2];
  const double lo = values[n / 2 - 1], hi = values[n / 2];
  if (std::isinf(lo) && std::isinf(hi)) return lo == hi ? lo : 0.0;
  if (std::isinf(lo)) return lo;
  if (std::isinf(hi)) return hi;
  return 0.5 * (lo + hi);
}

/// A robust location and scale of values that may hold divergences (±∞), and the share of
/// them that a normal law with that scale cannot carry.
struct RobustScale {
  double centre = 0;  ///< the median
  double sigma = 0;   ///< 1.4826 × the median absolute deviation (σ for normal values)
  double outliers = 0;  ///< share of values infinite or further than kOutlierSigmas·σ from the centre
  static constexpr double kOutlierSigmas = 5.0;  ///< beyond this a value is not from the normal core
  /// x lies outside the normal core: infinite, or further than kOutlierSigmas·σ from the centre.
  bool is_outlier(double x) const {
    const double d = std::abs(x - centre);
    return !std::isfinite(d) || d > kOutlierSigmas * sigma;
  }
};

/// The RobustScale of values (non-empty, no NaN, else InputError). When the median or the
/// MAD is itself infinite (more than half the values diverged), σ = +∞ and outliers = 1.
inline RobustScale robust_scale(const std::vector<double>& values) {
  RobustScale r;
  r.centre = median_of(values);
  if (!std::isfinite(r.centre)) return {r.centre, INFINITY, 1.0};
  std::vector<double> dev(values.size());
  for (std::size_t s = 0; s < values.size(); ++s) dev[s] = std::abs(values[s] - r.centre);
  r.sigma = 1.4826 * median_of(dev);  // 1 / Φ⁻¹(3/4): the MAD of N(0, σ²) is 0.6745 σ
  if (!std::isfinite(r.sigma)) return {r.centre, INFINITY, 1.0};
  int out = 0;
  for (double x : values) out += r.is_outlier(x);
  r.outliers = out / static_cast<double>(values.size());
  return r;
}

}  // namespace akm
