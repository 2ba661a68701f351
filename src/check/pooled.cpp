// pooled — see akm/check/pooled.hpp.
#include "akm/check/pooled.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace akm {

const char* to_string(PooledParam p) {
  switch (p) {
    case PooledParam::eta: return "eta";
    case PooledParam::beta: return "beta";
    case PooledParam::lambda: return "lambda";
  }
  return "?";
}

double PooledObservable::d(PooledParam p) const {
  const double v = p == PooledParam::eta ? d_ln_eta : p == PooledParam::beta ? d_ln_beta : d_ln_lambda;
  return std::isfinite(v) ? v : 0.0;
}

namespace {

// An observable enters the estimate of p when it depends on p and has a Monte-Carlo error above
// rounding: one whose trials all agree to rounding (a control variate that is exact at first
// order, e.g. the transport's lag 1) is an algebraic identity, which an exact check covers;
// weighting it by 1/se² with se at the rounding level would make ε̂ rounding noise. Two tests,
// either marks it: se ≤ 1e-12 (relative) — the rule for double trials — and, for any arithmetic,
// a per-trial spread ≤ 1000 unit roundoffs (relative). The second was added when T3 ran on a
// float backend: its lag-1 control variates spread 0.2 float roundoffs per trial, se 4e-10,
// above the double rule's floor, and their weight made the pooled recovery fail on float
// rounding (docs/statistics.md, "Check rules"). For double trials it marks nothing the first
// does not (sd ≤ 1.1e-13 implies se < 1e-12), so double runs read as before.
bool reads(const PooledObservable& o, PooledParam p) {
  const double scale = std::max(1.0, std::abs(o.predicted));
  const bool rounding = o.se <= 1e-12 * scale || (std::isfinite(o.trial_sd) && o.trial_sd <= 1e3 * o.unit_roundoff * scale);
  return o.d(p) != 0.0 && std::isfinite(o.se) && !rounding;
}

double weight(const PooledObservable& o) { return 1.0 / (o.se * o.se); }

constexpr PooledParam kParams[] = {PooledParam::eta, PooledParam::beta, PooledParam::lambda};

}  // namespace

void PooledRecovery::add(const Jackknife& jk, std::vector<std::size_t> idx, std::vector<PooledObservable> obs,
                         std::function<void(const Vec&, double*)> observables) {
  if (obs.empty()) throw std::invalid_argument("pooled recovery: a run with no observables");
  for (const auto& o : obs)
    if (!std::isfinite(o.predicted) || !(o.se >= 0.0) || !(o.bias_bound >= 0.0))
      throw std::invalid_argument(fmt::format(
          "pooled recovery: observable with predicted {}, se {}, bias bound {} (need finite, se ≥ 0, bound ≥ 0)",
          o.predicted, o.se, o.bias_bound));
  runs_.push_back({jk, std::move(idx), std::move(obs), std::move(observables)});
}

void PooledRecovery::add_means(const Jackknife& jk, std::vector<std::size_t> idx, std::vector<PooledObservable> obs) {
  if (idx.size() != obs.size())
    throw std::invalid_argument(fmt::format("pooled recovery: {} observable indices for {} observables", idx.size(),
                                            obs.size()));
  const std::size_t k = obs.size();
  add(jk, std::move(idx), std::move(obs), [k](const Vec& v, double* out) {
    for (std::size_t j = 0; j < k; ++j) out[j] = v[static_cast<Eigen::Index>(j)];
  });
}

std::size_t PooledRecovery::size() const {
  std::size_t n = 0;
  for (const auto& r : runs_) n += r.obs.size();
  return n;
}

std::size_t PooledRecovery::informative(PooledParam p) const {
  std::size_t n = 0;
  for (const auto& r : runs_)
    for (const auto& o : r.obs) n += reads(o, p) ? 1 : 0;
  return n;
}

double PooledRecovery::denominator(PooledParam p) const {
  double den = 0;
  for (const auto& r : runs_)
    for (const auto& o : r.obs)
      if (reads(o, p)) den += weight(o) * o.d(p) * o.d(p);
  return den;
}

double PooledRecovery::bias_bound(PooledParam p) const {
  const double den = denominator(p);
  if (!(den > 0.0)) return 0.0;
  double b = 0;
  for (const auto& r : runs_)
    for (const auto& o : r.obs)
      if (reads(o, p)) b += weight(o) * std::abs(o.d(p)) * o.bias_bound;
  return b / den;
}

std::optional<MeanEstimate> PooledRecovery::estimate(PooledParam p) const {
  const double den = denominator(p);
  if (!(den > 0.0)) return std::nullopt;
  // Each run's numerator N_r(v) = Σ_i w_i d_i (o_i(v) − p_i) is a smooth statistic of the
  // run's pooled means: its jackknife carries the correlations of the run's observables.
  double mean = 0, var = 0, k3 = 0, var2_over_dof = 0;
  for (const auto& r : runs_) {
    const std::size_t k = r.obs.size();
    std::vector<double> o(k);
    const MeanEstimate n = r.jk.many(r.idx, 1, [&](const Vec& v, double* out) {
      r.observables(v, o.data());
      double s = 0;
      for (std::size_t i = 0; i < k; ++i)
        if (reads(r.obs[i], p)) s += weight(r.obs[i]) * r.obs[i].d(p) * (o[i] - r.obs[i].predicted);
      out[0] = s;
    })[0];
    const double s2 = n.se * n.se / (den * den);
    mean += n.mean / den;
    var += s2;
    k3 += n.skew * std::pow(n.se / den, 3);  // third cumulants of independent runs add
    var2_over_dof += s2 * s2 / n.dof;
  }
  MeanEstimate e;
  e.mean = mean;
  e.se = std::sqrt(var);
  e.skew = var > 0.0 ? k3 / std::pow(var, 1.5) : 0.0;
  e.dof = var2_over_dof > 0.0 ? var * var / var2_over_dof : std::numeric_limits<double>::infinity();
  return e;
}

void PooledRecovery::record(Checks& checks, const std::string& prefix, double alternative) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const PooledParam p : kParams) {
    const auto e = estimate(p);
    if (!e) continue;
    checks.mc(fmt::format("{}/ln-{}", prefix, to_string(p)), 0.0, *e, 0.0, bias_bound(p));
    checks.against(std::log1p(alternative), fmt::format("{:g}% error in {}", 100 * alternative, to_string(p)));
    checks.sensitivity(p == PooledParam::eta ? 1.0 : nan, p == PooledParam::beta ? 1.0 : nan,
                       p == PooledParam::lambda ? 1.0 : nan);
    checks.recovers(to_string(p));
  }
}

}  // namespace akm
