// check — the checks of a run as a claim records them: each with its kind, its numbers and its
// annotations (alternative, effect, sensitivity, role), before any verdict; check_judge.cpp
// judges them (docs/statistics.md, "How a check passes"), check_json.cpp writes them.
#include "akm/check/check.hpp"

#include <cmath>
#include <stdexcept>

#include "akm/base/errors.hpp"

namespace akm {

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

// Before finalize() nothing has been judged, so nothing counts as passed.
bool Checks::all_pass() const {
  if (!finalized_) return false;
  for (const auto& r : records_)
    if (!r.pass) return false;
  return true;
}

}  // namespace akm
