// power — power and minimum detectable effect of a check (see the header).
#include "akm/check/power.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>

#include "akm/check/paired.hpp"
#include "normal.hpp"

namespace akm {

namespace {

using check_detail::phi;

double z_power() {  // one-sided normal quantile at kPowerTarget (1.2816 for 0.9)
  static const double z =
      boost::math::quantile(boost::math::normal_distribution<double>(), kPowerTarget);
  return z;
}

}  // namespace

double power_at(const CheckRecord& r, double delta) {
  if (is_monte_carlo(r)) {
    const double s = combined_se(r);
    if (!(s > 0.0)) return (delta > r.tol_above || -delta > r.tol_below) ? 1.0 : 0.0;
    return phi((-r.tol_below - delta) / s) + phi((delta - r.tol_above) / s);
  }
  if (r.kind == "bound" && r.z_one_sided > 0.0 && r.stderr_measured > 0.0)
    // m − z·se ≤ bound fails when the mean sits delta above the bound.
    return phi(delta / r.stderr_measured - r.z_one_sided);
  return std::abs(delta) > r.tolerance ? 1.0 : 0.0;  // exact, deterministic bound
}

double minimum_detectable_effect(const CheckRecord& r) {
  if (is_monte_carlo(r)) return std::max(r.tol_above, r.tol_below) + z_power() * combined_se(r);
  if (r.kind == "bound" && r.z_one_sided > 0.0)
    return (r.z_one_sided + z_power()) * r.stderr_measured;
  return r.tolerance;
}

void judge_power(CheckRecord& r) {
  if (r.kind == "sign") {
    // A sign check (Checks::sign): the rival is "no direction" (P(favourable) = ½); its power
    // is the chance of establishing the direction when each seed is favourable with the
    // design's probability, and it is evidence only once it did establish it.
    r.alternative = 0.5;
    if (r.alternative_label.empty()) r.alternative_label = "no direction";
    r.power = sign_test_power(r.favourable + r.unfavourable, r.level, r.p_design);
    r.mde = std::numeric_limits<double>::quiet_NaN();
    r.discriminates = !r.design && r.power >= kPowerTarget && sign_established(r);
    return;
  }
  r.mde = minimum_detectable_effect(r);
  if (std::isfinite(r.equivalence_alpha)) {
    // An equivalence test (check/equivalence.hpp): against the alternative "the difference
    // is the margin" it fails to establish equivalence with probability ≥ 1 − α_e (TOST);
    // it is evidence only when it did establish it.
    r.alternative = r.predicted;
    if (r.alternative_label.empty()) r.alternative_label = "difference = margin";
    r.power = 1.0 - r.equivalence_alpha;
    r.discriminates = !r.design && r.power >= kPowerTarget && r.upper_limit <= r.predicted;
    return;
  }
  const bool deterministic = !is_monte_carlo(r) && !(r.kind == "bound" && r.z_one_sided > 0.0);
  if (std::isfinite(r.alternative)) {
    r.power = power_at(r, r.alternative - r.predicted);
    r.discriminates = r.power >= kPowerTarget;
  } else if (deterministic) {
    r.discriminates = true;
  } else {
    const double effect = std::isfinite(r.effect) ? r.effect : kDeclaredEffect;
    r.discriminates = r.predicted != 0.0 && r.mde <= effect * std::abs(r.predicted);
  }
  if (r.design) r.discriminates = false;
}

}  // namespace akm
