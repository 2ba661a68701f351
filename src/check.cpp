// check — verdicts with tolerances fixed before the measurement is looked at
// (THEOREMS.md "How a check passes").
#include "akm/check.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>

namespace akm {

namespace {

bool finite_all(std::initializer_list<double> xs) {
  for (double x : xs)
    if (!std::isfinite(x)) return false;
  return true;
}

bool is_monte_carlo(const CheckRecord& r) { return r.kind == "mc" || r.kind == "family"; }

double combined_se(const CheckRecord& r) {
  return std::sqrt(r.stderr_measured * r.stderr_measured +
                   r.stderr_predicted * r.stderr_predicted);
}

// nlohmann would write NaN/inf as null anyway; doing it here keeps the output independent
// of that library detail and makes the intent visible.
nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

void judge_monte_carlo(CheckRecord& r, double z) {
  r.tolerance = z * combined_se(r) + r.bias_bound;
  const bool ok = finite_all({r.predicted, r.measured, r.stderr_measured, r.stderr_predicted,
                              r.bias_bound, r.tolerance});
  r.pass = ok && std::abs(r.measured - r.predicted) <= r.tolerance;
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

}  // namespace

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

void Checks::mc(const std::string& name, double predicted, double measured, double se,
                double se_pred, double bias_bound) {
  mc_family(name, predicted, measured, se, 1, se_pred, bias_bound);
  records_.back().kind = "mc";
}

void Checks::mc_family(const std::string& name, double predicted, double measured, double se,
                       long long comparisons, double se_pred, double bias_bound) {
  if (finalized_) throw std::logic_error("Checks: '" + name + "' added after finalize()");
  if (comparisons < 1)
    throw std::invalid_argument("Checks: '" + name + "' needs comparisons >= 1");
  CheckRecord r;
  r.name = name;
  r.kind = "family";
  r.predicted = predicted;
  r.measured = measured;
  r.stderr_measured = se;
  r.stderr_predicted = se_pred;
  r.bias_bound = bias_bound;
  r.comparisons = comparisons;
  records_.push_back(std::move(r));
}

void Checks::exact(const std::string& name, double predicted, double measured, double rel,
                   double abs) {
  if (finalized_) throw std::logic_error("Checks: '" + name + "' added after finalize()");
  CheckRecord r;
  r.name = name;
  r.kind = "exact";
  r.predicted = predicted;
  r.measured = measured;
  r.rel = rel;
  r.abs = abs;
  r.comparisons = 1;
  records_.push_back(std::move(r));
}

void Checks::at_most(const std::string& name, double bound, double measured, double rel) {
  if (finalized_) throw std::logic_error("Checks: '" + name + "' added after finalize()");
  CheckRecord r;
  r.name = name;
  r.kind = "bound";
  r.predicted = bound;
  r.measured = measured;
  r.rel = rel;
  r.comparisons = 1;
  records_.push_back(std::move(r));
}

void Checks::finalize() {
  if (finalized_) throw std::logic_error("Checks: finalize() called twice");
  long long k = 0;
  for (const auto& r : records_)
    if (is_monte_carlo(r)) k += r.comparisons;
  // Bonferroni: every Monte-Carlo comparison of the run shares the family-wise rate.
  z_ = z_two_sided(alpha_ / static_cast<double>(std::max(k, 1LL)));
  for (auto& r : records_) {
    if (is_monte_carlo(r))
      judge_monte_carlo(r, z_);
    else if (r.kind == "exact")
      judge_exact(r);
    else
      judge_bound(r);
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
    nlohmann::json z_score = nullptr;
    if (se > 0.0) z_score = number_or_null(std::abs(r.measured - r.predicted) / se);
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
                   {"pass", r.pass}});
  }
  return out;
}

}  // namespace akm
