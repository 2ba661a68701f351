// T6 lag — the figures: steady lag against λ̂_i under density drift [cor:nc2], lag per unit
// drift against the contraction [prop:nc1], both AK keys in ceiling units, and the build-up.
#include <fmt/format.h>

#include "t06_lag.hpp"

namespace akm::exp::t06 {

void figures(ExperimentContext& ctx, const std::vector<Setting>& settings) {
  // Figure 1 [cor:nc2]: steady lag against λ̂_i under density drift, log-log.
  {
    Figure f;
    f.name = "lag-density";
    f.title = fmt::format("T6 steady lag under density drift Δ_i = c_0λ̂_i (β = {:g}, η = {:g}, c_0 = {:g})",
                          kBeta, kEtaNorm, kC0);
    f.xlabel = "λ̂_i (eigenvalue of Σ̂)";
    f.ylabel = "steady lag  −E[(M_t − M^*_t)u_i]";
    f.logx = f.logy = true;
    f.extra = {"set key left top", "set format y '10^{%L}'", "set format x '10^{%L}'",
               "set xrange [2e-3:1]", "set yrange [1e-2:10]"};
    for (const Setting& s : settings) {
      f.series.push_back({"data_steady.csv", "lambda_hat", "measured_lag", "stderr_lag",
                          fmt::format("AK normalized, {}", s.name), "errorbars",
                          fmt::format("curve=density/{}/{}", rule_name(kAkNorm), s.name)});
      f.series.push_back({"data_steady.csv", "lambda_hat", "measured_lag", "stderr_lag",
                          fmt::format("EMA, {}", s.name), "errorbars",
                          fmt::format("curve=density/ema/{}", s.name)});
    }
    f.functions = {
        fmt::format("{0:.10g}*({1:.10g}-{2:.10g}*x)*x/({3:.10g}+{2:.10g}*x) title 'AK: β̃c_0λ̂/(1−β̃)' "
                    "lw 2 lc rgb 'black'",
                    kC0, kBeta, kEtaNorm, 1 - kBeta),
        fmt::format("{:.10g} title 'AK ceiling βc_0/η (cor:nc2)' lw 2 dt 2 lc rgb 'black'",
                    kBeta * kC0 / kEtaNorm),
        fmt::format("{:.10g}*x title 'EMA: βc_0λ̂/(1−β)' lw 2 lc rgb 'gray50'", kBeta * kC0 / (1 - kBeta))};
    ctx.out.figure(f);
  }
  const auto label = [](int r) { return r == kAkRaw ? "AK raw" : r == kAkNorm ? "AK normalized" : "EMA"; };
  // Figure 2 [prop:nc1]: lag per unit drift against the contraction, uniform drift.
  {
    Figure f;
    f.name = "lag-per-drift";
    f.title = "T6 steady lag per unit drift at equal drift Δ_i = Δ_0: b/(1−b), b = β̃_i (AK) or β (EMA)";
    f.xlabel = "per-step contraction b of the direction";
    f.ylabel = "steady lag / Δ";
    f.logy = true;
    f.extra = {"set key left top", "set xrange [0.45:0.95]", "set yrange [0.5:20]"};
    for (const Setting& s : settings)
      for (int r = 0; r < kRules; ++r)
        f.series.push_back({"data_steady.csv", "contraction", "measured_per_drift", "stderr_per_drift",
                            fmt::format("{}, {}", label(r), s.name), "errorbars",
                            fmt::format("curve=uniform/{}/{}", rule_name(r), s.name)});
    f.functions = {"x/(1-x) title 'b/(1−b) (prop:nc1, attained)' lw 2 lc rgb 'black'"};
    ctx.out.figure(f);
  }
  // Figure 3: both AK keys in units where the ceiling is β; x = the β̃ decrement.
  {
    Figure f;
    f.name = "lag-density-units";
    f.title = "T6 AK steady lag, density drift, in ceiling units (normalized c_0/η, raw analog c_0/(η trΣ))";
    f.xlabel = "ηλ̂_i (normalized) or ηλ_i (raw) = β − β̃_i";
    f.ylabel = "steady lag / unit";
    f.logx = f.logy = true;
    f.extra = {"set key left top", "set format x '10^{%L}'", "set format y '10^{%L}'",
               "set yrange [1e-2:2]"};
    for (const Setting& s : settings)
      for (int r : {kAkRaw, kAkNorm})
        f.series.push_back({"data_steady.csv", "x_units", "lag_units", "stderr_units",
                            fmt::format("{}, {}", label(r), s.name), "errorbars",
                            fmt::format("curve=density/{}/{}", rule_name(r), s.name)});
    f.functions = {fmt::format("({0:.10g}-x)*x/({1:.10g}+x) title '(β−x)x/(1−β+x)' lw 2 lc rgb 'black'",
                               kBeta, 1 - kBeta),
                   fmt::format("{:.10g} title 'ceiling β' lw 2 dt 2 lc rgb 'black'", kBeta)};
    ctx.out.figure(f);
  }
  // Figure 4: the build-up of the lag from the target, spiked, uniform drift.
  {
    Figure f;
    f.name = "lag-buildup";
    f.title = "T6 lag build-up from the target, spiked, uniform drift: L_t/Δ = b/(1−b)·(1 − b^t)";
    f.xlabel = "step t";
    f.ylabel = "lag / Δ";
    f.extra = {"set xrange [0:61]"};
    // Measured points and their theory line share a colour: plot items take consecutive
    // line types, two per curve.
    const std::vector<std::string> colours{"#1f4e9c", "#b22222", "#1d7a2e", "#8a5a00", "#6a3d9a", "#555555"};
    int lt = 1;
    // The spikes and one floor direction (every floor direction has the same λ̂).
    for (int i : {0, 1, 2, 3, settings[0].n() / 2})
      for (int r : {kAkNorm, kEma}) {
        if (r == kEma && i != 0) continue;  // EMA's curve is the same on every direction
        const std::string& colour = colours[static_cast<std::size_t>(lt / 2) % colours.size()];
        f.extra.push_back(linetype(lt, colour));
        f.extra.push_back(linetype(lt + 1, colour, r == kEma ? 2 : 1));
        lt += 2;
        const std::string curve = fmt::format("uniform/{}/spiked/{}", rule_name(r), dir_name(i));
        const std::string lab =
            r == kEma ? "EMA (all u_i)"
                      : fmt::format("AK {}, λ̂ = {:.3g}", dir_name(i), settings[0].moments.lambda_hat[i]);
        f.measured_vs_predicted({.csv = "data_buildup.csv", .x = "t", .measured = "measured_per_drift",
                                 .se = "stderr_per_drift", .predicted = "predicted_per_drift",
                                 .measured_title = lab, .where = "curve=" + curve});
      }
    ctx.out.figure(f);
  }
}

}  // namespace akm::exp::t06
