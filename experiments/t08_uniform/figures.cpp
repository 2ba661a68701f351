// T8 uniform — the figures: the measured one-step β̃_i against λ̂_i inside the bracket
// [eq:uniform-tracking], and the weighted mean against ‖Σ̂‖_F² [eq:weighted-mean].
#include <algorithm>

#include <fmt/format.h>

#include "t08_uniform.hpp"

namespace akm::exp::t08 {

void figures(ExperimentContext& ctx, const CsvTable& wmean) {
  // Figure 1: measured one-step β̃_i against λ̂_i, with the bracket and the weighted means
  // (large squares at x = ‖Σ̂‖_F², the density-weighted mean of λ̂, in the spectrum's colour).
  {
    Figure f;
    f.name = "beta-tilde";
    f.title = fmt::format("T8 per-direction contraction, normalized key, n = 64 (β = {:g}, η = {:g})", kBeta, kEta);
    f.xlabel = "λ̂_i (eigenvalue of Σ̂);  squares: Σ_i λ̂_i β̃_i at x = ‖Σ̂‖_F^2";
    f.ylabel = "one-step contraction of E[(M − M^*)u_i]";
    f.logx = true;
    f.extra = {"set key at graph 0.02, graph 0.78 left top vertical Left reverse", "set format x '10^{%L}'", "set xrange [1e-3:1]",
               fmt::format("set yrange [{:g}:{:g}]", kBeta - kEta - 0.05, kBeta + 0.05)};
    const std::vector<std::string> colours{"#1f4e9c", "#b22222", "#1d7a2e"};
    // Column numbers of data_weighted.csv for the raw plot items (gnuplot counts from 1).
    const auto wcol = [&](const std::string& name) {
      const auto it = std::find(wmean.header.begin(), wmean.header.end(), name);
      return static_cast<int>(it - wmean.header.begin()) + 1;
    };
    std::size_t c = 0;
    for (const SpectrumCase& sc : kCases) {
      if (!sc.shown) continue;
      f.extra.push_back(linetype(static_cast<int>(c) + 1, colours[c % colours.size()]));
      f.series.push_back({"data_directions.csv", "lambda_hat", "measured", "stderr", "β̃_i, " + sc.name,
                          "errorbars", "spectrum=" + sc.name});
      ++c;
    }
    c = 0;
    for (const SpectrumCase& sc : kCases) {
      if (!sc.shown) continue;
      f.functions.push_back(fmt::format(
          "'data_weighted.csv' every ::1 using {}:(strcol(1) eq '{}' ? ${} : NaN):{} with yerrorbars pt 5 ps 2 "
          "lc rgb '{}' title 'Σλ̂_iβ̃_i, {}'",
          wcol("frobenius_sq"), sc.name, wcol("measured"), wcol("stderr"), colours[c % colours.size()], sc.name));
      ++c;
    }
    f.functions.push_back(fmt::format("{:.10g}-{:.10g}*x title 'β − ηλ̂' lw 2 lc rgb 'black'", kBeta, kEta));
    f.functions.push_back(
        fmt::format("{:.10g} title 'β (EMA rate, upper bracket)' lw 2 dt 2 lc rgb 'gray40'", kBeta));
    f.functions.push_back(
        fmt::format("{:.10g} title 'β − η (lower bracket)' lw 2 dt 3 lc rgb 'gray40'", kBeta - kEta));
    f.functions.push_back(fmt::format("{:.10g} title 'isotropic β − η/64' lw 1 dt 4 lc rgb 'gray60'",
                                      kBeta - kEta / 64));
    ctx.out.figure(f);
  }
  // Figure 2: the weighted mean of every spectrum against ‖Σ̂‖_F² (≥ 1/n, = 1/n iff isotropic).
  {
    Figure f;
    f.name = "weighted-mean";
    f.title = "T8 density-weighted mean contraction Σ_i λ̂_i β̃_i = β − η‖Σ̂‖_F^2 (eq:weighted-mean)";
    f.xlabel = "‖Σ̂‖_F^2  (1/n for isotropic keys)";
    f.ylabel = "measured Σ_i λ̂_i β̃_i";
    f.logx = true;
    f.extra = {"set key outside right top", "set format x '10^{%L}'",
               "set arrow from 1.0/64, graph 0 to 1.0/64, graph 1 nohead dt 3 lc rgb 'gray50'",
               "set arrow from 1.0/32, graph 0 to 1.0/32, graph 1 nohead dt 3 lc rgb 'gray50'",
               "set label '1/64' at 1.0/64, graph 0.05 right offset -0.5,0",
               "set label '1/32' at 1.0/32, graph 0.05 left offset 0.5,0"};
    for (const SpectrumCase& sc : kCases)
      f.series.push_back({"data_weighted.csv", "frobenius_sq", "measured", "stderr", sc.name, "errorbars",
                          "spectrum=" + sc.name});
    f.functions = {fmt::format("{:.10g}-{:.10g}*x title 'β − η‖Σ̂‖_F^2' lw 2 lc rgb 'black'", kBeta, kEta)};
    ctx.out.figure(f);
  }
}

}  // namespace akm::exp::t08
