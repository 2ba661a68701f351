// T7 stability — the figures: buffer norm against input scale (raw vs normalized, with both
// thresholds), and the normalized transport per direction at every scale.
#include <fmt/format.h>

#include "t07_stability.hpp"

namespace akm::exp::t07 {

void figures(ExperimentContext& ctx, const CsvTable& contr, const Spectrum& spec, double s_mean, double s_div) {
  const int n = spec.n();
  // Figure 1: final ‖M_T‖ vs input scale, raw vs normalized, with both thresholds.
  Figure f;
  f.name = "stability-scale";
  f.title = fmt::format("T7 final buffer norm vs input scale (M_0 = I, δ = 0, T = {}, β = {})", kSteps, kBeta);
  f.xlabel = "input scale s (keys multiplied by s)";
  f.ylabel = "mean log_{10} ‖M_T‖_{op}";
  f.logx = true;
  f.extra = {fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead dt 2 lc rgb 'gray50'", s_mean),
             fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead lw 2 lc rgb 'red'", s_div),
             fmt::format("set label 'ηλ_{{max}}s^2 = β' at {},graph 0.06 right offset -0.5,0 tc rgb 'gray40'", s_mean),
             fmt::format("set label 'ηλ_{{max}}s^2 = 1+β (raw mean diverges)' at {},graph 0.12 left offset 0.5,0 tc rgb 'red'", s_div),
             "set key inside top left Left reverse font ',9' box opaque", "set xrange [5e-4:2e3]",
             // series order: 4 raw laws, 2 raw reference lines, 4 normalized arms, sure bound
             "set linetype 1 lc rgb '#e41a1c'", "set linetype 2 lc rgb '#ff7f00'", "set linetype 3 lc rgb '#a65628'",
             "set linetype 4 lc rgb '#f781bf'", "set linetype 5 lc rgb '#984ea3' dt 2", "set linetype 6 lc rgb 'black' dt 3",
             "set linetype 7 lc rgb '#377eb8'", "set linetype 8 lc rgb '#80b1d3'", "set linetype 9 lc rgb '#4daf4a'",
             "set linetype 10 lc rgb '#b2df8a'", "set linetype 11 lc rgb '#666666' dt 2"};
  for (const std::string& spec_str : kLaws) {
    const std::string ln = law_name(KeySampler(parse_key_law(spec_str), spec.lambda));
    f.series.push_back({"data_scale.csv", "scale", "log10_norm", "stderr_log10_norm", "raw " + ln, "errorbars",
                        "series=" + ln + " raw"});
  }
  f.series.push_back({"data_scale.csv", "scale", "L_pred_log10", "",
                      "raw gaussian: pathwise lower bound L(s) = E(1/n)log_{10}|det M_T|", "lines", "series=gaussian raw"});
  f.series.push_back({"data_scale.csv", "scale", "mean_transport_log10", "",
                      "raw gaussian: log_{10}‖E[M_T]‖ = T log_{10}max_i|β−ηλ_is^2|", "lines", "series=gaussian raw"});
  for (const std::string ln : {"gaussian", "student-nu3"})
    for (double e : kEtaNorm)
      f.series.push_back({"data_scale.csv", "scale", "log10_norm", "stderr_log10_norm",
                          fmt::format("normalized η={} {}", e, ln), "errorbars",
                          fmt::format("series={} normalized eta={}", ln, e)});
  f.series.push_back({"data_scale.csv", "scale", "sure_bound_log10", "", "normalized: sure bound T·log_{10}max(β,|β−η|)",
                      "lines", "series=gaussian normalized eta=0.5"});
  ctx.out.figure(f);

  // Figure 2: one-step mean factor along u_1 and u_n vs scale (Gaussian keys).
  Figure g;
  g.name = "contraction-scale";
  g.title = "T7 one-step mean factor E[u_iᵀ(βI − ηkkᵀ)u_i], Gaussian keys: normalized flat, raw β − ηλ_is^2";
  g.xlabel = "input scale s";
  g.ylabel = "mean factor along u_i";
  g.logx = true;
  g.extra = {"set yrange [-2:1.1]", "set key bottom left"};
  // measured and predicted of one curve share a colour (series i uses linetype i)
  for (const auto& l : paired_linetypes(4)) g.extra.push_back(l);
  // Between the grey line (ηλ_max s² = β, the written condition) and the red one (1+β) the
  // raw mean factor along u_1 lies in (−1, 0): the mean contracts with alternating sign.
  g.extra.insert(g.extra.end(), {fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead dt 2 lc rgb 'gray50'", s_mean),
             fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead lw 2 lc rgb 'red'", s_div),
             "set arrow from graph 0,first -1 to graph 1,first -1 nohead dt 3 lc rgb 'red'"});
  for (const std::string arm : {"raw", "normalized eta=0.5"})
    for (const std::string& d : std::vector<std::string>{dir_name(0), dir_name(n - 1)}) {
      const std::string key = fmt::format("gaussian|{}|{}|lag=1", arm, d);
      g.measured_vs_predicted({.csv = "data_contraction.csv", .x = "scale", .measured_title = arm + " " + d + " measured",
                               .predicted_title = arm + " " + d + " predicted", .where = "key=" + key});
    }
  ctx.out.figure(g);

  // Figure 3: normalized per-direction transport at lag 5, Student-t ν = 3, every scale.
  Figure h;
  h.name = "normalized-directions";
  h.title = "T7 normalized key, Student-t ν=3, η=0.5: E[u_iᵀP_5u_i] at every input scale vs (β−ηλ̂_i)^5";
  h.xlabel = "λ̂_i (Monte-Carlo, Student-t ν=3)";
  h.ylabel = "mean transport at lag 5";
  h.logx = true;
  CsvTable dirs{{"scale", "lam_hat", "measured", "stderr", "predicted"}, {}};
  for (const auto& row : contr.rows)
    if (std::get<std::string>(row[1]) == "student-nu3" && std::get<std::string>(row[2]) == "normalized eta=0.5" &&
        std::get<long long>(row[6]) == 5)
      dirs.add({fmt::format("{:g}", std::get<double>(row[5])), row[4], row[9], row[10], row[7]});
  ctx.out.write_csv("data_normalized_directions.csv", dirs);
  for (double s : scales(true))
    h.series.push_back({"data_normalized_directions.csv", "lam_hat", "measured", "stderr",
                        fmt::format("s = {:g}", s), "errorbars", fmt::format("scale={:g}", s)});
  h.series.push_back({"data_normalized_directions.csv", "lam_hat", "predicted", "", "(β−ηλ̂_i)^5", "lines",
                      "scale=1"});
  h.extra = {"set xrange [0.005:0.7]"};
  ctx.out.figure(h);
}

void second_moment_figure(ExperimentContext& ctx, const std::vector<std::pair<std::string, double>>& thresholds) {
  Figure g;
  g.name = "second-moment";
  g.title = "T7 raw key: one-step second moment E[(u_1ᵀP_1u_1)^2] = A_{11} and ρ(A) vs ηλ_{max}s^2";
  g.xlabel = fmt::format("ηλ_{{max}}s^2 (η_{{raw}}λ_{{max}} = {:g} at s = 1)", kRawFrac);
  g.ylabel = "A_{11} (points: measured) and ρ(A)";
  g.logx = true;
  g.logy = true;
  g.extra = {"set xrange [0.03:3]", "set yrange [0.3:30]", "set key top left",
             "set arrow from graph 0,first 1 to graph 1,first 1 nohead dt 3 lc rgb 'black'",
             fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead dt 2 lc rgb 'gray50'", kBeta),
             fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead lw 2 lc rgb 'red'", 1 + kBeta),
             fmt::format("set label 'β' at {},graph 0.95 left offset 0.3,0 tc rgb 'gray40'", kBeta),
             fmt::format("set label '1+β' at {},graph 0.95 left offset 0.3,0 tc rgb 'red'", 1 + kBeta)};
  for (const auto& l : paired_linetypes(2)) g.extra.push_back(l);
  // ρ(A) in its law's colour, dashed
  for (int k = 0; k < 2; ++k) g.extra.push_back(linetype(5 + k, kDark2[static_cast<std::size_t>(k)], 2));
  for (const auto& [ln, u] : thresholds) {
    g.extra.push_back(fmt::format("set arrow from {0},graph 0 to {0},graph 0.8 nohead dt 4 lc rgb 'gray30'", u));
    g.extra.push_back(fmt::format("set label '{} ρ(A) = 1' at {},graph 0.82 center font ',8'", ln, u));
    g.measured_vs_predicted({.csv = "data_second_moment.csv", .x = "eta_lambda_max_s2",
                             .measured_title = ln + " measured", .predicted_title = ln + " A_{11}", .where = "law=" + ln});
  }
  for (const auto& [ln, u] : thresholds)
    g.series.push_back({"data_second_moment.csv", "eta_lambda_max_s2", "rho_A", "", ln + " ρ(A)", "lines", "law=" + ln});
  ctx.out.figure(g);
}

}  // namespace akm::exp::t07
