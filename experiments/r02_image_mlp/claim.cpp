// R2 image MLP — the paper's CIFAR-10 MLP comparison [app:cifar-10, tab:cifar,
// sec:main-deltaSGD] at small scale, on real images: the 8×8 digits that Debian's
// python3-sklearn installs (1797 images, 10 classes; akm/problems/classify.hpp).
//
// Protocol, the paper's where it can be kept: a 3-hidden-layer MLP trained with softmax
// cross-entropy, AK-SGD with momentum against SGD with EMA momentum, each tuned
// independently on its own grid — SGD-m lr ∈ {0.05, 0.1, 0.3}, AK-SGD lr ∈ {0.9, 1.3, 1.7,
// 2.1}, β ∈ {0.9, 0.95, 0.99} for both, η ∈ {0.1, 0.5, 0.9, 0.99} for AK-SGD — choosing the
// configuration with the lowest mean final validation loss ("minimal loss"), then the test
// accuracy of each optimizer's best configuration.
// What differs, and why: widths 64-64-64 on 64 inputs (the paper: 4096-4096-2048 on 3072),
// GELU without biases (akm's Mlp, akm/problems/mlp.hpp; the paper uses ReLU), batch 32 and
// 40 epochs over 1079 training images (the paper: 256 and 120 epochs over 50 000), a fixed
// seeded 60/20/20 train/validation/test split, and several paired seeds where the paper
// reports one run. Both optimizers act on every linear layer at the standard
// parameterization (the μP base width equals the width).
// Pre-registered tuning rule: a grid whose best learning rate is at its edge did not bracket
// that optimizer's optimum on this problem, so the grid is extended past that edge by a
// factor 3 (every β, η again), up to 4 times; the design checks assert the final choice is
// inside the grid. Tuning seeds are disjoint from the evaluation seeds; the test rows are
// used only for the reported test accuracy.
// The paper reports measurements, not a prediction, so R2 is a Finding: test accuracy, the
// steps to 90% validation accuracy and to SGD-m's final validation loss ("AK-SGD reaches
// SGD's validation loss earlier"), paired over seeds (the seed fixes the initialization and
// the batch order of both arms), with an exact sign test per outcome at the declared family
// false-alarm rate (Bonferroni over the three outcomes), beside tab:cifar's 61.51% → 67.06%.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "r02_image_mlp.hpp"

