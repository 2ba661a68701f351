// phase_run — the run of a validated phase plan (akm/app/phase.hpp): the closed-form map,
// then with --measure the Monte-Carlo transport row at every grid point.
#include <chrono>

#include "akm/app/phase.hpp"
#include "akm/base/key.hpp"

namespace akm::phase {

bool needs_fourth(const Options& o) {
  // Only the normalized key's second-moment map (E1) reads Q_ij = E[x̂_i²x̂_j²]; the raw key's
  // S = diag((β−ηλ_i)² + η²λ_i²) + η²λλᵀ is closed form, and no other metric is mean-square.
  return o.metric == Metric::ms_stable && o.key == Key::normalized;
}

std::vector<MeasurePoint> measure(const std::vector<std::pair<double, double>>& eta_beta, const Model& model,
                                  int direction, const MeasureOptions& o) {
  // The buffer forgets u_i by the key's eigenvalue: β̃_i = β − ηλ_i for the raw key and
  // β − ηλ̂_i for the normalized one [eq:transport-lemma], the prediction of the measured
  // contraction [lem:transport].
  const Vec& lam_key = o.key == Key::raw ? model.moments.lambda : model.moments.lambda_hat;
  return measure(eta_beta, model.moments.lambda, lam_key, direction, o);
}

Result run(const Plan& plan, const Model& model, const std::function<void(long long, long long)>& progress) {
  Result r;
  r.map = compute(plan.opts, model, plan.threads);
  if (!plan.measure) return r;
  MeasureOptions mo = plan.measure_opts;
  mo.progress = progress;
  std::vector<std::pair<double, double>> eta_beta;
  eta_beta.reserve(r.map.points.size());
  for (const auto& p : r.map.points) eta_beta.emplace_back(p.eta, p.beta);
  const auto t0 = std::chrono::steady_clock::now();
  r.measured = measure(eta_beta, model, plan.opts.direction, mo);
  r.measure_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

Result run(const Plan& plan, const std::function<void(long long, long long)>& progress) {
  return run(plan, make_model(plan.spectrum, needs_fourth(plan.opts)), progress);
}

}  // namespace akm::phase
