// T5 tracking, the figures (from the run's CSVs). The claim: claim.cpp.
#include "t05_tracking.hpp"

#include "akm/report/figure_styles.hpp"

namespace akm::exp::t05 {

namespace {

// Directions shown in the decay figure: u1, u3 and the floor direction (i ≥ 5) fitted for both
// the normalized AK buffer and EMA with the largest predicted signal-to-noise of the normalized
// AK buffer (a choice made from predictions only).
std::vector<int> shown_in_decay(const Plan& pl, int n) {
  const Prediction& p = pl.p;
  int best = -1;
  for (int i = 4; i < n; ++i)
    if (pl.fit[kAkNorm][i] && pl.fit[kEma][i] &&
        (best < 0 || std::abs(p.y0(kAkNorm, i)) / p.scale(kAkNorm, i) >
                         std::abs(p.y0(kAkNorm, best)) / p.scale(kAkNorm, best)))
      best = i;
  std::vector<int> shown{0, 2};
  if (best >= 0) shown.push_back(best);
  return shown;
}

}  // namespace

/// The three figures: decay of |E[T u_i]| against k, fitted rates against λ, horizon ratio.
void figures(ExperimentContext& ctx, const Model& md, const std::vector<Scenario>& scenarios,
             const std::vector<Plan>& plans, const std::vector<Measured>& measured,
             const std::vector<std::string>& dname) {
  const int n = md.post.n();
  std::vector<std::vector<int>> shown_floor;
  std::vector<Vec> ses;  // per-observable standard errors, for figure ranges
  for (std::size_t sc = 0; sc < scenarios.size(); ++sc) {
    shown_floor.push_back(shown_in_decay(plans[sc], n));
    ses.push_back(measured[sc].se);
  }
  // Figure 1: |E[T_{t0+k}u_i]| against k, AK against EMA, with the exact theory lines.
  // Plot items take consecutive line types; each direction gets one hue, AK dark and solid,
  // EMA light and dashed.
  for (std::size_t sc = 0; sc < scenarios.size(); ++sc) {
    for (int r : {kAkRaw, kAkNorm}) {
      const std::string key = to_string(key_of(static_cast<BufferKind>(r)));
      Figure f;
      f.name = fmt::format("decay-{}-{}", scenarios[sc].name, key);
      f.title = fmt::format("T5 tracking after the shift ({}, {} key): |E[(M_{{t0+k}} − M*_1)u_i]|",
                            scenarios[sc].name, key);
      f.xlabel = "steps k after the shift";
      f.ylabel = "|mean tracking error along u_i|";
      f.logy = true;
      // Points sink into the Monte-Carlo noise once β̃^k y_0 is below the standard error;
      // the y range stops at half the smallest standard error of the shown curves.
      double floor_se = 1e300;
      for (const int i : shown_floor[sc])
        for (const int ru : {r, static_cast<int>(kEma)})
          floor_se = std::min(floor_se, ses[sc][obs(n, ru, kPost, i)]);
      f.extra = {"set key outside right top vertical Left reverse", "set format y '10^{%L}'",
                 fmt::format("set yrange [{:.3g}:*]", 0.5 * floor_se)};
      int lt = 1;
      for (std::size_t d = 0; d < shown_floor[sc].size(); ++d) {
        const int i = shown_floor[sc][d];
        const auto& [dark, light] = kShadePairs[d % kShadePairs.size()];
        f.extra.insert(f.extra.end(), {linetype(lt, dark, 1), linetype(lt + 1, dark, 1),
                                       linetype(lt + 2, light, 1), linetype(lt + 3, light, 2)});
        lt += 4;
        const std::string ak = fmt::format("{}/{}/{}", scenarios[sc].name, rule_name(r), dname[i]);
        const std::string ema =
            fmt::format("{}/{}/{}", scenarios[sc].name, rule_name(kEma), dname[i]);
        const std::string lab =
            r == kAkRaw ? fmt::format("{}, λ={:g}", dname[i], md.post.spectrum.lambda[i])
                        : fmt::format("{}, λ̂={:.3g}", dname[i], md.post.moments.lambda_hat[i]);
        const bool first = d == 0;  // theory lines are titled once
        f.series.push_back(
            {"data_trajectory.csv", "k", "abs_measured", "", "AK " + lab, "points", "curve=" + ak});
        f.series.push_back({"data_trajectory.csv", "k", "abs_predicted", "",
                            first ? "AK theory β̃_i^k |y_0|" : "", "lines", "curve=" + ak});
        f.series.push_back({"data_trajectory.csv", "k", "abs_measured", "", "EMA " + lab, "points",
                            "curve=" + ema});
        f.series.push_back({"data_trajectory.csv", "k", "abs_predicted", "",
                            first ? "EMA theory β^k |y_0|" : "", "lines", "curve=" + ema});
      }
      ctx.out.figure(f);
    }
  }

  // Figure 2: fitted contraction rate against the eigenvalue the AK buffer sees.
  for (int r : {kAkRaw, kAkNorm}) {
    const std::string key = to_string(key_of(static_cast<BufferKind>(r)));
    const std::string xcol = r == kAkRaw ? "lambda_plot" : "lambda_hat_plot";
    Figure f;
    f.name = "rates-" + key;
    f.title = fmt::format("T5 fitted contraction rate after the shift, {} key (η = {:g}, β = {:g})",
                          key, md.eta(r), kBeta);
    f.xlabel = r == kAkRaw ? "λ_i (eigenvalue of Σ_1)" : "λ̂_i (eigenvalue of Σ̂_1)";
    f.ylabel = "per-step contraction of E[T u_i]";
    f.logx = true;
    const Vec& xs = r == kAkRaw ? md.post.spectrum.lambda : md.post.moments.lambda_hat;
    f.extra = {fmt::format("set xrange [{:.3g}:{:.3g}]", 0.5 * xs.minCoeff(), 2 * xs.maxCoeff())};
    for (const auto& S : scenarios) {
      f.series.push_back({"data_rates.csv", xcol, "fitted_rate", "stderr_rate",
                          fmt::format("AK, {}", S.name), "errorbars",
                          fmt::format("curve={}/{}", rule_name(r), S.name)});
      f.series.push_back({"data_rates.csv", xcol, "fitted_rate", "stderr_rate",
                          fmt::format("EMA, {}", S.name), "errorbars",
                          fmt::format("curve={}/{}", rule_name(kEma), S.name)});
    }
    f.functions = {
        fmt::format("{:.10g} - {:.10g}*x title 'AK theory β̃ = β − η{}' lw 2 lc rgb 'black'", kBeta,
                    md.eta(r), r == kAkRaw ? "λ" : "λ̂"),
        fmt::format("{:.10g} title 'EMA theory β' lw 2 dt 2 lc rgb 'gray40'", kBeta)};
    ctx.out.figure(f);
  }

  // Figure 3: measured horizon ratio τ^EMA/τ^AK against its prediction [eq:horizon, eq:ratio].
  Figure h;
  h.name = "horizon-ratio";
  h.title = "T5 horizon ratio τ^{EMA}/τ^{AK} after the shift, fitted rates against eq:horizon";
  h.xlabel = "predicted 1 + ηλ_i/(1−β)  (λ̂_i for the normalized key)";
  h.ylabel = "measured (1 − r̂_{AK})/(1 − r̂_{EMA})";
  const double top =
      1 + std::max(theory::ratio_r(kBeta, md.eta_raw, md.post.spectrum.lambda.maxCoeff()),
                   theory::ratio_r(kBeta, kEtaNorm, md.post.moments.lambda_hat.maxCoeff()));
  h.extra = {"set key inside left top vertical Left reverse",
             fmt::format("set xrange [0.8:{:.3g}]", 1.15 * top),
             fmt::format("set yrange [0.5:{:.3g}]", 1.25 * top)};
  for (const std::string key : {"raw", "normalized"})
    for (const auto& S : scenarios)
      h.series.push_back({"data_horizon.csv", "predicted_ratio", "measured_ratio", "stderr_ratio",
                          fmt::format("{} key, {}", key, S.name), "errorbars",
                          fmt::format("curve={}/{}", key, S.name)});
  h.functions = {"x title 'measured = predicted' lw 2 lc rgb 'black'"};
  ctx.out.figure(h);
}

}  // namespace akm::exp::t05
