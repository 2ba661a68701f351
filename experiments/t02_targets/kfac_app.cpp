// T2 targets, the ridge μ as an interpolation toward the K-FAC input-side factor
// [rem:kfac-app]. The raw-key buffer at β < 1 has M*(μ) = Ḡ(μI + Σ)^{-1} [eq:dm-fixedpoint]:
// μ → 0 gives K = ḠΣ^{-1}, the input-side factor of K-FAC's natural gradient [rem:kfac], and
// μ → ∞ gives Ḡ/μ, EMA's direction-uniform target. The normalized key: normalized_key.cpp.
#include "t02_targets.hpp"

namespace akm::exp::t02 {
namespace {

// Ridges spanning the spectrum (λ from 0.1 to 10): μ ≪ λ_min, μ ≈ λ_mid, μ > λ_max. The
// smallest puts M* within μ/(μ + λ_min) ≈ 1% of K; ηλ_max = 0.4 as in the pure-delta check.
const std::vector<double> kAppMus{1e-3, 0.3, 3.0};
const std::vector<int> kAppCheckpoints{150, kDeltaSteps};
// A fine grid for the exact monotonicity of the interpolation (two decades past each end).
constexpr double kGridLo = 1e-4, kGridHi = 1e3;
constexpr int kGridPoints = 29;

double cond(const Mat& S) {
  const Vec ev = Eigen::SelfAdjointEigenSolver<Mat>(S, Eigen::EigenvaluesOnly).eigenvalues();
  return ev.maxCoeff() / ev.minCoeff();
}

// (b) exact: ‖M*(μ) − K‖/‖K‖ = ‖μK(μI+Σ)^{-1}‖/‖K‖ grows with μ (each u_i column scales by
// μ/(μ+λ_i)) and ‖μM*(μ) − Ḡ‖/‖Ḡ‖ shrinks (λ_i/(μ+λ_i)): M* leaves K toward Ḡ/μ. Fills the
// largest violations of either monotonicity on the fine grid and the distances at its ends.
void interpolation(const Dense& d, KfacAppRun& run) {
  const Mat gbar = d.gbar();
  const Mat& K = run.K;
  double worst_up = -1e300, worst_down = -1e300;
  double prev_k = -1, prev_g = 1e300;
  for (int g = 0; g < kGridPoints; ++g) {
    const double mu = kGridLo * std::pow(kGridHi / kGridLo, g / (kGridPoints - 1.0));
    const Mat Ms = theory::fixed_point(gbar, d.sigma, mu);
    const double dk = rel_dist(Ms, K), dg = rel_dist(mu * Ms, gbar);
    if (g > 0) worst_up = std::max(worst_up, prev_k - dk), worst_down = std::max(worst_down, dg - prev_g);
    prev_k = dk, prev_g = dg;
  }
  run.worst_up = worst_up;
  run.worst_down = worst_down;
  run.far_end = rel_dist(kGridHi * theory::fixed_point(gbar, d.sigma, kGridHi), gbar);
  run.near_end = rel_dist(theory::fixed_point(gbar, d.sigma, kGridLo), K);
}

// (a, b) Monte Carlo: the raw-key AK buffer at μ (β = 1 − μη), M_t at every checkpoint
// (dense_buffer: ops::row_buffers).
// Also the exact conditioning of μI + Σ (the matrix M* inverts) and M*(μ)'s distance to K.
RidgeRun simulate_mu(ExperimentContext& ctx, const Dense& d, double mu, double eta, const Mat& K) {
  const int n = d.n();
  RidgeRun run{mu, 1.0 - mu * eta, 0.0, cond(mu * Mat::Identity(n, n) + d.sigma),
               rel_dist(theory::fixed_point(d.gbar(), d.sigma, mu), K), trials(ctx, 6000, 600), {}};
  const double beta = run.beta;
  run.rho = require_mean_square_stable(d.sp.lambda, beta, eta, "K-FAC ridge");
  run.res = dense_buffer(ctx, d, {BufferKind::ak_raw, beta, eta, kAppCheckpoints, false},
                         derive_seed(ctx.opts.seed, fmt::format("T2/kfac-app/mu={:g}", mu)), run.trials,
                         fmt::format("T2 K-FAC ridge mu={:g}", mu));
  return run;
}

// Against the closed-form transient E[M_t] = M*(μ)(I − (βI − ηΣ)^t) [thm:fixedpoint], worst
// of the m·n entries; then the exact conditioning and distance to K.
void check_mu(ExperimentContext& ctx, const Dense& d, double eta, const RidgeRun& run) {
  const int n = d.n();
  const double mu = run.mu, beta = run.beta;
  const std::size_t block = static_cast<std::size_t>(kM) * n;
  const Mat gbar = d.gbar();
  const bool smallest = mu == kAppMus.front();
  for (std::size_t cp = 0; cp < kAppCheckpoints.size(); ++cp) {
    const int t = kAppCheckpoints[cp];
    const Mat pred = theory::transient_mean(gbar, d.sigma, beta, eta, t);
    std::size_t worst = 0;
    double worst_z = -1;
    for (std::size_t e = 0; e < block; ++e) {
      const double z = std::abs(run.res.total.mean()[cp * block + e] - pred(e)) / run.res.total.stderr_mean()[cp * block + e];
      if (z > worst_z) worst_z = z, worst = e;
    }
    const auto w = static_cast<Eigen::Index>(worst);
    ctx.checks.mc_family(fmt::format("kfac-app/mu={:g}/t={}/E[M_t] = G (mu I + Sigma)^-1 (I - P^t), worst of {} entries",
                                     mu, t, block),
                         pred(w), run.res.total.estimate(static_cast<Eigen::Index>(cp * block) + w),
                         static_cast<long long>(block));
    // Rivals: at the smallest μ, EMA fed the same stream (E[M_t] = Ḡ(1 − β^t)), the target
    // that μ's interpolation leaves; at the larger μ, the μ = 0 transient toward K, which the
    // ridge must visibly move away from.
    if (smallest)
      ctx.checks.against(gbar(w) * (1.0 - std::pow(beta, t)), "EMA (G)");
    else
      ctx.checks.against(theory::transient_mean(gbar, d.sigma, 1.0, eta, t)(w), "mu = 0 (K-FAC factor)");
  }
  // (b) exact: the ridge conditions the matrix M* inverts [rem:kfac-app: numerically stable].
  ctx.checks.at_most(fmt::format("kfac-app/mu={:g}/cond(Sigma + mu I) <= cond(Sigma)", mu), cond(d.sigma),
                     run.cond_ridged);
  // (a) exact: M*(μ) is within μ/(μ + λ_min) of the K-FAC factor read off the Fisher.
  ctx.checks.at_most(fmt::format("kfac-app/mu={:g}/|M*(mu) - K_Fisher|/|K_Fisher| <= mu/(mu+lambda_min)", mu),
                     mu / (mu + d.sp.lambda.minCoeff()), run.distance_to_kfac);
}

}  // namespace

KfacAppRun measure_kfac_app(ExperimentContext& ctx, const Dense& d) {
  KfacAppRun run{kEtaLamMax / d.sp.lambda.maxCoeff(), kfac_input_factor(d), 0, 0, 0, 0, {}};
  interpolation(d, run);
  for (double mu : kAppMus) run.ridges.push_back(simulate_mu(ctx, d, mu, run.eta, run.K));
  return run;
}

void check_kfac_app(ExperimentContext& ctx, const Dense& d, const KfacAppRun& run) {
  ctx.checks.at_most("kfac-app/interp/|M*(mu) - K|/|K| increasing in mu (max decrease)", 0.0, run.worst_up);
  ctx.checks.at_most("kfac-app/interp/|mu M*(mu) - G|/|G| decreasing in mu (max increase)", 0.0,
                     run.worst_down);
  const double lmin = d.sp.lambda.minCoeff(), lmax = d.sp.lambda.maxCoeff();
  ctx.checks.at_most(fmt::format("kfac-app/interp/mu={:g}: |mu M* - G|/|G| <= lambda_max/(mu+lambda_max)", kGridHi),
                     lmax / (kGridHi + lmax), run.far_end);
  ctx.checks.at_most(fmt::format("kfac-app/interp/mu={:g}: |M* - K|/|K| <= mu/(mu+lambda_min)", kGridLo),
                     kGridLo / (kGridLo + lmin), run.near_end);
  for (const RidgeRun& r : run.ridges) check_mu(ctx, d, run.eta, r);
}

void record_kfac_app(ExperimentContext& ctx, const Dense& d, const KfacAppRun& run) {
  nlohmann::json runs = nlohmann::json::array();
  for (const RidgeRun& r : run.ridges)
    runs.push_back({{"mu", r.mu}, {"beta", r.beta}, {"eta", run.eta}, {"trials", r.trials},
                    {"mean_square_radius", r.rho}, {"cond_ridged", r.cond_ridged},
                    {"distance_to_kfac", r.distance_to_kfac}});
  ctx.params["kfac_app"] = {{"checkpoints", kAppCheckpoints}, {"cond_sigma", cond(d.sigma)},
                            {"mu_grid", {kGridLo, kGridHi, kGridPoints}}, {"runs", runs},
                            {"prediction", "E[M_t] = G (mu I + Sigma)^-1 (I - (beta I - eta Sigma)^t), K = E[dd^T] F^-1 G"}};
}

}  // namespace akm::exp::t02
