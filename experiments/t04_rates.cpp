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

#include "akm/rules/kernels.hpp"
#include "akm/sim/fitted_map.hpp"
#include "common.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

constexpr double kEtaNorm = 0.5;
constexpr double kLabelNoise = 0.1;
constexpr int kSteps = 120;
constexpr int kGroups = 200;  // jackknife groups: a t tail with 199 dof ≈ normal at z ≈ 6
constexpr double kGamma0 = 0.1;  // α·c_1 of the normalized arm
const std::vector<int> kCheckSteps{1, 5, 20, 50};

struct Arm {
  BufferKind rule;
  double eta;    // AK only
  double alpha;
  // Per-direction 2×2 map [eq:iter-matrices].
  Mat2 A(const Setting& s, int i) const {
    switch (rule) {
      case BufferKind::ak_normalized:
        return theory::iter_matrix_ak(alpha, eta * s.moments.kappa[i],
                                      theory::beta_tilde(kBeta, eta, s.moments.lambda_hat[i]));
      case BufferKind::ak_raw:
        return theory::iter_matrix_ak(alpha, eta * s.spectrum.lambda[i],
                                      theory::beta_tilde(kBeta, eta, s.spectrum.lambda[i]));
      case BufferKind::ema:
      case BufferKind::delta:  // not an arm of T4
        break;
    }
    return theory::iter_matrix_ema(alpha, kBeta, s.spectrum.lambda[i]);
  }
  /// The same map as a function of (η, β, s·λ) (s scales the eigenvalue the buffer contracts
  /// with: λ̂_i normalized, λ_i raw — where it is also the coupling — or EMA's λ_i), for the
  /// resolution of the checks (sensitivity.hpp). `memory` replaces the contraction by a
  /// given value (NaN: the arm's own): the alternatives below.
  Mat2 A_at(const Setting& s, int i, double e, double b, double sc,
            double memory = std::numeric_limits<double>::quiet_NaN()) const {
    const bool own = std::isnan(memory);
    switch (rule) {
      case BufferKind::ak_normalized:
        return theory::iter_matrix_ak(alpha, e * s.moments.kappa[i],
                                      own ? theory::beta_tilde(b, e, sc * s.moments.lambda_hat[i]) : memory);
      case BufferKind::ak_raw:
        return theory::iter_matrix_ak(alpha, e * sc * s.spectrum.lambda[i],
                                      own ? theory::beta_tilde(b, e, sc * s.spectrum.lambda[i]) : memory);
      case BufferKind::ema:
      case BufferKind::delta:
        break;
    }
    return theory::iter_matrix_ema(alpha, b, sc * s.spectrum.lambda[i]);
  }
  double det(const Setting& s, int i) const {
    if (rule == BufferKind::ema) return kBeta;
    return theory::beta_tilde(kBeta, eta, rule == BufferKind::ak_raw ? s.spectrum.lambda[i] : s.moments.lambda_hat[i]);
  }
};

// Observables: (e_t, μ_{t−1}) for t = 0..T per direction, state index (t, i, component);
// then, per direction, the per-trial regression moments Σ_t s_t s_tᵀ (3) and Σ_t s_{t+1}s_tᵀ (4).
std::size_t at(int n, int t, int i, int comp) { return (static_cast<std::size_t>(t) * n + i) * 2 + comp; }
std::size_t mom(int n, int i, int k) { return at(n, kSteps + 1, 0, 0) + static_cast<std::size_t>(i) * 7 + k; }

McResult simulate(ExperimentContext& ctx, const Setting& s, const Arm& arm, std::uint64_t seed, long long R) {
  const int n = s.n();
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Vec E = Vec::Ones(n);                 // e_{0,i} = 1 on every direction (m = 1)
    Mat M = Mat::Zero(1, n);
    Vec x(n), k(n), delta(1), r(1);
    for (int i = 0; i < n; ++i) out[at(n, 0, i, 0)] = 1.0, out[at(n, 0, i, 1)] = 0.0;
    for (int i = 0; i < n; ++i)
      for (int q = 0; q < 7; ++q) out[mom(n, i, q)] = 0.0;
    for (int t = 0; t < kSteps; ++t) {
      kern::gaussian_key(keys, s.sqrt_lambda, x);
      delta[0] = E.dot(x) - kLabelNoise * noise.normal();
      if (arm.rule == BufferKind::ema) {
        kern::ema_step(M, delta, x, kBeta);
      } else {
        kern::key_for(arm.rule == BufferKind::ak_raw ? Key::raw : Key::normalized, x, k);
        kern::ak_step(M, delta, k, kBeta, arm.eta, r);
      }
      E -= arm.alpha * M.row(0).transpose();  // θ ← θ − αM
      for (int i = 0; i < n; ++i) {
        const double e0 = out[at(n, t, i, 0)], m0 = out[at(n, t, i, 1)];
        out[at(n, t + 1, i, 0)] = E[i], out[at(n, t + 1, i, 1)] = M(0, i);
        double* q = out + mom(n, i, 0);
        q[0] += e0 * e0, q[1] += e0 * m0, q[2] += m0 * m0;
        q[3] += E[i] * e0, q[4] += E[i] * m0, q[5] += M(0, i) * e0, q[6] += M(0, i) * m0;
      }
    }
  };
  return monte_carlo(ctx.mc(R, fmt::format("T4 {} {}", s.name, to_string(arm.rule)), kGroups),
                     mom(n, n, 0), kernel);
}

