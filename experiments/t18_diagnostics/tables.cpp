// T18 diagnostics — the record pass: the per-seed diagnostics, their mean trajectories, the
// AK − base gaps (with their findings), the covariance summaries, the tuning; the figures.
#include <cmath>

#include <fmt/format.h>

#include "t18_diagnostics.hpp"

namespace akm::exp::t18 {

void write_tables(ExperimentContext& ctx, const std::vector<TaskRun>& runs, int seeds, int steps,
                  const Summaries& covariance, nlohmann::json& findings) {
  CsvTable per{{"task", "arm", "seed", "cos_Mg", "e", "cos_retrieval", "r"}, {}};
  CsvTable traj{{"curve", "step", "cos_Mg", "e", "cos_retrieval", "r"}, {}};
  CsvTable gaps{{"task", "pair", "index", "diagnostic", "gap_mean", "gap_sd", "ak_higher_seeds", "ak_lower_seeds", "sign_test_p"}, {}};
  CsvTable tuning{{"task", "arm", "lr", "median_final", "diverged_tuning_seeds", "chosen"}, {}};
  CsvTable cov{{"task", "input", "condition_number", "effective_rank", "top1_fraction"}, {}};
  cov.add({std::string("all"), std::string("x"), covariance.cond, covariance.erank, covariance.top1});
  int gi = 0;
  for (const TaskRun& tr : runs) {
    const std::string& name = tr.task->name;
    const auto grid = training::lr_grid();
    for (std::size_t a = 0; a < kArms.size(); ++a) {
      const ArmRun& ar = tr.arms[a];
      for (std::size_t c = 0; c < ar.tu.candidates.size(); ++c)
        tuning.add({name, kArms[a], grid[ar.tu.candidates[c]], ar.tu.scores[c].median,
                    ar.tu.scores[c].diverged, c == ar.tu.best});
      // The seeds folded in seed order (the same sums as a serial loop, for any thread count).
      std::vector<std::array<double, kDiagnostics>> traj_sum(steps / 10 + 1, {0, 0, 0, 0});
      for (int s = 0; s < seeds; ++s) {
        const SeedRun& r = ar.runs[static_cast<std::size_t>(s)];
        for (const auto& [k, x] : r.points)
          for (std::size_t d = 0; d < x.size(); ++d) traj_sum[k][d] += x[d] / seeds;
        per.add({name, kArms[a], s, r.v[0], r.v[1], r.v[2], r.v[3]});
        if (r.hidden)
          cov.add({name, "hidden input (" + kArms[a] + ", seed " + std::to_string(s) + ", end)", r.hidden->cond,
                   r.hidden->erank, r.hidden->top1});
      }
      for (std::size_t k = 1; k < traj_sum.size(); ++k)
        traj.add({name + "/" + kArms[a], 10 * k, traj_sum[k][0], traj_sum[k][1], traj_sum[k][2], traj_sum[k][3]});
    }
    for (const Gap& g : tr.gaps) {
      const std::string& base = kArms[static_cast<std::size_t>(kArmPairs[static_cast<std::size_t>(g.pair)].first)];
      const std::string& ak = kArms[static_cast<std::size_t>(kArmPairs[static_cast<std::size_t>(g.pair)].second)];
      const char* dname = kDiagnostic[g.diagnostic];
      gaps.add({name, ak + " − " + base, gi++, std::string(dname), g.mean, g.sd, g.ak_higher, g.ak_lower, g.p});
      findings.push_back({{"task", name}, {"pair", ak + " − " + base}, {"diagnostic", dname},
                          {"gap_mean", g.mean}, {"gap_sd", g.sd}, {"ak_higher_seeds", g.ak_higher},
                          {"ak_lower_seeds", g.ak_lower}, {"sign_test_p", g.p}});
      ctx.findings.push_back(fmt::format("{}: {} − {} on {}: {:+.4g} ± {:.2g} (paired mean ± standard error over {} "
                                         "seeds, sd {:.3g}; AK higher in {}, lower in {}; sign test p = {:.3g})",
                                         name, ak, base, dname, g.mean,
                                         g.sd / std::sqrt(static_cast<double>(seeds)), seeds, g.sd, g.ak_higher,
                                         g.ak_lower, g.p));
    }
  }
  ctx.out.write_csv("data_per_seed.csv", per);
  ctx.out.write_csv("data_trajectories.csv", traj);
  ctx.out.write_csv("data_gaps.csv", gaps);
  ctx.out.write_csv("data_covariance.csv", cov);
  ctx.out.write_csv("data_tuning.csv", tuning);
}

void figures(ExperimentContext& ctx) {
  for (const auto& t : training::tasks(ctx.opts.seed)) {
    Figure f;
    f.name = "cos-" + t.name;
    f.title = fmt::format("T18 cos(M_t, g_t) during training, {} task (mean over seeds)", t.name);
    f.xlabel = "step";
    f.ylabel = "cos(M_t, g_t)";
    for (const auto& a : kArms) f.series.push_back({"data_trajectories.csv", "step", "cos_Mg", "", a, "lines", "curve=" + t.name + "/" + a});
    ctx.out.figure(f);
    // e_t and the scale r = ‖M‖/‖g‖ it mixes with the alignment: e² = (1 − r·cos)² + r²·sin².
    Figure fe;
    fe.name = "e-r-" + t.name;
    fe.title = fmt::format("T18 e_t (lines) and r = ‖M‖/‖g‖ (points) during training, {} task (mean over seeds)", t.name);
    fe.xlabel = "step";
    fe.ylabel = "e_t, r";
    for (const auto& a : kArms) {
      fe.series.push_back({"data_trajectories.csv", "step", "e", "", "e_t " + a, "lines", "curve=" + t.name + "/" + a});
      fe.series.push_back({"data_trajectories.csv", "step", "r", "", "r " + a, "points", "curve=" + t.name + "/" + a});
    }
    ctx.out.figure(fe);
  }
  Figure fg;
  fg.name = "gaps";
  fg.title = "T18 AK − base gaps (mean ± sd over seeds); per task: (SGD pair, AK-AdamW − AdamW, AK-AdamW − AdamW(tab:hps)) × (cos(M,g), e_t, cos(Mx̂,δ), r)";
  fg.xlabel = "row of data_gaps.csv";
  fg.ylabel = "gap";
  fg.series = {{"data_gaps.csv", "index", "gap_mean", "gap_sd", "AK − base", "errorbars", ""}};
  fg.functions = {"0 notitle lc rgb 'gray40'"};
  ctx.out.figure(fg);
}

}  // namespace akm::exp::t18
