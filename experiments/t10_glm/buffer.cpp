// T10 glm, part A: the buffer alone at a fixed w [app:glm]. The claim and the design of all parts: claim.cpp.
#include "akm/sim/ops/glm_buffer.hpp"
#include "t10_glm.hpp"

namespace akm::exp::t10 {
namespace {

std::size_t a_obs(int n, std::size_t cp, int i) { return cp * static_cast<std::size_t>(n) + i; }

}  // namespace

std::pair<double, double> BufferRun::predict_at(double eta, double beta, double lam, int i, int t) const {
  const double bt = theory::beta_tilde(beta, eta, lam), ph = theory::phi(theory::mu(beta, eta), lam);
  double a0, a1;
  if (t <= kT0) {
    a0 = 1 - std::pow(bt, t), a1 = 0;
  } else {
    const double bk = std::pow(bt, t - kT0);
    a0 = bk * (1 - std::pow(bt, kT0)), a1 = 1 - bk;
  }
  const double p = ph * (a0 * m0.g_hat[i] + a1 * m1.g_hat[i]);
  const double sp = ph * std::hypot(a0 * m0.g_hat_se[i], a1 * m1.g_hat_se[i]);
  return {p, sp};
}

BufferRun measure_buffer(ExperimentContext& ctx, const Setting& s) {
  const int n = s.n();
  BufferRun run;
  run.trials = trials(ctx, 2'500'000, 100'000);
  const long long S = trials(ctx, 1'000'000, 200'000);
  run.ws = with_margin(gaussian_vector(n, derive_seed(ctx.opts.seed, "T10/A/w_star")), s.spectrum.lambda, kMargin);
  run.w0 = Vec::Zero(n);
  run.w1 = with_margin(gaussian_vector(n, derive_seed(ctx.opts.seed, "T10/A/w1")), s.spectrum.lambda, kSwitchMargin);
  const lg::Teacher teacher(s.spectrum.lambda, run.ws);
  // Ĝ_0 and K (full, at this generic w*) from one sample, Ĝ_1 from an independent one.
  run.m0 = lg::estimate_glm_moments(
      teacher, run.w0, {S, 256, derive_seed(ctx.opts.seed, "T10/A/moments0"), ctx.opts.threads, true});
  run.m1 = lg::estimate_glm_moments(
      teacher, run.w1, {S, 256, derive_seed(ctx.opts.seed, "T10/A/moments1"), ctx.opts.threads, false});

  run.shown = {0, 1, 4, n - 1};
  // The Monte Carlo on ops::glm_buffer (docs/architecture.md, "Claims on ops").
  ops::GlmBuffer op;
  op.lambda = s.spectrum.lambda;
  op.w_star = run.ws;
  op.w0 = run.w0;
  op.w1 = run.w1;
  op.beta = kBeta;
  op.eta = kEta;
  op.t0 = kT0;
  op.post = kPost;
  op.checkpoints = kCheckpoints;
  op.shown = run.shown;
  run.res = ops::glm_buffer(op, derive_seed(ctx.opts.seed, "T10/A/sim"), ctx.backend(),
                            ctx.mc(run.trials, "T10 buffer alone", kGroups));
  return run;
}

void check_buffer(ExperimentContext& ctx, const Vec& lh, const BufferRun& run) {
  const int n = static_cast<int>(lh.size());
  for (std::size_t cp = 0; cp < kCheckpoints.size(); ++cp) {
    const int t = kCheckpoints[cp];
    for (int i = 0; i < n; ++i) {
      const auto [p, sp] = run.predict_at(kEta, kBeta, lh[i], i, t);
      const std::size_t o = a_obs(n, cp, i);
      const std::string phase = t <= kT0 ? "fixed-point" : fmt::format("tracking k={}", t - kT0);
      ctx.checks.mc(fmt::format("A/{}/t={}/{}", phase, t, dir_name(i)), p, run.res.total.estimate(static_cast<Eigen::Index>(o)), sp);
      // The EMA alternative is the same buffer without self-correction (M ← βM + ηδx̂ᵀ): λ̂_i → 0.
      ctx.checks.against(run.predict_at(kEta, kBeta, 0.0, i, t).first, "EMA");
      sensitivity(ctx.checks, [&](double e, double b, double m) { return run.predict_at(e, b, m * lh[i], i, t).first; },
                  kEta, kBeta);
    }
  }
}

void record_buffer(ExperimentContext& ctx, const Vec& lh, const BufferRun& run) {
  const int n = static_cast<int>(lh.size());
  const Vec mean = run.res.total.mean(), se = run.res.total.stderr_mean();
  const std::size_t n_cp = kCheckpoints.size();
  const int T = kT0 + kPost;
  const double mu = theory::mu(kBeta, kEta);
  auto predict = [&](int i, int t) { return run.predict_at(kEta, kBeta, lh[i], i, t); };
  CsvTable fp{{"t", "direction", "index", "lambda_hat", "beta_tilde", "predicted", "se_predicted",
               "measured", "stderr"}, {}};
  for (std::size_t cp = 0; cp < n_cp; ++cp) {
    const int t = kCheckpoints[cp];
    for (int i = 0; i < n; ++i) {
      const auto [p, sp] = predict(i, t);
      const std::size_t o = a_obs(n, cp, i);
      fp.add({t, dir_name(i), i + 1, lh[i],
              theory::beta_tilde(kBeta, kEta, lh[i]), p, sp, mean[o], se[o]});
    }
  }
  ctx.out.write_csv("data_buffer.csv", fp);

  // Trajectories of the shown directions, as a fraction of the new target M*_1 u_i.
  const std::vector<int>& shown = run.shown;
  CsvTable traj{{"direction", "t", "predicted", "measured", "stderr"}, {}};
  for (std::size_t d = 0; d < shown.size(); ++d) {
    const int i = shown[d];
    const double target = theory::phi(mu, lh[i]) * run.m1.g_hat[i];
    for (int t = 1; t <= T; ++t) {
      const std::size_t o = n_cp * n + d * T + (t - 1);
      traj.add({dir_name(i), t, predict(i, t).first / target,
                mean[o] / target, se[o] / std::abs(target)});
    }
  }
  ctx.out.write_csv("data_buffer_trajectory.csv", traj);
  Figure f;
  f.name = "buffer-tracking";
  f.title = fmt::format("T10 logistic buffer at fixed w: E[M_t u_i] / M*_1 u_i; w switches from 0 to w_1 at t_0 = {}", kT0);
  f.xlabel = "step t";
  f.ylabel = "E[M_t u_i] / M*_1 u_i,   M*_1 = Ĝ_1(μI + Σ-hat)^{-1}";
  for (int i : shown) {
    f.series.push_back({"data_buffer_trajectory.csv", "t", "measured", "", "measured " + dir_name(i),
                        "points", "direction=" + dir_name(i)});
    f.series.push_back({"data_buffer_trajectory.csv", "t", "predicted", "", "exact mean " + dir_name(i),
                        "lines", "direction=" + dir_name(i)});
  }
  f.extra = paired_linetypes(static_cast<int>(shown.size()));
  f.extra.push_back(fmt::format("set arrow from {0}, graph 0 to {0}, graph 1 nohead dt 2 lc rgb 'gray40'", kT0));
  ctx.out.figure(f);

  ctx.params["part_A"] = {{"w_star", to_std(run.ws)}, {"w0", to_std(run.w0)}, {"w1", to_std(run.w1)},
                          {"t0", kT0}, {"post_steps", kPost}, {"checkpoints", kCheckpoints},
                          {"trials", run.trials}, {"moment_samples", run.m0.samples},
                          {"G_hat_0", to_std(run.m0.g_hat)}, {"G_hat_0_se", to_std(run.m0.g_hat_se)},
                          {"G_hat_1", to_std(run.m1.g_hat)}, {"G_hat_1_se", to_std(run.m1.g_hat_se)},
                          {"prediction", "E[M_t u_i] = phi_i G_hat_0,i (1 - bt_i^t) for t <= t0; "
                                         "M*_1,i + bt_i^(t-t0) (E[M_t0 u_i] - M*_1,i) after, "
                                         "phi_i = 1/(mu + lambda_hat_i), bt_i = beta - eta lambda_hat_i"}};
}

}  // namespace akm::exp::t10
