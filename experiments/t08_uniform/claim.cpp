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

#include "akm/rules/kernels.hpp"
#include "akm/check/one_sided.hpp"
#include "common.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

constexpr double kEta = 0.5;
constexpr double kNoise = 0.5;  // σ of ξ
constexpr int kSteps = 20;      // pushes recorded after the offset
const std::vector<int> kFamilyLags{5, 20};
// Pairs for the exact and deterministic checks: the simulated one, the paper's recipe, and
// one with β − η < 0 (the bracket still holds; η < 1 + β keeps the factor contracting).
const std::vector<std::pair<double, double>> kPairs{{0.9, 0.5}, {0.99, 0.4}, {0.5, 1.2}};
// Smallest gap η(‖Σ̂‖_F² − 1/n) counted as strictly positive: far above the quadrature's
// relative 1e-12 on λ̂, far below every anisotropic gap here (the smallest, mild-power-64 at
// η = 0.4, is 2.3e-3).
constexpr double kGapFloor = 1e-9;

struct SpectrumCase {
  std::string name, spec;
  bool isotropic;
  bool shown;  // in the β̃_i figure
};
const std::vector<SpectrumCase> kCases{
    {"iso-32", "iso:n=32", true, false},
    {"iso-64", "iso:n=64", true, true},
    {"spiked-32", kSpiked, false, false},
    {"spiked-64", "spiked:n=64,spikes=100/30/10/3,floor=0.5", false, true},
    {"power-32", kPower, false, false},
    {"power-64", "power:n=64,exp=1.5", false, true},
    {"mild-power-64", "power:n=64,exp=0.5", false, false},  // near-isotropic: a small gap
};

/// Observables: T_{k,i} for k = 1..kSteps (index (k−1)·n + i), then Σ_i λ̂_i T_{1,i}.
std::size_t at(int n, int k, int i) { return static_cast<std::size_t>((k - 1) * n + i); }
std::size_t weighted(int n) { return static_cast<std::size_t>(kSteps * n); }

McResult simulate(ExperimentContext& ctx, const Setting& s, const Vec& a, const Vec& mstar,
                  std::uint64_t seed, long long trials) {
  const int n = s.n();
  const Vec& lh = s.moments.lambda_hat;
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Mat M = (mstar + Vec::Ones(n)).transpose();  // T_0 = 1ᵀ: unit offset on every u_i
    Vec x(n), xh(n), delta(1), r(1);
    for (int k = 1; k <= kSteps; ++k) {
      kern::gaussian_key(keys, s.sqrt_lambda, x);
      kern::key_for(Key::normalized, x, xh);
      delta[0] = a.dot(x) + kNoise * noise.normal();
      kern::ak_step(M, delta, xh, kBeta, kEta, r);  // [eq:dm-norm-update]
      for (int i = 0; i < n; ++i) out[at(n, k, i)] = M(0, i) - mstar[i];
    }
    double w = 0;
    for (int i = 0; i < n; ++i) w += lh[i] * out[at(n, 1, i)];
    out[weighted(n)] = w;
  };
  return monte_carlo(ctx.mc(trials, "T8 " + s.name), weighted(n) + 1, kernel);
}

}  // namespace

