// equivalence — flat claims tested for refutation and for equivalence (see the header).
#include "akm/check/equivalence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/base/median.hpp"
#include "akm/check/one_sided.hpp"
#include "akm/check/paired.hpp"
#include "normal.hpp"

namespace akm {

namespace {
using check_detail::phi;
}  // namespace

EquivalenceLimits equivalence_limits(const std::vector<double>& means, const std::vector<double>& ses,
                                     double q_refute, double q_equiv) {
  if (means.empty()) throw InputError("means", "[]", "must hold at least one difference");
  if (ses.size() != means.size())
    throw InputError("ses", fmt::format("{} values", ses.size()),
                     fmt::format("must hold one per mean ({})", means.size()));
  if (!(q_refute > 0.0 && q_refute < 1e3)) throw InputError("q_refute", show(q_refute), "must be in (0, 1000)");
  if (!(q_equiv > 0.0 && q_equiv < 1e3)) throw InputError("q_equiv", show(q_equiv), "must be in (0, 1000)");
  EquivalenceLimits l;
  for (std::size_t k = 0; k < means.size(); ++k) {
    if (!(ses[k] >= 0.0)) throw InputError("ses", show(ses[k]), "must be >= 0");
    if (!std::isfinite(means[k])) throw InputError("means", show(means[k]), "must be finite");
    const double lo = std::abs(means[k]) - q_refute * ses[k];
    const double up = std::abs(means[k]) + q_equiv * ses[k];
    if (k == 0 || lo > l.lower) l.lower = lo, l.worst_lower = static_cast<int>(k);
    if (k == 0 || up > l.upper) l.upper = up, l.worst_upper = static_cast<int>(k);
  }
  return l;
}

double equivalence_assurance(const std::vector<double>& ses, double margin, double q_equiv) {
  double p = 1.0;
  for (double s : ses) {
    if (!(s > 0.0)) continue;  // an exact zero difference is always inside
    // P(|N(0, s²)| ≤ margin − q·s)
    const double a = margin / s - q_equiv;
    p *= a > 0.0 ? 2.0 * phi(a) - 1.0 : 0.0;
  }
  return p;
}

EquivalenceLimits mc_equivalent(Checks& checks, const std::string& name, double margin,
                                const std::vector<double>& means, const std::vector<double>& ses,
                                double q_refute, double q_equiv, double alpha_equiv) {
  if (!(margin > 0.0 && std::isfinite(margin))) throw InputError("margin", show(margin), "must be > 0 and finite");
  if (!(alpha_equiv > 0.0 && alpha_equiv < 0.5))
    throw InputError("alpha_equiv", show(alpha_equiv), "must be in (0, 0.5)");
  const EquivalenceLimits l = equivalence_limits(means, ses, q_refute, q_equiv);
  // The name stays the same whatever the numbers (audits group verdicts by name); the
  // limits are in the record (measured = lower limit, upper_limit).
  checks.at_most(name + " [equivalence: refuted when max(|d| − q·se) > margin, established when "
                        "max(|d| + q_e·se) ≤ margin]",
                 margin, l.lower);
  checks.lower_limit_of(ses[static_cast<std::size_t>(l.worst_lower)], q_refute);
  checks.equivalence(l.upper, alpha_equiv);
  return l;
}

EquivalenceLimits median_equivalence_limits(const std::vector<std::vector<double>>& diffs, double alpha_refute,
                                            double alpha_equiv) {
  if (diffs.empty()) throw InputError("diffs", "[]", "must hold at least one difference");
  if (!(alpha_refute > 0.0 && alpha_refute < 1.0))
    throw InputError("alpha_refute", show(alpha_refute), "must be in (0, 1)");
  if (!(alpha_equiv > 0.0 && alpha_equiv < 0.5))
    throw InputError("alpha_equiv", show(alpha_equiv), "must be in (0, 0.5)");
  EquivalenceLimits l;
  for (std::size_t k = 0; k < diffs.size(); ++k) {
    const MedianInterval r = median_interval(diffs[k], alpha_refute);
    const MedianInterval e = median_interval(diffs[k], 2.0 * alpha_equiv);
    // The interval's distance from 0 (refutes when beyond the margin) and its reach.
    const double lo = r.lower > 0.0 ? r.lower : r.upper < 0.0 ? -r.upper : 0.0;
    const double up = std::max(std::abs(e.lower), std::abs(e.upper));
    if (k == 0 || lo > l.lower) l.lower = lo, l.worst_lower = static_cast<int>(k);
    if (k == 0 || up > l.upper) l.upper = up, l.worst_upper = static_cast<int>(k);
  }
  return l;
}

SideProbabilities flat_outside_probability(const std::vector<double>& pilot, double margin) {
  if (pilot.empty()) throw InputError("pilot", "[]", "must hold at least one seed");
  if (!(margin > 0.0 && std::isfinite(margin))) throw InputError("margin", show(margin), "must be > 0 and finite");
  for (double x : pilot)
    if (std::isnan(x)) throw InputError("pilot", "NaN", "must be a number or ±inf (a divergence)");
  const RobustScale r = robust_scale(pilot);
  if (!std::isfinite(r.sigma)) return {0.5, 0.5};  // most seeds diverged: no normal core to speak of
  const double core = (1.0 - r.outliers) * (r.sigma > 0.0 ? phi(-margin / r.sigma) : 0.0);
  SideProbabilities p{core, core};
  const double share = 1.0 / static_cast<double>(pilot.size());
  for (double x : pilot) {
    if (!r.is_outlier(x)) continue;  // in the core
    const double d = x - r.centre;
    p.below += d < -margin ? share : 0.0;
    p.above += d > margin ? share : 0.0;
  }
  return p;
}

double median_equivalence_assurance(const std::vector<SideProbabilities>& p, int n, double alpha_equiv) {
  if (!(alpha_equiv > 0.0 && alpha_equiv < 0.5))
    throw InputError("alpha_equiv", show(alpha_equiv), "must be in (0, 0.5)");
  double a = 1.0;
  for (const SideProbabilities& q : p) a *= median_interval_inside(n, 2.0 * alpha_equiv, q.below, q.above);
  return a;
}

EquivalenceLimits median_equivalent(Checks& checks, const std::string& name, double margin,
                                    const std::vector<std::vector<double>>& diffs, double alpha_refute,
                                    double alpha_equiv) {
  if (!(margin > 0.0 && std::isfinite(margin))) throw InputError("margin", show(margin), "must be > 0 and finite");
  const EquivalenceLimits l = median_equivalence_limits(diffs, alpha_refute, alpha_equiv);
  checks.at_most(name + " [median equivalence: refuted when an order-statistics interval of a median lies beyond "
                        "the margin, established when every (1 − 2α_e) interval lies inside it]",
                 margin, l.lower);
  checks.equivalence(l.upper, alpha_equiv);
  return l;
}

}  // namespace akm