// The fitted per-direction map (sim/fitted_map.hpp): given F_t, E[s_{t+1,i}] = A_i s_{t,i}
// holds trial by trial (Σ̂ and K are diagonal in the eigenbasis, so direction i's conditional
// mean involves only direction i's state), so pooled least squares over trials and steps is
// a consistent estimate of A_i; ρ(Â) is the fitted rate.
std::array<std::size_t, kMapMoments> map_moments(int n, int i) {
  std::array<std::size_t, kMapMoments> idx{};
  for (int k = 0; k < kMapMoments; ++k) idx[static_cast<std::size_t>(k)] = mom(n, i, k);
  return idx;
}

void counterexample_map(ExperimentContext& ctx, const Setting& s) {
  // Fixed α: ρ^Δ vs ρ^EMA over (αc, η) for the top direction of the spiked spectrum.
  CsvTable t{{"log10_alpha_c", "eta", "rho_ratio"}, {}};
  long long worse = 0, total = 0;
  const double kap = s.moments.kappa[0], lh = s.moments.lambda_hat[0], lam = s.spectrum.lambda[0];
  for (int a = 0; a < 61; ++a) {
    const double lac = -2.0 + 3.0 * a / 60.0;   // α·(ηκ) at η = 0.5 from 1e-2 to 10
    const double alpha = std::pow(10.0, lac) / (kEtaNorm * kap);
    for (int e = 1; e <= 45; ++e) {
      const double eta = 0.9 * e / 45.0;
      const double ra = theory::spectral_radius(
          theory::iter_matrix_ak(alpha, eta * kap, theory::beta_tilde(kBeta, eta, lh)));
      const double re = theory::spectral_radius(theory::iter_matrix_ema(alpha, kBeta, lam));
      t.add({lac, eta, ra / re});
      worse += ra > re;
      ++total;
    }
  }
  ctx.out.write_csv("data_counterexample.csv", t);
  ctx.params["counterexample_fraction_rho_ak_gt_rho_ema"] = static_cast<double>(worse) / static_cast<double>(total);
  Figure f;
  f.name = "counterexample";
  f.title = "T4 caveat at fixed α (spiked u1): ρ^Δ/ρ^{EMA}; > 1 where the overdamped AK map is slower";
  f.xlabel = "log_{10}(α·ηκ_1 / η) at η = 0.5 scale";
  f.ylabel = "η";
  f.extra = {"set palette defined (0 '#2166ac', 1 '#f7f7f7', 2 '#b2182b')", "set cbrange [0:2]",
             "set cblabel 'ρ^Δ / ρ^{EMA}'", "set xrange [-2:1]", "set yrange [0:0.9]"};
  f.functions = {"'data_counterexample.csv' every ::1 using 1:2:3 with points pt 5 ps 1.2 lc palette notitle"};
  ctx.out.figure(f);
}

}  // namespace

static void t04_rates(ExperimentContext& ctx) {
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
            traj.add({s.name, to_string(arm.rule), dir_name(i), static_cast<long long>(t), st[0],
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
        rates[s.name].add({to_string(arm.rule), dir_name(i), static_cast<long long>(i + 1), arm.rule == BufferKind::ak_normalized ? s.moments.lambda_hat[i] : s.spectrum.lambda[i],
                   rho, std::sqrt(arm.det(s, i)), fit, fse, static_cast<long long>(under)});
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
      f.series.push_back({csv, "index", "rho_fit", "stderr_fit", std::string("fitted ") + rule, "errorbars",
                          std::string("rule=") + rule});
      f.series.push_back({csv, "index", "rho_pred", "", std::string("ρ(A_i) ") + rule, "lines",
                          std::string("rule=") + rule});
    }
    ctx.out.figure(f);
  }
  counterexample_map(ctx, settings[0]);

  ctx.out.write_csv("data_trajectory.csv", traj);
  Figure g;
  g.name = "trajectory";
  g.title = "T4 mean parameter error E[e_{t,u1}] (spiked): simulation vs A_1^t s_0";
  g.xlabel = "step t";
  g.ylabel = "E[e_t] along u_1";
  for (const char* rule : {"ak-normalized", "ema"}) {
    g.series.push_back({"data_trajectory.csv", "t", "measured", "stderr", std::string("measured ") + rule, "errorbars",
                        std::string("rule=") + rule});
    g.series.push_back({"data_trajectory.csv", "t", "predicted", "", std::string("A_1^t s_0 ") + rule, "lines",
                        std::string("rule=") + rule});
  }
  g.extra = {"set xrange [0:60]"};
  ctx.out.figure(g);
}

const Registrar registration{
    "T4", "rates", "Per-direction rates: det A^Δ = β̃_i < β = det A^EMA",
    "eq:iter-matrices thm:detred lem:det-bound thm:strengthened-rate rem:underdamped-typicality lem:loss-free-det",
    "E[(e_t,μ_{t−1})] = A_i^t s_0; det A^Δ = β̃_i, det A^EMA = β; underdamped: ρ^Δ = √β̃_i < √β ≤ ρ^EMA", t04_rates};

}  // namespace akm::exp
