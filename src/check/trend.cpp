// trend — per-seed rise across a grid and the sign-check design quantities (see the header).
#include "akm/check/trend.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm {

double least_squares_rise(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() < 2) throw InputError("grid", fmt::format("{} points", x.size()), "must hold at least 2 points");
  if (y.size() != x.size())
    throw InputError("losses", fmt::format("{} values", y.size()), fmt::format("must hold one per grid point ({})", x.size()));
  double xbar = 0;
  for (double v : x) {
    if (!std::isfinite(v)) throw InputError("grid", show(v), "must be finite");
    xbar += v;
  }
  xbar /= static_cast<double>(x.size());
  const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  if (!(*hi > *lo)) throw InputError("grid", show(*lo), "must hold at least two distinct points");
  double sxx = 0, sxy = 0, diverged_lever = 0;
  bool diverged = false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (y[i] == -std::numeric_limits<double>::infinity())
      throw InputError("loss", "-inf", "must be finite, or +inf/NaN for a diverged run");
    sxx += (x[i] - xbar) * (x[i] - xbar);
    if (std::isnan(y[i]) || std::isinf(y[i])) {
      diverged = true, diverged_lever += x[i] - xbar;
      continue;
    }
    sxy += (x[i] - xbar) * y[i];
  }
  // The slope's limit as the diverged losses grow without bound (header); levers that cancel
  // (all points diverged, or a symmetric pair) sum to rounding noise, which is a tie.
  const double cancel = 1e-12 * (*hi - *lo) * static_cast<double>(x.size());
  if (diverged)
    return std::abs(diverged_lever) <= cancel ? 0.0
                                              : std::copysign(std::numeric_limits<double>::infinity(), diverged_lever);
  return sxy / sxx * (*hi - *lo);
}

double exceed_probability(double mean, double sd, double threshold) {
  if (!std::isfinite(mean)) throw InputError("mean", show(mean), "must be finite");
  if (!std::isfinite(threshold)) throw InputError("threshold", show(threshold), "must be finite");
  if (!(sd >= 0.0)) throw InputError("sd", show(sd), "must be >= 0");
  if (std::isinf(sd)) return 0.5;
  if (sd == 0.0) return mean > threshold ? 1.0 : mean == threshold ? 0.5 : 0.0;
  return 0.5 * std::erfc(-(mean - threshold) / (sd * std::sqrt(2.0)));
}

}  // namespace akm
