// T10 glm, part B's figures: fitted against predicted local rates per direction, the rate
// trajectories, and the mean-square decay of the half-difference per arm.
#include <fmt/format.h>

#include "t10_glm.hpp"

namespace akm::exp::t10 {

void local_rates_figures(ExperimentContext& ctx, const std::vector<Arm>& arms, const std::vector<int>& shown) {
  Figure f;
  f.name = "local-rates";
  f.title = "T10 local rates at w* on u_1: fitted 1 − ρ vs 1 − ρ(A_i); soft labels α·c_1 = 0.05, Bernoulli 3·10^{-4}";
  f.xlabel = "direction index i (eigenvalues descending)";
  f.ylabel = "1 − spectral radius";
  f.logy = true;
  for (const char* a : {"soft", "bernoulli"}) {
    f.measured_vs_predicted({.csv = "data_rates.csv", .x = "index", .measured = "one_minus_rho_fit",
                             .se = "stderr_fit", .predicted = "one_minus_rho_pred",
                             .measured_title = fmt::format("fitted, {} labels", a),
                             .predicted_title = fmt::format("1 − ρ(A_i), {}", a), .where = fmt::format("arm={}", a)});
  }
  f.functions = {"'data_rates.csv' every ::1 using 3:(strcol(1) eq 'soft' ? 1-$11 : NaN) with lines lw 2 dt 2 "
                 "lc rgb 'gray40' title '1 − √β̃_i (underdamped optimum)'"};
  f.extra = {"set xrange [0:33]", "set format y '10^{%T}'"};
  ctx.out.figure(f);

  Figure b;
  b.name = "linearization-bias";
  b.title = "T10 Bernoulli labels: (1 − ρ_{fit})/(1 − ρ(A_i)) − 1, the label-noise spread grows with α·c_1 (finding; 3·10^{-4} is checked)";
  b.xlabel = "α·c_1";
  b.ylabel = "relative deviation of 1 − ρ";
  b.logx = true;
  for (int i = 0; i < 4; ++i)
    b.series.push_back({"data_linearization_bias.csv", "gamma0", "rel_dev", "rel_dev_se", dir_name(i),
                        "errorbars", "direction=" + dir_name(i)});
  b.functions = {"0 notitle lc rgb 'black'"};
  ctx.out.figure(b);

  Figure g;
  g.name = "rate-trajectory";
  g.title = "T10 soft labels, α·c_1 = 0.05: E[Δw_{t,i}]/Δw_{0,i} vs the linearized map A_i^t";
  g.xlabel = "step t";
  g.ylabel = "E[Δw_t] / Δw_0 along u_i";
  g.extra = paired_linetypes(static_cast<int>(shown.size()));
  for (int i : shown) {
    g.series.push_back({"data_rate_trajectory.csv", "t", "measured", "", "measured " + dir_name(i), "points",
                        "direction=" + dir_name(i)});
    g.series.push_back({"data_rate_trajectory.csv", "t", "predicted", "", "A_i^t " + dir_name(i), "lines",
                        "direction=" + dir_name(i)});
  }
  ctx.out.figure(g);

  Figure q;
  q.name = "mean-square";
  q.title = "T10 mean-square decay of the half-difference: E‖Δw_t‖^2_Σ / ‖Δw_0‖^2_Σ (must fall for the trial means to be informative)";
  q.xlabel = "step t";
  q.ylabel = "mean square ratio";
  q.logy = true;
  q.logx = true;
  for (const Arm& arm : arms)
    q.series.push_back({"data_mean_square.csv", "t", "mean_square_ratio", "",
                        fmt::format("{} (α·c_1 = {:g})", arm.name, arm.gamma0), "lines", "arm=" + arm.name});
  q.extra = {"set format y '10^{%T}'"};
  ctx.out.figure(q);
}

}  // namespace akm::exp::t10
