// T19 eta — [app:eta-sweep, app:hp-sweep, tab:hps]
//
// Final held-out loss against η ∈ {0.01, 0.1, 0.3, 0.5, 0.7, 0.99} at fixed β = 0.99, for
// AK-SGD and AK-AdamW on the three tasks of T18 (training_common.hpp), each optimizer at
// its OWN tuned rate: the paper's sweep runs at the tuned configuration of tab:hps, and its
// recipe ("Recommended tuning recipe") is "near one tenth of AdamW, then tune that". Rates
// are tuned at the recipe's η = 0.4 on lr_grid() (declared in training_common.hpp, the
// same grid as every arm, AdamW/10 inside it) over the tuning seeds, disjoint from the
// evaluation seeds. (Running below the optimum, as an earlier version did at AdamW/10,
// turns η into a learning-rate multiplier.)
//
// The claim is a spread, not a point: "the final loss moves by at most 0.015 nats across
// η ∈ [0.10, 0.99]" on a loss of ≈ 3.03 nats (tab:eta-sweep: 3.029, 3.034, 3.035, 3.035,
// 3.020 on that interval, mean 3.0306). Our tasks have other loss scales, so the margin is
// the same fraction of the loss: margin = (0.015 / 3.0306) × L_tuned ≈ 0.495% × L_tuned,
// with L_tuned the tuned configuration's mean final loss over the tuning seeds (known
// before any evaluation seed is run). Both losses include an irreducible part (the paper's
// language entropy, our label noise), so total-to-total is the like-for-like ratio.
//
// Test (check/equivalence.hpp), per optimizer over the three tasks: with every η run on the
// same seeds (same init, same data), the paired differences d_s(η, η') = L_s(η) − L_s(η')
// over the six pairs of the basin η ∈ {0.3, 0.5, 0.7, 0.99}, in units of each task's margin.
//  - refuted (NOT REPRODUCED AT THIS SCALE) when some |E d| is significantly above the
//    margin: lower limit |d̄| − q_r·se, q_r Student-t (seeds − 1 dof) at the run's declared
//    family rate split, Bonferroni, over the 36 one-sided differences;
//  - evidence (SUPPORTED) when equivalence is established: every 90% interval d̄ ± q_e·se
//    (TOST at α_e = 0.05, q_e Student-t) lies inside ±margin; otherwise INCONCLUSIVE.
// η = 0.1 (the edge of the paper's basin) and η = 0.01 (outside it) are reported as
// findings: their paired excess over the basin mean, in nats and in margins.
#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

#include <map>

#include "akm/check/equivalence.hpp"
#include "training_common.hpp"

