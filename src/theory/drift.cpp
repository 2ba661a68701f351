// drift — closed forms of the linearly drifting target [prop:nc1, cor:nc2].
#include "akm/theory/drift.hpp"

#include <cmath>
#include <string>

#include "akm/base/errors.hpp"

namespace akm::theory {

namespace {

// The recursion has a fixed point only when it contracts.
void require_contraction(double b) {
  if (!(std::abs(b) < 1.0)) throw InputError("contraction b", show(b), "must satisfy |b| < 1");
}

void require_finite_inputs(double drift, double e0) {
  require_finite("drift", drift);
  require_finite("e0", e0);
}

}  // namespace

double drift_steady_error(double b, double drift) {
  require_contraction(b);
  require_finite("drift", drift);
  return -b * drift / (1.0 - b);
}

double drift_mean_error(double b, double drift, double e0, long long t) {
  require_contraction(b);
  require_finite_inputs(drift, e0);
  require_at_least("t", t, 0);
  const double inf = -b * drift / (1.0 - b);
  return inf + std::pow(b, static_cast<double>(t)) * (e0 - inf);
}

double drift_mean_error_by_recursion(double b, double drift, double e0, long long t) {
  require_finite("contraction b", b);
  require_finite_inputs(drift, e0);
  require_at_least("t", t, 0);
  double e = e0;
  for (long long s = 0; s < t; ++s) e = b * (e - drift);
  return e;
}

double drift_window_mean(double b, double drift, double e0, long long t1, long long t2) {
  require_contraction(b);
  require_finite_inputs(drift, e0);
  require_at_least("t1", t1, 0);
  require_at_least("t2", t2, t1);
  // Σ_{t=t1}^{t2} b^t = b^{t1}(1 − b^{W})/(1 − b), W = t2 − t1 + 1.
  const double inf = -b * drift / (1.0 - b);
  const double W = static_cast<double>(t2 - t1 + 1);
  const double geo = std::pow(b, static_cast<double>(t1)) * (1.0 - std::pow(b, W)) / (1.0 - b);
  return inf + (e0 - inf) * geo / W;
}

}  // namespace akm::theory
