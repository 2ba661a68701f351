// T16 mixture — the figures: per-direction contraction along the eigenvectors of Σ̂_mix,
// one-step contraction along each component's top spike, and tracking.
#include <fmt/format.h>

#include "t16_mixture.hpp"

namespace akm::exp::t16 {

void figures(ExperimentContext& ctx, const KeySampler& law, const std::vector<int>& shown) {
  const auto& sc = law.law().scales;
  Figure f;
  f.name = "mixture-rates";
  f.title = "T16 per-direction contraction along the eigenvectors of Σ̂_{mix} (normalized) and Σ_{mix} (raw)";
  f.xlabel = "eigen-direction j (descending eigenvalue)";
  f.ylabel = "per-step contraction (E[v_j^TP_5v_j])^{1/5}";
  f.extra = {"set key bottom right", "set yrange [0.76:0.92]"};
  for (const auto& l : paired_linetypes(2)) f.extra.push_back(l);
  for (const std::string k : {"normalized", "raw"}) {
    f.measured_vs_predicted({.csv = "data_rates.csv", .x = "rank", .measured = "measured_rate", .se = "stderr_rate",
                             .predicted = "predicted_rate", .measured_title = k + " measured",
                             .predicted_title = k == "raw" ? "raw: β − η_{raw}λ_j(Σ_{mix})" : "normalized: β − ηλ_j(Σ̂_{mix})",
                             .where = "variant=" + k});
  }
  f.functions = {fmt::format("{} title 'β (no key contraction)' lc rgb 'gray40' dt 2", kBeta)};
  ctx.out.figure(f);

  Figure g;
  g.name = "mixture-components";
  g.title = "T16 one-step contraction along each component's top spike b_c, relative to the strongest direction";
  g.xlabel = "mixture component";
  g.ylabel = "b_c^TSb_c / λ_{max}(S),  S = Σ̂_{mix} or Σ_{mix}";
  g.extra = {"set xrange [-0.5:2.5]", "set yrange [0:1.1]", linetype(1, kDark2[0]), linetype(2, kDark2[1]),
             fmt::format("set xtics (\"s={} ({})\" 0, \"s={} ({})\" 1, \"s={} ({})\" 2)", sc[0], law.law().bases[0], sc[1],
                         law.law().bases[1], sc[2], law.law().bases[2])};
  for (const std::string k : {"normalized", "raw"})
    g.series.push_back({"data_components.csv", "x", "measured_share", "stderr_share", k + " measured", "errorbars",
                        "variant=" + k});
  // Predictions as open circles around the measured points (columns: 1 variant, 3 x, 6 predicted_share).
  for (const auto& [k, colour] : std::vector<std::pair<std::string, std::string>>{{"normalized", kDark2[0]}, {"raw", kDark2[1]}})
    g.functions.push_back(fmt::format("'data_components.csv' every ::1 using 3:(strcol(1) eq '{0}' ? $6 : NaN) "
                                      "with points pt 6 ps 2.5 lw 1.5 lc rgb '{1}' title '{0} predicted'", k, colour));
  ctx.out.figure(g);

  Figure h;
  h.name = "mixture-tracking";
  h.title = "T16 tracking, normalized key: remaining gap (M^* − E[M_t])v_j / M^*v_j vs β̃_j^t";
  h.xlabel = "step t";
  h.ylabel = "remaining gap";
  h.logy = true;
  h.extra = {"set yrange [3e-3:1.5]"};
  for (const auto& l : paired_linetypes(4)) h.extra.push_back(l);
  for (int j : shown) {
    const std::string d = fmt::format("v{}", j + 1);
    h.measured_vs_predicted({.csv = "data_tracking_normalized.csv", .x = "t", .measured_title = d + " measured",
                             .predicted_title = d + ": β̃_j^t", .where = "direction=" + d});
  }
  ctx.out.figure(h);
}

}  // namespace akm::exp::t16
