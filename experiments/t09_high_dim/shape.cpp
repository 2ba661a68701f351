// T9 high-dim — one (p, n_s) data set, step by step (ShapeRun, t09_high_dim.hpp): its
// spectrum, the fixed point and the span, the conditioning ceiling, the gains and the
// improvement, and its transient figure; the Monte-Carlo projection checks are in
// projections.cpp. The claim and the loop over shapes
// are in claim.cpp.
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <tuple>

#include "sensitivity.hpp"
#include "t09_high_dim.hpp"

namespace akm::exp::t09 {


// The data set's spectrum, two numerical routes, and the queried eigen-directions.
void ShapeRun::spectrum_checks() {
  // Set-up checks (.design()): the data set's spectrum and its two numerical routes.
  ctx.checks.exact(name + "/rank Sigma_hat = n_s", n, rank, 0.0);
  ctx.checks.design();
  ctx.checks.exact(name + "/tr Sigma_hat = sum lambda_hat = 1", 1.0, lam.sum());
  ctx.checks.design();
  ctx.checks.at_most(name + "/lambda_hat_max <= 1", 1.0, lam[0]);
  ctx.checks.design();
  // Independent route: Lanczos on the matrix-free p×p operator, top three eigenvalues.
  const EigenPairs top = dataset_top_eigenpairs(K_hat, 3);
  for (int k = 0; k < 3; ++k) {
    ctx.checks.exact(fmt::format("{}/lambda_hat_{} Gram = Lanczos", name, k + 1), top.values[k], lam[k]);
    ctx.checks.design();
  }

  dirs = queried_directions(rank);
  D = dirs.size();
  per_t = 2 * D * kM;
  U.resize(sh.p, static_cast<Eigen::Index>(D));
  for (std::size_t j = 0; j < D; ++j) {
    U.col(j) = S.eigenvector(dirs[j].k);
    // Σ̂u = λ̂u with Σ̂ applied matrix-free (not through the Gram eigenvectors).
    ctx.checks.at_most(fmt::format("{}/{} eigen-residual |Sigma_hat u - lambda u| / lambda_max", name, dirs[j].label),
                       1e-10, (S.apply(U.col(j)) - lam[dirs[j].k] * U.col(j)).norm() / lam[0]);
    ctx.checks.design();
  }
}

// Values, Ĝ and Ḡ; the fixed point in the span; both buffers confined to the key span.
void ShapeRun::fixed_point_and_span_checks() {
  d.Delta = value_rows(d, U.col(D - 2), lam[dirs[D - 2].k], U.col(D - 1), lam[dirs[D - 1].k], ctx.opts.seed);
  G_hat = d.Delta * K_hat.transpose() / n;                          // Ĝ = (1/n_s) Σ δ_s x̂_sᵀ
  G_bar = d.Delta * d.norms.asDiagonal() * K_hat.transpose() / n;   // Ḡ = (1/n_s) Σ δ_s x_sᵀ

  // Fixed point in the span, two routes; the fixed-point equation with Σ̂ matrix-free.
  M_star = S.ridge_solve(G_hat, mu);
  const Mat M_wood = ridge_solve_woodbury(K_hat, G_hat, mu);
  ctx.checks.at_most(name + "/M* spectral vs Woodbury (relative)", 1e-10, (M_star - M_wood).norm() / M_star.norm());
  ctx.checks.design();  // two numerical routes to one solve
  double resid = 0;
  for (int r = 0; r < kM; ++r) {
    const Vec row = M_star.row(r).transpose();
    resid += (mu * row + S.apply(row) - G_hat.row(r).transpose()).squaredNorm();
  }
  ctx.checks.at_most(name + "/M*(mu I + Sigma_hat) = G_hat (relative residual)", 1e-10,
                     std::sqrt(resid) / G_hat.norm());
  MU = M_star * U, GU = G_hat * U, GbU = G_bar * U;
  for (std::size_t j = 0; j < dirs.size(); ++j)  // [eq:dm-eigen] along span eigenvectors
    ctx.checks.at_most(fmt::format("{}/{} M* u = G_hat u/(mu+lambda) (relative)", name, dirs[j].label), 1e-10,
                       (MU.col(j) - GU.col(j) / (mu + lam[dirs[j].k])).norm() / MU.col(j).norm());

  // Off the span: P_⊥ from the QR of the raw keys (same span as the normalized ones).
  const SpanComplement perp(d.X);
  ctx.checks.at_most(name + "/|G_hat P_perp| <= 1e-12 |G_hat|", 1e-12 * G_hat.norm(), perp.off_span_norm(G_hat));
  ctx.checks.design();  // Ĝ is a combination of data keys by construction
  ctx.checks.at_most(name + "/|M* P_perp| <= 1e-12 |M*|", 1e-12 * M_star.norm(), perp.off_span_norm(M_star));
  mc_seed = derive_seed(ctx.opts.seed, "T9/mc/" + name);
  Ct = U.transpose() * K_hat;  // D × n_s, Ct(j, s) = u_jᵀx̂_s
  for (int path = 0; path < kPathsOffSpan; ++path) {
    Mat last_ak, last_ema, y_ak, y_ema;
    sample_path(d, Ct, mc_seed, path, [&](int t, const Mat& a, const Mat& e, const Mat& ya, const Mat& ye) {
      if (t == kSteps) {
        last_ak = a;
        last_ema = e;
        y_ak = ya;
        y_ema = ye;
      }
    });
    ctx.checks.at_most(fmt::format("{}/path {} AK |M_T P_perp| <= 1e-12 |M_T|", name, path),
                       1e-12 * last_ak.norm(), perp.off_span_norm(last_ak));
    ctx.checks.at_most(fmt::format("{}/path {} EMA |M_T P_perp| <= 1e-12 |M_T|", name, path),
                       1e-12 * last_ema.norm(), perp.off_span_norm(last_ema));
    // The O(mD) projection recursion against the direct product M_T U.
    ctx.checks.at_most(fmt::format("{}/path {} AK |Y_T - M_T U| <= 1e-12 |M_T|", name, path),
                       1e-12 * last_ak.norm(), (y_ak - last_ak * U).norm());
    ctx.checks.design();  // the fast projection recursion against its reference
    ctx.checks.at_most(fmt::format("{}/path {} EMA |Y_T - M_T U| <= 1e-12 |M_T|", name, path),
                       1e-12 * last_ema.norm(), (y_ema - last_ema * U).norm());
    ctx.checks.design();
  }
}

// The conditioning ceiling [eq:cond-ceiling].
void ShapeRun::conditioning_checks() {
  // Conditioning [eq:cond-ceiling]: on the span λ̂ ∈ [λ̂_min, λ̂_max]; overall the null
  // space (dimension p − n_s > 0) adds the eigenvalue μ of μI+Σ̂.
  cond_span = (mu + lam[0]) / (mu + lam[rank - 1]);
  cond_all = (mu + lam[0]) / mu;
  ctx.checks.at_most(name + "/cond on span <= 1 + eta/(1-beta)", ceiling, cond_span);
  ctx.checks.at_most(name + "/cond overall <= 1 + eta/(1-beta)", ceiling, cond_all);
}


// Gains per direction and the improvement over the queried span; this shape's table rows.
void ShapeRun::gains_and_improvement(Tables& tables) {
  // Gain of a buffer along u_k, projected on w_k = Ĝu_k (AK) or Ḡu_k (EMA):
  // E = (1 − β̃_k^t)/(μ+λ̂_k) for AK, 1 − β^t for EMA.
  // Improvement over the queried span: the AK gain ratio bottom/top against
  // (μ+λ̂_max)/(μ+λ̂_min) (EMA's ratio is 1). The bottom eigenvector of Σ̂ is carried by few
  // keys (those most aligned with a spike; their near-duplicate directions make the
  // smallest Gram eigenvalues), so a snapshot of M_T u_bottom rests on the few draws of
  // those keys in its last ~1/(1−β̃) steps; the window average over 150 steps sees ~15× as
  // many. The transient over the window is the known remainder.
  const std::size_t jb = D - 1;
  std::tie(impr, impr_se) = jackknife(res.groups, [&](const Vec& m) { return gain(m, G, 0, jb) / gain(m, G, 0, 0); });
  const double exact_w = window_factor(theory::beta_tilde(kBeta, kEta, lam[rank - 1])) /
                         window_factor(theory::beta_tilde(kBeta, kEta, lam[0])) * cond_span;
  ctx.checks.mc(name + "/improvement (mu+lambda_max)/(mu+lambda_min)", cond_span, impr, impr_se, 0.0,
                std::abs(exact_w - cond_span));
  ctx.checks.against(1.0, "EMA");  // the EMA buffer's gain is 1 along every direction
  sensitivity(ctx.checks,
              [&](double e, double b, double m) {
                return (theory::mu(b, e) + m * lam[0]) / (theory::mu(b, e) + m * lam[rank - 1]);
              },
              kEta, kBeta);
  for (std::size_t j = 0; j < D; ++j) {
    for (int rule = 0; rule < 2; ++rule) {
      const auto [gv, gse] = jackknife(res.groups, [&](const Vec& m) { return gain(m, G, rule, j); });
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

void run_shape(ExperimentContext& ctx, const Shape& sh, Tables& tables) {
  ShapeRun s(ctx, sh);
  s.spectrum_checks();
  s.fixed_point_and_span_checks();
  s.conditioning_checks();
  s.projection_checks();
  s.gains_and_improvement(tables);
  s.transient_figure();
  s.record_params();
}

}  // namespace akm::exp::t09
