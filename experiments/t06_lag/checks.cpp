// T6 lag — the checks of one spectrum [prop:nc1, cor:nc2]: the build-up e_t = e_∞(1 − b^t),
// the steady window means (equalities, no bias term), the ceilings under density drift,
// AK below EMA at equal drift, and EMA's lag linear in λ̂.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "akm/theory/drift.hpp"
#include "sensitivity.hpp"
#include "t06_lag.hpp"

namespace akm::exp::t06 {

double ema_slope(const Run& run, const Buffer& B, const std::function<double(int)>& contraction) {
  const int t1 = kSteady.burn + 1, t2 = kSteady.steps;
  const Vec& lh = run.s->moments.lambda_hat;
  double acc = 0;
  for (int i = 0; i < run.s->n(); ++i) acc += lh[i] * -theory::drift_window_mean(contraction(i), B.delta[i], 0.0, t1, t2);
  return acc / lh.squaredNorm();
}

namespace {

// Build-up run: e_t = e_∞(1 − b^t) at fixed steps, every direction, every buffer.
void check_buildup(ExperimentContext& ctx, const Run& run) {
  const Setting& s = *run.s;
  const int n = s.n();
  const Layout L{kBuildup, n, run.shown.size()};
  const Vec mean = run.buildup.total.mean(), se = run.buildup.total.stderr_mean();
  for (int b = 0; b < kBuffers; ++b) {
    const Buffer& B = run.bufs[b];
    const std::string tag = fmt::format("{}/{}/{}", drift_name(B.drift), rule_name(B.rule), s.name);
    for (std::size_t c = 0; c < L.checks(); ++c) {
      const int t = kBuildup.check_steps[c];
      double worst = -1, wm = 0, wp = 0, wse = 0;
      int wi = 0;
      for (int i = 0; i < n; ++i) {
        const double p = theory::drift_mean_error(B.b[i], B.delta[i], 0.0, t);
        const std::size_t o = L.at_step(b, c, i);
        const double z = std::abs(mean[o] - p) / se[o];
        if (z > worst) worst = z, wm = mean[o], wp = p, wse = se[o], wi = i;
      }
      ctx.checks.mc_family(fmt::format("buildup/{}/t={}", tag, t), wp, wm, wse, n);
      // The family reports its worst direction; its power is that comparison's.
      ctx.checks.against(theory::drift_mean_error(alternative_contraction(s, B, wi), B.delta[wi], 0.0, t),
                         alternative_label(B));
      annotate(ctx.checks, s, B, wi, [&](double bb) { return theory::drift_mean_error(bb, B.delta[wi], 0.0, t); });
    }
  }
}

// Steady run: the window mean of e_t per direction, equality [prop:nc1].
void check_steady(ExperimentContext& ctx, const Run& run, std::vector<Ceil>& ceilings) {
  const Setting& s = *run.s;
  const int n = s.n();
  const Layout L{kSteady, n, run.shown.size()};
  const Vec mean = run.steady.total.mean(), se = run.steady.total.stderr_mean();
  const int t1 = kSteady.burn + 1, t2 = kSteady.steps;
  for (int b = 0; b < kBuffers; ++b) {
    const Buffer& B = run.bufs[b];
    const std::string tag = fmt::format("{}/{}/{}", drift_name(B.drift), rule_name(B.rule), s.name);
    for (int i = 0; i < n; ++i) {
      const std::size_t o = L.window(b, i);
      const double p = theory::drift_window_mean(B.b[i], B.delta[i], 0.0, t1, t2);
      ctx.checks.mc(fmt::format("steady/{}/{}", tag, dir_name(i)), p, run.steady.total.estimate(static_cast<Eigen::Index>(o)));
      ctx.checks.against(theory::drift_window_mean(alternative_contraction(s, B, i), B.delta[i], 0.0, t1, t2),
                         alternative_label(B));
      annotate(ctx.checks, s, B, i, [&](double bb) { return theory::drift_window_mean(bb, B.delta[i], 0.0, t1, t2); });
      if (B.drift == kDensity && B.rule != kEma) {
        // cor:nc2: the steady lag β̃_iΔ_i/(1−β̃_i) is under the ceiling on every direction
        // (deterministic), and so is the measured one (one-sided, added last).
        const char* kind = B.rule == kAkRaw ? "ceiling-raw-analog" : "ceiling";
        ctx.checks.at_most(fmt::format("{}/predicted/{}/{}", kind, tag, dir_name(i)), B.ceiling,
                           B.delta[i] * theory::lag_per_unit_drift(B.b[i]));
        ceilings.push_back({fmt::format("{}/measured/{}/{}", kind, tag, dir_name(i)), B.ceiling, -mean[o], se[o]});
      }
    }
  }
}

// cor:nc2, EMA side: the lag grows linearly in λ̂ with slope βc_0/(1−β). The per-trial
// least-squares slope has the exact mean Σλ̂_i E[L_i]/Σλ̂_i² (window means, e_0 = 0).
void check_ema_linear(ExperimentContext& ctx, const Run& run) {
  const Setting& s = *run.s;
  const Layout L{kSteady, s.n(), run.shown.size()};
  const int b = kDensity * kRules + kEma;
  const Buffer& B = run.bufs[b];
  const int t1 = kSteady.burn + 1;
  const double pred = ema_slope(run, B, [&](int i) { return B.b[i]; });
  const double steady_slope = kBeta * kC0 / (1 - kBeta);
  ctx.checks.mc(fmt::format("ema-linear/{}/slope of lag vs λ̂", s.name), pred, run.steady.total.mean()[L.slope(b)],
                run.steady.total.stderr_mean()[L.slope(b)]);
  // Alternative: the same slope statistic were the buffer to contract like normalized AK
  // (β − ηλ̂_i), whose lag is capped [cor:nc2] instead of linear in λ̂.
  ctx.checks.against(ema_slope(run, B, [&](int i) { return alternative_contraction(s, B, i); }),
                     "AK-normalized contraction");
  {
    const double h = 1e-4;  // ∂/∂ln β by central differences of the same sum (sensitivity.hpp)
    const double up = ema_slope(run, B, [&](int) { return kBeta * std::exp(h); });
    const double dn = ema_slope(run, B, [&](int) { return kBeta * std::exp(-h); });
    const double none = std::numeric_limits<double>::quiet_NaN();
    ctx.checks.sensitivity(none, (up - dn) / (2 * h), none);
  }
  // The window sits β^{t1} from the start: the exact window slope is within that of βc_0/(1−β).
  // Two closed forms compared: this tests the schedule (burn-in long enough), not the claim.
  ctx.checks.exact(fmt::format("ema-linear/{}/window slope = βc0/(1−β) up to the β^t1 tail", s.name),
                   steady_slope, pred, 0.0, steady_slope * std::pow(kBeta, t1));
  ctx.checks.design();
}

}  // namespace

void check_run(ExperimentContext& ctx, const Run& run, std::vector<Ceil>& ceilings) {
  const Setting& s = *run.s;
  // Precondition: the raw buffer is mean-square stable (its Monte-Carlo means have finite,
  // shrinking standard errors).
  ctx.checks.at_most(fmt::format("precondition/{}/raw mean-square radius < 1", s.name), 1.0, run.ms);
  ctx.checks.design();  // the run's set-up (finite-variance means), not the claim
  check_buildup(ctx, run);
  check_steady(ctx, run, ceilings);
  // prop:nc1 comparison at equal drift: AK's steady lag is below EMA's on every direction.
  for (int r : {kAkRaw, kAkNorm}) {
    const Buffer& B = run.bufs[kUniform * kRules + r];
    const double ema = theory::lag_per_unit_drift(kBeta);
    double worst = 0;
    for (int i = 0; i < s.n(); ++i) worst = std::max(worst, theory::lag_per_unit_drift(B.b[i]) / ema);
    ctx.checks.at_most(fmt::format("nc1/{}/{}: max_i lag_AK/lag_EMA at equal drift", rule_name(r), s.name), 1.0, worst);
  }
  check_ema_linear(ctx, run);
}

}  // namespace akm::exp::t06
