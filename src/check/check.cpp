// check — verdicts with tolerances fixed before the measurement is looked at
// (docs/statistics.md, "How a check passes").
#include "akm/check/check.hpp"

#include "akm/check/power.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "akm/base/errors.hpp"
#include "akm/check/paired.hpp"

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

// nlohmann would write NaN/inf as null anyway; doing it here keeps the output independent
// of that library detail and makes the intent visible.
nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
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

Checks::Checks(double family_alpha) : alpha_(family_alpha) {
  if (!(family_alpha > 0.0 && family_alpha < 1.0))
    throw std::invalid_argument("Checks: family_alpha must be in (0, 1)");
}

Checks& Checks::mc(const std::string& name, double predicted, double measured, double se,
                double se_pred, double bias_bound) {
  mc_family(name, predicted, measured, se, 1, se_pred, bias_bound);
  records_.back().kind = "mc";
  return *this;
}

Checks& Checks::mc_family(const std::string& name, double predicted, double measured, double se,
                       long long comparisons, double se_pred, double bias_bound) {
  if (comparisons < 1)
    throw std::invalid_argument("Checks: '" + name + "' needs comparisons >= 1");
  CheckRecord& r = add(name, "family");
  r.predicted = predicted;
  r.measured = measured;
  r.stderr_measured = se;
  r.stderr_predicted = se_pred;
  r.bias_bound = bias_bound;
  r.comparisons = comparisons;
  return *this;
}

Checks& Checks::mc(const std::string& name, double predicted, const MeanEstimate& e,
                double se_pred, double bias_bound) {
  mc_family(name, predicted, e, 1, se_pred, bias_bound);
  records_.back().kind = "mc";
  return *this;
}

Checks& Checks::mc_family(const std::string& name, double predicted, const MeanEstimate& e,
                       long long comparisons, double se_pred, double bias_bound) {
  mc_family(name, predicted, e.mean, e.se, comparisons, se_pred, bias_bound);
  CheckRecord& r = records_.back();
  r.skew = e.skew;
  r.dof = e.dof;
  r.se_exact = e.se_exact;
  return *this;
}

Checks& Checks::exact(const std::string& name, double predicted, double measured, double rel,
                   double abs) {
  CheckRecord& r = add(name, "exact");
  r.predicted = predicted;
  r.measured = measured;
  r.rel = rel;
  r.abs = abs;
  return *this;
}

Checks& Checks::sign(const std::string& name, int favourable, int unfavourable, double p_design) {
  if (favourable < 0) throw InputError("favourable", std::to_string(favourable), "must be >= 0");
  if (unfavourable < 0) throw InputError("unfavourable", std::to_string(unfavourable), "must be >= 0");
  if (!(p_design > 0.5 && p_design <= 1.0)) throw InputError("p_design", show(p_design), "must be in (0.5, 1]");
  CheckRecord& r = add(name, "sign");
  r.favourable = favourable;
  r.unfavourable = unfavourable;
  r.p_design = p_design;
  const int n = favourable + unfavourable;
  // What a reader compares: the favourable fraction against the design's, with its binomial error.
  r.predicted = p_design;
  r.measured = n > 0 ? favourable / static_cast<double>(n) : 0.5;
  r.stderr_measured = n > 0 ? std::sqrt(r.measured * (1.0 - r.measured) / n) : 0.0;
  return *this;
}

Checks& Checks::at_most(const std::string& name, double bound, double measured, double rel) {
  CheckRecord& r = add(name, "bound");
  r.predicted = bound;
  r.measured = measured;
  r.rel = rel;
  return *this;
}

CheckRecord& Checks::add(const std::string& name, const char* kind) {
  if (finalized_) throw std::logic_error("Checks: '" + name + "' added after finalize()");
  CheckRecord r;
  r.name = name;
  r.kind = kind;
  r.comparisons = 1;
  records_.push_back(std::move(r));
  return records_.back();
}

CheckRecord& Checks::last(const char* what) {
  if (finalized_ || records_.empty())
    throw std::logic_error(std::string("Checks::") + what +
                           " annotates the check added last, before finalize()");
  return records_.back();
}

Checks& Checks::against(double alternative, const std::string& label) {
  auto& r = last("against");
  r.alternative = alternative;
  r.alternative_label = label;
  return *this;
}

Checks& Checks::effect(double relative) {
  if (!(relative > 0.0)) throw std::invalid_argument("Checks::effect: relative effect must be > 0");
  last("effect").effect = relative;
  return *this;
}

