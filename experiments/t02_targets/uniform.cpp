// T2 targets, uniform multiples iff Σ = cI and the μ limits of φ_i [tab:targets]. The
// claims: claim.cpp.
#include "t02_targets.hpp"

namespace akm::exp::t02 {
namespace {

// ---------------------------------------------------- uniform multiples iff Σ = cI

// W = ḠΣ^{-1} by explicit LU inversion; c = ⟨W, Ḡ⟩/‖Ḡ‖² is the least-squares multiple and
// ‖W − cḠ‖/‖W‖ its relative distance: zero iff every W u_i / Ḡu_i = 1/λ_i is the same.
UniformCase uniformity(std::string name, const Spectrum& sp, const Mat& A) {
  const Mat sigma = sp.covariance();
  const Mat gbar = A * sigma;
  const Mat W = gbar * sigma.partialPivLu().inverse();
  const double c = W.cwiseProduct(gbar).sum() / gbar.squaredNorm();
  const Mat& U = sp.basis;
  // [tab:targets] Wiener row: W u_i λ_i = Ḡu_i, all directions at once.
  const double per_dir = rel_dist(W * U * sp.lambda.asDiagonal(), gbar * U);
  return {std::move(name), sp, A, c, (W - c * gbar).norm() / W.norm(), rel_dist(W, A), per_dir};
}

// ------------------------------------------------ the μ limits of φ_i [tab:targets]

// Solid: λ_iφ_i (M*u_i against the Wiener target ḠΣ^{-1}u_i), flat at 1 for μ ≪ λ_i.
// Dashed, same colour: φ_i/φ_1 (against EMA's direction-uniform scaling), flat at 1 for
// μ ≫ λ_1. The knee of direction i sits at μ = λ_i.
void mu_figure(ExperimentContext& ctx, const Vec& lambda) {
  const std::vector<int> shown{0, 2, 5, static_cast<int>(lambda.size()) - 1};
  const std::vector<std::string> colors{"#1b9e77", "#d95f02", "#7570b3", "#e7298a"};
  Figure fig;
  fig.name = "mu-interpolation";
  fig.title = "T2 [tab:targets]: φ_i = 1/(μ+λ_i) moves from Wiener (μ → 0) to EMA (μ → ∞)";
  fig.xlabel = "ridge μ = (1−β)/η";
  fig.ylabel = "per-direction scaling of M*u_i";
  fig.logx = fig.logy = true;
  const std::size_t k = shown.size();
  for (std::size_t c = 0; c < k; ++c) {
    fig.extra.push_back(fmt::format("set linetype {} lc rgb '{}' lw 2 dt 1", c + 1, colors[c]));
    fig.extra.push_back(fmt::format("set linetype {} lc rgb '{}' lw 2 dt 2", c + 1 + k, colors[c]));
  }
  fig.extra.insert(fig.extra.end(),
                   {"set key inside right top vertical maxrows 4 box opaque samplen 2",
                    "set format x '10^{%L}'", "set format y '10^{%L}'",
                    "set xrange [1e-6:1e6]", "set yrange [1e-5:1e4]",
                    "set label 'Wiener end: λ_iφ_i = 1  (M* = ḠΣ^{-1})' at graph 0.02, graph 0.52",
                    "set label 'EMA end: φ_i/φ_1 = 1  (M* ∝ Ḡ)' at graph 0.60, graph 0.59"});
  for (const bool wiener : {true, false})
    for (int i : shown)
      fig.series.push_back({"data_mu.csv", "mu", wiener ? "lambda_phi" : "phi_over_phi1", "",
                            fmt::format("{}, λ_i = {:.2g}", wiener ? "λ_iφ_i" : "φ_i/φ_1", lambda[i]),
                            "lines", "direction=" + dir_label(i)});
  fig.functions = {"1 notitle lw 1 lc rgb 'black'"};
  ctx.out.figure(fig);
}

}  // namespace

std::vector<UniformCase> measure_uniform(ExperimentContext& ctx) {
  std::vector<UniformCase> out;
  const std::vector<std::pair<std::string, const char*>> cases{{"iso", kIsoSpec},
                                                               {"spiked", kAnisoSpec}};
  for (const auto& [name, spec] : cases) {
    const Spectrum sp = parse_spectrum(spec, derive_seed(ctx.opts.seed, "T2/basis/" + name));
    out.push_back(uniformity(name, sp, value_map(kM, sp.n(), derive_seed(ctx.opts.seed, "T2/A/uniform"))));
  }
  return out;
}

void check_uniform(ExperimentContext& ctx, const std::vector<UniformCase>& cases) {
  for (const UniformCase& u : cases) {
    const std::string p = "uniform/" + u.name;
    ctx.checks.exact(p + "/G Sigma^-1 (LU) = A", 0.0, u.wiener_vs_A, 0.0, kRel);
    ctx.checks.exact(p + "/W u_i = G u_i / lambda_i", 0.0, u.per_direction, 0.0, kRel);
    if (u.sp.kind == "iso") {
      ctx.checks.exact(p + "/distance of W from c*G = 0", 0.0, u.distance, 0.0, kRel);
      ctx.checks.exact(p + "/c = 1/scale", 1.0 / u.sp.lambda[0], u.c);
    } else {
      ctx.checks.at_most(fmt::format("{}/distance of W from c*G >= {}", p, kMinDistance),
                         -kMinDistance, -u.distance);
    }
  }
}

void record_uniform(ExperimentContext& ctx, const std::vector<UniformCase>& cases) {
  auto out = nlohmann::json::array();
  for (const UniformCase& u : cases)
    out.push_back({{"spec", u.sp.spec}, {"lambda", to_std(u.sp.lambda)}, {"U", rows_json(u.sp.basis)},
                   {"A", rows_json(u.A)}, {"c", u.c}, {"distance", u.distance}});
  ctx.params["uniform"] = out;
}

// φ_i = 1/(μ+λ_i) [eq:dm-eigen]. Bounds, exact for every μ > 0:
//   λ_iφ_i − 1 = −μ/(μ+λ_i)          ⇒ |λ_iφ_i − 1| ≤ μ/λ_i ≤ μ/λ_min        (→ 0 as μ → 0)
//   φ_i/φ_j − 1 = (λ_j−λ_i)/(μ+λ_i)  ⇒ |φ_i/φ_j − 1| ≤ |λ_i−λ_j|/μ ≤ (λ_max−λ_min)/μ
//                                                                          (→ 0 as μ → ∞)
// and λ_iφ_i = λ_i/(μ+λ_i) and φ_i/φ_1 = (μ+λ_1)/(μ+λ_i) (λ_1 = λ_max) are non-increasing
// in μ: the interpolation Wiener ↔ EMA of [tab:targets] is monotone.
MuLimits measure_mu_limits(const Vec& lambda) {
  const int n = static_cast<int>(lambda.size());
  MuLimits m{lambda, {}, {}, {}, {}, -std::numeric_limits<double>::infinity(),
             -std::numeric_limits<double>::infinity()};
  for (int k = 0; k <= 48; ++k) {
    const double mu = std::pow(10.0, -6.0 + 0.25 * k);
    m.grid.push_back(mu);
    Vec phi(n);
    for (int i = 0; i < n; ++i) phi[i] = theory::phi(mu, lambda[i]);
    const Vec w = lambda.cwiseProduct(phi), e = phi / phi[0];
    double err_e = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) err_e = std::max(err_e, std::abs(phi[i] / phi[j] - 1.0));
    if (k > 0) {
      m.rise_w = std::max(m.rise_w, (w - m.w.back()).maxCoeff());
      m.rise_e = std::max(m.rise_e, (e - m.e.back()).maxCoeff());
    }
    m.w.push_back(w);
    m.e.push_back(e);
    m.err_e.push_back(err_e);
  }
  return m;
}