static void t08_uniform(ExperimentContext& ctx) {
  const long long R = trials(ctx, 40000, 5000);
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

  CsvTable dirs{{"spectrum", "n", "direction", "lambda", "lambda_hat", "predicted", "measured", "stderr"}, {}};
  CsvTable wmean{{"spectrum", "n", "isotropic", "frobenius_sq", "inv_n", "predicted", "isotropic_baseline",
                  "measured", "stderr", "gap"}, {}};
  struct Resolved {
    std::string name;
    double bound, measured, se, gap;  // gap: the exact η(‖Σ̂‖² − 1/n) the simulation must resolve
  };
  std::vector<Resolved> resolved;  // strict improvement over the isotropic baseline, measured

  for (const SpectrumCase& sc : kCases) {
    const Setting s = make_setting(sc.name, sc.spec, ctx.opts.seed);
    const int n = s.n();
    const Vec& lh = s.moments.lambda_hat;
    const double fro = theory::frobenius_sq(lh);

    // [prop:bounded-sigma-hat]: unit trace (the quadrature's own check, repeated here).
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
      // [eq:uniform-tracking] on the exact λ̂.
      ctx.checks.at_most(fmt::format("bracket/{}: β−η ≤ min_i β̃_i", tag), lo, beta - eta);
      ctx.checks.at_most(fmt::format("bracket/{}: max_i β̃_i ≤ β", tag), beta, hi);
      // [eq:weighted-mean]: the direct sum equals β − η‖Σ̂‖_F².
      ctx.checks.exact(fmt::format("weighted-mean/{}: Σλ̂β̃ = β − η‖Σ̂‖²", tag),
                       theory::weighted_mean_contraction(beta, eta, lh), summed);
      // Cauchy–Schwarz: ≤ β − η/n, equality iff isotropic.
      ctx.checks.at_most(fmt::format("cauchy-schwarz/{}: Σλ̂β̃ ≤ β − η/n", tag), beta - eta / n, summed);
      const double gap = eta * (fro - 1.0 / n);
      if (sc.isotropic)
        ctx.checks.exact(fmt::format("cauchy-schwarz/{}: isotropic, Σλ̂β̃ = β − η/n", tag), beta - eta / n,
                         summed);
      else
        ctx.checks.at_most(fmt::format("cauchy-schwarz/{}: anisotropic, gap η(‖Σ̂‖²−1/n) > {:g}", tag,
                                       kGapFloor),
                           gap, kGapFloor);
    }

    // Simulation at (kBeta, kEta).
    const double mu = theory::mu(kBeta, kEta);
    const Vec a = value_map(1, n, derive_seed(ctx.opts.seed, "T8/a/" + sc.name)).row(0).transpose() /
                  std::sqrt(s.spectrum.lambda.sum());
    Vec mstar(n);
    for (int i = 0; i < n; ++i) mstar[i] = a[i] * s.moments.kappa[i] * theory::phi(mu, lh[i]);
    nlohmann::json sp = setting_params(s);
    sp["name"] = sc.name;
    sp["a"] = to_std(a);
    sp["frobenius_sq"] = fro;
    ctx.params["settings"].push_back(sp);

    const auto res = simulate(ctx, s, a, mstar, derive_seed(ctx.opts.seed, "T8/" + sc.name), R);
    const Vec mean = res.total.mean(), se = res.total.stderr_mean();
    for (int i = 0; i < n; ++i) {
      const double bt = theory::beta_tilde(kBeta, kEta, lh[i]);
      const std::size_t o = at(n, 1, i);
      ctx.checks.mc(fmt::format("one-step/{}/{}", sc.name, dir_name(i)), bt, res.total.estimate(static_cast<Eigen::Index>(o)));
      // The EMA buffer forgets at β along every direction [eq:tracking-ema].
      ctx.checks.against(kBeta, "EMA");
      sensitivity(ctx.checks, [&](double e, double b, double m) { return theory::beta_tilde(b, e, m * lh[i]); },
                  kEta, kBeta);
      dirs.add({sc.name, n, dir_name(i), s.spectrum.lambda[i], lh[i], bt, mean[o],
                se[o]});
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
    const double pred = theory::weighted_mean_contraction(kBeta, kEta, lh);
    const std::size_t w = weighted(n);
    ctx.checks.mc(fmt::format("weighted-mean/{}: mean of Σλ̂_iT_{{1,i}} = β − η‖Σ̂‖²", sc.name), pred, mean[w],
                  se[w]);
    ctx.checks.against(kBeta, "EMA");  // Σλ̂_iβ = β
    // λ̂ has unit sum here [eq:weighted-mean], so a common multiplier of it is not admissible:
    // sensitivities in η and β only.
    sensitivity(ctx.checks, [&](double e, double b, double) { return theory::weighted_mean_contraction(b, e, lh); },
                kEta, kBeta);
    if (!sc.isotropic)
      resolved.push_back({fmt::format("resolved/{}: measured Σλ̂β̃ + z·se < β − η/n", sc.name),
                          kBeta - kEta / n, mean[w], se[w], kEta * (fro - 1.0 / n)});
    wmean.add({sc.name, n, sc.isotropic, fro, 1.0 / n, pred,
               kBeta - kEta / n, mean[w], se[w], kEta * (fro - 1.0 / n)});
  }

  // The anisotropic improvement is resolved by the simulation: the upper confidence limit of the
  // measured weighted mean lies below the isotropic baseline. z from counts, after every mc check.
  // Whether it can be resolved is a matter of power, not of the declared rate: a true claim
  // fails this check with probability Φ(z − gap/se). So it is checked only where the exact gap is
  // ≥ 2z·se; then it fails only if m lies ≥ z·se above its prediction β − η‖Σ̂‖², the event the
  // weighted-mean check above already guards at the declared rate. (Seed 122 of the false-alarm
  // audit: mild-power-64 in quick mode has gap/se ≈ 10 < 2z and failed at the declared 1e-6.)
  const double z = one_sided_z(ctx.checks, static_cast<long long>(resolved.size()));
  nlohmann::json not_powered = nlohmann::json::array();
  for (const Resolved& r : resolved) {
    if (r.gap < 2 * z * r.se) {
      not_powered.push_back({{"check", r.name}, {"gap", r.gap}, {"se", r.se}, {"gap_over_se", r.gap / r.se}});
      ctx.gate(r.name, fmt::format("T8 power gate (docs/statistics.md, \"Check rules\"): exact gap η(‖Σ̂‖²−1/n) = {:.3g} < 2z·se = "
                                   "{:.3g} (z = {:.3f}, se = {:.3g}), so a true claim would fail it with "
                                   "probability Φ(z − gap/se) = Φ({:.2f})",
                                   r.gap, 2 * z * r.se, z, r.se, z - r.gap / r.se));
      continue;
    }
    ctx.checks.at_most(fmt::format("{} [m = {:.6g}, se = {:.3g}, z = {:.3f}]", r.name, r.measured, r.se, z),
                       r.bound, r.measured + z * r.se);
  }
  ctx.params["one_sided_z"] = z;
  ctx.params["resolved_not_checked_underpowered"] = not_powered;

  ctx.out.write_csv("data_directions.csv", dirs);
  ctx.out.write_csv("data_weighted.csv", wmean);

  // Figure 1: measured one-step β̃_i against λ̂_i, with the bracket and the weighted means
  // (large squares at x = ‖Σ̂‖_F², the density-weighted mean of λ̂, in the spectrum's colour).
  {
    Figure f;
    f.name = "beta-tilde";
    f.title = fmt::format("T8 per-direction contraction, normalized key, n = 64 (β = {:g}, η = {:g})", kBeta, kEta);
    f.xlabel = "λ̂_i (eigenvalue of Σ̂);  squares: Σ_i λ̂_i β̃_i at x = ‖Σ̂‖_F^2";
    f.ylabel = "one-step contraction of E[(M − M^*)u_i]";
    f.logx = true;
    f.extra = {"set key at graph 0.02, graph 0.78 left top vertical Left reverse", "set format x '10^{%L}'", "set xrange [1e-3:1]",
               fmt::format("set yrange [{:g}:{:g}]", kBeta - kEta - 0.05, kBeta + 0.05)};
    const std::vector<std::string> colours{"#1f4e9c", "#b22222", "#1d7a2e"};
    // Column numbers of data_weighted.csv for the raw plot items (gnuplot counts from 1).
    const auto wcol = [&](const std::string& name) {
      const auto it = std::find(wmean.header.begin(), wmean.header.end(), name);
      return static_cast<int>(it - wmean.header.begin()) + 1;
    };
    std::size_t c = 0;
    for (const SpectrumCase& sc : kCases) {
      if (!sc.shown) continue;
      f.extra.push_back(linetype(static_cast<int>(c) + 1, colours[c % colours.size()]));
      f.series.push_back({"data_directions.csv", "lambda_hat", "measured", "stderr", "β̃_i, " + sc.name,
                          "errorbars", "spectrum=" + sc.name});
      ++c;
    }
    c = 0;
    for (const SpectrumCase& sc : kCases) {
      if (!sc.shown) continue;
      f.functions.push_back(fmt::format(
          "'data_weighted.csv' every ::1 using {}:(strcol(1) eq '{}' ? ${} : NaN):{} with yerrorbars pt 5 ps 2 "
          "lc rgb '{}' title 'Σλ̂_iβ̃_i, {}'",
          wcol("frobenius_sq"), sc.name, wcol("measured"), wcol("stderr"), colours[c % colours.size()], sc.name));
      ++c;
    }
    f.functions.push_back(fmt::format("{:.10g}-{:.10g}*x title 'β − ηλ̂' lw 2 lc rgb 'black'", kBeta, kEta));
    f.functions.push_back(
        fmt::format("{:.10g} title 'β (EMA rate, upper bracket)' lw 2 dt 2 lc rgb 'gray40'", kBeta));
    f.functions.push_back(
        fmt::format("{:.10g} title 'β − η (lower bracket)' lw 2 dt 3 lc rgb 'gray40'", kBeta - kEta));
    f.functions.push_back(fmt::format("{:.10g} title 'isotropic β − η/64' lw 1 dt 4 lc rgb 'gray60'",
                                      kBeta - kEta / 64));
    ctx.out.figure(f);
  }
  // Figure 2: the weighted mean of every spectrum against ‖Σ̂‖_F² (≥ 1/n, = 1/n iff isotropic).
  {
    Figure f;
    f.name = "weighted-mean";
    f.title = "T8 density-weighted mean contraction Σ_i λ̂_i β̃_i = β − η‖Σ̂‖_F^2 (eq:weighted-mean)";
    f.xlabel = "‖Σ̂‖_F^2  (1/n for isotropic keys)";
    f.ylabel = "measured Σ_i λ̂_i β̃_i";
    f.logx = true;
    f.extra = {"set key outside right top", "set format x '10^{%L}'",
               "set arrow from 1.0/64, graph 0 to 1.0/64, graph 1 nohead dt 3 lc rgb 'gray50'",
               "set arrow from 1.0/32, graph 0 to 1.0/32, graph 1 nohead dt 3 lc rgb 'gray50'",
               "set label '1/64' at 1.0/64, graph 0.05 right offset -0.5,0",
               "set label '1/32' at 1.0/32, graph 0.05 left offset 0.5,0"};
    for (const SpectrumCase& sc : kCases)
      f.series.push_back({"data_weighted.csv", "frobenius_sq", "measured", "stderr", sc.name, "errorbars",
                          "spectrum=" + sc.name});
    f.functions = {fmt::format("{:.10g}-{:.10g}*x title 'β − η‖Σ̂‖_F^2' lw 2 lc rgb 'black'", kBeta, kEta)};
    ctx.out.figure(f);
  }
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
