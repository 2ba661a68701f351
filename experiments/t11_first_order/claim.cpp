// T11 first-order — [prop:first-order-optimal, eq:taylor]
//
// Logistic regression on a fixed finite data set (N keys x ~ N(0, Σ) spiked, labels from a
// logistic teacher), at a generic parameter θ where Ḡ ≠ 0. On a finite set L, Ḡ, H and the
// third derivative are exact, so every check here is deterministic: no Monte Carlo.
//
// 1. Taylor residual [eq:taylor]. Along a direction M (a vector: m = 1, so tr(MᵀHM) is the
//    quadratic form MᵀHM),
//      r(α) = L(θ−αM) − [L − α⟨M,Ḡ⟩ + (α²/2)MᵀHM] = −(α³/6)T3 + ρ4(α),
//      T3 = D³L[M,M,M] = (1/N)Σ σ''(z)d³,  |ρ4| ≤ α⁴ sup|σ'''| (1/N)Σ d⁴ / 24,
//    z = θᵀx, d = Mᵀx. The higher-order part relative to the cubic term is at most
//    q(α) = α·mean(d⁴)/(32|T3|). r(α) is summed per sample from φ(z−αd) − φ(z) =
//    −log1p(σ(z−αd)expm1(αd)) (no cancellation against L itself), so its rounding error is
//    at most e_abs(α) = 16u·mean(|φ(z−αd)−φ(z)| + |αdσ| + α²d²σ'/2), u = 2^-53 — linear in α
//    against the cubic signal: rounding dominates below α ≈ (6·16u·mean|d|/|T3|)^{1/2}.
//    The fit window is fixed from these exact bounds before r is evaluated: α_max where
//    q = 0.05, α_min = α_max/100, raised until e = e_abs/(|T3|α³/6) ≤ 0.01 (at least 1.5
//    decades are required). Over the window |log|r| − log(|T3|α³/6)| ≤ F(α) =
//    −log(1 − q − e), so the least-squares slope of log|r| on log α is 3 within
//    Σ|u_j − ū|F_j / Σ(u_j − ū)² (u = log α): that is the bias bound. The slope's standard
//    error from the regression residuals is reported and enters the tolerance too.
//    Directions: M ∝ Ḡ and four random Gaussian M, all with ‖M‖ = ‖Ḡ‖; an M is used only if its
//    exact window spans ≥ 1.5 decades (T3 far enough from 0), the rest are counted (a fifth
//    random M stands in when Ḡ's window is too narrow).
//
// 2. First-order optimality [prop:first-order-optimal]. At equal Frobenius norm,
//    ⟨M,Ḡ⟩ ≤ ‖M‖‖Ḡ‖ (Cauchy–Schwarz) over many random M: Gaussian ones and a near-aligned
//    family M ∝ Ḡ/‖Ḡ‖ + τZ, τ from 1e-4 to 1. The actual loss decrease at a small α:
//    convexity gives dec(M) ≤ α⟨M,Ḡ⟩ and σ' ≤ 1/4 gives dec(M*) ≥ α‖Ḡ‖² − α²mean(d*²)/8
//    (M* = Ḡ), so dec(M) ≤ dec(M*) is guaranteed for every M with
//    ‖Ḡ‖² − ⟨M,Ḡ⟩ ≥ α·mean(d*²)/8, and those are checked. Near-aligned M inside that margin
//    may beat M* at this α (the optimality is first order only); they are a labelled finding,
//    and their excess is checked against the second-order Taylor difference within the
//    third-order bound α³ sup|σ''|(mean|d|³ + mean|d*|³)/6.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "t11_first_order.hpp"

