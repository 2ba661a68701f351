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

}  // namespace akm
