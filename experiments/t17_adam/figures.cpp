// T17 Adam — the figures: AdamW's v̂ against its factorized prediction, the AK contraction
// along rotated and old eigenvectors, and the contraction at one lag against λ̂.
#include <tuple>

#include <fmt/format.h>

#include "t17_adam.hpp"

namespace akm::exp::t17 {

void figures(ExperimentContext& ctx, const Model& md, const Vec& mean, const Vec& se) {
  const Mat RU = md.R * md.U;
  const Vec diag = md.sigma.diagonal();
  Figure fv;
  fv.name = "v-factorization";
  fv.title = fmt::format("T17 AdamW v̂_{{ij}} at t = {} vs E[δ_i^2]E[x_j^2]", kSteps);
  fv.xlabel = "E[δ_i^2] Σ_{jj}  (factorized prediction)";
  fv.ylabel = "measured E[v̂_{ij}]";
  fv.logx = fv.logy = true;
  fv.extra = {"set key inside top left vertical"};
  const std::string at_t = "/t=" + std::to_string(kSteps);
  // Predictions first so the measured points are drawn on top of them.
  fv.series = {{"data_v.csv", "factorized", "isserlis", "", "dependent: Isserlis E[δ_i^2]Σ_{jj}+2E[δ_ix_j]^2", "points",
                "curve=dependent" + at_t},
               {"data_v.csv", "factorized", "measured", "stderr", "δ ⟂ x, Σ", "errorbars", "curve=indep-Sigma" + at_t},
               {"data_v.csv", "factorized", "measured", "stderr", "δ ⟂ x, Σ' = RΣR^T (same diagonal)", "errorbars",
                "curve=indep-Sigma-rotated" + at_t},
               {"data_v.csv", "factorized", "measured", "stderr", "δ = Ax + σξ (dependent)", "errorbars",
                "curve=dependent" + at_t}};
  fv.functions = {"x title 'factorized E[δ_i^2]E[x_j^2]' lw 2 lc rgb 'gray40'"};
  ctx.out.figure(fv);

  Figure fc;
  fc.name = "contraction-rotated";
  fc.title = "T17 AK contraction under Σ' = RΣR^T: β̃_i^k along R u_i, a mixture along the old u_i";
  fc.xlabel = "lag k";
  fc.ylabel = "E[w^T P_k w],  P_k = Π(βI − η x̂x̂^T)";
  fc.logy = true;
  fc.extra = {"set yrange [1e-3:1.2]", "set key bottom left"};
  for (int i : {0, 2}) {
    const std::string d = dir_name(i);
    const double bt = md.beta_tilde[i];
    fc.measured_vs_predicted({.csv = "data_contraction.csv", .x = "lag",
                              .measured_title = fmt::format("w = R {} (rotated)", d),
                              .predicted_title = fmt::format("β̃^k = ({:.3f})^k", bt), .where = "curve=rot/rotated/" + d});
    fc.measured_vs_predicted({.csv = "data_contraction.csv", .x = "lag", .measured_title = fmt::format("w = {} (old)", d),
                              .predicted_title = "mixture Σ_l (u_i^TRu_l)^2 β̃_l^k", .where = "curve=rot/old/" + d});
  }
  fc.functions = {fmt::format("{}**x title 'EMA / AdamW first moment β^k' lc rgb 'gray40' dt 2", kBeta)};
  ctx.out.figure(fc);

  // Contraction at one lag against λ̂: along the eigenvectors of the keys' own Σ̂ (u_i under
  // Σ, R u_i under Σ') every point sits on (β − ηλ̂)^k; along the old u_i under Σ' it does not.
  // x_plot nudges the two eigenvector curves apart (they coincide by design) so both show.
  CsvTable lag{{"curve", "direction", "lam_hat", "x_plot", "predicted", "measured", "stderr"}, {}};
  const int shown_lag = 10;
  for (const auto& [curve, base, q0, nudge] :
       std::vector<std::tuple<std::string, bool, int, double>>{{"Σ: along u_i", true, 0, 0.96},
                                                                {"Σ': along R u_i", false, 0, 1.04},
                                                                {"Σ': along the old u_i", false, kN, 1.0}}) {
    for (int i = 0; i < kN; ++i) {
      const std::size_t o = base ? Layout::base(q0 + i, shown_lag) : Layout::rot(q0 + i, shown_lag);
      const Vec w = (base ? base_probes(md) : rotated_probes(md)).row(q0 + i).transpose();
      lag.add({curve, dir_name(i), md.lambda_hat[i], nudge * md.lambda_hat[i],
               md.contraction(w, base ? md.U : RU, shown_lag), mean[o], se[o]});
    }
  }
  ctx.out.write_csv("data_contraction_lag10.csv", lag);
  Figure fl;
  fl.name = "contraction-by-direction";
  fl.title = fmt::format("T17 AK contraction at lag {}: follows the eigenvectors of the keys' Σ̂", shown_lag);
  fl.xlabel = "λ̂_i (eigenvalue of Σ̂ belonging to u_i, and to R u_i under Σ')";
  fl.ylabel = fmt::format("E[w^T P_{{{}}} w]", shown_lag);
  fl.logx = fl.logy = true;
  fl.extra = {"set xrange [0.008:0.5]", "set key inside bottom left vertical"};
  for (const char* curve : {"Σ: along u_i", "Σ': along R u_i", "Σ': along the old u_i"}) {
    const std::string where = fmt::format("curve={}", curve);
    fl.series.push_back({"data_contraction_lag10.csv", "x_plot", "measured", "stderr", curve, "errorbars", where});
  }
  fl.functions = {fmt::format("({}-{}*x)**{} title 'β̃^k = (β − ηλ̂)^k' lw 2 lc rgb 'gray40'", kBeta, kEta, shown_lag),
                  fmt::format("{}**{} title 'EMA β^k' lc rgb 'gray40' dt 2", kBeta, shown_lag)};
  ctx.out.figure(fl);

  // What v registers: one row of v̂ across the coordinates, under Σ and under Σ'.
  CsvTable vr{{"curve", "j", "x_plot", "predicted", "measured", "stderr"}, {}};  // x_plot: j ∓ 0.1 to show both
  const int shown_row = 1;
  const std::size_t last = kVCheckpoints.size() - 1;
  for (int j = 0; j < kN; ++j) {
    const int e = j * kM + shown_row;
    const double pred = std::pow(kValueSd[static_cast<std::size_t>(shown_row)], 2) * diag[j];
    const std::size_t o0 = Layout::v(last, 0, e), o1 = Layout::v(last, 1, e);
    vr.add({std::string("Σ"), j + 1, j + 0.9, pred, mean[o0], se[o0]});
    vr.add({std::string("Σ'"), j + 1, j + 1.1, pred, mean[o0] + mean[o1],
            std::sqrt(se[o0] * se[o0] + se[o1] * se[o1])});
  }
  ctx.out.write_csv("data_v_row.csv", vr);
  Figure fr;
  fr.name = "v-rotation";
  fr.title = fmt::format("T17 AdamW v̂_{{{}j}} at t = {}: unchanged by the rotation at fixed diagonal", shown_row + 1, kSteps);
  fr.xlabel = "coordinate j (j = 1,2 and 5,6 are the rotated planes)";
  fr.ylabel = "E[v̂_{ij}]";
  fr.extra = {"set xrange [0.5:8.5]", "set yrange [0:*]", "set key inside top right vertical"};
  fr.series = {{"data_v_row.csv", "x_plot", "measured", "stderr", "keys with Σ", "errorbars", "curve=Σ"},
               {"data_v_row.csv", "x_plot", "measured", "stderr", "keys with Σ' = RΣR^T", "errorbars", "curve=Σ'"},
               {"data_v_row.csv", "j", "predicted", "", "E[δ_i^2]Σ_{jj}", "lines", "curve=Σ"}};
  ctx.out.figure(fr);
}

}  // namespace akm::exp::t17