namespace akm::exp {

static void t11_first_order(ExperimentContext& ctx) {
  using namespace t11;
  // ---- Set-up: the data set, θ, Ḡ and H; the fitted directions and the first-order step α,
  // all decided from exact quantities before anything is measured ----
  const Setting s = make_setting("spiked", kSpiked, ctx.opts.seed);
  const int n = s.n();
  Stream draw(derive_seed(ctx.opts.seed, "T11/vectors"), 0, Purpose::init);
  const Vec ws = with_margin(gaussian_vector(n, draw), s.spectrum.lambda, kTeacherMargin);
  const Vec theta = with_margin(gaussian_vector(n, draw), s.spectrum.lambda, kThetaMargin);
  const lg::Teacher teacher(s.spectrum.lambda, ws);
  const lg::DataSet data = lg::sample_data(teacher, kDataSize, derive_seed(ctx.opts.seed, "T11/data"));
  const Vec G = lg::gradient(data, theta);
  const Mat H = lg::hessian(data, theta);
  const double g2 = G.squaredNorm(), gn = std::sqrt(g2);
  // M = Ḡ is fitted like the random directions only where its window is wide enough: on
  // some data sets T3 along Ḡ is so close to 0 that rounding meets the quartic term (seed 84
  // of the false-alarm audit); its curve is still drawn and a fifth random M is fitted.
  std::vector<std::pair<std::string, Vec>> dirs{{"G", G}};
  const Window w_star = window_for(data, theta, G);
  const bool g_fitted = std::log10(w_star.alpha_max / w_star.alpha_min) >= kMinDecades;
  int rejected = 0;
  {
    Stream rs(derive_seed(ctx.opts.seed, "T11/slope-directions"), 0, Purpose::aux);
    while (dirs.size() < (g_fitted ? 5u : 6u)) {
      Vec M = gaussian_vector(n, rs);
      M *= gn / M.norm();
      const Window w = window_for(data, theta, M);
      if (std::log10(w.alpha_max / w.alpha_min) >= kMinDecades)
        dirs.push_back({fmt::format("R{}", dirs.size()), M});
      else
        ++rejected;
    }
  }
  const double L0 = lg::loss(data, theta);
  const long long n_gauss = trials(ctx, 20000, 2000), n_near = trials(ctx, 2000, 400);
  const Vec dstar = data.X * G;
  const double md2 = dstar.squaredNorm() / static_cast<double>(kDataSize);
  const double md3_star = mean_pow(dstar, 3);
  const double GHG = G.dot(H * G);
  const double alpha = std::sqrt(w_star.alpha_min * w_star.alpha_max);  // inside the Taylor window of M* = Ḡ
  const double dec_star = -lg::loss_change(data, theta, G, alpha);
  const double guarantee_gap = alpha * md2 / 8;  // ‖Ḡ‖² − ⟨M,Ḡ⟩ ≥ this ⇒ dec(M) ≤ dec(M*)

  // ---- Simulate: 1. the slope fit of the Taylor residual per direction; 2. the actual loss
  // decrease of random M against M* = Ḡ ----
  std::vector<Window> windows;
  std::vector<SlopeFit> fits;  // per direction; the unfitted M = Ḡ keeps a default entry
  for (const auto& [name, M] : dirs) {
    windows.push_back(window_for(data, theta, M));
    const Window& w = windows.back();
    if (name == "G" && !g_fitted) {
      fits.emplace_back();
      continue;
    }
    if (std::log10(w.alpha_max / w.alpha_min) < kMinDecades)
      throw std::runtime_error(fmt::format("T11: the exact window of M = {} spans < {} decades", name, kMinDecades));
    fits.push_back(fit_slope(data, theta, M, w));
  }
  struct Sampled {
    bool near;
    double tau, mg, dec;
    bool safe;  ///< outside the margin: M* = Ḡ guaranteed to decrease more
  };
  std::vector<Sampled> sampled;
  double max_cos_gauss = -2, max_cos_near = -2, worst_guaranteed = -1e300, worst_taylor = 0;
  long long beat = 0, guaranteed = 0, not_guaranteed = 0;
  double max_excess = 0;
  Stream ms(derive_seed(ctx.opts.seed, "T11/random-M"), 0, Purpose::aux);
  for (long long r = 0; r < n_gauss + n_near; ++r) {
    const bool near = r >= n_gauss;
    double tau = 0;
    Vec M = gaussian_vector(n, ms);
    if (near) {
      tau = std::pow(10.0, -4.0 + 4.0 * ms.uniform());
      M = G / gn + tau * M / M.norm();
    }
    M *= gn / M.norm();  // equal Frobenius norm
    const double mg = M.dot(G);
    const double cs = mg / (M.norm() * gn);
    (near ? max_cos_near : max_cos_gauss) = std::max(near ? max_cos_near : max_cos_gauss, cs);
    const double dec = -lg::loss_change(data, theta, M, alpha);
    const bool safe = g2 - mg >= guarantee_gap;
    if (safe) {
      ++guaranteed;
      worst_guaranteed = std::max(worst_guaranteed, dec / dec_star);
    } else {
      ++not_guaranteed;
      if (dec > dec_star) ++beat, max_excess = std::max(max_excess, (dec - dec_star) / dec_star);
      // dec(M) − dec(M*) against the second-order Taylor difference [eq:taylor].
      const Vec d = data.X * M;
      const double t2 = alpha * (mg - g2) - 0.5 * alpha * alpha * (M.dot(H * M) - GHG);
      // Third-order remainders of both expansions, plus rounding of the two loss changes and of
      // the inner products and quadratic forms (generous 64u factors).
      const double bound = alpha * alpha * alpha * lg::kSupD2 * (mean_pow(d, 3) + md3_star) / 6 +
                           64 * kUnit * alpha * (mean_pow(d, 1) + mean_pow(dstar, 1) + g2) +
                           64 * kUnit * alpha * alpha * (std::abs(M.dot(H * M)) + GHG);
      worst_taylor = std::max(worst_taylor, std::abs((dec - dec_star) - t2) / bound);
    }
    sampled.push_back({near, tau, mg, dec, safe});
  }

  // ---- Check: 1. the residual slope is 3; 2. Cauchy–Schwarz, the guaranteed decrease and the
  // second-order Taylor difference inside the margin ----
  for (std::size_t k = 0; k < dirs.size(); ++k) {
    const std::string& name = dirs[k].first;
    if (name == "G" && !g_fitted) continue;
    const SlopeFit& f = fits[k];
    ctx.checks.mc("taylor/" + name + "/log-log slope of the residual = 3", 3.0, f.slope, f.se, 0.0, f.bias_bound);
    // The alternative: a wrong first- or second-order term [eq:taylor] leaves an O(α²)
    // residual, slope 2.
    ctx.checks.against(2.0, "second-order residual (slope 2)");
    ctx.checks.at_most("taylor/" + name + "/|slope - 3| <= derived bound (higher order + rounding)",
                       f.bias_bound, std::abs(f.slope - 3.0));
    ctx.checks.at_most("taylor/" + name + "/|r/(-alpha^3 T3/6) - 1| <= q + e at alpha_min", f.coef_bound,
                       f.coef_ratio_dev);
  }
  ctx.checks.exact("first-order/cos(M*, G) = 1 for M* = G", 1.0, G.dot(G) / (G.norm() * G.norm()), 1e-14);
  ctx.checks.at_most("first-order/Cauchy-Schwarz: max cos(M, G) over Gaussian M <= 1", 1.0, max_cos_gauss);
  ctx.checks.at_most("first-order/Cauchy-Schwarz: max cos(M, G) over near-aligned M <= 1", 1.0, max_cos_near);
  if (guaranteed > 0)
    ctx.checks.at_most("first-order/actual decrease: max dec(M)/dec(M*) over M with guaranteed margin <= 1", 1.0,
                       worst_guaranteed);
  if (not_guaranteed > 0)
    ctx.checks.at_most("first-order/inside the margin: dec(M) - dec(M*) = 2nd-order Taylor difference within the "
                       "3rd-order bound (ratio <= 1)", 1.0, worst_taylor);

  // ---- Record: the residual curves and slopes, the sampled M, findings, figures, params ----
  CsvTable slopes{{"M", "T3", "mean_d4", "alpha_min", "alpha_max", "slope", "stderr", "bias_bound"}, {}};
  CsvTable curve{{"M", "alpha", "abs_residual", "cubic_term", "rounding_bound", "naive_abs_residual",
                  "naive_rounding_bound", "in_window"}, {}};
  nlohmann::json slope_params = nlohmann::json::array();
  for (std::size_t k = 0; k < dirs.size(); ++k) {
    const auto& [name, M] = dirs[k];
    const Window& w = windows[k];
    const double MG = M.dot(G), MHM = M.dot(H * M);
    // The whole curve, beyond the window on both sides, for the figure.
    for (int j = 0; j <= 80; ++j) {
      const double a = std::pow(10.0, -8.0 + 8.0 * j / 80.0);
      const double r = lg::taylor_residual(data, theta, M, a);
      const double naive = lg::loss(data, theta - a * M) - (L0 - a * MG + 0.5 * a * a * MHM);
      curve.add({name, a, std::abs(r), std::abs(w.t3) * a * a * a / 6,
                 lg::taylor_residual_rounding(data, theta, M, a), std::abs(naive),
                 lg::naive_difference_rounding(data, theta, M, a),
                 a >= w.alpha_min && a <= w.alpha_max});
    }
    if (name == "G" && !g_fitted) continue;
    const SlopeFit& f = fits[k];
    slopes.add({name, w.t3, w.m4, w.alpha_min, w.alpha_max, f.slope, f.se, f.bias_bound});
    slope_params.push_back({{"M", name}, {"M_vector", to_std(M)}, {"T3", w.t3}, {"mean_d4", w.m4},
                            {"alpha_min", w.alpha_min}, {"alpha_max", w.alpha_max}, {"slope", f.slope},
                            {"stderr", f.se}, {"bias_bound", f.bias_bound}});
  }
  ctx.out.write_csv("data_slopes.csv", slopes);
  ctx.out.write_csv("data_residual.csv", curve);
  CsvTable dist{{"family", "tau", "first_order_ratio", "one_minus_ratio", "decrease_ratio",
                 "abs_decrease_gap_scaled", "beats_G", "guaranteed"}, {}};
  for (const Sampled& m : sampled)
    dist.add({m.near ? "near-aligned" : "gaussian", m.tau, m.mg / g2, 1 - m.mg / g2, m.dec / dec_star,
              std::abs(dec_star - m.dec) / (alpha * g2), m.dec > dec_star, m.safe});
  nlohmann::json findings = nlohmann::json::array();
  findings.push_back(fmt::format(
      "at alpha = {:.4g}, {} of {} near-aligned M lie inside the margin ||G||^2 - <M,G> < alpha E[d*^2]/8 where the "
      "first-order argument does not decide; {} of them decrease the loss more than M = G (largest excess {:.3g} of "
      "dec(M*)): M ∝ G is optimal to first order only, as prop:first-order-optimal states",
      alpha, not_guaranteed, n_near, beat, max_excess));
  findings.push_back(fmt::format("{} random directions{} were skipped for the slope fits: their exact third "
                                 "derivative leaves < {} decades between rounding and higher-order terms",
                                 rejected, g_fitted ? "" : " and M = G", kMinDecades));
  ctx.out.write_csv("data_first_order.csv", dist);
  // Histogram of the first-order ratio ⟨M,Ḡ⟩/‖Ḡ‖² of the Gaussian family.
  {
    constexpr int kBins = 80;
    std::vector<long long> counts(kBins, 0);
    for (const auto& row : dist.rows) {
      if (std::get<std::string>(row[0]) != "gaussian") continue;
      const double c = std::get<double>(row[2]);
      counts[std::clamp(static_cast<int>((c + 1) / 2 * kBins), 0, kBins - 1)]++;
    }
    CsvTable hist{{"center", "fraction"}, {}};
    for (int b = 0; b < kBins; ++b)
      hist.add({-1 + (b + 0.5) * 2.0 / kBins, static_cast<double>(counts[b]) / static_cast<double>(n_gauss)});
    ctx.out.write_csv("data_first_order_hist.csv", hist);
  }
  figures(ctx, w_star, {n_gauss, n, alpha, guarantee_gap, g2, beat});
  ctx.params = setting_params(s);
  ctx.params["data_size"] = kDataSize;
  ctx.params["w_star"] = to_std(ws);
  ctx.params["theta"] = to_std(theta);
  ctx.params["loss"] = L0;
  ctx.params["grad_norm"] = gn;
  ctx.params["G"] = to_std(G);
  ctx.params["slope_fits"] = slope_params;
  ctx.params["slope_fit_of_G"] = g_fitted;
  ctx.params["window_rule"] = {{"q_max", kQMax}, {"e_max", kEMax}, {"decades", kDecades},
                               {"min_decades", kMinDecades}, {"points", kWindowPoints},
                               {"rounding_model", "16 u mean(|dphi| + |alpha d sigma| + alpha^2 d^2 sigma'/2)"}};
  ctx.params["first_order"] = {{"alpha", alpha}, {"gaussian_M", n_gauss}, {"near_aligned_M", n_near},
                               {"tau_range", {1e-4, 1.0}}, {"guarantee_gap", guarantee_gap},
                               {"guaranteed", guaranteed}, {"not_guaranteed", not_guaranteed},
                               {"beat_M_star", beat}, {"max_excess_over_dec_star", max_excess},
                               {"max_cos_gaussian", max_cos_gauss}, {"max_cos_near", max_cos_near}};
  for (const auto& f : findings) ctx.findings.push_back(f.get<std::string>());
}

const Registrar registration{{
    .id = "T11",
    .slug = "first-order",
    .title = "First-order optimality of M ∝ Ḡ and the Taylor residual (logistic loss)",
    .labels = "prop:first-order-optimal eq:taylor",
    .claim = "L(θ−αM) = L − α⟨M,Ḡ⟩ + α²/2 MᵀHM + O(α³) (residual slope 3 in log-log); at fixed ‖M‖_F no M "
             "beats M ∝ Ḡ in first-order decrease",
    .body = t11_first_order,
}};

}  // namespace akm::exp
