// T8 uniform — [cor:uniform-tracking, eq:uniform-tracking, eq:weighted-mean,
//               prop:bounded-sigma-hat, thm:tracking]
//
// For the normalized key tr Σ̂ = 1 and 0 ≤ λ̂_i ≤ 1 [prop:bounded-sigma-hat], so the per-direction
// contraction β̃_i = β − ηλ̂_i lies in [β − η, β] [eq:uniform-tracking], and the density-weighted
// mean contraction is Σ_i λ̂_i β̃_i = β − η‖Σ̂‖_F² [eq:weighted-mean] ≤ β − η/n (Cauchy–Schwarz),
// with equality iff Σ̂ is isotropic. These are checked on the exact Gaussian-key λ̂ of several
// isotropic, spiked and power-law spectra at n = 32 and 64, for three (β, η) pairs.
//
// Simulation, (β, η) = (0.9, 0.5): the AK normalized buffer on a stationary stream δ = a·x + ξ
// starts one unit off its fixed point along every eigendirection, M_0 = M* + 1ᵀ. Because M_{t−1}
// is independent of x_t, E[T_k] = T_0(βI − ηΣ̂)^k exactly [thm:tracking], so the one-step mean
// of T_{1,i} = (M_1 − M*)u_i is β̃_i, the k-step mean β̃_i^k, and the per-trial observable
// Σ_i λ̂_i T_{1,i} has mean Σ_i λ̂_i β̃_i: the density-weighted mean contraction is measured as
// the mean of one number per trial, its standard error from the trials. The normalized factor
// has norm max(β, |β−η|) = 0.9 surely, so every observable has bounded variance.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/check/one_sided.hpp"
#include "pooled.hpp"
#include "sensitivity.hpp"
#include "t08_uniform.hpp"

