// pooled — a run's plain-mean observables added to a claim's pooled recovery of η, β and the
// λ̂ scale (akm/check/pooled.hpp), each with its closed form p(η, β, s) so that its
// sensitivities come from the same formula as its prediction (sensitivity.hpp).
#pragma once
#include <cmath>
#include <cstddef>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/pooled.hpp"
#include "akm/sim/sim.hpp"
#include "sensitivity.hpp"

namespace akm::exp {

/// One observable of a run: its index among the run's observables, its closed form
/// p(η, β, s) (s scales the eigenvalues it contracts with), the η of the run's buffer it is
/// evaluated at, and a declared deterministic remainder of that closed form (e.g. a truncated
/// sum's tail). A closed form that ignores η or s gets a 0 derivative and no weight there.
struct PooledTerm {
  std::size_t index;
  std::function<double(double eta, double beta, double scale)> prediction;
  double eta;
  double bias_bound = 0.0;
};

/// Adds the terms of one Monte-Carlo run (its trial groups give the jackknife; the run must
/// keep groups, ExperimentContext::mc(…, groups)) at the paper's β.
inline void add_pooled(PooledRecovery& pooled, const McResult& run, const std::vector<PooledTerm>& terms,
                       double beta) {
  const Vec se = run.total.stderr_mean();
  std::vector<std::size_t> idx;
  std::vector<PooledObservable> obs;
  for (const PooledTerm& t : terms) {
    const LogSensitivity<double> d = log_sensitivity(t.prediction, t.eta, beta);
    idx.push_back(t.index);
    const double se_t = se[static_cast<Eigen::Index>(t.index)];
    obs.push_back({t.prediction(t.eta, beta, 1.0), se_t, d.eta, d.beta, d.lambda, t.bias_bound,
                   se_t * std::sqrt(static_cast<double>(run.total.count())), run.unit_roundoff});
  }
  pooled.add_means(Jackknife(run.groups), std::move(idx), std::move(obs));
}

/// For params: per parameter, the pooled estimate's standard error from the plain observables
/// and from the same observables less a control variate, and the variance reduction factor
/// (plain/control)² that the control variate achieved on this run.
inline nlohmann::json variance_reduction(const PooledRecovery& plain, const PooledRecovery& control) {
  nlohmann::json j = nlohmann::json::object();
  for (const PooledParam p : {PooledParam::eta, PooledParam::beta, PooledParam::lambda}) {
    const auto a = plain.estimate(p), b = control.estimate(p);
    if (!a || !b) continue;
    j[to_string(p)] = {{"se_plain", a->se}, {"se_control", b->se}, {"variance_reduction", std::pow(a->se / b->se, 2)}};
  }
  return j;
}

}  // namespace akm::exp
