// T20 steps — the tables, the findings and the figures.
#include <cmath>

#include <fmt/format.h>

#include "t20_steps.hpp"

namespace akm::exp::t20 {

void record(ExperimentContext& ctx, const std::vector<Comparison>& cs, const std::vector<Gap>& gaps,
            const ProtocolSpec& spec, int steps) {
  using training::mean_sd;
  const auto grid = training::lr_grid();
  const int n_tests = static_cast<int>(cs.size());
  CsvTable tune_t{{"task", "arm", "lr", "median_final_loss", "diverged_tuning_seeds", "chosen"}, {}};
  CsvTable per_seed{{"task", "pair", "seed", "steps_base", "steps_ak", "censored_base", "censored_ak", "reduction"}, {}};
  CsvTable curves{{"curve", "step", "mean_loss", "sd_loss"}, {}};
  CsvTable summary_t{{"task", "pair", "index", "lr_base", "lr_ak", "target", "reduction_mean", "reduction_sd",
                      "ak_faster_seeds", "ak_slower_seeds", "sign_test_p", "verdict"}, {}};
  nlohmann::json findings = nlohmann::json::array();
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const Comparison& c = cs[i];
    const Gap& g = gaps[i];
    const std::string arms[2] = {c.pair.base, c.pair.ak};
    for (int a = 0; a < 2; ++a) {
      const Tuning& tu = c.tuning[a];
      for (std::size_t k = 0; k < tu.candidates.size(); ++k)
        tune_t.add({c.task, arms[a], grid[tu.candidates[k]], tu.scores[k].median, tu.scores[k].diverged, k == tu.best});
      const auto& res = c.runs[a];
      for (std::size_t k = 0; k < res[0].eval_steps.size(); ++k) {  // mean curve for the figure
        std::vector<double> v;
        for (const auto& r : res) v.push_back(k < r.eval_loss.size() ? r.eval_loss[k] : r.eval_loss.back());
        const auto [m, sd] = mean_sd(v);
        curves.add({c.task + "/" + arms[a], res[0].eval_steps[k], m, sd});
      }
    }
    const int seeds = static_cast<int>(g.reduction.size());
    for (int s = 0; s < seeds; ++s) {
      const auto u = static_cast<std::size_t>(s);
      per_seed.add({c.task, c.pair.ak, s, g.steps[0][u], g.steps[1][u], g.censored[0][u], g.censored[1][u], g.reduction[u]});
    }
    const auto [rm, rsd] = mean_sd(g.reduction);
    const std::string v = verdict(g, n_tests, ctx.opts.family_alpha);
    summary_t.add({c.task, c.pair.ak, i, c.lr[0], c.lr[1], g.target, rm, rsd, g.faster, g.slower, g.sign_p, v});
    findings.push_back({{"task", c.task}, {"pair", c.pair.ak + " vs " + c.pair.base}, {"lr_base", c.lr[0]},
                        {"lr_ak", c.lr[1]}, {"target_loss", g.target}, {"reduction_mean", rm}, {"reduction_sd", rsd},
                        {"final_loss_base", g.final_mean[0]}, {"final_loss_ak", g.final_mean[1]},
                        {"diverged_seeds_base", g.diverged[0]}, {"diverged_seeds_ak", g.diverged[1]},
                        {"ak_faster_seeds", g.faster}, {"ak_slower_seeds", g.slower}, {"sign_test_p", g.sign_p},
                        {"verdict_at_family_alpha", v}});
    int ak_lower = 0;
    for (double d : g.final_diff) ak_lower += d < 0;
    const auto [dm, dsd] = g.final_diff.empty() ? std::pair<double, double>{NAN, NAN} : mean_sd(g.final_diff);
    ctx.findings.push_back(fmt::format(
        "{}: {} vs {} (tuned lr {:.3g} vs {:.3g}, target loss {:.3g}): steps to target reduced by {:+.3g} ± {:.2g} (paired mean ± "
        "standard error over {} seeds, sd {:.3g}); AK faster in {} of {} seeds, slower in {}, tied in {}{} (sign test "
        "p = {:.3g}: {} at the declared rate); final held-out loss AK − base {:+.3g} ± {:.2g} (paired over {} seeds, AK "
        "lower in {}); diverged seeds AK {} / base {}",
        c.task, c.pair.ak, c.pair.base, c.lr[1], c.lr[0], g.target, rm, rsd / std::sqrt(double(seeds)), seeds, rsd, g.faster,
        seeds, g.slower, seeds - g.faster - g.slower,
        g.faster + g.slower == 0 ? " — both arms reach the target at the first evaluation, so steps-to-target cannot "
                                   "compare them"
                                 : "",
        g.sign_p, v, dm, dsd / std::sqrt(double(g.final_diff.size())), g.final_diff.size(), ak_lower, g.diverged[1],
        g.diverged[0]));
  }
  ctx.out.write_csv("data_tuning.csv", tune_t);
  ctx.out.write_csv("data_per_seed.csv", per_seed);
  ctx.out.write_csv("data_curves.csv", curves);
  ctx.out.write_csv("data_summary.csv", summary_t);
  ctx.params = {{"steps", steps}, {"seeds", spec.evaluation_seeds}, {"tuning_seeds", spec.tuning_seeds},
                {"budget", spec.trials}, {"criterion", "median final held-out loss over the tuning seeds, a divergence = +inf"},
                {"lr_grid", grid}, {"batch", 32}, {"beta_base", 0.9}, {"beta_ak", 0.99}, {"eta_ak", 0.4}, {"beta2", 0.999},
                {"target", "1.1 × worse mean final loss"}, {"sign_tests", n_tests}, {"findings", findings}};

  Figure fr;
  fr.name = "steps-reduction";
  fr.title = "T20 steps-to-target reduction of AK over its base (mean ± sd over seeds; > 0: AK faster)";
  fr.xlabel = "0–1 linear, 2–3 logistic, 4–5 teacher (even: AK-SGD vs SGD-m, odd: AK-AdamW vs AdamW)";
  fr.ylabel = "1 − steps_AK / steps_base";
  fr.extra = {"set xrange [-0.5:5.5]"};
  fr.series = {{"data_summary.csv", "index", "reduction_mean", "reduction_sd", "reduction", "errorbars", ""}};
  fr.functions = {"0 notitle lc rgb 'gray40'"};
  ctx.out.figure(fr);
  for (const auto& t : training::tasks(ctx.opts.seed)) {
    Figure fc;
    fc.name = "curves-" + t.name;
    fc.title = fmt::format("T20 held-out loss, {} task (mean over seeds, tuned rates)", t.name);
    fc.xlabel = "step";
    fc.ylabel = "held-out loss";
    fc.logy = true;
    for (const auto& arm : {"sgd-m", "ak-sgd", "adamw", "ak-adamw"})
      fc.series.push_back({"data_curves.csv", "step", "mean_loss", "", arm, "lines", "curve=" + t.name + "/" + arm});
    ctx.out.figure(fc);
  }
}

}  // namespace akm::exp::t20
