// T11 first order — the figures: the Taylor residual against α (the fit window dashed), the
// distribution of the first-order ratio over random M, and the actual loss decrease.
#include <fmt/format.h>

#include "t11_first_order.hpp"

namespace akm::exp::t11 {

void figures(ExperimentContext& ctx, const Window& w_star, const FirstOrderFigure& fo) {
  {
    Figure f;
    f.name = "taylor-residual";
    f.title = "T11 Taylor residual |L(θ−αM) − [L − α⟨M,Ḡ⟩ + α^2/2 M^THM]| (logistic loss, exact data set; dashed: fit window)";
    f.xlabel = "α";
    f.ylabel = "|residual|";
    f.logx = f.logy = true;
    f.series = {
        {"data_residual.csv", "alpha", "cubic_term", "", "slope 3: |D^3L[M,M,M]| α^3/6", "lines", "M=G"},
        {"data_residual.csv", "alpha", "naive_abs_residual", "", "M ∝ Ḡ, plain difference of losses", "points", "M=G"},
        {"data_residual.csv", "alpha", "abs_residual", "", "M ∝ Ḡ (stable per-sample form)", "points", "M=G"},
        {"data_residual.csv", "alpha", "rounding_bound", "", "rounding bound (stable form)", "lines", "M=G"},
        {"data_residual.csv", "alpha", "naive_rounding_bound", "", "rounding bound (plain difference)", "lines", "M=G"},
        {"data_residual.csv", "alpha", "abs_residual", "", "random M (R1)", "points", "M=R1"},
    };
    f.extra = {fmt::format("set arrow from {0:.6g}, graph 0 to {0:.6g}, graph 1 nohead dt 2 lc rgb 'gray40'", w_star.alpha_min),
               fmt::format("set arrow from {0:.6g}, graph 0 to {0:.6g}, graph 1 nohead dt 2 lc rgb 'gray40'", w_star.alpha_max),
               "set format y '10^{%T}'", "set format x '10^{%T}'", "set yrange [1e-24:*]"};
    ctx.out.figure(f);
  }
  {
    Figure f;
    f.name = "first-order-distribution";
    f.title = fmt::format("T11 first-order decrease ⟨M,Ḡ⟩/‖Ḡ‖^2 of {} random M with ‖M‖ = ‖Ḡ‖ (n = {})", fo.n_gauss, fo.n);
    f.xlabel = "⟨M,Ḡ⟩ / (‖M‖‖Ḡ‖)";
    f.ylabel = "fraction of random M";
    f.extra = {"set xrange [-1.05:1.05]", "set style fill solid 0.5",
               "set arrow from 1, graph 0 to 1, graph 1 nohead lw 3 lc rgb '#b2182b'",
               "set label 'M ∝ Ḡ (Cauchy–Schwarz maximum)' at 0.97, graph 0.9 right tc rgb '#b2182b'"};
    f.functions = {"'data_first_order_hist.csv' every ::1 using 1:2 with boxes lc rgb '#2166ac' title 'Gaussian M'"};
    ctx.out.figure(f);
  }
  {
    Figure f;
    f.name = "actual-decrease";
    f.title = fmt::format("T11 actual loss decrease at α = {:.3g}: |dec(Ḡ) − dec(M)| for random M, ‖M‖ = ‖Ḡ‖", fo.alpha);
    f.xlabel = "first-order shortfall 1 − ⟨M,Ḡ⟩/‖Ḡ‖^2";
    f.ylabel = "|dec(Ḡ) − dec(M)| / (α‖Ḡ‖^2)";
    f.logx = f.logy = true;
    f.series = {{"data_first_order.csv", "one_minus_ratio", "abs_decrease_gap_scaled", "", "M ∝ Ḡ decreases more",
                 "points", "beats_G=0"}};
    if (fo.beat > 0)  // an empty series would only make gnuplot warn
      f.series.push_back({"data_first_order.csv", "one_minus_ratio", "abs_decrease_gap_scaled", "",
                          "M decreases more (second order)", "points", "beats_G=1"});
    f.extra = {fmt::format("set arrow from {0:.6g}, graph 0 to {0:.6g}, graph 1 nohead dt 2 lc rgb 'gray40'",
                           fo.guarantee_gap / fo.g2),
               fmt::format("set label 'M ∝ Ḡ guaranteed better →' at {:.6g}, graph 0.08", fo.guarantee_gap / fo.g2 * 1.3),
               "set xrange [1e-9:2]", "set format y '10^{%T}'", "set format x '10^{%T}'"};
    f.functions = {"x title 'first-order gap α(‖Ḡ‖^2 − ⟨M,Ḡ⟩)' lw 2 dt 2 lc rgb 'black'"};
    ctx.out.figure(f);
  }
}

}  // namespace akm::exp::t11
