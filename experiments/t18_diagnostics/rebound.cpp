// T18's stepping-rebound part [eq:rebound, app:mom-grad-cos-sim].
//
// eq:rebound: ⟨M_{t−1}, g_t⟩ = ⟨M_{t−1}, g_{t−1}⟩ − α⟨M_{t−1}, HM_{t−1}⟩/(√V+ε) + ⟨M_{t−1}, ξ_t⟩,
// M_{t−1} the buffer that steps θ_{t−1} → θ_t. The middle (rebound) term is ≥ 0 and pulls
// the buffer–gradient cosine down by an amount set by curvature and step size, not by the
// buffer rule, so it acts on EMA and the delta rule alike.
//
// Design (fixed before any number was looked at):
//  - Task: T18's linear regression, the one with a quadratic loss, so the Taylor step is exact
//    and the Hessian known: the population loss ½E‖(W − A)x‖² has H[Δ] = ΔΣ, Σ = diag λ
//    (theory/rebound.hpp). Arms: T18's four, each at the rate T18 tuned on this task, on
//    their own evaluation seeds (paired across arms: same initialization and batches).
//  - Per step t ≥ 2: D_t = ⟨M_{t−1}, g_t⟩ − ⟨M_{t−1}, g_{t−1}⟩ and R_t = −⟨M_{t−1}, (θ_t −
//    θ_{t−1})Σ⟩, with θ_t − θ_{t−1} the step the trainer took (any preconditioner).
//  - Which gradients: g_t is the gradient on the batch B_t the trainer draws at θ_t, and
//    g_{t−1} the same batch's gradient at θ_{t−1}. Then ξ_t = (g_t − ∇L(θ_t)) − (g_{t−1} −
//    ∇L(θ_{t−1})) = (θ_t − θ_{t−1})(Σ̂_B − Σ), and B_t is drawn after M_{t−1} and the step are
//    fixed, so E[⟨M_{t−1}, ξ_t⟩ | past] = 0 and E[D_t + R_t] = 0 exactly. Each gradient on its
//    own batch (g_{t−1} on B_{t−1}) would not do: M_{t−1} contains g_{t−1}'s noise n_{t−1}, so
//    ⟨M_{t−1}, ξ_t⟩ would have mean −E⟨M_{t−1}, n_{t−1}⟩ (−(1−β)E‖n_{t−1}‖² for EMA), a
//    self-inclusion bias that also pushes D_t down and would be mistaken for the rebound. That
//    version is reported beside (own_batch_D_mean) as a finding.
//  - Checks: (1) exact: R_t ≥ 0 at every recorded step; (2) per arm, Monte-Carlo: the mean over
//    seeds of the per-seed mean of D_t + R_t is 0 (rival: no rebound term, E[D_t] = 0, which
//    predicts the mean of R_t; power recorded); (3) per arm, the direction: the per-seed mean of
//    D_t is negative, by T18's exact two-sided sign test at the run's per-comparison level,
//    seeds sized like T18's (power ≥ 0.9 when 95% of seeds are favourable), in --quick too (the
//    task is cheap). (4) The rebound share ΣR/Σ|⟨M_{t−1}, g_{t−1}⟩| per arm and the AK − base
//    gaps at matched steps are findings: no equivalence margin is pre-registered, so
//    "symmetrically" is reported, not judged.
#include "t18_diagnostics.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "akm/check/paired.hpp"
#include "akm/sim/trial_stats.hpp"
#include "akm/theory/rebound.hpp"

