// T2 targets, online rules: EMA → Ḡ and pure delta → ḠΣ^{-1} [app:updates-as-sgd].
// The claims: claim.cpp.
#include <stdexcept>

#include "akm/sim/ops/row_buffers.hpp"
#include "t02_targets.hpp"

namespace akm::exp::t02 {
namespace {

// ------------------------------- EMA → Ḡ and pure delta → ḠΣ^{-1} [app:updates-as-sgd]

// On ops::row_buffers: row q of M carries the value row A_q, δ_q = A_q·x + σξ_q (ξ_q the step's
// q-th noise normal), from M_0 = 0: EMA rows, or AK raw-key rows at β = 1 (the pure delta
// rule). Observables (the op's layout): M_t at each checkpoint, row by row (online_obs), then
// per direction the A-projected ratio M_T u_i / Ḡu_i at the last step (figure (i)), a probe.
McResult simulate_online(ExperimentContext& ctx, const Setting& s, const Mat& A, const Online& o,
                         std::uint64_t seed) {
  const int n = s.n();
  ops::RowBuffers op;
  op.sqrt_lambda = s.sqrt_lambda;
  const BufferKind rule = o.rule == BufferKind::ema ? BufferKind::ema : BufferKind::ak_raw;
  for (int q = 0; q < kM; ++q)
    op.rows.push_back({rule, o.eta, A.row(q).transpose(), Vec::Zero(n), Vec::Zero(n), q});
  op.beta = o.beta;  // EMA: online SGD on J_w [app:updates-as-sgd (a)]; delta (β = 1): on J_f (b)
  op.noise_sigma = kNoise;
  op.noise_slots = kM;
  op.a0 = 1.0;
  op.a1 = 0.0;
  op.steps = o.steps;
  op.record = o.checkpoints;
  for (int i = 0; i < n; ++i) {  // Σ_q A(q,i) M_T(q,i) / (‖Au_i‖² λ_i)
    Mat W = Mat::Zero(kM, n);
    W.col(i) = A.col(i) / (A.col(i).squaredNorm() * s.spectrum.lambda[i]);
    op.probes.push_back({W, {o.steps}, false});
  }
  if (op.obs(o.checkpoints.size() - 1, kM - 1, n - 1) != online_obs(n, o.checkpoints.size() - 1, kM - 1, n - 1) ||
      op.probe_obs(0, 0) != o.checkpoints.size() * std::size_t(kM) * n)
    throw std::logic_error("T2: the online observable layout differs from ops::row_buffers'");
  // Only the reference and cpu paths exist: on another backend this part runs the cpu path.
  const Backend b = ctx.backend_for(ops::row_buffers_has);
  return ops::row_buffers(op, seed, b, ctx.mc(o.trials, "T2 " + o.name()));
}

void online_figure(ExperimentContext& ctx, const Online& ema, const Online& delta) {
  Figure fig;
  fig.name = "targets";
  fig.title = fmt::format("T2 targets: EMA (β = {}) → Ḡ, pure delta (ηλ_{{max}} = {}) → ḠΣ^{{-1}}",
                          ema.beta, kEtaLamMax);
  fig.xlabel = "λ_i (eigenvalue of Σ)";
  fig.ylabel = "M_T u_i / Ḡu_i  (trial mean ± s.e.)";
  fig.logx = fig.logy = true;
  fig.series = {
      {"data_online.csv", "lambda", "measured_ratio", "stderr_ratio",
       fmt::format("EMA, T = {}", ema.steps), "errorbars", "rule=ema"},
      {"data_online.csv", "lambda", "measured_ratio", "stderr_ratio",
       fmt::format("pure delta, T = {}", delta.steps), "errorbars", "rule=delta"},
      {"data_online.csv", "lambda", "predicted_ratio", "", "exact mean at T (EMA)", "lines",
       "rule=ema"},
      {"data_online.csv", "lambda", "predicted_ratio", "", "exact mean at T (delta)", "lines",
       "rule=delta"}};
  fig.functions = {"1 title 'EMA target Ḡ: ratio 1' lw 1 dt 2 lc rgb 'gray30'",
                   "1/x title 'Wiener target ḠΣ^{-1}: ratio 1/λ_i' lw 1 dt 2 lc rgb 'black'"};
  fig.extra = {"set xrange [0.07:13]", "set yrange [0.07:15]"};
  ctx.out.figure(fig);
}

}  // namespace

/// Refuses a Monte Carlo whose variance grows without bound: its standard errors would
/// mean nothing. The radius is that of the second-moment map of a buffer row
/// v ← v(βI − ηxxᵀ), raw Gaussian keys (E1, theory/phase.hpp); < 1 bounds the trial variance.
double require_mean_square_stable(const Vec& lambda, double beta, double eta,
                                  const std::string& what) {
  const double rho = phase::ms_radius(phase::ms_matrix_raw(lambda, beta, eta));  // [E1]
  if (!(rho < 1.0))
    throw std::logic_error(fmt::format(
        "T2 {}: mean-square radius {:.6g} >= 1 at beta = {}, eta = {:.6g} (eta*lambda_max = "
        "{:.3g}); lower eta so the buffer variance stays bounded",
        what, rho, beta, eta, eta * lambda.maxCoeff()));
  return rho;
}

OnlineRun measure_online(ExperimentContext& ctx, const Setting& s) {
  OnlineRun run;
  run.A = value_map(kM, s.n(), derive_seed(ctx.opts.seed, "T2/A/online"));
  const double eta = kEtaLamMax / s.spectrum.lambda.maxCoeff();
  run.rho = require_mean_square_stable(s.spectrum.lambda, 1.0, eta, "pure delta");
  run.rules = {{BufferKind::ema, kBetaEma, 0.0, kEmaSteps, kEmaCheckpoints, trials(ctx, 20000, 2000)},
               {BufferKind::delta, 1.0, eta, kDeltaSteps, kDeltaCheckpoints, trials(ctx, 8000, 800)}};
  for (const Online& o : run.rules)
    run.res.push_back(simulate_online(ctx, s, run.A, o, derive_seed(ctx.opts.seed, "T2/" + o.name())));
  return run;
}

// E[M_t u_i] = gain_i A u_i (1 − c_i^t): per rule, checkpoint, direction and row.
void check_online(ExperimentContext& ctx, const Setting& s, const OnlineRun& run) {
  const Mat& A = run.A;
  const int n = s.n();
  for (std::size_t k = 0; k < run.rules.size(); ++k) {
    const Online& o = run.rules[k];
    for (std::size_t cp = 0; cp < o.checkpoints.size(); ++cp) {
      const int t = o.checkpoints[cp];
      for (int i = 0; i < n; ++i) {
        const double lam = s.spectrum.lambda[i];
        for (int r = 0; r < kM; ++r) {
          const std::size_t e = online_obs(n, cp, r, i);
          ctx.checks.mc(fmt::format("{}/t={}/{}[{}]", o.name(), t, dir_label(i), r),
                        theory::transient_mean(o.gain(lam) * A(r, i), o.contraction(lam), t),
                        run.res[k].total.estimate(static_cast<Eigen::Index>(e)));
          // These rules are not AK, so EMA is no alternative: each must rule out the other's
          // target at its own transient — EMA → ḠΣ^{-1} (gain 1) instead of Ḡ (gain λ_i), pure
          // delta → Ḡ instead of ḠΣ^{-1} [app:divergent-optima]. Where λ_i = 1 they coincide.
          const double other_gain = o.rule == BufferKind::ema ? 1.0 : lam;
          ctx.checks.against(theory::transient_mean(other_gain * A(r, i), o.contraction(lam), t),
                             o.rule == BufferKind::ema ? "G Sigma^-1 target" : "G target");
        }
      }
    }
  }
}

void record_online(ExperimentContext& ctx, const Setting& s, const OnlineRun& run) {
  const Online& ema = run.rules[0];
  const Online& delta = run.rules[1];
  ctx.params["online"] = {
      {"spec", s.spectrum.spec}, {"lambda", to_std(s.spectrum.lambda)}, {"A", rows_json(run.A)},
      {"M0", "zero"},
      {"ema", {{"beta", ema.beta}, {"steps", ema.steps}, {"checkpoints", ema.checkpoints},
               {"trials", ema.trials}, {"prediction", "E[M_t u_i] = lambda_i A u_i (1 - beta^t)"}}},
      {"delta", {{"beta", 1.0}, {"eta", delta.eta}, {"steps", delta.steps},
                 {"checkpoints", delta.checkpoints}, {"trials", delta.trials},
                 {"mean_square_radius", run.rho},
                 {"prediction", "E[M_t u_i] = A u_i (1 - (1 - eta lambda_i)^t)"}}}};
  // Per direction the A-projected ratio M_T u_i / Ḡu_i at the last step (figure (i)).
  CsvTable table{{"rule", "direction", "lambda", "target_ratio", "predicted_ratio",
                  "measured_ratio", "stderr_ratio"}, {}};
  const int n = s.n();
  for (std::size_t k = 0; k < run.rules.size(); ++k) {
    const Online& o = run.rules[k];
    const Vec mean = run.res[k].total.mean(), se = run.res[k].total.stderr_mean();
    const std::size_t base = o.checkpoints.size() * static_cast<std::size_t>(kM) * n;
    for (int i = 0; i < n; ++i) {
      const double lam = s.spectrum.lambda[i];
      table.add({o.name(), dir_label(i), lam, o.gain(lam) / lam,
                 theory::transient_mean(o.gain(lam) / lam, o.contraction(lam), o.steps),
                 mean[base + i], se[base + i]});
    }
  }
  ctx.out.write_csv("data_online.csv", table);
  online_figure(ctx, ema, delta);
}

}  // namespace akm::exp::t02