namespace akm::exp {

static void r02_image_mlp(ExperimentContext& ctx) {
  using namespace r02;
  // ---- Set-up: budgets, the paper's grids, the data split ----
  ctx.kind = ClaimKind::Finding;
  const bool quick = ctx.opts.quick;
  const int epochs = quick ? 10 : 40;
  // 24 seeds: the smallest two-sided sign-test p, 2·2⁻²⁴ ≈ 1.2e-7, is below the declared
  // family rate 1e-6 over three outcomes, so a verdict is attainable (with 16 it is not).
  const int seeds = quick ? 4 : 24;
  const int tune_seeds = quick ? 1 : 2;
  const std::vector<double> betas = quick ? std::vector<double>{0.9, 0.99} : std::vector<double>{0.9, 0.95, 0.99};
  const std::vector<Arm> arms{{"sgd-m", {0.05, 0.1, 0.3}, betas, {0.0}},
                              {"ak-sgd", {0.9, 1.3, 1.7, 2.1}, betas,
                               quick ? std::vector<double>{0.5, 0.99} : std::vector<double>{0.1, 0.5, 0.9, 0.99}}};

  const LabelledData digits = load_labelled("data:digits");  // InputError naming the file if absent
  const DataSplit data = split_data(digits, 0.2, 0.2, derive_seed(ctx.opts.seed, "r2/split"));

  // ---- Simulate: tune each arm (its grid rows into data_tuning.csv), run both at their tuned
  // configuration on the same seeds, and each seed's steps to the targets ----
  CsvTable tuning{{"optimizer", "lr", "beta", "eta", "mean_final_val_loss"}, {}};
  std::vector<Tuning> tuned;
  for (const Arm& a : arms) tuned.push_back(tune_arm(data, a, epochs, tune_seeds, ctx.opts.seed, ctx.opts.threads, tuning));
  // Evaluation: both arms at their tuned configuration on the same seeds (paired).
  const auto runs = training::parallel_units<Trial>(2 * static_cast<std::size_t>(seeds), ctx.opts.threads, [&](std::size_t u) {
    const int a = static_cast<int>(u % 2), s = static_cast<int>(u / 2);
    return train_once(data, arms[a].name, tuned[a].best, epochs, training::run_seed(ctx.opts.seed, "r2/eval", s));
  });
  auto run = [&](int a, int s) -> const Trial& { return runs[2 * static_cast<std::size_t>(s) + a]; };
  const int total_steps = run(0, 0).steps;
  const int censored = total_steps + kEvalEvery;  // never reached: counted one validation past the end

  // The paper's loss target: SGD-m's mean final validation loss over the evaluation seeds.
  std::vector<double> sgd_final;
  for (int s = 0; s < seeds; ++s)
    if (!run(0, s).r.diverged) sgd_final.push_back(run(0, s).r.val_loss.back());
  const double loss_target = sgd_final.empty() ? -1.0 : training::mean_sd(sgd_final).first;

  std::vector<double> d_acc, d90, dloss, acc[2];
  std::vector<std::array<int, 2>> steps90, steps_loss;  // per seed and arm, censored where never reached
  int diverged[2] = {0, 0};
  for (int s = 0; s < seeds; ++s) {
    int s90[2], sl[2];
    for (int a = 0; a < 2; ++a) {
      const auto& r = run(a, s).r;
      diverged[a] += r.diverged;
      acc[a].push_back(100 * r.test_accuracy);
      s90[a] = r.diverged || r.steps_to_accuracy(kTargetAccuracy) < 0 ? censored : r.steps_to_accuracy(kTargetAccuracy);
      sl[a] = r.diverged || r.steps_to_loss(loss_target) < 0 ? censored : r.steps_to_loss(loss_target);
    }
    d_acc.push_back(acc[1].back() - acc[0].back());
    d90.push_back(s90[0] - s90[1]);  // > 0: AK reaches the target in fewer steps
    dloss.push_back(sl[0] - sl[1]);
    steps90.push_back({s90[0], s90[1]});
    steps_loss.push_back({sl[0], sl[1]});
  }

  // ---- Check: every tuned rate inside its grid (design: each optimum was bracketed) ----
  for (std::size_t k = 0; k < arms.size(); ++k) {
    const Arm& a = arms[k];
    const Tuning& tu = tuned[k];
    const auto at = std::find(tu.lr_grid.begin(), tu.lr_grid.end(), tu.best.lr) - tu.lr_grid.begin();
    ctx.checks.at_most(fmt::format("{}: tuned lr {:.3g} above its grid's lowest point {:.3g}", a.name, tu.best.lr, tu.lr_grid.front()),
                       -1.0, -double(at)).design();
    ctx.checks.at_most(fmt::format("{}: tuned lr {:.3g} below its grid's highest point {:.3g}", a.name, tu.best.lr, tu.lr_grid.back()),
                       double(tu.lr_grid.size()) - 2, double(at)).design();
  }

  // ---- Record: per-seed and curve tables, the findings (paired sign tests), params, figures ----
  CsvTable per_seed{{"seed", "test_acc_sgd", "test_acc_ak", "test_loss_sgd", "test_loss_ak", "steps90_sgd", "steps90_ak",
                     "stepsloss_sgd", "stepsloss_ak", "diverged_sgd", "diverged_ak"}, {}};
  for (int s = 0; s < seeds; ++s) {
    const auto u = static_cast<std::size_t>(s);
    per_seed.add({s, acc[0][u], acc[1][u], run(0, s).r.test_loss, run(1, s).r.test_loss, steps90[u][0], steps90[u][1],
                  steps_loss[u][0], steps_loss[u][1], run(0, s).r.diverged, run(1, s).r.diverged});
  }
  // Mean validation curves per arm (a diverged seed holds its last finite value: counted above).
  CsvTable curves{{"optimizer", "step", "epoch", "mean_val_loss", "sd_val_loss", "mean_val_acc", "sd_val_acc"}, {}};
  for (int a = 0; a < 2; ++a) {
    const auto& ref = run(a, 0).r;
    for (std::size_t k = 0; k < ref.eval_steps.size(); ++k) {
      std::vector<double> l, c;
      for (int s = 0; s < seeds; ++s) {
        const auto& r = run(a, s).r;
        const std::size_t j = std::min(k, r.eval_steps.size() - 1);
        if (std::isfinite(r.val_loss[j])) l.push_back(r.val_loss[j]), c.push_back(100 * r.val_accuracy[j]);
      }
      if (l.empty()) continue;
      const auto [lm, lsd] = training::mean_sd(l);
      const auto [cm, csd] = training::mean_sd(c);
      curves.add({arms[a].name, ref.eval_steps[k],
                  static_cast<double>(ref.eval_steps[k]) / (data.train.rows() / kBatch), lm, lsd, cm, csd});
    }
  }

  const Paired pa = paired(d_acc), p90 = paired(d90), pl = paired(dloss);
  const int n_tests = 3;
  const double p_min = training::sign_test_p(seeds, 0);  // every seed one way
  const std::string attainable =
      p_min * n_tests <= ctx.opts.family_alpha
          ? std::string()
          : fmt::format(" — with {} seeds the smallest attainable p is {:.3g}, so no verdict is possible at the declared "
                        "rate {:.3g} over {} outcomes",
                        seeds, p_min, ctx.opts.family_alpha, n_tests);
  auto verdict = [&](const Paired& p, const char* better, const char* worse) {
    return p.p * n_tests <= ctx.opts.family_alpha ? std::string(p.pos > p.neg ? better : worse) : std::string("inconclusive");
  };
  const auto [m0, sd0] = training::mean_sd(acc[0]);
  const auto [m1, sd1] = training::mean_sd(acc[1]);
  const double rs = std::sqrt(static_cast<double>(seeds));
  auto cfg_text = [](const Arm& a, const Tuning& t) {
    return a.name == "ak-sgd" ? fmt::format("lr {:.3g}, β {:.3g}, η {:.3g}", t.best.lr, t.best.beta, t.best.eta)
                              : fmt::format("lr {:.3g}, β {:.3g}", t.best.lr, t.best.beta);
  };
  auto ext_text = [](const Tuning& t) {
    if (t.extensions_up + t.extensions_down == 0) return std::string("inside the paper's grid");
    return fmt::format("the paper's grid did not bracket it: extended {}× upward, {}× downward by ×3", t.extensions_up,
                       t.extensions_down);
  };
  ctx.findings.push_back(fmt::format(
      "Tuned (lowest mean final validation loss, {} tuning seed(s), {} epochs): SGD-m {} ({}); AK-SGD {} ({})", tune_seeds,
      epochs, cfg_text(arms[0], tuned[0]), ext_text(tuned[0]), cfg_text(arms[1], tuned[1]), ext_text(tuned[1])));
  ctx.findings.push_back(fmt::format(
      "Test accuracy on the digits images: SGD-m {:.2f}% ± {:.2f}, AK-SGD {:.2f}% ± {:.2f} (mean ± standard error over {} "
      "seeds); AK − SGD {:+.2f} ± {:.2f} points (paired; AK higher in {}, lower in {}; sign test p = {:.3g}: {} at the "
      "declared rate{}). The paper's tab:cifar (CIFAR-10, one run): 61.51% → 67.06%, +5.55 points",
      m0, sd0 / rs, m1, sd1 / rs, seeds, pa.mean, pa.se, pa.pos, pa.neg, pa.p, verdict(pa, "AK higher", "AK lower"),
      attainable));
  ctx.findings.push_back(fmt::format(
      "Steps to {:.0f}% validation accuracy: AK-SGD reaches it {:+.3g} ± {:.2g} steps earlier than SGD-m (paired; faster in {}, "
      "slower in {}; sign test p = {:.3g}: {}); a seed that never reaches it counts as {} steps",
      100 * kTargetAccuracy, p90.mean, p90.se, p90.pos, p90.neg, p90.p, verdict(p90, "AK faster", "AK slower"), censored));
  ctx.findings.push_back(fmt::format(
      "Steps to SGD-m's mean final validation loss {:.4g} (the paper: \"AK-SGD reaches SGD's validation loss earlier\"): "
      "AK-SGD reaches it {:+.3g} ± {:.2g} steps earlier (paired; faster in {}, slower in {}; sign test p = {:.3g}: {}); diverged "
      "seeds AK {} / SGD-m {}",
      loss_target, pl.mean, pl.se, pl.pos, pl.neg, pl.p, verdict(pl, "AK faster", "AK slower"), diverged[1], diverged[0]));

  ctx.out.write_csv("data_tuning.csv", tuning);
  ctx.out.write_csv("data_per_seed.csv", per_seed);
  ctx.out.write_csv("data_curves.csv", curves);
  nlohmann::json measured = {
      {"test_acc_sgd", m0}, {"test_acc_ak", m1}, {"test_acc_diff", pa.mean}, {"test_acc_diff_se", pa.se},
      {"test_acc_sign_p", pa.p}, {"steps90_reduction", p90.mean}, {"steps90_reduction_se", p90.se},
      {"steps90_sign_p", p90.p}, {"steps_to_sgd_loss_reduction", pl.mean}, {"steps_to_sgd_loss_reduction_se", pl.se},
      {"steps_to_sgd_loss_sign_p", pl.p}, {"loss_target", loss_target},
      {"tuned_sgd", {{"lr", tuned[0].best.lr}, {"beta", tuned[0].best.beta}}},
      {"tuned_ak", {{"lr", tuned[1].best.lr}, {"beta", tuned[1].best.beta}, {"eta", tuned[1].best.eta}}},
      {"lr_grid_sgd", tuned[0].lr_grid}, {"lr_grid_ak", tuned[1].lr_grid}};
  ctx.params = {{"data", digits.source}, {"rows", digits.rows()}, {"train", data.train.rows()},
                {"validation", data.validation.rows()}, {"test", data.test.rows()}, {"widths", {64, 64, 64}},
                {"batch", kBatch}, {"epochs", epochs}, {"steps", total_steps}, {"seeds", seeds},
                {"tuning_seeds", tune_seeds}, {"beta_grid", betas}, {"eta_grid_ak", arms[1].eta},
                {"lr_grid_sgd_paper", arms[0].lr}, {"lr_grid_ak_paper", arms[1].lr},
                {"target_accuracy", kTargetAccuracy}, {"family_alpha", ctx.opts.family_alpha}, {"sign_tests", n_tests}, {"paper_tab_cifar", {{"sgd", 61.51}, {"ak", 67.06}}},
                {"measured", measured}};

  figures(ctx, seeds);
}

const Registrar registration{{
    .id = "R2",
    .slug = "image-mlp",
    .title = "The paper's image-MLP protocol on real images: AK-SGD vs SGD-m on the digits (tuned, seeds)",
    .labels = "app:cifar-10 tab:cifar sec:main-deltaSGD",
    .claim = "AK-SGD with momentum against SGD with EMA momentum on a 3-hidden-layer MLP, each tuned on the paper's grids: "
             "test accuracy and steps to target, paired over seeds, beside tab:cifar",
    .body = r02_image_mlp,
}};

}  // namespace akm::exp
