// T16 mixture — [app:multimodal, prop:bounded-sigma-hat, lem:transport, thm:tracking]
//
// Keys from a mixture of Gaussian components with different spiked directions and scales
// (ratio 100): component k, with probability π_k, draws x = s_k B_k (√λ ∘ z). x̂ is
// scale-free, so each component's Σ̂_k = B_k diag(λ̂) B_kᵀ with λ̂ from the exact quadrature
// whatever s_k, and [app:multimodal]
//   Σ̂_mix = Σ_k π_k Σ̂_k  (unit trace),   K_mix = Σ_k π_k s_k B_k diag(κ) B_kᵀ.
// The raw key's covariance Σ_mix = Σ_k π_k s_k² B_k diag(λ) B_kᵀ is dominated by the
// largest-scale component.
//
// Transport and tracking follow the mixture's moments [lem:transport, thm:tracking]: keys
// are independent, so E[P_k] = (βI − ηΣ̂_mix)^k (normalized) or (βI − ηΣ_mix)^k (raw),
// and with M_0 = 0, E[M_t] = M*(I − (βI − ηS)^t), S = Σ̂_mix or Σ_mix, M* = G(μI + S)^{-1}.
// The values see the key's direction only, δ = a·x̂ + ξ (an output-side signal of unit
// scale whatever the modality's input scale), so Ĝ = aΣ̂_mix and Ḡ = E[(a·x̂)xᵀ] = aK_mix.
// One component's basis is a Haar rotation, so Σ̂_mix is not diagonal in any component's
// basis: it is diagonalized with Eigen and every rate is measured along its eigenvectors
// v_j (Σ_mix's eigenvectors for the raw key). Along each component's top spike b_k = B_k e_1 the
// mean transport is b_kᵀ(βI − ηΣ̂_mix)^k b_k: the normalized buffer contracts every
// component's direction by its density share; the raw one barely touches the small
// components' directions.
//
// Step sizes. Normalized η = 0.5 < β: β̃_j ≥ β − η > 0, and ‖βI − ηx̂x̂ᵀ‖ ≤ β surely, so
// all moments are bounded. Raw η is set from E‖v(βI − ηxxᵀ)‖² ≤ (β² + η²E‖x‖⁴)‖v‖²
// (drop the −2βη(v·x)² term) to β² + η²E‖x‖⁴ = kRawMs < 1: the raw buffer is mean-square
// stable, so its Monte-Carlo standard errors are finite and shrink with the trials.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/sim/key_law_moments.hpp"
#include "t16_mixture.hpp"

