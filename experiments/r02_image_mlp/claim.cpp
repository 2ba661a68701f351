// R2 image MLP — the paper's CIFAR-10 MLP comparison [app:cifar-10, tab:cifar,
// sec:main-deltaSGD] at small scale, on real images: the 8×8 digits that Debian's
// python3-sklearn installs (1797 images, 10 classes; akm/problems/classify.hpp).
//
// The paper: a 3-hidden-layer MLP trained with softmax cross-entropy, AK-SGD with momentum
// against SGD with EMA momentum, each tuned on its own grid — SGD-m lr ∈ {0.05, 0.1, 0.3},
// AK-SGD lr ∈ {0.9, 1.3, 1.7, 2.1}, β ∈ {0.9, 0.95, 0.99}, η ∈ {0.1, 0.5, 0.9, 0.99} for
// AK-SGD — by minimal validation loss; tab:cifar reports test accuracy (one run), and the
// text says AK-SGD reaches SGD's validation loss earlier.
// What differs, and why: widths 64-64-64 on 64 inputs (the paper: 4096-4096-2048 on 3072),
// GELU without biases (akm's Mlp; the paper uses ReLU), batch 32 and 40 epochs over 1079
// training images (the paper: 256 and 120 over 50 000).
//
// Design (problems/protocol.hpp, fixed before any evaluation seed runs):
//  - Search spaces: the paper's grids widened on every axis (train.cpp, arms()): each
//    learning-rate grid by two factor-3 steps on either side; β ∈ {0.5, 0.8, 0.9, 0.95, 0.99}
//    for both arms; AK-SGD's η ∈ {0.01, 0.03, 0.1, 0.5, 0.9, 0.99, 1}. SGD-m 7 rates × 5 β = 35
//    points, AK-SGD 8 × 5 × 7 = 280. A design check per searched axis of each arm (lr, β, and
//    η for AK-SGD) asserts that the chosen value lies strictly inside its grid, or on an edge
//    that is a closed end of the hyperparameter's domain (η = 1: η ∈ (0, 1] [eq:dm-update],
//    so no wider grid exists there). Rule, and why: a grid that cannot bracket an optimum
//    favours the optimizer whose optimum it happens to contain, so an edge optimum on any
//    axis means "not tuned" — the three sign checks are then gated (removed, with the
//    reason, summary.json `gated`) and the ledger's entries read the failed design check
//    instead of a direction. Written after three runs found optima at grid edges: SGD-m's
//    rate at the paper grid's bottom (0.05) under the earlier mean-over-2-seeds tuning, then
//    at the top (0.9) of a one-step widening under this protocol (the rate grids widened to
//    two steps), then, with the rates inside, both arms' β at the grid's bottom (0.9) and
//    AK-SGD's η at its bottom (0.1), which the rate-only check did not see (the β and η
//    widening and the check on every axis).
//  - Equal budget: each optimizer tunes 35 configurations (SGD-m its whole space, AK-SGD a
//    seeded random 35 of its 280 — the cost of its extra hyperparameter), each scored by the
//    median final validation loss over 5 tuning seeds, a divergence counting +∞. The budget
//    is SGD-m's whole space because the protocol refuses a budget larger than a space and
//    runs a whole grid when the budget equals it (the paper's own sweep): it is the largest
//    equal budget that leaves SGD-m's tuning a full grid. AK-SGD's draw covers 12.5% of its
//    space (the earlier design: 21 of 96, 22%).
//  - Repeated random splits: every seed (tuning or evaluation) draws its own 60/20/20
//    train/validation/test split, so test-set sampling is inside the seed-to-seed spread the
//    paired statistics see (one fixed split of 359 test images would exclude it). Tuning seeds
//    are disjoint from evaluation seeds; a tuning split may train on images that an evaluation
//    split tests on — the hyperparameters of both arms see the same images, so the comparison
//    stays paired and fair, but the tuned configuration is not blind to them.
//  - Evaluation: both tuned configurations on the same evaluation seeds (same split, same
//    initialization, same batch order), drawn from the stream kEvalStream ("confirmatory-1",
//    r02_image_mlp.hpp): the widening above was set after the earlier design's evaluation
//    seeds had been seen, so the verdict rests on fresh seeds, and a design check asserts they
//    are disjoint from every tuning seed and every seed of the earlier evaluation stream.
//    Three outcomes, each "lower is better" with a divergence or a target never reached
//    counting +∞: test error, steps to 90% validation accuracy, steps to the same seed's SGD-m
//    final validation loss. Each is one pre-registered directional sign check (AK-SGD
//    better) at the family rate over the three; the seed count is the smallest with power
//    ≥ 0.9 when AK-SGD is better on 95% of seeds. Intervals: the
//    distribution-free order-statistics interval for the median paired difference and a
//    percentile bootstrap beside it, at level 95% (check/paired.hpp).
//  - The paper's own AK-SGD configuration (lr 1.7, β 0.99, η 0.99) is run on the tuning
//    seeds and its outcome reported, whether or not the budget drew it.
// --quick: 10 epochs, a budget of 4 on 2 tuning seeds (random 4 of each space, so a choice
// on a grid edge is likely and gates the sign checks), 6 evaluation seeds — too few for the
// sign tests to reach the level, so quick mode is INCONCLUSIVE by design and says so.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "r02_image_mlp.hpp"

