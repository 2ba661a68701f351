// mean_estimate — a Monte-Carlo estimate of a mean and what its standard error rests on
// (the skewness and degrees of freedom that include/akm/check/check.hpp uses to size a tolerance).
#pragma once
#include <limits>

namespace akm {

/// A Monte-Carlo estimate of a mean, with what its standard error rests on.
struct MeanEstimate {
  double mean = 0;  ///< the estimate
  double se = 0;  ///< its standard error
  double skew = 0;  ///< skewness of the estimator's sampling distribution (γ/√R for a mean)
  double dof = std::numeric_limits<double>::infinity();  ///< of se (R − 1; groups − 1)
  bool se_exact = false;  ///< se from an exact variance: standardized, not studentized
};

/// The estimate of a + b·X from that of X's mean: mean and standard error scale by b (|b|), the
/// skewness keeps its size and takes b's sign; what the error rests on is unchanged.
inline MeanEstimate affine(double a, double b, const MeanEstimate& x) {
  MeanEstimate y = x;
  y.mean = a + b * x.mean;
  y.se = (b < 0 ? -b : b) * x.se;
  y.skew = b < 0 ? -x.skew : x.skew;
  return y;
}

}  // namespace akm
