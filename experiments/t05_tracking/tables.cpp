// T5 tracking, the tables the figures are drawn from. The claim: claim.cpp.
#include "t05_tracking.hpp"

namespace akm::exp::t05 {

void write_tables(ExperimentContext& ctx, const Model& md, const std::vector<Scenario>& scenarios,
                  const std::vector<Plan>& plans, const std::vector<Measured>& measured,
                  const std::vector<std::string>& dname) {
  const int n = md.post.n();
  CsvTable traj{{"scenario", "rule", "direction", "curve", "k", "predicted", "measured", "stderr",
                 "abs_predicted", "abs_measured"},
                {}};
  CsvTable rates{{"scenario", "rule", "direction", "curve", "lambda", "lambda_hat", "y0",
                  "selection_se", "predicted_snr", "measured_se_y0", "window_pairs", "checked",
                  "predicted_rate", "fitted_rate", "stderr_rate", "lambda_plot", "lambda_hat_plot"},
                 {}};
  CsvTable horizon{{"scenario", "key", "direction", "curve", "lambda", "lambda_hat",
                    "predicted_ratio", "measured_ratio", "stderr_ratio"},
                   {}};
  const Vec& lambda = md.post.spectrum.lambda;
  const Vec& lambda_hat = md.post.moments.lambda_hat;
  for (std::size_t sc = 0; sc < scenarios.size(); ++sc) {
    const std::string& name = scenarios[sc].name;
    const Plan& pl = plans[sc];
    const Prediction& p = pl.p;
    const Measured& m = measured[sc];
    for (int r = 0; r < kRules; ++r)
      for (int i = 0; i < n; ++i) {
        const std::string curve = fmt::format("{}/{}/{}", name, rule_name(r), dname[i]);
        for (int k = 0; k <= kPost; ++k) {
          const double pred = std::pow(p.rate(r, i), k) * p.y0(r, i);
          const std::size_t o = obs(n, r, k, i);
          traj.add({name, rule_name(r), dname[i], curve, k, pred, m.mean[o], m.se[o], std::abs(pred),
                    std::abs(m.mean[o])});
        }
      }
    for (int r = 0; r < kRules; ++r)
      for (int i = 0; i < n; ++i) {
        const bool fitted = pl.fit[r][i];
        // Plotting position only: the four (rule, scenario) series share each eigenvalue, so
        // they are spread by a few percent on the log axis to keep their error bars apart.
        const double jitter = std::pow(1.04, (r == kEma ? 0.5 : -1.5) + static_cast<double>(sc));
        const MeanEstimate& est = m.rate[r][i];
        rates.add({name, rule_name(r), dname[i],
                   fitted ? fmt::format("{}/{}", rule_name(r), name) : std::string("not-fitted"), lambda[i],
                   lambda_hat[i], p.y0(r, i), pl.se_scale(r, i), pl.snr(r, i), m.se[obs(n, r, 0, i)],
                   window(p.rate(r, i)), fitted, p.rate(r, i), est.mean, est.se, jitter * lambda[i],
                   jitter * lambda_hat[i]});
      }
    for (std::size_t h = 0; h < kHorizonRules.size(); ++h) {
      const std::string key = to_string(key_of(static_cast<BufferKind>(kHorizonRules[h])));
      for (int i = 0; i < n; ++i) {
        if (!pl.horizon_fitted(h, i)) continue;
        const MeanEstimate& est = m.horizon[h][i];
        horizon.add({name, key, dname[i], fmt::format("{}/{}", key, name), lambda[i], lambda_hat[i],
                     pl.horizon(static_cast<Eigen::Index>(h), i), est.mean, est.se});
      }
    }
  }
  ctx.out.write_csv("data_trajectory.csv", traj);
  ctx.out.write_csv("data_rates.csv", rates);
  ctx.out.write_csv("data_horizon.csv", horizon);
}

}  // namespace akm::exp::t05