namespace akm::exp {

static void t16_mixture(ExperimentContext& ctx) {
  using namespace t16;
  // ---- Set-up: the mixture law, both variants' exact moments and rivals, the value map ----
  const long long R = trials(ctx, 20000, 2000);
  const long long moment_samples = ctx.opts.quick ? 200000 : 1000000;
  const long long raw_samples = ctx.opts.quick ? 50000 : 200000;
  const Spectrum spec = parse_spectrum(kSpectrum);
  const int n = spec.n();
  const KeySampler law(parse_key_law(kLaw), spec.lambda, derive_seed(ctx.opts.seed, "T16/bases"));
  const int C = law.components();
  const auto& w = law.law().weights;
  const auto& sc = law.law().scales;

  // Exact moments [app:multimodal] and the raw covariance.
  const KeyLawMoments ex = exact_key_moments(law);
  const Mat cov = law.covariance();
  const double eta_raw = std::sqrt(kRawMs - kBeta * kBeta) / std::sqrt(law.fourth_moment_norm());
  Variant norm = make_variant(Key::normalized, kEtaNorm, ex.sigma_hat, ex.sigma_hat);
  Variant raw = make_variant(Key::raw, eta_raw, cov, ex.K);
  Mat B1(n, C);  // each component's top spike direction b_c = B_c e_1
  for (int c = 0; c < C; ++c) B1.col(c) = law.basis(c).col(0);
  double energy = 0;
  for (int c = 0; c < C; ++c) energy += w[static_cast<std::size_t>(c)] * sc[static_cast<std::size_t>(c)] * sc[static_cast<std::size_t>(c)];
  const double large_share = w[kLarge] * sc[kLarge] * sc[kLarge] / energy;  // of tr Σ_mix
  const Mat cov_large = w[kLarge] * sc[kLarge] * sc[kLarge] * law.basis(kLarge) * spec.lambda.asDiagonal() *
                        law.basis(kLarge).transpose();
  // The alternatives the claim rules out [app:multimodal]: the normalized key's moments
  // weighted by energy π_k s_k² (as if normalizing kept the scale) instead of by density
  // π_k, and the raw key's weighted by density π_k (at the raw trace) instead of by energy.
  const KeyMoments comp = gaussian_key_moments(spec.lambda);
  Mat sigma_hat_energy = Mat::Zero(n, n), K_unscaled = Mat::Zero(n, n), shape_density = Mat::Zero(n, n);
  for (int c = 0; c < C; ++c) {
    const auto u = static_cast<std::size_t>(c);
    const Mat& B = law.basis(c);
    sigma_hat_energy += w[u] * sc[u] * sc[u] / energy * B * comp.lambda_hat.asDiagonal() * B.transpose();
    K_unscaled += w[u] * B * comp.kappa.asDiagonal() * B.transpose();
    shape_density += w[u] * B * spec.lambda.asDiagonal() * B.transpose();
  }
  norm.S_alt = sigma_hat_energy, norm.alt_label = "energy-weighted Σ_k π_k s_k² Σ̂_k";
  raw.S_alt = cov.trace() / shape_density.trace() * shape_density, raw.alt_label = "density-weighted Σ_k π_k Σ_k";

  ctx.params = {{"beta", kBeta}, {"eta_normalized", kEtaNorm}, {"eta_raw", eta_raw},
                {"eta_raw_rule", "beta^2 + eta^2 E||x||^4 = 0.95 (mean-square contraction bound)"},
                {"E_norm4", law.fourth_moment_norm()}, {"steps", kSteps}, {"lags", kLags}, {"trials", R},
                {"spectrum", spec.spec}, {"lambda", to_std(spec.lambda)}, {"law", law.law().spec},
                {"lambda_hat_component", to_std(gaussian_key_moments(spec.lambda).lambda_hat)},
                {"kappa_component", to_std(gaussian_key_moments(spec.lambda).kappa)},
                {"bases", nlohmann::json::array()}, {"noise_sigma", kNoise}, {"M0", "zero"},
                {"value_stream", "delta = a.xhat + xi, xi ~ N(0, noise_sigma^2), a ~ N(0, I_n) fixed (see a)"},
                {"sigma_hat_mix_eigenvalues", to_std(norm.ev)}, {"sigma_mix_eigenvalues", to_std(raw.ev)},
                {"raw_trace_share_large_component", large_share},
                {"raw_relative_distance_to_large_component", (cov - cov_large).norm() / cov.norm()},
                {"moment_samples", moment_samples}, {"raw_moment_samples", raw_samples}};
  for (int c = 0; c < C; ++c) {
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < n; ++r) rows.push_back(to_std(law.basis(c).row(r).transpose()));
    ctx.params["bases"].push_back(rows);
  }

  const Vec a = value_map(1, n, derive_seed(ctx.opts.seed, "T16/A")).row(0).transpose();
  ctx.params["a"] = to_std(a);
  std::vector<VariantRun> runs;
  for (const Variant* v : {&norm, &raw}) {
    VariantRun run{v, {}, {}, {}, {}};
    const double mu = theory::mu(kBeta, v->eta);
    const Vec Mstar = ((a.transpose() * v->G_of_a) * (mu * Mat::Identity(n, n) + v->S).inverse()).transpose();
    run.Mv = v->V.transpose() * Mstar;  // M*v_j
    run.Gv = v->V.transpose() * (a.transpose() * v->G_of_a).transpose();
    ctx.params[to_string(v->key) + std::string("_Mstar_along_eigenvectors")] = to_std(run.Mv);
    runs.push_back(std::move(run));
  }