namespace akm::exp {

namespace {

double error_or_inf(const r02::Trial& t) {
  return t.r.diverged ? std::numeric_limits<double>::infinity() : 100.0 * (1.0 - t.r.test_accuracy);
}
double steps_or_inf(int steps) { return steps < 0 ? std::numeric_limits<double>::infinity() : double(steps); }

}  // namespace

static void r02_image_mlp(ExperimentContext& ctx) {
  using namespace r02;
  // ---- Set-up: the data, the design, the seeds ----
  ctx.kind = ClaimKind::Empirical;  // a small proxy: a failure is NOT REPRODUCED AT THIS SCALE
  const bool quick = ctx.opts.quick;
  const int epochs = quick ? 10 : 40;
  const double level = ctx.opts.family_alpha / kOutcomes;  // what Checks::finalize uses
  const int full_seeds = sign_test_seeds(level, kDesignPower, kFavourableFraction);
  const int seeds = quick ? 6 : full_seeds;
  const std::vector<Arm> arm = arms();
  // The equal budget: SGD-m's whole space (see the header).
  const ProtocolSpec spec{quick ? 4 : static_cast<int>(arm[0].space().size()), quick ? kQuickTuningSeeds : kTuningSeeds,
                          seeds};
  const double design_power = sign_test_power(seeds, level, kFavourableFraction);
  const LabelledData digits = load_labelled("data:digits");  // InputError naming the file if absent
  SeedPlan plan = seed_plan(ctx.opts.seed, "r2", spec);
  // Confirmatory evaluation (kEvalStream): fresh seeds from a stream of their own.
  plan.evaluation = seed_plan(ctx.opts.seed, std::string("r2/") + kEvalStream, spec).evaluation;
  auto final_val = [](const Trial& t) {
    return t.r.diverged ? std::numeric_limits<double>::infinity() : t.r.val_loss.back();
  };

  // ---- Simulate: tuning under the equal budget, the paper's configuration, evaluation ----
  std::vector<Tuning> tuned;
  for (const Arm& a : arm) {
    const auto space = a.space();
    tuned.push_back(akm::tune(space.size(), spec, plan, ctx.opts.seed, "r2/" + a.name, ctx.opts.threads,
                              [&](std::size_t c, std::uint64_t s) { return final_val(train_once(digits, a.name, space[c], epochs, s)); }));
  }
  const std::vector<Trial> paper_runs = training::parallel_units<Trial>(plan.tuning.size(), ctx.opts.threads, [&](std::size_t k) {
    return train_once(digits, "ak-sgd", kPaperAk, epochs, plan.tuning[k]);
  });
  const Config chosen[2] = {arm[0].space()[tuned[0].chosen], arm[1].space()[tuned[1].chosen]};
  Evaluation ev;
  ev.runs = training::parallel_units<Trial>(2 * static_cast<std::size_t>(seeds), ctx.opts.threads, [&](std::size_t u) {
    const int a = static_cast<int>(u % 2);
    return train_once(digits, arm[a].name, chosen[a], epochs, plan.evaluation[u / 2]);
  });
  for (int a = 0; a < 2; ++a)
    for (int s = 0; s < seeds; ++s) {
      // The loss target is the same seed's SGD-m final validation loss (the paper's "reaches SGD's
      // validation loss earlier", read per seed: SGD-m reaches its own final loss by the end).
      const auto& r = ev.run(a, s).r;
      const auto& sgd = ev.run(0, s).r;
      ev.values[0][a].push_back(error_or_inf(ev.run(a, s)));
      ev.values[1][a].push_back(r.diverged ? INFINITY : steps_or_inf(r.steps_to_accuracy(kTargetAccuracy)));
      ev.values[2][a].push_back(r.diverged   ? INFINITY
                                : sgd.diverged ? double(ev.run(a, s).steps)
                                               : steps_or_inf(r.steps_to_loss(sgd.val_loss.back())));
    }
  for (int o = 0; o < kOutcomes; ++o)
    ev.paired[o] = paired_compare(ev.values[o][0], ev.values[o][1], kIntervalAlpha, 2000,
                                  derive_seed(ctx.opts.seed, fmt::format("r2/bootstrap/{}", o)));

  // ---- Check: the design, then one directional sign check per outcome ----
  std::vector<std::string> design_failed;  // the names of the failed design checks
  auto design = [&](const std::string& name, bool pass) {
    ctx.checks.exact(name, 1.0, pass ? 1.0 : 0.0).design();
    if (!pass) design_failed.push_back(name);
  };
  for (int a = 0; a < 2; ++a) {
    const std::string name = fmt::format("tuning/{}: budget {} of a space of {}", arm[a].name, spec.trials, arm[a].space().size());
    ctx.checks.exact(name, double(spec.trials), double(tuned[a].candidates.size())).design();
    if (tuned[a].candidates.size() != static_cast<std::size_t>(spec.trials)) design_failed.push_back(name);
  }
  // Every searched axis of each arm brackets its choice (the header's rule).
  for (int a = 0; a < 2; ++a)
    for (const Axis& x : arm[a].axes()) {
      const double v = x.name == "lr" ? chosen[a].lr : x.name == "β" ? chosen[a].beta : chosen[a].eta;
      const bool closed_edge = (v == x.grid.front() && v == x.closed_lo) || (v == x.grid.back() && v == x.closed_hi);
      design(fmt::format("tuning/{}: chosen {} {:.3g} {} its grid [{:.3g}, {:.3g}]", arm[a].name, x.name, v,
                         closed_edge ? "on the closed end of its domain, an edge of" : "strictly inside", x.grid.front(),
                         x.grid.back()),
             x.brackets(v));
    }
  {
    // The confirmatory seeds share none with the seeds already seen: the tuning seeds (which
    // also ran the paper's configuration) and the earlier design's evaluation seeds (the study's
    // own "eval/" stream, as many as either mode drew).
    const SeedPlan seen = seed_plan(ctx.opts.seed, "r2",
                                    ProtocolSpec{spec.trials, std::max(kTuningSeeds, spec.tuning_seeds), std::max(seeds, full_seeds)});
    bool fresh = true;
    for (auto e : plan.evaluation)
      for (const auto* v : {&seen.tuning, &seen.evaluation}) fresh = fresh && std::find(v->begin(), v->end(), e) == v->end();
    design(fmt::format("seeds/evaluation seeds ({}) disjoint from every seed seen before", kEvalStream), fresh);
  }
  for (int o = 0; o < kOutcomes; ++o) {
    const std::string name = fmt::format("direction/ak-sgd vs sgd-m: {} lower", kOutcomeNames[o]);
    if (design_failed.empty())
      ctx.checks.sign(name, ev.paired[o].positive, ev.paired[o].negative, kFavourableFraction);
    else
      ctx.gate(name, fmt::format("not tuned, so not decided (claim.cpp's header): {} design check(s) failed, first: {}",
                                 design_failed.size(), design_failed.front()));
  }

  // ---- Record: the design first, then the findings, the tables and the figures ----
  ctx.findings.push_back(fmt::format(
      "design: equal budget of {} configurations per optimizer on {} tuning seeds ({} epochs, each seed its own 60/20/20 "
      "split); {} evaluation seeds; the {} sign tests run at level {:.3g} each (smallest reachable p {:.3g}), power {:.3f} "
      "when AK-SGD is better on {:.0f}% of seeds{}",
      spec.trials, spec.tuning_seeds, epochs, seeds, kOutcomes, level, sign_test_min_p(seeds), design_power,
      100 * kFavourableFraction,
      design_power < kDesignPower ? ": below 0.9, so this run cannot reach a verdict (INCONCLUSIVE by design)" : ""));
  if (!design_failed.empty())
    ctx.findings.push_back(fmt::format("not tuned: {} design check(s) failed ({}); the {} sign checks are gated, so the "
                                       "outcomes below are measurements, not a decision",
                                       design_failed.size(), fmt::join(design_failed, "; "), kOutcomes));
  int paper_diverged = 0;
  std::vector<double> paper_final;
  for (const Trial& t : paper_runs) paper_final.push_back(final_val(t)), paper_diverged += t.r.diverged;
  const auto paper_space = arm[1].space();
  const bool paper_drawn = std::any_of(tuned[1].candidates.begin(), tuned[1].candidates.end(), [&](std::size_t c) {
    return paper_space[c].lr == kPaperAk.lr && paper_space[c].beta == kPaperAk.beta && paper_space[c].eta == kPaperAk.eta;
  });
  ctx.findings.push_back(fmt::format(
      "tuned: SGD-m lr {:.3g}, β {:.3g} (median final validation loss {:.4g}, {} divergence(s)); AK-SGD lr {:.3g}, β {:.3g}, "
      "η {:.3g} ({:.4g}, {} divergence(s)). The paper's AK-SGD configuration (lr 1.7, β 0.99, η 0.99) {} the budget's draw; "
      "on the {} tuning seeds it diverged on {} (median final validation loss {:.4g})",
      chosen[0].lr, chosen[0].beta, tuned[0].scores[tuned[0].best].median, tuned[0].scores[tuned[0].best].diverged,
      chosen[1].lr, chosen[1].beta, chosen[1].eta, tuned[1].scores[tuned[1].best].median,
      tuned[1].scores[tuned[1].best].diverged, paper_drawn ? "was in" : "was not in", paper_runs.size(), paper_diverged,
      median_of(paper_final)));
  for (int o = 0; o < kOutcomes; ++o) {
    const PairedComparison& p = ev.paired[o];
    ctx.findings.push_back(fmt::format(
        "{}: SGD-m − AK-SGD median {:+.4g}, 95% interval [{:.4g}, {:.4g}] (order statistics; bootstrap [{:.4g}, {:.4g}]); "
        "AK-SGD better on {}, worse on {}, tied on {} of {} seeds; sign test p = {:.3g}; {} SGD-m {} / AK-SGD {}",
        kOutcomeNames[o], p.median, p.exact_lower, p.exact_upper, p.bootstrap_lower, p.bootstrap_upper, p.positive,
        p.negative, p.ties, p.n, p.sign_p, o == 0 ? "diverged" : "diverged or never reached", p.diverged_a, p.diverged_b));
  }
  ctx.params = {{"data", digits.source}, {"rows", digits.rows()}, {"split", "60/20/20, drawn per seed from the seed"},
                {"widths", {64, 64, 64}}, {"batch", kBatch}, {"epochs", epochs}, {"steps", ev.run(0, 0).steps},
                {"design", {{"budget", spec.trials}, {"tuning_seeds", spec.tuning_seeds}, {"evaluation_seeds", seeds},
                            {"criterion", "median final validation loss over the tuning seeds, a divergence = +inf"},
                            {"evaluation_stream", kEvalStream}, {"design_checks_pass", design_failed.empty()},
                            {"sign_tests", kOutcomes}, {"level_each", level}, {"p_favourable", kFavourableFraction},
                            {"power", design_power}, {"interval_level", 1 - kIntervalAlpha}}},
                {"space_sgd", {{"lr", arm[0].lr}, {"beta", arm[0].beta}}},
                {"space_ak", {{"lr", arm[1].lr}, {"beta", arm[1].beta}, {"eta", arm[1].eta}}},
                {"paper_grids", {{"lr_sgd", {0.05, 0.1, 0.3}}, {"lr_ak", {0.9, 1.3, 1.7, 2.1}}}},
                {"target_accuracy", kTargetAccuracy}, {"loss_target", "the same seed's SGD-m final validation loss"},
                {"paper_tab_cifar", {{"sgd", 61.51}, {"ak", 67.06}}},
                {"paper_config", {{"lr", kPaperAk.lr}, {"beta", kPaperAk.beta}, {"eta", kPaperAk.eta},
                                  {"diverged_tuning_seeds", paper_diverged}, {"drawn", paper_drawn}}}};
  write_tables(ctx, arm, tuned, ev, seeds, epochs, paper_runs);
  figures(ctx, seeds);
}

const Registrar registration{{
    .id = "R2",
    .slug = "image-mlp",
    .title = "The paper's image-MLP protocol on real images: AK-SGD vs SGD-m on the digits (equal budget, paired seeds)",
    .labels = "app:cifar-10 tab:cifar sec:main-deltaSGD",
    .claim = "AK-SGD with momentum against SGD with EMA momentum on a 3-hidden-layer MLP, each tuned with an equal "
             "budget: lower test error and fewer steps to target on paired seeds, beside tab:cifar",
    .body = r02_image_mlp,
}};

}  // namespace akm::exp