void check_mu_limits(ExperimentContext& ctx, const MuLimits& m) {
  const double lmin = m.lambda.minCoeff(), lmax = m.lambda.maxCoeff();
  for (std::size_t k = 0; k < m.grid.size(); ++k) {
    const double mu = m.grid[k];
    ctx.checks.at_most(fmt::format("mu={:.3g}/max|lambda_i phi_i - 1| <= mu/lambda_min", mu),
                       mu / lmin, (m.w[k].array() - 1.0).abs().maxCoeff());
    ctx.checks.at_most(
        fmt::format("mu={:.3g}/max|phi_i/phi_j - 1| <= (lambda_max-lambda_min)/mu", mu),
        (lmax - lmin) / mu, m.err_e[k]);
  }
  ctx.checks.at_most("mu/lambda_i phi_i non-increasing in mu", 0.0, m.rise_w);
  ctx.checks.at_most("mu/phi_i/phi_1 non-increasing in mu", 0.0, m.rise_e);
}

void record_mu_limits(ExperimentContext& ctx, const MuLimits& m) {
  CsvTable table{{"mu", "direction", "lambda", "lambda_phi", "phi_over_phi1"}, {}};
  for (std::size_t k = 0; k < m.grid.size(); ++k)
    for (Eigen::Index i = 0; i < m.lambda.size(); ++i)
      table.add({m.grid[k], dir_label(static_cast<int>(i)), m.lambda[i], m.w[k][i], m.e[k][i]});
  ctx.params["mu_limits"] = {{"lambda", to_std(m.lambda)}, {"mu_grid", m.grid}};
  ctx.out.write_csv("data_mu.csv", table);
  mu_figure(ctx, m.lambda);
}

}  // namespace akm::exp::t02
