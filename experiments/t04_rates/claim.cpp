// T4 rates — [eq:iter-matrices, thm:detred, lem:det-bound, thm:strengthened-rate,
//             rem:underdamped-typicality, lem:loss-free-det]
//
// Linear regression y = W*x with AK-SGD and SGD-EMA (δ_t = E_t x_t − ε_t, E = W − W*).
// Along u_i the trial means of (e_{t,i}, μ_{t−1,i}) follow the 2×2 map A_i exactly:
// M_{t−1} and E_t are independent of x_t, so E[μ_t] = β̃_i E[μ_{t−1}] + c_i E[e_t] and
// e_{t+1} = e_t − αμ_t. The determinant is β̃_i (AK) or β (EMA) whatever c and α
// [thm:detred], and ρ = √det exactly in the underdamped band [thm:strengthened-rate].
#include <array>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "t04_rates.hpp"
#include "sensitivity.hpp"

namespace akm::exp {

static void t04_rates(ExperimentContext& ctx) {
  using namespace t04;
  const long long R = trials(ctx, 10000, 1200);
  const std::vector<Setting> settings{make_setting("spiked", kSpiked, ctx.opts.seed),
                                      make_setting("power", kPower, ctx.opts.seed)};
  ctx.params = {{"beta", kBeta}, {"label_noise", kLabelNoise}, {"steps", kSteps}, {"trials", R},
                {"groups", kGroups}, {"e0", "1 on every direction"}, {"M0", "zero"}, {"m", 1},
                {"settings", nlohmann::json::array()}};
  std::map<std::string, CsvTable> rates;  // per spectrum
  for (const char* sp : {"spiked", "power"})
    rates[sp] = CsvTable{{"rule", "direction", "index", "lam_key", "rho_pred", "sqrt_det", "rho_fit", "stderr_fit",
                          "underdamped"}, {}};
  CsvTable traj{{"spectrum", "rule", "direction", "t", "predicted", "measured", "stderr"}, {}};

  for (const Setting& s : settings) {
    const int n = s.n();
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

    for (const Arm& arm : arms) {
      const auto res = simulate(ctx, s, arm, derive_seed(ctx.opts.seed, fmt::format("T4/{}/{}", s.name, to_string(arm.rule))), R);
      const Vec mean = res.total.mean(), se = res.total.stderr_mean();
      const Jackknife jack(res.groups);  // over trial groups, for the fitted maps
      for (int i = 0; i < n; ++i) {
        const Mat2 A = arm.A(s, i);
        const std::string tag = fmt::format("{}/{}/{}", s.name, to_string(arm.rule), dir_name(i));
        // [thm:detred] the determinant is the memory statistic alone. The theory layer's
        // matrix has det β̃_i by its construction, so this verifies the algebra, not the buffer:
        // a design check (the evidence is the simulated trajectory and fitted map below).
        ctx.checks.exact(tag + "/det", arm.det(s, i), A.determinant(), 1e-12, 1e-15);
        ctx.checks.design();
        // The alternative each check must rule out. AK arms: the same map with EMA's memory
        // (β̃_i → β, same coupling and α), i.e. det = β instead of β̃_i [thm:detred]. EMA arm
        // (the control): the main text's EMA row with coupling (1−β)κ_i instead of the
        // appendix's (1−β)λ_i (the κ/λ finding below); its determinant β does not depend on
        // the coupling, so the EMA det check is set against AK's memory β̃_i (normalized η).
        const bool ema = arm.rule == BufferKind::ema;
        const Mat2 A_alt = ema ? theory::iter_matrix_ema(arm.alpha, kBeta, s.moments.kappa[i])
                               : arm.A_at(s, i, arm.eta, kBeta, 1.0, kBeta);
        const std::string alt_label = ema ? "EMA row with kappa_i (main text)" : "EMA memory (beta_tilde -> beta)";
        const double eta_d = ema ? 1.0 : arm.eta;  // EMA has no η: its derivative is 0 (none)
        auto sens = [&](const auto& of_map) {
          const auto d = log_sensitivity(
              [&](double e, double b, double sc) { return of_map(arm.A_at(s, i, e, b, sc)); }, eta_d, kBeta);
          ctx.checks.sensitivity(ema ? std::numeric_limits<double>::quiet_NaN() : d.eta, d.beta, d.lambda);
        };
        // The mean state follows A_i^t s_0 exactly.
        Vec2 st(1.0, 0.0), st_alt(1.0, 0.0);
        int next = 0;
        for (int t = 1; t <= kSteps; ++t) {
          st = A * st;
          st_alt = A_alt * st_alt;
          if (next < static_cast<int>(kCheckSteps.size()) && t == kCheckSteps[next]) {
            ++next;
            auto state = [t](const Mat2& M) {
              Vec2 v(1.0, 0.0);
              for (int q = 0; q < t; ++q) v = M * v;
              return v;
            };
            ctx.checks.mc(fmt::format("{}/e@t={}", tag, t), st[0], res.total.estimate(static_cast<Eigen::Index>(at(n, t, i, 0))));
            ctx.checks.against(st_alt[0], alt_label);
            sens([&](const Mat2& M) { return state(M)[0]; });
            ctx.checks.mc(fmt::format("{}/mu@t={}", tag, t), st[1], res.total.estimate(static_cast<Eigen::Index>(at(n, t, i, 1))));
            ctx.checks.against(st_alt[1], alt_label);
            sens([&](const Mat2& M) { return state(M)[1]; });
          }
          if (s.name == "spiked" && i == 0)
            traj.add({s.name, to_string(arm.rule), dir_name(i), t, st[0],
                      mean[at(n, t, i, 0)], se[at(n, t, i, 0)]});
        }
        // Fitted rate against ρ(A_i), jackknife over trial groups.
        const double rho = theory::spectral_radius(A);
        const FittedMapEstimate fm = fit_map(jack, map_moments(n, i));
        const double fit = fm.rate.mean, fse = fm.rate.se;
        // The characteristic polynomial of the fitted map (trace, determinant) is a smooth
        // function of the pooled moments, so its jackknife errors are valid everywhere. ρ is
        // not smooth where the discriminant tr² − 4det crosses 0 (critical damping: a double
        // eigenvalue moves like √ε), and there the jackknife error of ρ(Â) is too small
        // (the audit's T4 u13 false alarms). ρ is checked only where the predicted
        // discriminant is more than z_two_sided(1e-9) ≈ 6.1 of its own standard errors from
        // 0 — a rule on the precision of the run, not on the deviation it finds.
        ctx.checks.mc(tag + "/fitted-map trace", A.trace(), fm.trace);
        ctx.checks.against(A_alt.trace(), alt_label);
        sens([](const Mat2& M) { return M.trace(); });
        ctx.checks.mc(tag + "/fitted-map det", A.determinant(), fm.det);
        if (ema)
          ctx.checks.against(theory::beta_tilde(kBeta, kEtaNorm, s.moments.lambda_hat[i]), "AK memory beta_tilde_i");
        else
          ctx.checks.against(A_alt.determinant(), alt_label);
        sens([](const Mat2& M) { return M.determinant(); });
        const double disc = A.trace() * A.trace() - 4.0 * A.determinant();
        const double disc_limit = z_two_sided(1e-9) * fm.disc.se;
        if (std::abs(disc) > disc_limit) {
          ctx.checks.mc(tag + "/fitted-rate", rho, fm.rate);
          ctx.checks.against(theory::spectral_radius(A_alt), alt_label);
          sens([](const Mat2& M) { return theory::spectral_radius(M); });
        } else {
          ctx.gate(tag + "/fitted-rate",
                   fmt::format("discriminant gate: predicted tr^2 - 4 det = {:.4g} is within z_two_sided(1e-9) = "
                               "{:.3f} standard errors ({:.4g}) of 0, where rho is not smooth (critical damping) "
                               "and its jackknife error is too small; the fitted trace and det are still checked",
                               disc, z_two_sided(1e-9), fm.disc.se));
        }
        const double c = arm.rule == BufferKind::ema ? (1 - kBeta) * s.spectrum.lambda[i] : A(1, 0);
        const auto band = theory::underdamped_band(arm.det(s, i));
        const bool under = band && arm.alpha * c > band->first && arm.alpha * c < band->second;
        rates[s.name].add({to_string(arm.rule), dir_name(i), i + 1, arm.rule == BufferKind::ak_normalized ? s.moments.lambda_hat[i] : s.spectrum.lambda[i],
                   rho, std::sqrt(arm.det(s, i)), fit, fse, under});
        // [thm:strengthened-rate] underdamped AK: ρ^Δ = √β̃_i < √β ≤ ρ^EMA.
        if (arm.rule != BufferKind::ema && under) {
          // ρ = √det in the band is the algebra of a 2×2 with complex eigenvalues, true of the
          // theory layer's matrix by construction: design. The comparison with EMA below is
          // the claim [thm:strengthened-rate].
          ctx.checks.exact(tag + "/underdamped: rho = sqrt(det)", std::sqrt(arm.det(s, i)), rho, 1e-12);
          ctx.checks.design();
          ctx.checks.at_most(tag + "/underdamped: rho_ak <= rho_ema",
                             theory::spectral_radius(arms[2].A(s, i)), rho);
        }
      }
    }
  }
  // [eq:iter-matrices] vs [app:iteration-matrices]: the coupling of the EMA row.
  {
    const Setting& sp = settings[0];
    ctx.findings.push_back(fmt::format(
        "eq:iter-matrices (main text) writes the EMA row's coupling as (1-beta) kappa_i; the appendix "
        "derivation (app:iteration-matrices) gives (1-beta) lambda_i, because the EMA buffer is fed the raw "
        "gradient (delta x^T, E[x x^T] = Sigma). akm uses lambda_i; its EMA-arm trajectory and trace checks "
        "name the kappa_i row as their alternative. The determinant beta, hence thm:detred, is the same "
        "under both; the trace is not: on the {} spectrum kappa_1/lambda_1 = {:.4g} and kappa_n/lambda_n = {:.4g}.",
        sp.name, sp.moments.kappa[0] / sp.spectrum.lambda[0],
        sp.moments.kappa[sp.n() - 1] / sp.spectrum.lambda[sp.n() - 1]));
  }
  for (const auto& [sp, table] : rates) {
    const std::string csv = "data_rates_" + sp + ".csv";
    ctx.out.write_csv(csv, table);
    Figure f;
    f.name = "rates-" + sp;
    f.title = "T4 fitted per-direction rates (" + sp + ") vs ρ(A_i); EMA: ρ ≥ √β";
    f.xlabel = "direction index i (eigenvalues descending)";
    f.ylabel = "spectral radius";
    f.extra = {"set xrange [0:33]"};
    for (const char* rule : {"ak-normalized", "ak-raw", "ema"}) {
      f.measured_vs_predicted({.csv = csv, .x = "index", .measured = "rho_fit", .se = "stderr_fit",
                               .predicted = "rho_pred", .measured_title = std::string("fitted ") + rule,
                               .predicted_title = std::string("ρ(A_i) ") + rule, .where = std::string("rule=") + rule});
    }
    ctx.out.figure(f);
  }
  counterexample_map(ctx, settings[0]);
  underdamped_window(ctx, settings);

  ctx.out.write_csv("data_trajectory.csv", traj);
  Figure g;
  g.name = "trajectory";
  g.title = "T4 mean parameter error E[e_{t,u1}] (spiked): simulation vs A_1^t s_0";
  g.xlabel = "step t";
  g.ylabel = "E[e_t] along u_1";
  for (const char* rule : {"ak-normalized", "ema"}) {
    g.measured_vs_predicted({.csv = "data_trajectory.csv", .x = "t", .measured_title = std::string("measured ") + rule,
                             .predicted_title = std::string("A_1^t s_0 ") + rule, .where = std::string("rule=") + rule});
  }
  g.extra = {"set xrange [0:60]"};
  ctx.out.figure(g);
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
