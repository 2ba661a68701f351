// T4 rates — [eq:iter-matrices, thm:detred, lem:det-bound, thm:strengthened-rate,
//             rem:underdamped-typicality, lem:loss-free-det]
//
// Linear regression y = W*x with AK-SGD and SGD-EMA (δ_t = E_t x_t − ε_t, E = W − W*).
// Along u_i the trial means of (e_{t,i}, μ_{t−1,i}) follow the 2×2 map A_i exactly:
// M_{t−1} and E_t are independent of x_t, so E[μ_t] = β̃_i E[μ_{t−1}] + c_i E[e_t] and
// e_{t+1} = e_t − αμ_t. The determinant is β̃_i (AK) or β (EMA) whatever c and α
// [thm:detred], and ρ = √det exactly in the underdamped band [thm:strengthened-rate].
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "t04_rates.hpp"
#include "sensitivity.hpp"

namespace akm::exp {

static void t04_rates(ExperimentContext& ctx) {
  using namespace t04;
  // ---- Set-up: the spectra, each arm's step sizes and every direction's predicted map ----
  // Trials set so that the pooled recovery resolves 0.5% in η and λ̂ in full mode and 1% in
  // quick mode (docs/statistics.md, "Pooled recovery"; at 10000 and 1200: 0.78% and 2.3%).
  const long long R = trials(ctx, 30000, 8000);
  const std::vector<Setting> settings{make_setting("spiked", kSpiked, ctx.opts.seed),
                                      make_setting("power", kPower, ctx.opts.seed)};
  ctx.params = {{"beta", kBeta}, {"label_noise", kLabelNoise}, {"steps", kSteps}, {"trials", R},
                {"groups", kGroups}, {"e0", "1 on every direction"}, {"M0", "zero"}, {"m", 1},
                {"settings", nlohmann::json::array()}};
  std::vector<ArmRun> runs;
  std::vector<double> alpha_norm;  // the normalized arm's α per spectrum (the underdamped window)
  for (std::size_t k = 0; k < settings.size(); ++k) {
    const Setting& s = settings[k];
    // Step sizes. The mean dynamics are exact for any α, but a Monte-Carlo mean is only
    // informative while the stochastic iteration is mean-square stable. Arms that feed the raw
    // gradient (E·x)x into W need γ·(2λ_max + tr Σ) < 2 (E[xxᵀxxᵀ] = 2Σ² + tr(Σ)Σ for Gaussian
    // keys), γ = α × the buffer's largest gain (1 for EMA, 1/μ for AK); we take a 1/8 margin.
    // The deployed normalized arm feeds (E·x)x̂, whose fourth moment is far smaller, and is
    // placed at α·c_1 = kGamma0 inside its top direction's underdamped band.
    const double eta_raw = raw_eta(s, 0.4);
    const double raw_scale = theory::ms_rule_scale(s.spectrum.lambda);  // the mean-square step rule
    const std::vector<Arm> arms{{BufferKind::ak_normalized, kEtaNorm, kGamma0 / (kEtaNorm * s.moments.kappa[0])},
                                {BufferKind::ak_raw, eta_raw, 0.25 * (1 - kBeta) / (eta_raw * raw_scale)},
                                {BufferKind::ema, 0.0, 0.25 / raw_scale}};
    nlohmann::json sp = setting_params(s);
    sp["alpha"] = {{"ak-normalized", arms[0].alpha}, {"ak-raw", arms[1].alpha}, {"ema", arms[2].alpha}};
    sp["eta_normalized"] = kEtaNorm;
    sp["eta_raw"] = eta_raw;
    ctx.params["settings"].push_back(sp);
    alpha_norm.push_back(arms[0].alpha);
    for (const Arm& arm : arms) {
      ArmRun run{k, arm, {}};
      for (int i = 0; i < s.n(); ++i) run.dirs.push_back(predict(s, arm, i));
      runs.push_back(std::move(run));
    }
  }

  // ---- Simulate: each arm's trials, then its fitted map per direction ----
  for (ArmRun& run : runs) {
    const Setting& s = settings[run.setting];
    run.res = simulate(ctx, s, run.arm,
                       derive_seed(ctx.opts.seed, fmt::format("T4/{}/{}", s.name, to_string(run.arm.rule))), R);
    const Jackknife jack(run.res.groups);  // over trial groups, for the fitted maps
    for (int i = 0; i < s.n(); ++i) run.fit.push_back(fit_map(jack, map_moments(s.n(), i)));
  }

  // ---- Check: the determinant, the exact mean path, the fitted map, the underdamped rate ----
  for (const ArmRun& run : runs) {
    const Setting& s = settings[run.setting];
    const Arm& arm = run.arm;
    const int n = s.n();
    const auto ema_run = std::find_if(runs.begin(), runs.end(), [&](const ArmRun& r) {
      return r.setting == run.setting && r.arm.rule == BufferKind::ema;
    });
    const Arm& ema_arm = ema_run->arm;  // the spectrum's EMA arm, the control of thm:strengthened-rate
    for (int i = 0; i < n; ++i) {
      const DirPrediction& d = run.dirs[static_cast<std::size_t>(i)];
      const Mat2& A = d.A;
      const std::string tag = fmt::format("{}/{}/{}", s.name, to_string(arm.rule), dir_name(i));
      // [thm:detred] the determinant is the memory statistic alone. The theory layer's
      // matrix has det β̃_i by its construction, so this verifies the algebra, not the buffer:
      // a design check (the evidence is the simulated trajectory and fitted map below).
      ctx.checks.exact(tag + "/det", arm.det(s, i), A.determinant(), 1e-12, 1e-15);
      ctx.checks.design();
      // The alternative: EMA's memory for AK arms, the main text's κ_i row for EMA (predict()).
      const bool ema = arm.rule == BufferKind::ema;
      const std::string alt_label = ema ? "EMA row with kappa_i (main text)" : "EMA memory (beta_tilde -> beta)";
      const double eta_d = ema ? 1.0 : arm.eta;  // EMA has no η: its derivative is 0 (none)
      auto sens = [&](const auto& of_map) {
        const auto dl = log_sensitivity(
            [&](double e, double b, double sc) { return of_map(arm.A_at(s, i, e, b, sc)); }, eta_d, kBeta);
        ctx.checks.sensitivity(ema ? std::numeric_limits<double>::quiet_NaN() : dl.eta, dl.beta, dl.lambda);
      };
      // The mean state follows A_i^t s_0 exactly.
      for (const int t : kCheckSteps) {
        const Vec2& st = d.path[static_cast<std::size_t>(t)];
        const Vec2& st_alt = d.path_alt[static_cast<std::size_t>(t)];
        auto state = [t](const Mat2& M) { return mean_state(M, t); };
        ctx.checks.mc(fmt::format("{}/e@t={}", tag, t), st[0], run.res.total.estimate(static_cast<Eigen::Index>(at(n, t, i, 0))));
        ctx.checks.against(st_alt[0], alt_label);
        sens([&](const Mat2& M) { return state(M)[0]; });
        ctx.checks.mc(fmt::format("{}/mu@t={}", tag, t), st[1], run.res.total.estimate(static_cast<Eigen::Index>(at(n, t, i, 1))));
        ctx.checks.against(st_alt[1], alt_label);
        sens([&](const Mat2& M) { return state(M)[1]; });
      }
      // Fitted rate against ρ(A_i), jackknife over trial groups.
      const FittedMapEstimate& fm = run.fit[static_cast<std::size_t>(i)];
      // The characteristic polynomial of the fitted map (trace, determinant) is a smooth
      // function of the pooled moments, so its jackknife errors are valid everywhere. ρ is
      // not smooth where the discriminant tr² − 4det crosses 0 (critical damping: a double
      // eigenvalue moves like √ε), and there the jackknife error of ρ(Â) is too small
      // (the audit's T4 u13 false alarms). ρ is checked only where the predicted
      // discriminant is more than z_two_sided(1e-9) ≈ 6.1 of its own standard errors from
      // 0 — a rule on the precision of the run, not on the deviation it finds.
      ctx.checks.mc(tag + "/fitted-map trace", A.trace(), fm.trace);
      ctx.checks.against(d.A_alt.trace(), alt_label);
      sens([](const Mat2& M) { return M.trace(); });
      ctx.checks.mc(tag + "/fitted-map det", A.determinant(), fm.det);
      if (ema)
        ctx.checks.against(theory::beta_tilde(kBeta, kEtaNorm, s.moments.lambda_hat[i]), "AK memory beta_tilde_i");
      else
        ctx.checks.against(d.A_alt.determinant(), alt_label);
      sens([](const Mat2& M) { return M.determinant(); });
      const double disc = A.trace() * A.trace() - 4.0 * A.determinant();
      const double disc_limit = z_two_sided(1e-9) * fm.disc.se;
      if (std::abs(disc) > disc_limit) {
        ctx.checks.mc(tag + "/fitted-rate", d.rho, fm.rate);
        ctx.checks.against(theory::spectral_radius(d.A_alt), alt_label);
        sens([](const Mat2& M) { return theory::spectral_radius(M); });
      } else {
        ctx.gate(tag + "/fitted-rate",
                 fmt::format("discriminant gate: predicted tr^2 - 4 det = {:.4g} is within z_two_sided(1e-9) = "
                             "{:.3f} standard errors ({:.4g}) of 0, where rho is not smooth (critical damping) "
                             "and its jackknife error is too small; the fitted trace and det are still checked",
                             disc, z_two_sided(1e-9), fm.disc.se));
      }
      // [thm:strengthened-rate] underdamped AK: ρ^Δ = √β̃_i < √β ≤ ρ^EMA.
      if (!ema && d.under) {
        // ρ = √det in the band is the algebra of a 2×2 with complex eigenvalues, true of the
        // theory layer's matrix by construction: design. The comparison with EMA below is
        // the claim [thm:strengthened-rate].
        ctx.checks.exact(tag + "/underdamped: rho = sqrt(det)", std::sqrt(arm.det(s, i)), d.rho, 1e-12);
        ctx.checks.design();
        ctx.checks.at_most(tag + "/underdamped: rho_ak <= rho_ema",
                           theory::spectral_radius(ema_arm.A(s, i)), d.rho);
      }
    }
  }
  // Pooled recovery of η, β and the λ scale from every recorded mean state and fitted map of
  // every arm at once (check/pooled.hpp): the claim's resolution. The one-sided checks above
  // compare exact theory values and read no z from the count of checks.
  PooledRecovery pooled;
  for (const ArmRun& run : runs) add_pooled(pooled, settings[run.setting], run);
  pooled.record(ctx.checks);

  // [rem:underdamped-typicality] the explicit window, on a declared grid and on T4's spectra.
  const nlohmann::json window = underdamped_window(ctx, settings, alpha_norm);

  // ---- Record: rate tables and figures, the trajectory, the finding, the counterexample map ----
  write_tables(ctx, settings, runs);
  ctx.params["underdamped_window"] = window;
}

const Registrar registration{{
    .id = "T4",
    .slug = "rates",
    .title = "Per-direction rates: det A^Δ = β̃_i < β = det A^EMA",
    .labels = "eq:iter-matrices thm:detred lem:det-bound thm:strengthened-rate rem:underdamped-typicality lem:loss-free-det",
    .claim = "E[(e_t,μ_{t−1})] = A_i^t s_0; det A^Δ = β̃_i, det A^EMA = β; underdamped: ρ^Δ = √β̃_i < √β ≤ ρ^EMA",
    .body = t04_rates,
}};

}  // namespace akm::exp
