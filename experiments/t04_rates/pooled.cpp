// T4 rates, the pooled recovery of η, β and the λ scale from one arm: every recorded mean
// state (e_t, μ_{t−1}) t = 1..kSteps of every direction (t = 0 is the fixed start s_0, no
// Monte-Carlo weight) and every direction's fitted-map trace and determinant, with the
// sensitivities of the same per-direction map the checks use (Arm::A_at, eq:iter-matrices).
// The fitted ρ(Â) is left out: it is not smooth at critical damping (claim.cpp), and its
// information is in the trace and determinant. The fitted maps are ratios of the run's pooled
// moments (sim/fitted_map.hpp), so they enter through the jackknife as smooth functions.
#include "akm/sim/fitted_map.hpp"
#include "pooled.hpp"
#include "t04_rates.hpp"

namespace akm::exp::t04 {

void add_pooled(PooledRecovery& pooled, const Setting& s, const ArmRun& run) {
  const int n = s.n();
  const Arm* arm = &run.arm;
  const double eta = arm->rule == BufferKind::ema ? 1.0 : arm->eta;  // EMA's map ignores η
  std::vector<PooledTerm> states;
  for (int i = 0; i < n; ++i)
    for (int t = 1; t <= kSteps; ++t)
      for (int comp = 0; comp < 2; ++comp)
        states.push_back({at(n, t, i, comp),
                          [&s, arm, i, t, comp](double e, double b, double sc) {
                            return mean_state(arm->A_at(s, i, e, b, sc), t)[comp];
                          },
                          eta});
  akm::exp::add_pooled(pooled, run.res, states, kBeta);

  // The fitted maps: tr Â_i and det Â_i of every direction, from its 7 regression moments.
  std::vector<std::size_t> idx;
  std::vector<PooledObservable> obs;
  for (int i = 0; i < n; ++i) {
    for (const std::size_t m : map_moments(n, i)) idx.push_back(m);
    const FittedMapEstimate& fm = run.fit[static_cast<std::size_t>(i)];
    auto map_at = [&s, arm, i](double e, double b, double sc) { return arm->A_at(s, i, e, b, sc); };
    const auto tr = log_sensitivity([&](double e, double b, double sc) { return map_at(e, b, sc).trace(); }, eta, kBeta);
    const auto det =
        log_sensitivity([&](double e, double b, double sc) { return map_at(e, b, sc).determinant(); }, eta, kBeta);
    const Mat2 A = map_at(eta, kBeta, 1.0);
    obs.push_back({A.trace(), fm.trace.se, tr.eta, tr.beta, tr.lambda, 0.0});
    obs.push_back({A.determinant(), fm.det.se, det.eta, det.beta, det.lambda, 0.0});
  }
  pooled.add(Jackknife(run.res.groups), std::move(idx), std::move(obs), [n](const Vec& v, double* out) {
    for (int i = 0; i < n; ++i) {
      const Mat2 A = fitted_map(v.data() + static_cast<std::ptrdiff_t>(i) * kMapMoments);
      out[2 * i] = A.trace();
      out[2 * i + 1] = A.determinant();
    }
  });
}

}  // namespace akm::exp::t04