Checks& Checks::sensitivity(double d_ln_eta, double d_ln_beta, double d_ln_lambda) {
  auto& r = last("sensitivity");
  r.d_ln_eta = d_ln_eta;
  r.d_ln_beta = d_ln_beta;
  r.d_ln_lambda = d_ln_lambda;
  return *this;
}

Checks& Checks::recovers(const std::string& param) {
  if (param != "eta" && param != "beta" && param != "lambda")
    throw std::invalid_argument("Checks::recovers: parameter '" + param + "' must be eta, beta or lambda");
  last("recovers").recovers = param;
  return *this;
}

Checks& Checks::lower_limit_of(double se, double z) {
  auto& r = last("lower_limit_of");
  r.stderr_measured = se;
  r.z_one_sided = z;
  return *this;
}

Checks& Checks::equivalence(double upper_limit, double alpha) {
  auto& r = last("equivalence");
  if (r.kind != "bound") throw std::logic_error("Checks::equivalence annotates a bound check");
  if (!(alpha > 0.0 && alpha < 0.5)) throw std::invalid_argument("Checks::equivalence: alpha must be in (0, 0.5)");
  r.upper_limit = upper_limit;
  r.equivalence_alpha = alpha;
  return *this;
}

Checks& Checks::design() {
  last("design").design = true;
  return *this;
}

Checks& Checks::refute_only() {
  last("refute_only").refute_only = true;
  return *this;
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

// Before finalize() nothing has been judged, so nothing counts as passed.
bool Checks::all_pass() const {
  if (!finalized_) return false;
  for (const auto& r : records_)
    if (!r.pass) return false;
  return true;
}

nlohmann::json Checks::to_json() const {
  auto out = nlohmann::json::array();
  for (const auto& r : records_) {
    const double se = combined_se(r);
    nlohmann::json z_score = nullptr, z_corrected = nullptr;
    if (se > 0.0) {
      z_score = number_or_null(std::abs(r.measured - r.predicted) / se);
      const MeanEstimate e{r.measured, r.stderr_measured, r.skew, r.dof, r.se_exact};
      z_corrected = number_or_null(std::abs(corrected_deviation(r.measured - r.predicted, se, e)));
    }
    out.push_back({{"name", r.name},
                   {"kind", r.kind},
                   {"predicted", number_or_null(r.predicted)},
                   {"measured", number_or_null(r.measured)},
                   {"stderr", number_or_null(r.stderr_measured)},
                   {"stderr_predicted", number_or_null(r.stderr_predicted)},
                   {"bias_bound", number_or_null(r.bias_bound)},
                   {"tolerance", number_or_null(r.tolerance)},
                   {"comparisons", r.comparisons},
                   {"z_score", z_score},
                   {"z_corrected", z_corrected},
                   {"skew_of_mean", number_or_null(r.skew)},
                   {"dof", number_or_null(r.dof)},
                   {"se_exact", r.se_exact},
                   {"tolerance_below", number_or_null(r.tol_below)},
                   {"tolerance_above", number_or_null(r.tol_above)},
                   {"pass", r.pass}});
    auto& j = out.back();
    j["role"] = r.design ? "design" : "evidence";
    if (r.refute_only) j["refute_only"] = true;
    if (std::isfinite(r.alternative)) {
      j["alternative"] = r.alternative;
      j["alternative_label"] = r.alternative_label;
      j["power"] = number_or_null(r.power);
    }
    if (std::isfinite(r.effect)) j["declared_effect"] = r.effect;
    if (std::isfinite(r.equivalence_alpha)) {
      j["upper_limit"] = number_or_null(r.upper_limit);
      j["equivalence_alpha"] = r.equivalence_alpha;
      j["equivalence_established"] = r.upper_limit <= r.predicted;
    }
    if (r.kind == "sign") {
      j["favourable"] = r.favourable;
      j["unfavourable"] = r.unfavourable;
      j["p_design"] = r.p_design;
      j["sign_p"] = number_or_null(r.sign_p);
      j["level"] = number_or_null(r.level);
      j["sign_established"] = sign_established(r);
    }
    j["mde"] = number_or_null(r.mde);
    j["discriminates"] = r.discriminates;
    auto resolution = nlohmann::json::object();  // relative error in θ detected at power 0.9
    const std::pair<const char*, double> derivs[] = {
        {"eta", r.d_ln_eta}, {"beta", r.d_ln_beta}, {"lambda", r.d_ln_lambda}};
    for (const auto& [name, d] : derivs)
      if (std::isfinite(d) && d != 0.0) resolution[name] = number_or_null(r.mde / std::abs(d));
    if (!resolution.empty()) j["resolution"] = resolution;
    if (!r.recovers.empty()) j["recovers"] = r.recovers;
  }
  return out;
}

}  // namespace akm