namespace akm::exp {

namespace {

// [tab:eta-sweep] the paper's basin and its loss scale
constexpr double kPaperSpread = 0.015;                        // nats, η ∈ [0.10, 0.99]
constexpr double kPaperLoss = (3.029 + 3.034 + 3.035 + 3.035 + 3.020) / 5;  // 3.0306 nats
constexpr double kAlphaEquiv = 0.05;  // TOST level: a (1 − 2α_e) = 90% interval
constexpr double kDivergedDiff = 1e6;  // a basin run that diverged: in margins, refutes

double t_quantile(int dof, double upper_tail) {
  boost::math::students_t t(dof);
  return boost::math::quantile(boost::math::complement(t, upper_tail));
}

}  // namespace

static void t19_eta(ExperimentContext& ctx) {
  using namespace training;
  ctx.kind = ClaimKind::Empirical;  // the paper's training-time observation, on a small proxy
  const std::vector<double> etas{0.01, 0.1, 0.3, 0.5, 0.7, 0.99};
  const std::size_t b0 = 2;  // basin under test: etas[2..5] = 0.3 … 0.99
  const int steps = ctx.opts.quick ? 150 : 600;
  const int seeds = ctx.opts.quick ? 6 : 20;
  const int tune_seeds = ctx.opts.quick ? 1 : 2;
  const std::vector<std::string> opts{"ak-sgd", "ak-adamw"};
  const auto task_list = tasks(ctx.opts.seed);
  const std::size_t n_pairs = (etas.size() - b0) * (etas.size() - b0 - 1) / 2;
  const double n_diffs = static_cast<double>(opts.size() * task_list.size() * n_pairs);
  const double q_refute = t_quantile(seeds - 1, ctx.opts.family_alpha / (2 * n_diffs));
  const double q_equiv = t_quantile(seeds - 1, kAlphaEquiv);
  const double margin_rel = kPaperSpread / kPaperLoss;

  CsvTable tab{{"curve", "task", "optimizer", "eta", "lr", "mean_final", "sd_final", "paired_diff",
                "paired_se", "margin"}, {}};
  CsvTable pairs{{"task", "optimizer", "eta_a", "eta_b", "mean_diff", "se", "margin", "lower", "upper"}, {}};
  nlohmann::json rates = nlohmann::json::array();
  std::map<std::string, std::vector<double>> diff_m, diff_se;  // per optimizer, in margins
  for (const auto& t : task_list) {
    const Tuned tu_adamw = tune(t, "adamw", steps, ctx.opts.seed, tune_seeds, ctx.opts.threads);
    std::map<std::string, Tuned> tuned;
    for (const auto& opt : opts) tuned[opt] = tune(t, opt, steps, ctx.opts.seed, tune_seeds, ctx.opts.threads);
    const auto grid = lr_grid();
    const auto interior = [&](const Tuned& tu) { return tu.index > 0 && tu.index + 1 < int(grid.size()); };
    rates.push_back({{"task", t.name}, {"adamw_lr", tu_adamw.lr},
                     {"ak_adamw_lr", tuned["ak-adamw"].lr}, {"ak_sgd_lr", tuned["ak-sgd"].lr},
                     {"ratio_ak_adamw_over_adamw", tuned["ak-adamw"].lr / tu_adamw.lr}, {"recipe_ratio", 0.1},
                     {"ak_adamw_tuned_loss", tuned["ak-adamw"].mean_final[tuned["ak-adamw"].index]},
                     {"ak_sgd_tuned_loss", tuned["ak-sgd"].mean_final[tuned["ak-sgd"].index]},
                     {"interior", {{"ak-sgd", interior(tuned["ak-sgd"])}, {"ak-adamw", interior(tuned["ak-adamw"])}}}});
    for (const auto& opt : opts) {
      const Tuned& tu = tuned[opt];
      const double margin = margin_rel * tu.mean_final[tu.index];  // declared before the evaluation seeds
      // Every (η, seed) training in parallel, each into its own slot L[e][s].
      std::vector<std::vector<double>> L(etas.size(), std::vector<double>(seeds));
      const auto finals = parallel_units<double>(etas.size() * seeds, ctx.opts.threads, [&](std::size_t u) {
        const std::size_t e = u / seeds;
        TrainConfig c = config(opt, tu.lr, steps, run_seed(ctx.opts.seed, "eta/" + t.name, static_cast<int>(u % seeds)));
        c.eta = etas[e];
        const auto r = run(t, c);
        return r.diverged ? std::numeric_limits<double>::infinity() : r.final_loss();
      });
      for (std::size_t e = 0; e < etas.size(); ++e)
        for (int s = 0; s < seeds; ++s) L[e][s] = finals[e * seeds + s];
      // Paired excess of every η over the basin mean (reported; the edge findings).
      std::vector<double> exc_m(etas.size()), exc_se(etas.size());
      for (std::size_t e = 0; e < etas.size(); ++e) {
        std::vector<double> d(seeds);
        for (int s = 0; s < seeds; ++s) {
          double basin = 0;
          for (std::size_t f = b0; f < etas.size(); ++f) basin += L[f][s];
          d[s] = L[e][s] - basin / (etas.size() - b0);
        }
        const auto [dm, dsd] = mean_sd(d);
        exc_m[e] = dm, exc_se[e] = dsd / std::sqrt(double(seeds));
        const auto [fm, fsd] = mean_sd(L[e]);
        tab.add({t.name + "/" + opt, t.name, opt, etas[e], tu.lr, fm, fsd, dm, exc_se[e], margin});
      }
      // The six basin pairs, in units of the margin.
      double worst_upper = 0;
      for (std::size_t a = b0; a < etas.size(); ++a)
        for (std::size_t b = a + 1; b < etas.size(); ++b) {
          std::vector<double> d(seeds);
          for (int s = 0; s < seeds; ++s) d[s] = L[a][s] - L[b][s];
          auto [dm, dsd] = mean_sd(d);
          double dse = dsd / std::sqrt(double(seeds));
          if (!std::isfinite(dm) || !std::isfinite(dse)) dm = kDivergedDiff * margin, dse = 0;
          pairs.add({t.name, opt, etas[a], etas[b], dm, dse, margin, std::abs(dm) - q_refute * dse,
                     std::abs(dm) + q_equiv * dse});
          diff_m[opt].push_back(dm / margin);
          diff_se[opt].push_back(dse / margin);
          worst_upper = std::max(worst_upper, (std::abs(dm) + q_equiv * dse) / margin);
        }
      const double a01 = exc_m[1] / margin, s01 = exc_se[1] / margin;
      ctx.findings.push_back(fmt::format(
          "{}/{} at its tuned lr {:.3g}: basin η ∈ [0.3, 0.99] loss {:.4g}, margin {:.3g} nats; worst 90% upper "
          "limit of a basin pair {:.2f} margins ({}); edge η = 0.1 excess over the basin {:+.3g} ± {:.2g} nats "
          "= {:+.2f} ± {:.2f} margins; η = 0.01 (outside) {:+.3g} ± {:.2g} nats = {:+.1f} margins",
          t.name, opt, tu.lr, mean_sd(L[b0]).first, margin, worst_upper,
          worst_upper <= 1 ? "flat: equivalent" : "not established", exc_m[1], exc_se[1], a01, s01, exc_m[0],
          exc_se[0], exc_m[0] / margin));
    }
  }
  std::map<std::string, double> assurance;
  for (const auto& opt : opts) {
    mc_equivalent(ctx.checks,
                  fmt::format("{}: final loss flat within ±margin over η ∈ {{0.3, 0.5, 0.7, 0.99}} on every task "
                              "(6 paired basin differences × 3 tasks, in margins)", opt),
                  1.0, diff_m[opt], diff_se[opt], q_refute, q_equiv, kAlphaEquiv);
    assurance[opt] = equivalence_assurance(diff_se[opt], 1.0, q_equiv);
  }
  ctx.out.write_csv("data_eta.csv", tab);
  ctx.out.write_csv("data_eta_pairs.csv", pairs);
  ctx.params = {{"etas", etas}, {"basin_tested", std::vector<double>(etas.begin() + b0, etas.end())},
                {"beta", 0.99}, {"steps", steps}, {"seeds", seeds}, {"tuning_seeds", tune_seeds},
                {"tuning_eta", 0.4}, {"lr_grid", lr_grid()}, {"rates", rates},
                {"margin_rule", "margin = (0.015 nats / 3.0306 nats) × tuned final loss (tab:eta-sweep basin mean)"},
                {"margin_relative", margin_rel}, {"paper_spread_nats", kPaperSpread}, {"paper_loss_nats", kPaperLoss},
                {"alpha_equivalence", kAlphaEquiv}, {"q_equivalence", q_equiv}, {"q_refute", q_refute},
                {"assurance_if_flat", assurance}};

  for (const auto& opt : opts) {
    Figure f;
    f.name = "eta-sweep-" + opt;
    f.title = fmt::format("T19 final held-out loss vs η ({}, β = 0.99, own tuned lr; mean ± sd over seeds)", opt);
    f.xlabel = "η";
    f.ylabel = "final held-out loss";
    f.logx = f.logy = true;
    for (const auto& t : task_list)
      f.series.push_back({"data_eta.csv", "eta", "mean_final", "sd_final", t.name, "errorbars", "curve=" + t.name + "/" + opt});
    f.extra = {"set arrow from 0.1, graph 0 to 0.1, graph 1 nohead dt 2 lc rgb 'gray40'"};
    ctx.out.figure(f);
  }
}

const Registrar registration{{
    .id = "T19",
    .slug = "eta",
    .title = "η sensitivity: flat basin for η ≥ 0.1 (AK-SGD, AK-AdamW)",
    .labels = "app:eta-sweep app:hp-sweep tab:hps",
    .claim = "final loss within ±0.015 nats × (our loss / 3.03) over η ∈ [0.3, 0.99] at each optimizer's own tuned rate "
             "(equivalence, TOST); η = 0.1 edge and η = 0.01 reported",
    .body = t19_eta,
}};

}  // namespace akm::exp