namespace akm::exp {

using namespace t08;

namespace {

/// The deterministic claims on the exact λ̂ of one spectrum, for every (β, η) pair:
/// unit trace [prop:bounded-sigma-hat], the bracket [eq:uniform-tracking], the weighted mean
/// [eq:weighted-mean] and its Cauchy–Schwarz bound (equality iff isotropic).
void check_exact(ExperimentContext& ctx, const SpectrumCase& sc, const Vec& lh, double fro) {
  const int n = static_cast<int>(lh.size());
  ctx.checks.exact(fmt::format("trace/{}: Σλ̂ = 1", sc.name), 1.0, lh.sum());
  ctx.checks.design();
  for (const auto& [beta, eta] : kPairs) {
    const std::string tag = fmt::format("{}/β={:g},η={:g}", sc.name, beta, eta);
    double lo = 1e300, hi = -1e300, summed = 0;
    for (int i = 0; i < n; ++i) {
      const double bt = theory::beta_tilde(beta, eta, lh[i]);
      lo = std::min(lo, bt), hi = std::max(hi, bt);
      summed += lh[i] * bt;
    }
    ctx.checks.at_most(fmt::format("bracket/{}: β−η ≤ min_i β̃_i", tag), lo, beta - eta);
    ctx.checks.at_most(fmt::format("bracket/{}: max_i β̃_i ≤ β", tag), beta, hi);
    // The direct sum equals β − η‖Σ̂‖_F².
    ctx.checks.exact(fmt::format("weighted-mean/{}: Σλ̂β̃ = β − η‖Σ̂‖²", tag),
                     theory::weighted_mean_contraction(beta, eta, lh), summed);
    // Cauchy–Schwarz: ≤ β − η/n, equality iff isotropic.
    ctx.checks.at_most(fmt::format("cauchy-schwarz/{}: Σλ̂β̃ ≤ β − η/n", tag), beta - eta / n, summed);
    const double gap = eta * (fro - 1.0 / n);
    if (sc.isotropic)
      ctx.checks.exact(fmt::format("cauchy-schwarz/{}: isotropic, Σλ̂β̃ = β − η/n", tag), beta - eta / n, summed);
    else
      ctx.checks.at_most(fmt::format("cauchy-schwarz/{}: anisotropic, gap η(‖Σ̂‖²−1/n) > {:g}", tag, kGapFloor),
                         gap, kGapFloor);
  }
}

/// The simulated contractions of one spectrum: β̃_i per direction, β̃_i^k at the family lags
/// (worst direction), and the weighted mean Σ_i λ̂_i β̃_i, each against EMA's β.
void check_simulated(ExperimentContext& ctx, const Case& c) {
  const SpectrumCase& sc = *c.sc;
  const int n = c.s.n();
  const Vec& lh = c.s.moments.lambda_hat;
  const Vec mean = c.res.total.mean(), se = c.res.total.stderr_mean();
  for (int i = 0; i < n; ++i) {
    const double bt = theory::beta_tilde(kBeta, kEta, lh[i]);
    ctx.checks.mc(fmt::format("one-step/{}/{}", sc.name, dir_name(i)), bt,
                  c.res.total.estimate(static_cast<Eigen::Index>(at(n, 1, i))));
    // The EMA buffer forgets at β along every direction [eq:tracking-ema].
    ctx.checks.against(kBeta, "EMA");
    sensitivity(ctx.checks, [&](double e, double b, double m) { return theory::beta_tilde(b, e, m * lh[i]); },
                kEta, kBeta);
  }
  for (int k : kFamilyLags) {
    double worst = -1, wm = 0, wp = 0, wse = 0;
    int wi = 0;
    for (int i = 0; i < n; ++i) {
      const double p = std::pow(theory::beta_tilde(kBeta, kEta, lh[i]), k);
      const std::size_t o = at(n, k, i);
      const double z = std::abs(mean[o] - p) / se[o];
      if (z > worst) worst = z, wm = mean[o], wp = p, wse = se[o], wi = i;
    }
    ctx.checks.mc_family(fmt::format("k-step/{}/k={}", sc.name, k), wp, wm, wse, n);
    ctx.checks.against(std::pow(kBeta, k), "EMA");  // of the direction the family reports
    sensitivity(ctx.checks,
                [&](double e, double b, double m) { return std::pow(theory::beta_tilde(b, e, m * lh[wi]), k); },
                kEta, kBeta);
  }
  const std::size_t w = weighted(n);
  ctx.checks.mc(fmt::format("weighted-mean/{}: mean of Σλ̂_iT_{{1,i}} = β − η‖Σ̂‖²", sc.name),
                theory::weighted_mean_contraction(kBeta, kEta, lh), mean[w], se[w]);
  ctx.checks.against(kBeta, "EMA");  // Σλ̂_iβ = β
  // λ̂ has unit sum here [eq:weighted-mean], so a common multiplier of it is not admissible:
  // sensitivities in η and β only.
  sensitivity(ctx.checks, [&](double e, double b, double) { return theory::weighted_mean_contraction(b, e, lh); },
              kEta, kBeta);
}

/// One spectrum's simulated means for the pooled recovery of η, β and the λ̂ scale: every
/// T_{k,i} (k = 1..kSteps) and the weighted mean (η and β only: λ̂ has unit sum, so no common
/// multiplier of it is admissible there).
void add_pooled_case(PooledRecovery& pooled, const Case& c) {
  const int n = c.s.n();
  const Vec& lh = c.s.moments.lambda_hat;
  std::vector<PooledTerm> terms;
  for (int k = 1; k <= kSteps; ++k)
    for (int i = 0; i < n; ++i) {
      const double l = lh[i];
      terms.push_back({at(n, k, i), [l, k](double e, double b, double m) { return std::pow(theory::beta_tilde(b, e, m * l), k); },
                       kEta});
    }
  terms.push_back({weighted(n), [&lh](double e, double b, double) { return theory::weighted_mean_contraction(b, e, lh); },
                   kEta});
  add_pooled(pooled, c.res, terms, kBeta);
}

}  // namespace

static void t08_uniform(ExperimentContext& ctx) {
  // ---- Set-up: each spectrum's exact λ̂, value map and fixed point ----
  // Trials set so that the pooled recovery resolves 0.5% in η and λ̂ in full mode and 1% in
  // quick mode (docs/statistics.md, "Pooled recovery"; at 40000 and 5000: 0.91% and 2.6%).
  const long long R = trials(ctx, 160000, 40000);
  ctx.params = {{"simulated", {{"beta", kBeta}, {"eta", kEta}}},
                {"pairs_checked", nlohmann::json::array()},
                {"noise_sigma", kNoise}, {"m", 1}, {"steps", kSteps}, {"family_lags", kFamilyLags},
                {"trials", R}, {"gap_floor", kGapFloor},
                {"value_stream", "delta = a . x + xi, a = value_map / sqrt(tr Sigma), xi ~ N(0, noise_sigma^2); "
                                 "x_i = sqrt(lambda_i) z_i (eigenbasis)"},
                {"M0", "M* + 1^T, M* u_i = a_i kappa_i / (mu + lambda_hat_i), mu = (1-beta)/eta"},
                {"prediction", "E[(M_k - M*) u_i] = beta_tilde_i^k; E[sum_i lambda_hat_i (M_1 - M*) u_i] = "
                               "beta - eta ||Sigma_hat||_F^2"},
                {"settings", nlohmann::json::array()}};
  for (const auto& [b, e] : kPairs) ctx.params["pairs_checked"].push_back({{"beta", b}, {"eta", e}});
  const double mu = theory::mu(kBeta, kEta);
  std::vector<Case> cases;
  for (const SpectrumCase& sc : kCases) {
    Case c{&sc, make_setting(sc.name, sc.spec, ctx.opts.seed), {}, {}, 0.0, {}};
    const int n = c.s.n();
    const Vec& lh = c.s.moments.lambda_hat;
    c.fro = theory::frobenius_sq(lh);
    c.a = value_map(1, n, derive_seed(ctx.opts.seed, "T8/a/" + sc.name)).row(0).transpose() /
          std::sqrt(c.s.spectrum.lambda.sum());
    c.mstar.resize(n);
    for (int i = 0; i < n; ++i) c.mstar[i] = c.a[i] * c.s.moments.kappa[i] * theory::phi(mu, lh[i]);
    nlohmann::json sp = setting_params(c.s);
    sp["name"] = sc.name;
    sp["a"] = to_std(c.a);
    sp["frobenius_sq"] = c.fro;
    ctx.params["settings"].push_back(sp);
    cases.push_back(std::move(c));
  }

  // ---- Simulate: the buffer at (kBeta, kEta) on every spectrum ----
  for (Case& c : cases) c.res = simulate(ctx, c.s, c.a, c.mstar, derive_seed(ctx.opts.seed, "T8/" + c.sc->name), R);

  // ---- Check: per spectrum the exact claims, then the simulated ones; then the resolved gap ----
  for (const Case& c : cases) {
    check_exact(ctx, *c.sc, c.s.moments.lambda_hat, c.fro);
    check_simulated(ctx, c);
  }
  // Pooled recovery of η, β and the λ̂ scale from every simulated mean of every spectrum
  // (check/pooled.hpp): the claim's resolution. Before the one-sided checks, whose z counts it.
  PooledRecovery pooled;
  for (const Case& c : cases) add_pooled_case(pooled, c);
  pooled.record(ctx.checks);
  // The anisotropic improvement is resolved by the simulation: the upper confidence limit of the
  // measured weighted mean lies below the isotropic baseline. z from counts, after every mc check.
  // Whether it can be resolved is a matter of power, not of the declared rate: a true claim
  // fails this check with probability Φ(z − gap/se). So it is checked only where the exact gap is
  // ≥ 2z·se; then it fails only if m lies ≥ z·se above its prediction β − η‖Σ̂‖², the event the
  // weighted-mean check above already guards at the declared rate. (Seed 122 of the false-alarm
  // audit: mild-power-64 in quick mode has gap/se ≈ 10 < 2z and failed at the declared 1e-6.)
  long long n_resolved = 0;
  for (const Case& c : cases) n_resolved += !c.sc->isotropic;
  const double z = one_sided_z(ctx.checks, n_resolved);
  nlohmann::json not_powered = nlohmann::json::array();
  for (const Case& c : cases) {
    if (c.sc->isotropic) continue;
    const int n = c.s.n();
    const std::size_t w = weighted(n);
    const double m = c.res.total.mean()[w], se = c.res.total.stderr_mean()[w];
    const double gap = kEta * (c.fro - 1.0 / n);  // the exact η(‖Σ̂‖² − 1/n) to resolve
    const std::string name = fmt::format("resolved/{}: measured Σλ̂β̃ + z·se < β − η/n", c.sc->name);
    if (gap < 2 * z * se) {
      not_powered.push_back({{"check", name}, {"gap", gap}, {"se", se}, {"gap_over_se", gap / se}});
      ctx.gate(name, fmt::format("T8 power gate (docs/statistics.md, \"Check rules\"): exact gap η(‖Σ̂‖²−1/n) = {:.3g} < 2z·se = "
                                 "{:.3g} (z = {:.3f}, se = {:.3g}), so a true claim would fail it with "
                                 "probability Φ(z − gap/se) = Φ({:.2f})",
                                 gap, 2 * z * se, z, se, z - gap / se));
      continue;
    }
    ctx.checks.at_most(fmt::format("{} [m = {:.6g}, se = {:.3g}, z = {:.3f}]", name, m, se, z), kBeta - kEta / n,
                       m + z * se);
  }

  // ---- Record: the direction and weighted-mean tables, the one-sided z, figures ----
  ctx.params["one_sided_z"] = z;
  ctx.params["resolved_not_checked_underpowered"] = not_powered;
  CsvTable dirs{{"spectrum", "n", "direction", "lambda", "lambda_hat", "predicted", "measured", "stderr"}, {}};
  CsvTable wmean{{"spectrum", "n", "isotropic", "frobenius_sq", "inv_n", "predicted", "isotropic_baseline",
                  "measured", "stderr", "gap"}, {}};
  for (const Case& c : cases) {
    const SpectrumCase& sc = *c.sc;
    const int n = c.s.n();
    const Vec& lh = c.s.moments.lambda_hat;
    const Vec mean = c.res.total.mean(), se = c.res.total.stderr_mean();
    for (int i = 0; i < n; ++i)
      dirs.add({sc.name, n, dir_name(i), c.s.spectrum.lambda[i], lh[i], theory::beta_tilde(kBeta, kEta, lh[i]),
                mean[at(n, 1, i)], se[at(n, 1, i)]});
    const std::size_t w = weighted(n);
    wmean.add({sc.name, n, sc.isotropic, c.fro, 1.0 / n, theory::weighted_mean_contraction(kBeta, kEta, lh),
               kBeta - kEta / n, mean[w], se[w], kEta * (c.fro - 1.0 / n)});
  }
  ctx.out.write_csv("data_directions.csv", dirs);
  ctx.out.write_csv("data_weighted.csv", wmean);
  figures(ctx, wmean);
}

const Registrar registration{{
    .id = "T8",
    .slug = "uniform",
    .title = "Direction-uniform tracking bounds and the density-weighted mean rate",
    .labels = "cor:uniform-tracking eq:uniform-tracking eq:weighted-mean",
    .claim = "β−η ≤ β̃_i ≤ β; Σ_i λ̂_i β̃_i = β − η‖Σ̂‖_F² ≤ β − η/n, equality iff Σ̂ isotropic",
    .body = t08_uniform,
}};

}  // namespace akm::exp
