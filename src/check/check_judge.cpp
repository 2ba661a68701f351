// check_judge — the verdict of every recorded check, with tolerances fixed before the
// measurement is looked at (docs/statistics.md, "How a check passes"): Monte-Carlo checks at
// the Bonferroni share of the family-wise rate, with Student-t quantiles and Hall's skewness
// correction; exact identities, bounds and sign tests; then the power of each (power.cpp).
#include "akm/check/check.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "akm/check/paired.hpp"
#include "akm/check/power.hpp"

namespace akm {

namespace {

bool finite_all(std::initializer_list<double> xs) {
  for (double x : xs)
    if (!std::isfinite(x)) return false;
  return true;
}

// Two-sided quantile at per-comparison rate p: Student-t with the error's degrees of
// freedom, the normal beyond 1e6 of them (indistinguishable, and boost is slow there).
double quantile(double p, double dof) {
  if (!(dof < 1e6)) return z_two_sided(p);
  const boost::math::students_t_distribution<double> t(std::max(dof, 1.0));
  return boost::math::quantile(boost::math::complement(t, p / 2.0));
}

// Hall's transformation (header): coefficients c and d of f(T) = ((1+cT)³−1)/(3c) + d.
// The measured part of the error carries the skewness; the predicted part is normal, so the
// skewness of the difference is g·(se/s)³.
std::pair<double, double> hall_cd(double g, bool se_exact) {
  return {se_exact ? -g / 6.0 : g / 3.0, g / 6.0};
}

double hall_forward(double T, double c, double d) {
  if (c == 0.0) return T + d;
  const double u = 1.0 + c * T;
  return (u * u * u - 1.0) / (3.0 * c) + d;
}

double hall_inverse(double y, double c, double d) {
  if (c == 0.0) return y - d;
  return (std::cbrt(1.0 + 3.0 * c * (y - d)) - 1.0) / c;
}

double skew_of_difference(const CheckRecord& r) {
  const double s = combined_se(r);
  if (!(s > 0.0) || r.skew == 0.0) return 0.0;
  const double f = r.stderr_measured / s;
  return r.skew * f * f * f;
}

void judge_monte_carlo(CheckRecord& r, double alpha_each) {
  const double s = combined_se(r), q = quantile(alpha_each, r.dof);
  const auto [c, d] = hall_cd(skew_of_difference(r), r.se_exact);
  r.tol_above = hall_inverse(q, c, d) * s + r.bias_bound;
  r.tol_below = -hall_inverse(-q, c, d) * s + r.bias_bound;
  r.tolerance = std::max(r.tol_above, r.tol_below);
  const bool ok = finite_all({r.predicted, r.measured, r.stderr_measured, r.stderr_predicted,
                              r.bias_bound, r.tolerance, r.skew});
  const double diff = r.measured - r.predicted;
  r.pass = ok && diff <= r.tol_above && -diff <= r.tol_below;
}

void judge_exact(CheckRecord& r) {
  r.tolerance = r.rel * std::max(std::abs(r.predicted), std::abs(r.measured)) + r.abs;
  const bool ok = finite_all({r.predicted, r.measured, r.tolerance});
  r.pass = ok && std::abs(r.measured - r.predicted) <= r.tolerance;
}

// `predicted` holds the bound. The slack rel·|bound| reads as bound·(1+rel) for a
// non-negative bound and still loosens (never tightens) a negative one.
void judge_bound(CheckRecord& r) {
  r.tolerance = r.rel * std::abs(r.predicted);
  const bool ok = finite_all({r.predicted, r.measured, r.tolerance});
  r.pass = ok && r.measured <= r.predicted + r.tolerance;
}

// The exact two-sided sign test at the per-comparison level (check/paired.hpp): the check
// fails only when the seeds go significantly against the claim.
void judge_sign(CheckRecord& r, double alpha_each) {
  r.level = alpha_each;
  r.sign_p = sign_test_p(r.favourable, r.unfavourable);
  r.tolerance = 0.0;
  r.pass = !(r.sign_p <= r.level && r.unfavourable > r.favourable);
}

}  // namespace

bool is_monte_carlo(const CheckRecord& r) { return r.kind == "mc" || r.kind == "family"; }

bool in_family(const CheckRecord& r) { return is_monte_carlo(r) || r.kind == "sign"; }

bool sign_established(const CheckRecord& r) {
  return r.kind == "sign" && r.sign_p <= r.level && r.favourable > r.unfavourable;
}

double combined_se(const CheckRecord& r) {
  return std::sqrt(r.stderr_measured * r.stderr_measured +
                   r.stderr_predicted * r.stderr_predicted);
}

double corrected_deviation(double diff, double se_total, const MeanEstimate& e) {
  if (!(se_total > 0.0)) return diff == 0.0 ? 0.0 : std::copysign(INFINITY, diff);
  const double f = e.se / se_total;
  const auto [c, d] = hall_cd(e.skew * f * f * f, e.se_exact);
  return hall_forward(diff / se_total, c, d);
}

double z_two_sided(double p) {
  if (!(p > 0.0 && p <= 1.0))
    throw std::invalid_argument("z_two_sided: p must be in (0, 1]");
  // complement form keeps full precision for the tiny p of Bonferroni-corrected families.
  const boost::math::normal_distribution<double> n01;
  return boost::math::quantile(boost::math::complement(n01, p / 2.0));
}

void Checks::finalize() {
  if (finalized_) throw std::logic_error("Checks: finalize() called twice");
  long long k = 0;
  for (const auto& r : records_)
    if (in_family(r)) k += r.comparisons;
  // Bonferroni: every Monte-Carlo comparison and sign test of the run shares the family-wise rate.
  const double alpha_each = alpha_ / static_cast<double>(std::max(k, 1LL));
  z_ = z_two_sided(alpha_each);
  for (auto& r : records_) {
    if (is_monte_carlo(r))
      judge_monte_carlo(r, alpha_each);
    else if (r.kind == "exact")
      judge_exact(r);
    else if (r.kind == "sign")
      judge_sign(r, alpha_each);
    else
      judge_bound(r);
    judge_power(r);
    if (r.refute_only) r.discriminates = false;  // its power is kept: it says what the check can refute
  }
  finalized_ = true;
}

}  // namespace akm
