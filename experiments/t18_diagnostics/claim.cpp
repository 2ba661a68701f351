// T18 diagnostics — [sec:diag, sec:diag-grad, sec:diag-func, app:mom-grad-cos-sim]
//
// In simulated training on the three tasks of training_common.hpp (anisotropic linear
// regression, logistic regression, μP MLP teacher–student), each arm at its tuned rate:
// every 10 steps, with g_t the gradient on a fixed held-out probe of 512 samples (the
// population-gradient proxy) and M_t the first-moment buffer (EMA m or AK M, all layers
// stacked): cos(M_t, g_t), e_t = ‖M_t − g_t‖/‖g_t‖, and the retrieval cosine
// cos(M_t x̂, δ) of the input layer averaged over the probe samples (for the logistic task
// δ is a scalar, so this is the mean sign agreement). Time averages per seed.
//
// Design (problems/protocol.hpp, fixed before any evaluation seed runs): every arm tuned
// with the same budget (the 11 rates of lr_grid()) on 5 tuning seeds (2 in --quick), a
// divergence scoring +∞, the median deciding; then every arm on the same evaluation seeds.
// The paper's three directional statements (fig:diag-grad-func: AK-AdamW has higher
// cos(M,g), lower e_t and higher cos(Mx̂,δ) than AdamW "at every logged step") are
// pre-registered as one sign check per task and diagnostic (check.hpp, Checks::sign): 9
// two-sided exact sign tests sharing the run's family rate. The alternative the design must
// detect: a favourable gap on a fraction p = 0.95 of seeds (the paper's gap is "uniformly
// favorable", one sign at every logged step; 0.95 allows one seed in twenty to go the
// other way). The evaluation seed count is the smallest with power ≥ 0.9 against it at the
// per-test level (42 at the default rate 1e-6, the family being these 9 and the rebound part's 8); --quick runs 6, which cannot reach the
// level, so quick mode is INCONCLUSIVE by design and says so. The AK-SGD − SGD-m gaps are
// findings (the paper states the diagnostics for the Adam pair only). Also checked (design):
// the closed forms of the covariance summaries, and the identity e² = r² − 2r·cos + 1
// (r = ‖M‖/‖g‖) on every recorded point (the paper: e_t is monotone in 1 − cos·‖M‖/‖g‖).
// The stepping rebound of eq:rebound is measured on the linear task at the rates tuned here
// (rebound.cpp; its 8 comparisons join the family, so the level counts them).
#include <array>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "akm/check/paired.hpp"
#include "akm/problems/protocol.hpp"
#include "t18_diagnostics.hpp"
#include "training_common.hpp"

