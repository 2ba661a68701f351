// R2 image MLP — the tables (tuning, per seed, mean curves, the paper's configuration) and the
// figures.
#include <cmath>

#include <fmt/format.h>

#include "r02_image_mlp.hpp"

namespace akm::exp::r02 {

void write_tables(ExperimentContext& ctx, const std::vector<Arm>& arms, const std::vector<Tuning>& tuned,
                  const Evaluation& ev, int seeds, int epochs, const std::vector<Trial>& paper_runs) {
  CsvTable tuning{{"optimizer", "lr", "beta", "eta", "median_final_val_loss", "diverged_tuning_seeds", "chosen"}, {}};
  for (std::size_t a = 0; a < arms.size(); ++a) {
    const auto space = arms[a].space();
    for (std::size_t c = 0; c < tuned[a].candidates.size(); ++c) {
      const Config& k = space[tuned[a].candidates[c]];
      tuning.add({arms[a].name, k.lr, k.beta, k.eta, tuned[a].scores[c].median, tuned[a].scores[c].diverged,
                  c == tuned[a].best});
    }
  }
  ctx.out.write_csv("data_tuning.csv", tuning);

  CsvTable paper{{"tuning_seed", "diverged", "final_val_loss", "test_accuracy"}, {}};
  for (std::size_t k = 0; k < paper_runs.size(); ++k) {
    const auto& r = paper_runs[k].r;
    paper.add({k, r.diverged, r.diverged ? INFINITY : r.val_loss.back(), r.diverged ? NAN : 100 * r.test_accuracy});
  }
  ctx.out.write_csv("data_paper_config.csv", paper);

  CsvTable per_seed{{"seed", "test_acc_sgd", "test_acc_ak", "test_loss_sgd", "test_loss_ak", "steps90_sgd", "steps90_ak",
                     "stepsloss_sgd", "stepsloss_ak", "diverged_sgd", "diverged_ak"}, {}};
  for (int s = 0; s < seeds; ++s) {
    const auto &r0 = ev.run(0, s).r, &r1 = ev.run(1, s).r;
    const auto i = static_cast<std::size_t>(s);
    per_seed.add({s, 100 * r0.test_accuracy, 100 * r1.test_accuracy, r0.test_loss, r1.test_loss, ev.values[1][0][i],
                  ev.values[1][1][i], ev.values[2][0][i], ev.values[2][1][i], r0.diverged, r1.diverged});
  }
  ctx.out.write_csv("data_per_seed.csv", per_seed);

  // Mean validation curves per arm (a diverged seed holds its last finite value; counted in the findings).
  CsvTable curves{{"optimizer", "step", "epoch", "mean_val_loss", "sd_val_loss", "mean_val_acc", "sd_val_acc"}, {}};
  const int steps_per_epoch = ev.run(0, 0).steps / epochs;
  for (int a = 0; a < 2; ++a) {
    const auto& ref = ev.run(a, 0).r;
    for (std::size_t k = 0; k < ref.eval_steps.size(); ++k) {
      std::vector<double> l, c;
      for (int s = 0; s < seeds; ++s) {
        const auto& r = ev.run(a, s).r;
        const std::size_t j = std::min(k, r.eval_steps.size() - 1);
        if (std::isfinite(r.val_loss[j])) l.push_back(r.val_loss[j]), c.push_back(100 * r.val_accuracy[j]);
      }
      if (l.empty()) continue;
      const auto [lm, lsd] = training::mean_sd(l);
      const auto [cm, csd] = training::mean_sd(c);
      curves.add({arms[static_cast<std::size_t>(a)].name, ref.eval_steps[k],
                  static_cast<double>(ref.eval_steps[k]) / steps_per_epoch, lm, lsd, cm, csd});
    }
  }
  ctx.out.write_csv("data_curves.csv", curves);
}

void figures(ExperimentContext& ctx, int seeds) {
  for (const bool loss : {true, false}) {
    Figure f;
    f.name = loss ? "validation-loss" : "validation-accuracy";
    f.title = fmt::format("R2 digits MLP: validation {} (mean over {} seeds, tuned configurations)",
                          loss ? "loss" : "accuracy", seeds);
    f.xlabel = "epoch";
    f.ylabel = loss ? "validation cross-entropy" : "validation accuracy (%)";
    f.logy = loss;
    if (!loss) f.extra = {"set yrange [50:100]"};
    for (const char* arm : {"sgd-m", "ak-sgd"})
      f.series.push_back({"data_curves.csv", "epoch", loss ? "mean_val_loss" : "mean_val_acc", "", arm, "lines",
                          std::string("optimizer=") + arm});
    ctx.out.figure(f);
  }
  Figure fs;
  fs.name = "test-accuracy";
  fs.title = "R2 test accuracy per seed (paired: same split, initialization and batch order)";
  fs.xlabel = "seed";
  fs.ylabel = "test accuracy (%)";
  fs.series = {{"data_per_seed.csv", "seed", "test_acc_sgd", "", "SGD-m", "linespoints", ""},
               {"data_per_seed.csv", "seed", "test_acc_ak", "", "AK-SGD", "linespoints", ""}};
  ctx.out.figure(fs);
}

}  // namespace akm::exp::r02
