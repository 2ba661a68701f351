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
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/sim/key_law_moments.hpp"
#include "sensitivity.hpp"
#include "t16_mixture.hpp"

namespace akm::exp {

static void t16_mixture(ExperimentContext& ctx) {
  using namespace t16;
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

  // 1. Moments: the Monte-Carlo Σ̂, K, Σ against the exact mixture formulas.
  const KeyLawMoments mc = key_moments_mc(law, moment_samples, derive_seed(ctx.opts.seed, "T16/moments"),
                                          ctx.opts.threads);
  ctx.checks.exact("tr Σ̂_mix = 1 (exact formula Σ_k π_k B_k diag(λ̂) B_kᵀ)", 1.0, ex.sigma_hat.trace());
  // Every x̂ has unit norm, so the estimate's trace is 1 by construction: a design check.
  ctx.checks.exact("tr Σ̂_mix = 1 (Monte-Carlo estimate)", 1.0, mc.sigma_hat.trace()).design();
  matrix_family(ctx, "Monte-Carlo Σ̂_mix = Σ_k π_k Σ̂_k (upper triangle)", ex.sigma_hat, mc.sigma_hat, mc.sigma_hat_se,
                sigma_hat_energy, norm.alt_label);
  matrix_family(ctx, "Monte-Carlo K_mix = Σ_k π_k s_k B_k diag(κ) B_kᵀ (upper triangle)", ex.K, mc.K, mc.K_se,
                K_unscaled, "Σ_k π_k B_k diag(κ) B_kᵀ (scale dropped)");
  const RawMoments rm = raw_moments(law, raw_samples, derive_seed(ctx.opts.seed, "T16/raw"));
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

  // 2. Transport along the eigenvectors, and along each component's top spike.
  CsvTable rates{{"variant", "rank", "eigenvalue", "predicted_rate", "measured_rate", "stderr_rate"}, {}};
  CsvTable comps{{"variant", "component", "x", "scale", "basis", "predicted_share", "measured_share", "stderr_share",
                  "predicted_factor", "measured_factor", "stderr_factor"}, {}};
  const Vec a = value_map(1, n, derive_seed(ctx.opts.seed, "T16/A")).row(0).transpose();
  ctx.params["a"] = to_std(a);
  std::vector<int> shown;  // tracking-figure directions (normalized key)
  for (const Variant* v : {&norm, &raw}) {
    const std::string k = to_string(v->key);
    const TLayout L{n, C};
    const McResult res = transport(ctx, law, *v, B1, derive_seed(ctx.opts.seed, "T16/transport/" + k), R);
    const Vec mean = res.total.mean(), se = res.total.stderr_mean();
    const Mat F_alt = kBeta * Mat::Identity(n, n) - v->eta * v->S_alt;  // the rival mean factor
    for (std::size_t l = 0; l < kLags.size(); ++l) {
      const Mat Q_alt = v->V.transpose() * matrix_power(F_alt, kLags[l]) * v->V;
      std::vector<double> p, m, e, alt;
      for (int j = 0; j < n; ++j) {
        p.push_back(std::pow(v->beta_tilde(j), kLags[l])), m.push_back(mean[L.diag(l, j)]), e.push_back(se[L.diag(l, j)]);
        alt.push_back(Q_alt(j, j));
      }
      const std::size_t j = family(ctx, fmt::format("{}/transport lag={}: E[v_jᵀP_kv_j] = β̃_j^k along the eigenvectors of {}", k, kLags[l],
                                                    v->key == Key::raw ? "Σ_mix" : "Σ̂_mix"), p, m, e, alt, v->alt_label);
      const int lag = kLags[l];
      const double ev_j = v->ev[static_cast<Eigen::Index>(j)];
      sensitivity(ctx.checks, [&](double et, double b, double scale) { return std::pow(theory::beta_tilde(b, et, scale * ev_j), lag); },
                  v->eta, kBeta);
    }
    {  // E[P_5] is diagonal in the eigenbasis: every off-diagonal entry has mean 0.
      const Mat Q_alt = v->V.transpose() * matrix_power(F_alt, kLags[kOffLag]) * v->V;
      std::vector<double> p, m, e, alt;
      for (int c = 0; c < n; ++c)
        for (int r = 0; r < n; ++r)
          if (r != c) p.push_back(0.0), m.push_back(mean[L.off(r, c)]), e.push_back(se[L.off(r, c)]), alt.push_back(Q_alt(r, c));
      family(ctx, fmt::format("{}/transport lag={}: off-diagonal v_rᵀP_kv_c = 0", k, kLags[kOffLag]), p, m, e, alt,
             v->alt_label);
    }
    // Per-step rate from lag 5 (delta method): r̂_j = m^{1/5}, se(r̂) = r̂·se/(5m).
    const int lag = kLags[1];
    for (int j = 0; j < n; ++j) {
      const double m = mean[L.diag(1, j)], e = se[L.diag(1, j)];
      const double r = m > 0 ? std::pow(m, 1.0 / lag) : std::nan("");
      rates.add({k, j + 1, v->ev[j], v->beta_tilde(j), r, r * e / (lag * m)});
    }
    // Each component's top spike b_c: E[b_cᵀP_kb_c] = b_cᵀ(βI − ηS)^k b_c.
    const double top = v->ev[0];
    for (std::size_t l = 0; l < 2; ++l) {
      const Mat F = v->mean_factor();
      Mat Fk = Mat::Identity(n, n);
      for (int t = 0; t < kLags[l]; ++t) Fk = Fk * F;
      for (int c = 0; c < C; ++c) {
        const double p = B1.col(c).dot(Fk * B1.col(c));
        const double m = mean[L.comp(l, c)], e = se[L.comp(l, c)];
        ctx.checks.mc(fmt::format("{}/transport lag={}: component {} (s={}) top spike b_c: E[b_cᵀP_kb_c] = b_cᵀ(βI−ηS)^k b_c",
                                  k, kLags[l], c + 1, sc[static_cast<std::size_t>(c)]), p, m, e);
        ctx.checks.against(B1.col(c).dot(matrix_power(F_alt, kLags[l]) * B1.col(c)), v->alt_label);
        const Vec b = B1.col(c);
        const int lag = kLags[l];
        sensitivity(ctx.checks,
                    [&](double et, double bb, double scale) {
                      return b.dot(matrix_power(bb * Mat::Identity(n, n) - et * scale * v->S, lag) * b);
                    },
                    v->eta, kBeta);
        if (l == 0)  // one-step contraction share relative to the strongest direction: b_cᵀSb_c / λ_top(S)
          comps.add({k, c + 1, c + (v->key == Key::raw ? 0.1 : -0.1), sc[static_cast<std::size_t>(c)],
                     law.law().bases[static_cast<std::size_t>(c)], B1.col(c).dot(v->S * B1.col(c)) / top,
                     (kBeta - m) / (v->eta * top), e / (v->eta * top), p, m, e});
      }
    }

    // 3. Tracking with a value stream: E[M_t v_j] = (1 − β̃_j^t) M*v_j, M* = G(μI + S)^{-1}.
    const double mu = theory::mu(kBeta, v->eta);
    const Vec Mstar = ((a.transpose() * v->G_of_a) * (mu * Mat::Identity(n, n) + v->S).inverse()).transpose();
    const Vec Mv = v->V.transpose() * Mstar;  // M*v_j
    ctx.params[k + "_Mstar_along_eigenvectors"] = to_std(Mv);
    const McResult tr = tracking(ctx, law, *v, a, derive_seed(ctx.opts.seed, "T16/tracking/" + k), R);
    const Vec tm = tr.total.mean(), ts = tr.total.stderr_mean();
    // The EMA buffer fed the same stream converges to G itself at rate β [eq:ema-update]:
    // E[m_t]v_j = Gv_j(1 − β^t) — no (μI + S)^{-1}, no β̃_j.
    const Vec Gv = v->V.transpose() * (a.transpose() * v->G_of_a).transpose();
    for (int t : {5, 20, 60}) {
      std::vector<double> p, m, e, alt;
      for (int j = 0; j < n; ++j) {
        const std::size_t o = static_cast<std::size_t>(t - 1) * n + j;
        p.push_back((1.0 - std::pow(v->beta_tilde(j), t)) * Mv[j]), m.push_back(tm[o]), e.push_back(ts[o]);
        alt.push_back(theory::transient_mean(Gv[j], kBeta, t));
      }
      const std::size_t j = family(ctx, fmt::format("{}/tracking t={}: E[M_tv_j] = (1 − β̃_j^t) M*v_j", k, t), p, m, e, alt, "EMA");
      // Resolution: the entry as a function of (η, β, λ_j(S)), the gain Gv_j held fixed.
      const double ev_j = v->ev[static_cast<Eigen::Index>(j)], g_j = Gv[static_cast<Eigen::Index>(j)];
      sensitivity(ctx.checks,
                  [&](double et, double b, double scale) {
                    const double l = scale * ev_j;
                    return theory::transient_mean(g_j * theory::phi(theory::mu(b, et), l), theory::beta_tilde(b, et, l), t);
                  },
                  v->eta, kBeta);
    }
    if (v->key == Key::normalized) {
      // Figure data: the remaining gap (M* − E[M_t])v_j / M*v_j = β̃_j^t on four directions
      // chosen from predictions only (the largest |M*v_j| in each quarter of the spectrum).
      CsvTable gap{{"direction", "t", "predicted", "measured", "stderr"}, {}};
      for (int q = 0; q < 4; ++q) {
        int best = q * n / 4;
        for (int j = q * n / 4; j < (q + 1) * n / 4; ++j)
          if (std::abs(Mv[j]) > std::abs(Mv[best])) best = j;
        shown.push_back(best);
        for (int t = 1; t <= kSteps; ++t) {
          const std::size_t o = static_cast<std::size_t>(t - 1) * n + best;
          gap.add({fmt::format("v{}", best + 1), t, std::pow(v->beta_tilde(best), t),
                   (Mv[best] - tm[o]) / Mv[best], ts[o] / std::abs(Mv[best])});
        }
      }
      ctx.out.write_csv("data_tracking_normalized.csv", gap);
    }
  }
  ctx.out.write_csv("data_rates.csv", rates);
  ctx.out.write_csv("data_components.csv", comps);
  CsvTable mom{{"component", "weight", "scale", "basis", "raw_trace_share"}, {}};
  for (int c = 0; c < C; ++c) {
    const auto u = static_cast<std::size_t>(c);
    mom.add({c + 1, w[u], sc[u], law.law().bases[u], w[u] * sc[u] * sc[u] / energy});
  }
  ctx.out.write_csv("data_mixture.csv", mom);
  figures(ctx, law, shown);
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