namespace akm::exp {
namespace {

struct Summaries {
  double cond, erank, top1;
};

// The design's alternative: a favourable gap on this fraction of seeds (header).
constexpr double kFavourableFraction = 0.95;
constexpr double kDesignPower = 0.9;  // the ledger's power floor
// The paper's directions for AK-AdamW against AdamW [fig:diag-grad-func]: +1 higher, −1 lower.
constexpr int kDirection[3] = {+1, -1, +1};
constexpr int kDirectionalChecks = 3 * 3;  // tasks × diagnostics, Adam pair

Summaries summarize(const Vec& lam_in) {
  Vec lam = lam_in.cwiseMax(0.0);
  const Vec p = lam / lam.sum();
  double h = 0;
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (p[i] > 0) h -= p[i] * std::log(p[i]);
  return {lam.maxCoeff() / std::max(lam.minCoeff(), 1e-300), std::exp(h), lam.maxCoeff() / lam.sum()};
}

}  // namespace

static void t18_diagnostics(ExperimentContext& ctx) {
  using namespace training;
  // The paper's directional statements, on a small proxy: a failure is NOT REPRODUCED AT
  // THIS SCALE, never a refutation of the 24-layer run.
  ctx.kind = ClaimKind::Empirical;
  const int steps = ctx.opts.quick ? 150 : 600;
  // What Checks::finalize will use: the family is these 9 and the rebound part's comparisons.
  const double level = ctx.opts.family_alpha / (kDirectionalChecks + kReboundComparisons);
  const int seeds = ctx.opts.quick ? 6 : sign_test_seeds(level, kDesignPower, kFavourableFraction);
  const ProtocolSpec spec{static_cast<int>(lr_grid().size()), ctx.opts.quick ? 2 : 5, seeds};
  const double design_power = sign_test_power(seeds, level, kFavourableFraction);
  const std::vector<std::string> arms{"sgd-m", "ak-sgd", "adamw", "ak-adamw"};
  CsvTable per{{"task", "arm", "seed", "cos_Mg", "e", "cos_retrieval"}, {}};
  CsvTable traj{{"curve", "step", "cos_Mg", "e", "cos_retrieval"}, {}};
  CsvTable gaps{{"task", "pair", "index", "diagnostic", "gap_mean", "gap_sd", "ak_higher_seeds", "ak_lower_seeds", "sign_test_p"}, {}};
  CsvTable tuning{{"task", "arm", "lr", "median_final", "diverged_tuning_seeds", "chosen"}, {}};
  CsvTable cov{{"task", "input", "condition_number", "effective_rank", "top1_fraction"}, {}};
  nlohmann::json findings = nlohmann::json::array();
  std::map<std::string, double> linear_rates;  // arm → tuned rate on the linear task (rebound part)
  double worst_identity = 0;
  int gi = 0;

  // Closed forms of the task input covariance (λ = 50, 20, 10, 5, then 28 × 0.5).
  {
    const Task t = tasks(ctx.opts.seed)[0].task;
    const double tot = 85 + 28 * 0.5;
    double h = 0;
    for (double l : {50.0, 20.0, 10.0, 5.0}) h -= (l / tot) * std::log(l / tot);
    h -= 28 * (0.5 / tot) * std::log(0.5 / tot);
    ctx.checks.exact("covariance/condition number = 50/0.5", 100.0, t.condition_number(), 1e-12).design();
    ctx.checks.exact("covariance/top-1 fraction = 50/99", 50.0 / tot, t.top1_fraction(), 1e-12).design();
    ctx.checks.exact("covariance/effective rank exp(H(λ/Σλ))", std::exp(h), t.effective_rank(), 1e-12).design();
    cov.add({std::string("all"), std::string("x"), t.condition_number(), t.effective_rank(), t.top1_fraction()});
  }

  ctx.findings.push_back(fmt::format(
      "design: {} evaluation seeds per arm, rates tuned with an equal budget of {} on {} tuning seeds; the 9 "
      "directional sign tests run at level {:.3g} each (smallest reachable p {:.3g}), power {:.3f} when AK-AdamW is "
      "favourable on {:.0f}% of seeds{}",
      seeds, spec.trials, spec.tuning_seeds, level, sign_test_min_p(seeds), design_power, 100 * kFavourableFraction,
      design_power < kDesignPower ? ": below 0.9, so this run cannot reach a verdict (INCONCLUSIVE by design)" : ""));
  for (const auto& t : tasks(ctx.opts.seed)) {
    const SeedPlan plan = seed_plan(ctx.opts.seed, "diag/" + t.name, spec);
    std::vector<std::vector<std::array<double, 3>>> val(arms.size());
    for (std::size_t a = 0; a < arms.size(); ++a) {
      const auto grid = lr_grid();
      const Tuning tu = akm::tune(grid.size(), spec, plan, ctx.opts.seed, "diag/" + t.name + "/" + arms[a],
                                  ctx.opts.threads, [&](std::size_t c, std::uint64_t seed) {
                                    const auto r = run(t, config(arms[a], grid[c], steps, seed));
                                    return r.diverged ? std::numeric_limits<double>::infinity() : r.final_loss();
                                  });
      const double lr = grid[tu.chosen];
      if (t.name == "linear") linear_rates[arms[a]] = lr;
      for (std::size_t c = 0; c < tu.candidates.size(); ++c)
        tuning.add({t.name, arms[a], grid[tu.candidates[c]], tu.scores[c].median,
                    tu.scores[c].diverged, c == tu.best});
      ctx.checks.exact(fmt::format("tuning/{}/{}: chosen rate inside the grid", t.name, arms[a]), 1.0,
                       tu.chosen > 0 && tu.chosen + 1 < grid.size() ? 1.0 : 0.0).design();
      // One training per seed, in parallel; each fills only its own record, and the records
      // are folded below in seed order (the same sums as a serial loop, for any thread count).
      struct SeedRun {
        std::array<double, 3> v{0, 0, 0};
        std::vector<std::pair<int, std::array<double, 3>>> points;  // (step/10, (cos, e, rcos))
        double worst_identity = 0;
        std::optional<Summaries> hidden;  // teacher task, seed 0
      };
      const auto runs = parallel_units<SeedRun>(seeds, ctx.opts.threads, [&](std::size_t su) {
        const int s = static_cast<int>(su);
        SeedRun out;
        const TrainConfig cfg = config(arms[a], lr, steps, plan.evaluation[static_cast<std::size_t>(s)]);
        Mlp net(t.shape, t.base_width, derive_seed(cfg.seed, "init"));
        Mat Xp, Tp;
        Stream ps(cfg.seed, 7, Purpose::aux);
        t.task.sample(ps, 512, Xp, Tp);
        std::array<double, 3> acc{0, 0, 0};
        int count = 0;
        auto hook = [&](const Trainer& tr, int step) {
          if (step % 10 != 0) return;
          MlpCache c;
          const Mat Y = net.forward(Xp, &c);
          net.backward(c, output_error(t.task.loss, Y, Tp));
          const auto g = net.gradients(c);
          double dot = 0, mm = 0, gg = 0, diff = 0;
          for (int l = 0; l < net.layers(); ++l) {
            const Mat& M = tr.buffer(l);
            dot += (M.array() * g[l].array()).sum(), mm += M.squaredNorm(), gg += g[l].squaredNorm();
            diff += (M - g[l]).squaredNorm();
          }
          if (!(mm > 0 && gg > 0) || !std::isfinite(dot)) return;
          const double cs = dot / std::sqrt(mm * gg), e = std::sqrt(diff / gg), r = std::sqrt(mm / gg);
          out.worst_identity = std::max(out.worst_identity, std::abs(e * e - (r * r - 2 * r * cs + 1)) / std::max(1.0, e * e));
          // Retrieval of the input layer: cos(M x̂_i, δ_i) over probe samples.
          const Mat& M0 = tr.buffer(0);
          double rc = 0;
          int rn = 0;
          for (Eigen::Index i = 0; i < Xp.rows(); ++i) {
            const Vec xh = Xp.row(i).transpose() / Xp.row(i).norm();
            const Vec pred = M0 * xh;
            const Vec d = c.Delta[0].row(i).transpose();
            if (pred.norm() > 0 && d.norm() > 0) rc += pred.dot(d) / (pred.norm() * d.norm()), ++rn;
          }
          const double rcos = rn ? rc / rn : 0.0;
          acc[0] += cs, acc[1] += e, acc[2] += rcos;
          ++count;
          out.points.push_back({step / 10, {cs, e, rcos}});
        };
        train(net, t.task, cfg, hook);
        out.v = {count ? acc[0] / count : 0, count ? acc[1] / count : 0, count ? acc[2] / count : 0};
        if (t.name == "teacher" && s == 0) {
          // Hidden layer's input covariance at the end of training (probe activations).
          MlpCache c;
          net.forward(Xp, &c);
          const Mat H = c.X[1].rowwise() - c.X[1].colwise().mean();
          Eigen::SelfAdjointEigenSolver<Mat> es((H.transpose() * H) / double(H.rows()));
          out.hidden = summarize(es.eigenvalues());
        }
        return out;
      });
      std::vector<std::array<double, 3>> traj_sum(steps / 10 + 1, {0, 0, 0});
      for (int s = 0; s < seeds; ++s) {
        const SeedRun& r = runs[static_cast<std::size_t>(s)];
        worst_identity = std::max(worst_identity, r.worst_identity);
        for (const auto& [k, x] : r.points)
          traj_sum[k][0] += x[0] / seeds, traj_sum[k][1] += x[1] / seeds, traj_sum[k][2] += x[2] / seeds;
        val[a].push_back(r.v);
        per.add({t.name, arms[a], s, r.v[0], r.v[1], r.v[2]});
        if (r.hidden)
          cov.add({t.name, "hidden input (" + arms[a] + ", seed 0, end)", r.hidden->cond, r.hidden->erank, r.hidden->top1});
      }
      for (std::size_t k = 1; k < traj_sum.size(); ++k)
        traj.add({t.name + "/" + arms[a], 10 * k, traj_sum[k][0], traj_sum[k][1], traj_sum[k][2]});
    }
    const char* dname[3] = {"cos(M,g)", "e_t", "cos(Mx̂,δ)"};
    for (int p = 0; p < 2; ++p)
      for (int d = 0; d < 3; ++d) {
        std::vector<double> gap;
        int hi = 0, lo = 0;
        for (int s = 0; s < seeds; ++s) {
          gap.push_back(val[2 * p + 1][s][d] - val[2 * p][s][d]);
          hi += gap.back() > 0, lo += gap.back() < 0;
        }
        const auto [gm, gsd] = mean_sd(gap);
        const double pv = sign_test_p(hi, lo);
        gaps.add({t.name, arms[2 * p + 1], gi++, std::string(dname[d]), gm, gsd,
                  hi, lo, pv});
        findings.push_back({{"task", t.name}, {"pair", arms[2 * p + 1] + " − " + arms[2 * p]}, {"diagnostic", dname[d]},
                            {"gap_mean", gm}, {"gap_sd", gsd}, {"ak_higher_seeds", hi}, {"ak_lower_seeds", lo},
                            {"sign_test_p", pv}});
        if (p == 1) {  // the paper's statement: AK-AdamW against AdamW, one pre-registered direction
          const bool up = kDirection[d] > 0;
          ctx.checks.sign(fmt::format("direction/{}/ak-adamw vs adamw: {} {} [fig:diag-grad-func]", t.name, dname[d],
                                      up ? "higher" : "lower"),
                          up ? hi : lo, up ? lo : hi, kFavourableFraction);
        }
        ctx.findings.push_back(fmt::format("{}: {} − {} on {}: {:+.4g} ± {:.2g} (paired mean ± standard error over {} "
                                           "seeds, sd {:.3g}; AK higher in {}, lower in {}; sign test p = {:.3g})",
                                           t.name, arms[2 * p + 1], arms[2 * p], dname[d], gm,
                                           gsd / std::sqrt(static_cast<double>(seeds)), seeds, gsd, hi, lo, pv));
      }
  }
  ctx.checks.exact("identity e² = r² − 2r·cos + 1 on every recorded point (max rel diff)", 0.0, worst_identity, 0.0, 1e-9).design();
  ctx.out.write_csv("data_per_seed.csv", per);
  ctx.out.write_csv("data_trajectories.csv", traj);
  ctx.out.write_csv("data_gaps.csv", gaps);
  ctx.out.write_csv("data_covariance.csv", cov);
  ctx.out.write_csv("data_tuning.csv", tuning);
  ctx.params = {{"steps", steps}, {"seeds", seeds}, {"tuning_seeds", spec.tuning_seeds}, {"tuning_trials", spec.trials},
                {"probe", 512}, {"record_every", 10}, {"lr_grid", lr_grid()}, {"findings", findings},
                {"design", {{"favourable_fraction", kFavourableFraction},
                            {"favourable_fraction_reason",
                             "the paper's gap is uniformly favourable (one sign at every logged step of one run); "
                             "0.95 allows one seed in twenty to go the other way"},
                            {"directional_checks", kDirectionalChecks},
                            {"level", level},
                            {"power", design_power},
                            {"smallest_p", sign_test_min_p(seeds)},
                            {"rule", "evaluation seeds: the smallest count whose two-sided sign test at the level has "
                                     "power >= 0.9 at the favourable fraction (--quick: 6, below the level's reach)"}}}};
  rebound_checks(ctx, tasks(ctx.opts.seed)[0], linear_rates, steps, {level, kDesignPower, kFavourableFraction});

  for (const auto& t : tasks(ctx.opts.seed)) {
    Figure f;
    f.name = "cos-" + t.name;
    f.title = fmt::format("T18 cos(M_t, g_t) during training, {} task (mean over seeds)", t.name);
    f.xlabel = "step";
    f.ylabel = "cos(M_t, g_t)";
    for (const auto& a : arms) f.series.push_back({"data_trajectories.csv", "step", "cos_Mg", "", a, "lines", "curve=" + t.name + "/" + a});
    ctx.out.figure(f);
  }
  Figure fg;
  fg.name = "gaps";
  fg.title = "T18 AK − base gaps (mean ± sd over seeds); per task: cos(M,g), e_t, cos(Mx̂,δ) × (SGD pair, Adam pair)";
  fg.xlabel = "row of data_gaps.csv";
  fg.ylabel = "gap";
  fg.series = {{"data_gaps.csv", "index", "gap_mean", "gap_sd", "AK − base", "errorbars", ""}};
  fg.functions = {"0 notitle lc rgb 'gray40'"};
  ctx.out.figure(fg);
}

const Registrar registration{{
    .id = "T18",
    .slug = "diagnostics",
    .title = "Training diagnostics: buffer–gradient cosine, prediction error, retrieval, covariance",
    .labels = "sec:diag sec:diag-grad sec:diag-func app:mom-grad-cos-sim",
    .claim = "AK-AdamW vs AdamW: higher cos(M,g), lower e_t, higher cos(Mx̂,δ) on every task (pre-registered sign "
             "tests, power 0.9 at 95% favourable seeds); AK-SGD gaps and covariance summaries reported",
    .body = t18_diagnostics,
}};

}  // namespace akm::exp