namespace akm::exp {
namespace {

constexpr const char* kRival = "no rebound term (E[D_t] = 0)";

/// Sums over the recorded steps of one training run.
struct SeedRecord {
  bool diverged = false;
  int steps = 0;          ///< recorded steps
  int negative = 0;       ///< steps with R_t < 0
  double D = 0, R = 0, own = 0, align = 0, abs_align = 0;
  double mean(double sum) const { return sum / steps; }
};

double inner(const Mat& a, const Mat& b) { return (a.array() * b.array()).sum(); }

/// One run of `arm` with the rebound decomposition at every step t ≥ 2 (header).
SeedRecord record_run(const training::TaskSpec& t, const TrainConfig& cfg, const Vec& lambda) {
  SeedRecord rec;
  Mlp net(t.shape, t.base_width, derive_seed(cfg.seed, "init"));
  Mat theta_before, theta_prev = net.W[0];  // θ_{t−1}, θ_t at the hook of step t+1
  Mat M_prev, g_absorbed;                   // M_{t−1} and the gradient it absorbed (on B_{t−1})
  bool ready = false;
  auto hook = [&](const Trainer& tr, int) {
    const MlpCache& c = tr.cache();  // the batch B_t the trainer drew at θ_t
    const Mat g_now = net.gradients(c)[0];
    if (ready) {
      // The same batch at θ_{t−1}: its targets are z − δ (squared error, δ = y − target).
      Mlp before = net;
      before.W[0] = theta_before;
      MlpCache cb;
      const Mat Y = before.forward(c.X[0], &cb);
      before.backward(cb, output_error(t.task.loss, Y, c.Z[0] - c.Delta[0]));
      const Mat g_then = before.gradients(cb)[0];
      const double R = theory::rebound_term(M_prev, theta_prev - theta_before, lambda);
      const double align = inner(M_prev, g_then);
      rec.D += inner(M_prev, g_now) - align;
      rec.R += R;
      rec.own += inner(M_prev, g_now) - inner(M_prev, g_absorbed);
      rec.align += align;
      rec.abs_align += std::abs(align);
      rec.negative += R < 0;
      ++rec.steps;
    }
    theta_before = theta_prev;
    theta_prev = net.W[0];
    M_prev = tr.buffer(0);
    g_absorbed = g_now;
    ready = true;
  };
  rec.diverged = train(net, t.task, cfg, hook).diverged || rec.steps == 0;
  return rec;
}

}  // namespace

Rebound measure_rebound(ExperimentContext& ctx, const training::TaskSpec& task,
                        const std::map<std::string, double>& rates, int steps, const ReboundDesign& design) {
  using namespace training;
  if (task.shape.depth != 1 || task.task.loss != LossKind::mse)
    throw std::logic_error("measure_rebound: needs the quadratic (linear, squared-error) task");
  if (static_cast<int>(rates.size()) * 2 != kReboundComparisons)
    throw std::logic_error("measure_rebound: kReboundComparisons counts four arms");
  const Vec lambda = task.task.sqrt_lambda.array().square();
  Rebound rb;
  rb.seeds = sign_test_seeds(design.level, design.power, design.favourable_fraction);
  rb.power = sign_test_power(rb.seeds, design.level, design.favourable_fraction);
  rb.per = CsvTable{{"arm", "seed", "recorded_steps", "D_mean", "R_mean", "D_plus_R_mean", "own_batch_D_mean",
                     "alignment_mean", "rebound_share", "diverged"},
                    {}};
  for (const std::string arm : {"sgd-m", "ak-sgd", "adamw", "ak-adamw"}) {
    ReboundArm ra;
    ra.arm = arm;
    ra.lr = rates.at(arm);
    const auto runs = parallel_units<SeedRecord>(rb.seeds, ctx.opts.threads, [&](std::size_t s) {
      return record_run(task, config(arm, ra.lr, steps, run_seed(ctx.opts.seed, "diag/rebound", int(s))), lambda);
    });
    double sum_R = 0, sum_D = 0, sum_own = 0, sum_share = 0;
    for (std::size_t s = 0; s < runs.size(); ++s) {
      const SeedRecord& r = runs[s];
      rb.negative += r.negative;
      if (r.diverged) {  // no defined mean: counted against the direction, left out of the identity
        ++ra.diverged, ++ra.unfavourable;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        rb.per.add({arm, int(s), r.steps, nan, nan, nan, nan, nan, nan, 1});
        continue;
      }
      const double d = r.mean(r.D), rr = r.mean(r.R), sh = r.R / r.abs_align, dplus = r.mean(r.D + r.R);
      ra.dr.add(&dplus);
      ra.favourable += d < 0, ra.unfavourable += d > 0;
      sum_R += rr, sum_D += d, sum_own += r.mean(r.own), sum_share += sh;
      rb.per.add({arm, int(s), r.steps, d, rr, dplus, r.mean(r.own), r.mean(r.align), sh, 0});
    }
    const double n = std::max<long long>(ra.dr.count(), 1);
    ra.mean_R = sum_R / n, ra.share = sum_share / n, ra.mean_D = sum_D / n, ra.mean_own = sum_own / n;
    rb.arms.push_back(std::move(ra));
  }
  return rb;
}

void check_rebound(ExperimentContext& ctx, const Rebound& rb, const ReboundDesign& design) {
  for (const ReboundArm& ra : rb.arms) {
    ctx.checks.mc(fmt::format("rebound/identity/{}: mean of D_t + R_t = 0 [eq:rebound]", ra.arm), 0.0, ra.dr.estimate(0))
        .against(ra.mean_R, kRival);
    ctx.checks.sign(fmt::format("rebound/direction/{}: ⟨M,g_t⟩ − ⟨M,g_t−1⟩ < 0 [eq:rebound]", ra.arm), ra.favourable,
                    ra.unfavourable, design.favourable_fraction);
  }
  ctx.checks.exact("rebound/R_t ≥ 0 at every recorded step (steps with R_t < 0)", 0.0, double(rb.negative), 0.0, 0.0);
}

void record_rebound(ExperimentContext& ctx, const training::TaskSpec& task, const std::map<std::string, double>& rates,
                    int steps, const ReboundDesign& design, const Rebound& rb) {
  using namespace training;
  nlohmann::json findings = nlohmann::json::array();
  std::map<std::string, double> mean_R, share;
  for (const ReboundArm& ra : rb.arms) {
    mean_R[ra.arm] = ra.mean_R, share[ra.arm] = ra.share;
    findings.push_back({{"arm", ra.arm}, {"lr", ra.lr}, {"seeds", rb.seeds}, {"diverged", ra.diverged},
                        {"D_mean", ra.mean_D}, {"R_mean", ra.mean_R}, {"D_plus_R_mean", ra.dr.mean()[0]},
                        {"D_plus_R_se", ra.dr.stderr_mean()[0]}, {"own_batch_D_mean", ra.mean_own},
                        {"rebound_share", ra.share}, {"negative_D_seeds", ra.favourable}});
    ctx.findings.push_back(fmt::format(
        "rebound, {} (rate {:.3g}): mean D_t = {:.4g}, mean R_t = {:.4g}, D_t + R_t = {:.3g} ± {:.2g} (mean ± standard "
        "error over {} seeds); D_t < 0 on {} seeds, > 0 on {}; rebound share ΣR/Σ|⟨M,g⟩| = {:.3g}; with g_t−1 on its "
        "own batch D_t would be {:.4g} (self-inclusion)",
        ra.arm, ra.lr, ra.mean_D, ra.mean_R, ra.dr.mean()[0], ra.dr.stderr_mean()[0], ra.dr.count(), ra.favourable,
        ra.unfavourable - ra.diverged, ra.share, ra.mean_own));
  }
  for (const Pair& p : kPairs)
    ctx.findings.push_back(fmt::format("rebound gap at matched steps, {} − {}: mean R_t {:+.4g}, rebound share {:+.3g}",
                                       p.ak, p.base, mean_R[p.ak] - mean_R[p.base], share[p.ak] - share[p.base]));
  ctx.out.write_csv("data_rebound.csv", rb.per);
  ctx.params["rebound"] = {
      {"task", task.name},
      {"hessian", "population: H[Δ] = ΔΣ, Σ = diag λ of the task's inputs"},
      {"gradients", "g_t and g_t−1 on the batch the trainer draws at θ_t, at θ_t and θ_t−1"},
      {"gradients_reason", "then ξ_t = (θ_t − θ_t−1)(Σ̂_B − Σ) has mean 0 given the past; with g_t−1 on its own batch, "
                           "M_t−1 holds that batch's gradient noise n_t−1 and ⟨M_t−1, ξ_t⟩ has mean −E⟨M_t−1, n_t−1⟩ ≠ 0"},
      {"steps", steps},
      {"recorded_steps_per_seed", steps - 1},
      {"seeds", rb.seeds},
      {"rates", rates},
      {"level", design.level},
      {"power", rb.power},
      {"favourable_fraction", design.favourable_fraction},
      {"rival", kRival},
      {"findings", findings},
      {"rule", "per arm: mean of D_t + R_t = 0 within z standard errors (against the mean of R_t); the per-seed mean "
               "of D_t negative by the exact sign test at the level; R_t ≥ 0 at every step; the rebound share and AK − "
               "base gaps reported"}};
}

}  // namespace akm::exp
