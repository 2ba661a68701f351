// T9 high-dim — one shape's record pass (ShapeRun, t09_high_dim.hpp): its rows of the gains,
// conditioning and spectrum tables, its transient figure and its params entry.
#include <cmath>

#include "t09_high_dim.hpp"

namespace akm::exp::t09 {

void ShapeRun::record(Tables& tables) {
  for (std::size_t j = 0; j < D; ++j) {
    for (int rule = 0; rule < 2; ++rule) {
      const auto [gv, gse] = window_gain[2 * j + static_cast<std::size_t>(rule)];
      const double bt = rule == 0 ? theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]) : kBeta;
      const double phi = rule == 0 ? theory::phi(mu, lam[dirs[j].k]) : 1.0;
      tables.gains.add({name, rule == 0 ? "AK" : "EMA", dirs[j].label, dirs[j].k + 1,
                 lam[dirs[j].k], participation(j), phi, phi * window_factor(bt), gv, gse});
    }
  }
  tables.cond.add({name, sh.p, sh.n_s, rank, lam[0],
            lam[rank - 1], mu, cond_span, cond_all, ceiling, impr, impr_se});

  for (int k = 0; k < rank; ++k)
    tables.spectrum.add({name, sh.p, sh.n_s, k + 1,
                  (k + 0.5) / rank, lam[k], 1.0 / (mu + lam[k]), (mu + lam[0]) / (mu + lam[k])});
  transient_figure();
  record_params();
}

// The transient figure of this shape.
void ShapeRun::transient_figure() {
  // Transient along each direction, normalized by the fixed point: measured q_k(t) =
  // gain_k(t)/gain_k(∞) against 1 − β̃_k^t (AK) or 1 − β^t (EMA).
  CsvTable trans{{"rule", "direction", "curve", "k", "lambda_hat", "t", "predicted", "measured", "stderr"}, {}};
  for (std::size_t g = 0; g < grid.size(); ++g) {
    for (int rule = 0; rule < 2; ++rule) {
      for (std::size_t j = 0; j < D; ++j) {
        const Vec& w = rule == 0 ? GU.col(j) : GbU.col(j);
        const double target = rule == 0 ? 1.0 / (mu + lam[dirs[j].k]) : 1.0;
        double var = 0;  // rows treated as independent (display only)
        for (int r = 0; r < kM; ++r) var += std::pow(w[r] * se[obs(g, rule, j, r)], 2);
        const double bt = rule == 0 ? theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]) : kBeta;
        const std::string rl = rule == 0 ? "AK" : "EMA";
        trans.add({rl, dirs[j].label, rl + "-" + dirs[j].label, dirs[j].k + 1,
                   lam[dirs[j].k], grid[g], 1.0 - std::pow(bt, grid[g]),
                   gain(mean, g, rule, j) / target, std::sqrt(var) / w.squaredNorm() / target});
      }
    }
  }
  const std::string tcsv = "data_transient_" + name + ".csv";
  ctx.out.write_csv(tcsv, trans);
  Figure ft;
  ft.name = "transient-" + name;
  ft.title = fmt::format("T9 projection of E[M_t] on span eigenvectors u_k, p = {}, n_s = {}", sh.p, sh.n_s);
  ft.xlabel = "step t";
  ft.ylabel = "E[M_t]u_k / lim E[M_t]u_k, on Ĝu_k (lines: 1 − β̃_k^t, 1 − β^t)";
  ft.logx = true;
  // Each measured series and its prediction share a colour (linetypes 2i+1 and 2i+2).
  const std::vector<std::pair<std::string, std::string>> curves{
      {"AK-top1", "AK u_1"}, {"AK-top3", "AK u_3"}, {"AK-middle", "AK u_{mid}"},
      {"AK-bottom", "AK u_{bottom}"}, {"EMA-top1", "EMA u_1"}};
  const std::vector<std::string> colours{"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#666666"};
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const auto& [c, label] = curves[i];
    const int j = c == "AK-top1" || c == "EMA-top1" ? 0 : c == "AK-top3" ? 2 : c == "AK-middle" ? 3 : 4;
    ft.measured_vs_predicted({.csv = tcsv, .x = "t",
                              .measured_title = fmt::format("{} (λ̂ = {:.2g})", label, lam[dirs[j].k]),
                              .where = "curve=" + c});
    for (int lt : {1, 2})
      ft.extra.push_back(linetype(2 * i + lt, colours[i]));
  }
  ft.extra.push_back("set key inside right bottom vertical");
  ft.extra.push_back("set yrange [0:1.15]");
  ft.extra.push_back(fmt::format("set xrange [0.9:{}]", kSteps * 1.1));
  ctx.out.figure(ft);
}

// This shape's entry in params.settings.
void ShapeRun::record_params() {
  nlohmann::json dj = nlohmann::json::array();
  for (std::size_t j = 0; j < D; ++j)
    dj.push_back({{"label", dirs[j].label}, {"k", dirs[j].k + 1}, {"lambda_hat", lam[dirs[j].k]},
                  {"participation", participation(j)}, {"G_hat_u", to_std(GU.col(j))}, {"G_bar_u", to_std(GbU.col(j))}, {"M_star_u", to_std(MU.col(j))}});
  ctx.params["settings"].push_back({{"name", name}, {"p", sh.p}, {"n_s", sh.n_s}, {"spec", d.spec},
                                    {"rank", rank}, {"lambda_hat", to_std(lam)}, {"directions", dj},
                                    {"cond_span", cond_span}, {"cond_overall", cond_all},
                                    {"improvement_measured", impr}, {"improvement_stderr", impr_se},
                                    {"projections_not_checked_skewed", rare},
                                    {"max_design_skew_of_mean", kMaxDesignSkew}});
}

}  // namespace akm::exp::t09
