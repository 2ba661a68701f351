// median — the median of values that may be infinite (a diverged training run counts +∞).
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

}  // namespace akm