  // ---- Simulate: the moments by Monte Carlo; per variant the transport and the tracking runs ----
  const KeyLawMoments mc = key_moments_mc(law, moment_samples, derive_seed(ctx.opts.seed, "T16/moments"),
                                          ctx.opts.threads);
  const RawMoments rm = raw_moments(law, raw_samples, derive_seed(ctx.opts.seed, "T16/raw"));
  for (VariantRun& run : runs) {
    const std::string k = to_string(run.v->key);
    run.transport = transport(ctx, law, *run.v, B1, derive_seed(ctx.opts.seed, "T16/transport/" + k), R);
    run.tracking = tracking(ctx, law, *run.v, a, derive_seed(ctx.opts.seed, "T16/tracking/" + k), R);
  }

  // ---- Check: the moments against the exact mixture formulas; each variant (checks.cpp) ----
  ctx.checks.exact("tr Σ̂_mix = 1 (exact formula Σ_k π_k B_k diag(λ̂) B_kᵀ)", 1.0, ex.sigma_hat.trace());
  // Every x̂ has unit norm, so the estimate's trace is 1 by construction: a design check.
  ctx.checks.exact("tr Σ̂_mix = 1 (Monte-Carlo estimate)", 1.0, mc.sigma_hat.trace()).design();
  matrix_family(ctx, "Monte-Carlo Σ̂_mix = Σ_k π_k Σ̂_k (upper triangle)", ex.sigma_hat, mc.sigma_hat, mc.sigma_hat_se,
                sigma_hat_energy, norm.alt_label);
  matrix_family(ctx, "Monte-Carlo K_mix = Σ_k π_k s_k B_k diag(κ) B_kᵀ (upper triangle)", ex.K, mc.K, mc.K_se,
                K_unscaled, "Σ_k π_k B_k diag(κ) B_kᵀ (scale dropped)");
  // The raw key's covariance is the sampler's own second moment (a mixture's covariance is
  // the weighted sum by construction): a design check of the generator, never evidence. Its
  // entries are heavy-tailed (scale 100), so it has little power; the alternative shown is
  // the largest component alone, which the claim says Σ_mix is close to.
  matrix_family(ctx, "Monte-Carlo E[xxᵀ] = Σ_mix = Σ_k π_k s_k² B_k diag(λ) B_kᵀ", cov, rm.cov, rm.cov_se, cov_large,
                "largest component alone")
      .design();
  ctx.checks.mc("E[‖x‖² 1{large component}] = π_L s_L² tr Λ", large_share * cov.trace(), rm.large_energy,
                rm.large_energy_se);
  ctx.checks.design();  // the generator's energy share, by construction

  for (const VariantRun& run : runs) check_variant(ctx, run, B1, sc);

  // ---- Record: the tables (tables.cpp) and the figures ----
  write_tables(ctx, law, runs, B1);
  figures(ctx, law, shown_directions(runs[0].Mv));
}

const Registrar registration{{
    .id = "T16",
    .slug = "mixture",
    .title = "Mixed-modality keys: Σ̂_mix = Σ_k π_k Σ̂_k sets every rate",
    .labels = "app:multimodal prop:bounded-sigma-hat lem:transport thm:tracking",
    .claim = "Σ̂_mix = Σ_k π_k Σ̂_k (tr = 1); E[v_jᵀP_kv_j] = (β−ηλ̂_j(Σ̂_mix))^k and tracking follows "
             "Σ̂_mix; the raw key follows Σ_mix ≈ the largest-scale component",
    .body = t16_mixture,
}};

}  // namespace akm::exp
