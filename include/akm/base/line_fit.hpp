// line_fit — straight-line fits for the scaling checks (T13 width slopes, T15 1/N slope, the
// mlp_coord op's per-seed slopes); not the fitting op of `akm simulate` (akm/sim/ops/fit.hpp).
#pragma once
#include <cmath>
#include <vector>

namespace akm {

/// A fitted line y = intercept + slope·x.
struct LineFit {
  double slope = 0;  ///< the slope
  double intercept = 0;  ///< the intercept
  double se_slope = 0;  ///< from the given per-point errors (WLS) — not from the residuals
};

/// Weighted least squares of y on x with known per-point standard errors se_y: the slope's
/// standard error is (Σ w (x − x̄_w)²)^{-1/2}, w = 1/se².
inline LineFit wls(const std::vector<double>& x, const std::vector<double>& y,
                   const std::vector<double>& se_y) {
  double sw = 0, sx = 0, sy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w = 1.0 / (se_y[i] * se_y[i]);
    sw += w, sx += w * x[i], sy += w * y[i];
  }
  const double xb = sx / sw, yb = sy / sw;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w = 1.0 / (se_y[i] * se_y[i]);
    sxx += w * (x[i] - xb) * (x[i] - xb);
    sxy += w * (x[i] - xb) * (y[i] - yb);
  }
  LineFit f;
  f.slope = sxy / sxx;
  f.intercept = yb - f.slope * xb;
  f.se_slope = 1.0 / std::sqrt(sxx);
  return f;
}

/// Ordinary least-squares slope (no errors), e.g. one seed's log-log width slope.
inline double ols_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double xb = 0, yb = 0;
  for (std::size_t i = 0; i < x.size(); ++i) xb += x[i], yb += y[i];
  xb /= x.size(), yb /= y.size();
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sxx += (x[i] - xb) * (x[i] - xb), sxy += (x[i] - xb) * (y[i] - yb);
  return sxy / sxx;
}

/// Mean and standard error of the mean of a sample (n ≥ 2).
inline std::pair<double, double> mean_se(const std::vector<double>& v) {
  double m = 0;
  for (double a : v) m += a;
  m /= v.size();
  double s2 = 0;
  for (double a : v) s2 += (a - m) * (a - m);
  s2 /= (v.size() - 1);
  return {m, std::sqrt(s2 / v.size())};
}

}  // namespace akm
