// T13 mup — [thm:mup-eta, cor:mup-base-lr, rem:mu-transfer, rem:mup-normalization, app:mup-coord]
//
// (A) Buffer scale vs width. Per-sample normalized AK, n = key width, per-coordinate Θ(1)
//     keys x ~ N(0, I_n) and values δ ~ N(0, I) independent of x. A row v of M obeys
//     E‖v'‖² = ρ E‖v‖² + η², ρ = β² + (η² − 2βη)/n (E(v·x̂)² = ‖v‖²/n for isotropic keys),
//     so from M_0 = 0 the per-coordinate mean square is exactly (η²/n)(1 − ρ^t)/(1 − ρ), and
//     the stationary RMS is η/√(n(1−β²) + 2βη − η²) ∝ n^{-1/2} for η = Θ(1) and
//     n^{-1/2−c} for η ∝ n^{-c} [thm:mup-eta]; η ∝ n^{+½} (η = ω(1), past the per-step
//     contraction bound 1+β at n = 2048) keeps ρ < 1 — the buffer stays mean-square stable
//     with a width-invariant scale, which the ledger weighs against "stability fails". Rows are exchangeable, so m = 16 rows give
//     the per-coordinate scale at any n. Checked per width (time average of the mean square
//     over steps (B, B+K], exact prediction) and as a fitted log-log slope (WLS, errors from
//     trials) against the slope of the exact values and the asymptotic −1/2, −1/2 − c.
// (B) Raw key [rem:mup-normalization]: βI − ηxxᵀ has norm ≤ 1 for every key of ‖x‖² ≤ n
//     iff η ≤ (1+β)/n — the paper's "η = Θ(1/n)" (a sufficient, per-step bound). The actual
//     stability boundaries are wider: for v ⟂-free isotropic keys ‖v(βI−ηxxᵀ)‖²/‖v‖² =
//     β² − 2βηz² + η²z²‖x‖², z = v̂·x ~ N(0,1), ‖x‖² = z² + χ²_{n−1}, so the mean-square
//     factor is β² − 2βη + η²(n+2) (checked by Monte Carlo) and the mean-square boundary
//     η_ms = (β + √(β² + (n+2)(1−β²)))/(n+2) ~ n^{-1/2}; the log-norm is a random walk with
//     i.i.d. increments, so the almost-sure boundary η_as solves E log(β² − 2βηz² +
//     η²z²‖x‖²) = 0 (Monte Carlo + bisection). Their width slopes are reported as a finding.
// (C) Coordinate check [app:mup-coord, fig:mup-coord, cor:mup-base-lr]: the μP MLP of
//     problems/mlp.hpp (GELU, no biases, depth 3) trained 20 steps at widths 128–1024 by
//     AK-AdamW (β = 0.99, η = 0.5, lr by cor:mup-base-lr), by AdamW (the μP reference), by
//     AK-AdamW with its fan-in-n rates ∝ n^{-1/2}, and by AK-SGD against SGD-m (its μP
//     reference, cor:mup-base-lr's first bullet); per step, on a fixed probe batch, each
//     layer's pre-activation RMS and RMS(ΔW x). Per seed and step the OLS width slope of
//     log RMS; step 1 apart from steps 2–20 (its closed form and the key-norm argument are in
//     mup_coord.hpp). Checked: the paired AK − AdamW slope difference over steps 2–20 is 0
//     within a margin declared here (kMargin), against the key-norm alternative −½, the
//     √w arm's difference is 0 against the paper-scale alternative +½, and the paired
//     AK-SGD − SGD-m difference is 0 against the key-norm alternative −½.
// (C') The Muon pair [cor:mup-base-lr, AK-Muon]: the same check by AK-Muon against Muon at
//     widths 64–256 (muon_coord.cpp: why those widths, and why NS removes the key norm).
#include <cmath>
#include <stdexcept>

#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

#include "akm/check/one_sided.hpp"
#include "akm/problems/mlp.hpp"
#include "akm/problems/train.hpp"
#include "t13_mup.hpp"

namespace akm::exp {

static void t13_mup(ExperimentContext& ctx) {
  using namespace t13;
  // ---- Set-up: (A) the schedules' trials, (B) the raw-key samples, (C) the coordinate check's
  // widths, seeds, arms and task ----
  // Theorem, not Empirical. Parts A and B test closed forms exactly. Part C tests
  // cor:mup-base-lr through 20 training steps at widths 64–1024, which is a proxy — but the
  // failing mechanism is not a small-scale effect: the key-norm factor 1/‖x‖ ∝ n^{-1/2} is
  // exact at every width and grows with it, and the √w arm removes it. "Not reproduced at
  // this scale" would suggest larger widths might agree; the derivation says they disagree more.
  ctx.kind = ClaimKind::Theorem;
  const bool quick = ctx.opts.quick;
  const int nw = static_cast<int>(kWidths.size());
  const long long trialsA = trials(ctx, 160, 40), trialsS = trials(ctx, 160, 40);
  const int samplesB = quick ? 4000 : 40000;
  coord::Setup cs;
  // Widths stop at 1024 (2048 costs ≈ 2 GFLOP a step). The slope differences are checked with
  // a Student-t tolerance over seeds at the run's Bonferroni level (t/z ≈ 1.31 at 32 seeds,
  // 1.11 at 80), so the seed count decides the checks' power, reported per check.
  cs.widths = quick ? std::vector<int>{64, 128, 256} : std::vector<int>{128, 256, 512, 1024};
  const int seeds = quick ? kQuickSeeds : kFullSeeds, cw = static_cast<int>(cs.widths.size()), H = 1;
  // Arms: AK-AdamW (the claim), AdamW at 10× its rate (the recipe; the μP reference), and
  // AK-AdamW with its fan-in-n rates × √w, i.e. ∝ n^{-1/2} (the key-norm fix).
  // AK-SGD and SGD-m (arms 3, 4): cor:mup-base-lr's AK-SGD bullet, paired the same way.
  const std::vector<coord::Arm> arms{{"ak-adamw", "ak-adamw", kCoordLr, 0.0, 1},
                                     {"adamw", "adamw", 10 * kCoordLr, 0.0},
                                     {"ak-adamw-sqrt", "ak-adamw", kCoordLr, 0.5, 1},
                                     {"ak-sgd", "ak-sgd", kSgdLr * (1 - cs.beta) / cs.eta, 0.0, 4},
                                     {"sgd-m", "sgd-m", kSgdLr, 0.0}};
  const coord::Layout lay(arms, cw, cs.steps);
  const Task task = make_task("teacher", spiked_sqrt_lambda(32, {10, 5, 2}, 1.0), 1, 0.1,
                              derive_seed(ctx.opts.seed, "T13/teacher"), 64, 3);

  // ---- Simulate: (A) the buffer scale and its width slopes, (B) the raw key, (C) the
  // coordinate check ----
  const auto resA = buffer_scale(ctx, trialsA);
  std::vector<LineFit> fit_measured, fit_exact;  // log RMS against log n, per schedule
  for (int sch = 0; sch < kSchedules; ++sch) {
    std::vector<double> lx, ly, lse, lp;
    for (int w = 0; w < nw; ++w) {
      const int n = kWidths[w];
      const double p = predicted_ms(n, eta_of(sch, n));
      const double m = resA[sch * nw + w].mean, s = resA[sch * nw + w].se;
      // log RMS = ½ log(mean square); se(log RMS) = se/(2·ms).
      lx.push_back(std::log(n)), ly.push_back(0.5 * std::log(m)), lse.push_back(s / (2 * m)), lp.push_back(0.5 * std::log(p));
    }
    fit_measured.push_back(wls(lx, ly, lse));
    fit_exact.push_back(wls(lx, lp, lse));
  }
  const std::vector<RawWidth> raw = raw_key(derive_seed(ctx.opts.seed, "T13/raw"), samplesB);
  std::vector<double> lx, lc, lm, la;
  for (const RawWidth& r : raw)
    lx.push_back(std::log(r.n)), lc.push_back(std::log(r.eta_contraction)), lm.push_back(std::log(r.eta_mean_square)),
        la.push_back(std::log(r.eta_almost_sure));
  const double slope_c = ols_slope(lx, lc), slope_ms = ols_slope(lx, lm), slope_as = ols_slope(lx, la);
  // (A') the anisotropic key at the growing schedule: the mean along the spike.
  const auto resS = spike_mean(ctx, trialsS);
  const int ns = static_cast<int>(kSpikeWidths.size());
  struct SpikeWidth {
    int n;
    double eta, lambda, factor, predicted, isotropic, rho_isotropic;
  };
  std::vector<SpikeWidth> spike;
  for (int n : kSpikeWidths) {
    const double eta = eta_of(2, n), lam = spike_lambda(n, kSpikeMu), f = kBeta - eta * lam;
    spike.push_back({n, eta, lam, f, std::pow(f, kSpikeSteps), std::pow(kBeta - eta / n, kSpikeSteps),
                     kBeta * kBeta + (eta * eta - 2 * kBeta * eta) / n});
  }
  // (C) The coordinate check (MLP trainings on ops::mlp_coord, as C'). Its seeds were renewed when the activation
  // part was pre-registered (app:mup-coord/act-rms), after the earlier stream's runs: decided on seeds none drew.
  const std::uint64_t seedC = derive_seed(ctx.opts.seed, "T13/coord/confirm");
  const auto resC = ops::mlp_coord({cs, arms, task}, seedC, ctx.backend_for(ops::mlp_coord_has),
                                   ctx.mc(seeds, "T13 coordinate check"));
  const Vec cm = resC.total.mean(), cse = resC.total.stderr_mean();
  const MuonCoord muon = measure_muon_coord(ctx, task, quick);  // (C') the Muon pair

  // ---- Check: (A) buffer scale, (B) raw key, (C) the coordinate slopes, in that order (C's
  // Student-t tolerance counts the comparisons before it) ----
  const double asym[kSchedules] = {-0.5, -0.5 - kDecay, -0.5 + kGrowth};
  for (int sch = 0; sch < kSchedules; ++sch) {
    for (int w = 0; w < nw; ++w) {
      const int n = kWidths[w];
      ctx.checks.mc(fmt::format("buffer/{}/n={}/per-coordinate mean square", kScheduleName[sch], n),
                    predicted_ms(n, eta_of(sch, n)), resA[sch * nw + w].mean, resA[sch * nw + w].se);
    }
    const LineFit &fm = fit_measured[sch], &fp = fit_exact[sch];
    ctx.checks.mc(fmt::format("buffer/{}/log-log RMS slope vs width (exact-value slope; asymptote {})", kScheduleName[sch],
                              asym[sch]),
                  fp.slope, fm.slope, fm.se_slope);
  }
  // η = ω(1) with λ̂_max = Θ(1): the mean along the spike against (β − ηλ̂_u)^T, the rival the
  // isotropic accounting's (β − η/n)^T.
  for (int w = 0; w < ns; ++w) {
    const SpikeWidth& sw = spike[static_cast<std::size_t>(w)];
    ctx.checks.mc(fmt::format("buffer/eta-growing spiked/n={}/mean along the spike after {} steps = (β − ηλ̂_max)^{} "
                              "(η = {:.3g}, λ̂_max = {:.4f}, {} the bound (1+β)/λ̂_max = {:.3g})",
                              sw.n, kSpikeSteps, kSpikeSteps, sw.eta, sw.lambda, std::abs(sw.factor) > 1 ? "past" : "below",
                              (1 + kBeta) / sw.lambda),
                  sw.predicted, resS[w].mean, resS[w].se);
    ctx.checks.against(sw.isotropic, "isotropic accounting Σ̂ = I/n: (β − η/n)^T");
  }
  for (const RawWidth& r : raw)
    ctx.checks.mc(fmt::format("raw/n={}/mean-square growth factor at η_ms = 1", r.n), 1.0, r.growth, r.growth_se);
  // An identity of the closed form (1+β)/n, not evidence: a design check.
  ctx.checks.exact("raw/per-step contraction bound (1+β)/n: log-log slope −1 [rem:mup-normalization]", -1.0, slope_c, 1e-12);
  ctx.checks.design();
  check_hps_transfer(ctx);  // tab:hps's transfer arithmetic, exact at the printed precision
  // Step 1 at an RMSNorm-fed layer (‖x‖ = √n for every key), exact from the optimizer
  // implementations: the AK-AdamW/AdamW update ratio against (α_AK/α_A)η/((1−β)√n) entrywise
  // (a design check of the mechanism), then its width slope against the collapse the
  // statement needs (0): exactly −½ by the formula [app:mup-coord].
  std::vector<double> lx1, lr1;
  double dev1 = 0, units1 = 0;
  CsvTable et{{"n", "predicted_ratio", "measured_ratio", "max_rel_dev_entrywise", "max_dev_in_rounding_bounds",
                "frobenius_rel_dev"}, {}};
  for (int n : kStep1Widths) {
    const coord::Step1Exact e = coord::step1_exact(n, cs, arms[0].lr, arms[1].lr, derive_seed(ctx.opts.seed, "T13/step1"));
    ctx.checks.at_most(fmt::format("coord/step-1 exact/n={}: ΔW(AK-AdamW) = ΔW(AdamW)·(α_AK/α_A)η/((1−β)‖x‖) entrywise to "
                                   "rounding, ‖x‖ = √n (largest deviation in units of each entry's bound (N+8)·u·cond)", n),
                       1.0, e.rounding_units).design();
    lx1.push_back(std::log(n)), lr1.push_back(std::log(e.ratio));
    dev1 = std::max(dev1, e.frobenius_rel_dev), units1 = std::max(units1, e.rounding_units);
    et.add({n, e.predicted, e.ratio, e.max_rel_dev, e.rounding_units, e.frobenius_rel_dev});
  }
  const double slope1 = ols_slope(lx1, lr1);
  ctx.checks.exact(fmt::format("coord/step-1 exact: width slope of RMS(ΔWx) AK-AdamW − AdamW = 0 [app:mup-coord collapse] "
                               "(RMSNorm keys, n = {}-{}; the formula gives −½)", kStep1Widths.front(), kStep1Widths.back()),
                   0.0, slope1, 0.0, 1e-9);
  // Student-t tolerance at the run's Bonferroni level: the Monte-Carlo comparisons made so far
  // (buffer and raw key, counted by Checks) and the coordinate checks below.
  constexpr long long kCoordChecks = 5 + kMuonChecks;  // five here, the Muon pair's (muon_coord.cpp)
  const long long n_comparisons = mc_comparisons(ctx.checks) + kCoordChecks;
  boost::math::students_t tdist(seeds - 1);
  const double p_each = ctx.opts.family_alpha / n_comparisons;
  const double t_over_z = boost::math::quantile(boost::math::complement(tdist, p_each / 2)) / z_two_sided(p_each);
  const auto dm = [&](int a) { return cm[lay.diff(a, 1, H)]; };
  const auto ds = [&](int a) { return cse[lay.diff(a, 1, H)]; };
  ctx.checks.mc(fmt::format("coord/hidden ΔWx, steps 2-20: width slope AK-AdamW − AdamW = 0 within ±{} "
                            "[cor:mup-base-lr] (paired, t-corrected, {} seeds)", kMargin, seeds),
                0.0, dm(0), ds(0) * t_over_z, 0.0, kMargin);
  ctx.checks.against(-0.5, "key-norm scaling: AK buffer = EMA buffer/‖x‖, n^{-1/2}");
  ctx.checks.mc(fmt::format("coord/hidden ΔWx, steps 2-20: width slope AK-AdamW(rate ∝ n^-½) − AdamW = 0 within ±{} "
                            "(the key-norm fix; paired, t-corrected, {} seeds)", kMargin, seeds),
                0.0, dm(2), ds(2) * t_over_z, 0.0, kMargin);
  ctx.checks.against(0.5, "AK buffer at EMA's scale [cor:mup-base-lr]: the fix overshoots as n^{+1/2}");
  // The activation part [app:mup-coord]: the hidden pre-activation RMS, paired AK-AdamW − AdamW
  // width slope over steps 2-20 = 0, with no margin (rule in kActRule).
  ctx.checks.mc(fmt::format("coord/hidden activation RMS, steps 2-20: width slope AK-AdamW − AdamW = 0 [app:mup-coord] "
                            "(paired, t-corrected, {} seeds)", seeds),
                0.0, cm[lay.diff_act(0, 1, H)], cse[lay.diff_act(0, 1, H)] * t_over_z);
  ctx.checks.against(-0.5, "key-norm scaling carried into the activations (update-dominated limit), n^{-1/2}");
  // AK-SGD's bullet names hidden layers and output heads; both have fan-in n, so the key-norm
  // rival predicts −½ on each.
  for (int l : {1, 2}) {
    ctx.checks.mc(fmt::format("coord/{} ΔWx, steps 2-20: width slope AK-SGD − SGD-m = 0 within ±{} "
                              "[cor:mup-base-lr] (paired, t-corrected, {} seeds)", l == 1 ? "hidden" : "output", kMargin, seeds),
                  0.0, cm[lay.diff(3, 1, l)], cse[lay.diff(3, 1, l)] * t_over_z, 0.0, kMargin);
    ctx.checks.against(-0.5, "key-norm scaling: AK buffer = EMA buffer/‖x‖, n^{-1/2}");
  }
  check_muon_coord(ctx, muon, p_each);  // AK-Muon − Muon [cor:mup-base-lr], its own Student-t factor
  // The level above assumed that these are the run's last Monte-Carlo comparisons.
  if (mc_comparisons(ctx.checks) != n_comparisons)
    throw std::logic_error("T13: the coordinate checks' Bonferroni family is not the run's");

  // ---- Record: the tables, the coordinate check's tables and findings, params, figures ----
  CsvTable bt{{"schedule", "n", "eta", "predicted_rms", "measured_rms", "stderr_rms", "predicted_ms", "measured_ms", "stderr_ms"}, {}};
  nlohmann::json slopes = nlohmann::json::object();
  for (int sch = 0; sch < kSchedules; ++sch) {
    for (int w = 0; w < nw; ++w) {
      const int n = kWidths[w];
      const double p = predicted_ms(n, eta_of(sch, n));
      const double m = resA[sch * nw + w].mean, s = resA[sch * nw + w].se;
      bt.add({std::string(kScheduleName[sch]), n, eta_of(sch, n), std::sqrt(p), std::sqrt(m), s / (2 * std::sqrt(m)), p, m, s});
    }
    slopes[kScheduleName[sch]] = {{"measured", fit_measured[sch].slope}, {"se", fit_measured[sch].se_slope},
                                  {"exact_finite_n", fit_exact[sch].slope}, {"asymptotic", asym[sch]}};
  }
  ctx.out.write_csv("data_buffer_scale.csv", bt);
  // η = ω(1) [thm:mup-eta]: where the growing η leaves the per-step contraction (η > 1+β) and
  // how far it stays below the mean-square boundary Θ(√n).
  nlohmann::json growing = nlohmann::json::array();
  for (int n : kWidths)
    growing.push_back({{"n", n}, {"eta", eta_of(2, n)}, {"per_step_eigenvalue_along_key", kBeta - eta_of(2, n)},
                       {"rho", kBeta * kBeta + (eta_of(2, n) * eta_of(2, n) - 2 * kBeta * eta_of(2, n)) / n},
                       {"eta_mean_square_boundary", eta_ms_normalized(n)}});
  CsvTable rt{{"n", "eta_contraction", "eta_mean_square", "eta_almost_sure", "growth_predicted", "growth_measured", "growth_stderr"}, {}};
  for (const RawWidth& r : raw)
    rt.add({r.n, r.eta_contraction, r.eta_mean_square, r.eta_almost_sure, 1.0, r.growth, r.growth_se});
  ctx.out.write_csv("data_raw_key.csv", rt);
  CsvTable st{{"n", "eta", "lambda_max", "factor", "bound_eta", "past_bound", "predicted", "measured", "stderr",
               "isotropic_rival", "rho_isotropic"}, {}};
  std::string past;
  for (int w = 0; w < ns; ++w) {
    const SpikeWidth& sw = spike[static_cast<std::size_t>(w)];
    st.add({sw.n, sw.eta, sw.lambda, sw.factor, (1 + kBeta) / sw.lambda, std::abs(sw.factor) > 1 ? 1 : 0, sw.predicted,
            resS[w].mean, resS[w].se, sw.isotropic, sw.rho_isotropic});
    if (std::abs(sw.factor) > 1) past += fmt::format("{}n = {} (η = {:.3g}, factor {:.3f}, measured {:.4g} ± {:.2g} against {:.4g})",
                                                     past.empty() ? "" : "; ", sw.n, sw.eta, sw.factor, resS[w].mean,
                                                     resS[w].se, sw.predicted);
  }
  ctx.out.write_csv("data_spike.csv", st);
  ctx.out.write_csv("data_coord_step1_exact.csv", et);
  ctx.findings.push_back(fmt::format(
      "anisotropic keys x = z + {}·1 at the growing η = {}(n/128)^½: λ̂_max → ½ (= {:.4f} at n = {}), so the mean along the "
      "spike has per-step factor β − ηλ̂_max, past −1 once η > (1+β)/λ̂_max ≈ {:.3g}; {} steps from M₀u: {}; the isotropic "
      "accounting's ρ stays ≤ {:.3f} at every width (stable)",
      kSpikeMu, kEta0, spike.back().lambda, spike.back().n, (1 + kBeta) / spike.back().lambda, kSpikeSteps,
      past.empty() ? "no width past the bound" : past,
      std::max_element(spike.begin(), spike.end(), [](const SpikeWidth& a, const SpikeWidth& b) { return a.rho_isotropic < b.rho_isotropic; })
          ->rho_isotropic));
  ctx.findings.push_back(fmt::format(
      "step 1 at an RMSNorm-fed layer, exact (optimizer implementations, n = {}-{}): ΔW(AK-AdamW)/ΔW(AdamW) = κ/√n, "
      "κ = (α_AK/α_A)η/(1−β) = {:.3g}, to {:.2g} in Frobenius norm and within {:.2g} of each entry's rounding bound; its "
      "width slope {:.12f} (the formula: −½): the gap grows with width at every width",
      kStep1Widths.front(), kStep1Widths.back(), arms[0].lr / arms[1].lr * cs.eta / (1 - cs.beta),
      dev1, units1, slope1));
  nlohmann::json cparams = coord::write_tables(ctx.out, cs, arms, lay, cm, cse);
  coord_findings(ctx, cs, arms, lay, cm, cse, seeds);
  cparams["muon_pair"] = record_muon_coord(ctx, muon);
  cparams["seeds"] = seeds;
  cparams["seed_stream"] = "T13/coord/confirm";
  cparams["activation_rule"] = kActRule;
  cparams["step1_exact_slope"] = slope1;
  cparams["t_over_z"] = t_over_z;
  cparams["margin"] = kMargin;
  cparams["margin_derivation"] = kMarginWhy;
  cparams["task"] = "teacher (spiked √λ 10/5/2, floor 1; GELU teacher width 64, depth 3; label noise 0.1)";
  ctx.params = {{"buffer", {{"beta", kBeta}, {"eta0", kEta0}, {"decay_c", kDecay}, {"rows", kRows}, {"burn", kBurn},
                            {"average_steps", kAvg}, {"widths", kWidths}, {"trials", trialsA}, {"slopes", slopes},
                            {"growth_g", kGrowth}, {"eta_growing", growing}}},
                {"spiked", {{"mu", kSpikeMu}, {"steps", kSpikeSteps}, {"start", kSpikeStart}, {"widths", kSpikeWidths},
                            {"trials", trialsS}, {"rows", kRows},
                            {"key", "x = z + mu*1, z ~ N(0, I_n); delta ~ N(0, I) independent; M_0 = start*1_rows u^T, u = 1/sqrt(n)"}}},
                {"raw_key", {{"samples", samplesB}, {"slope_contraction", slope_c}, {"slope_mean_square", slope_ms},
                             {"slope_almost_sure", slope_as},
                             {"finding", "the per-step contraction bound scales as 1/n, the actual mean-square and almost-sure "
                                         "stability boundaries of the raw rule scale close to n^{-1/2}"}}},
                {"coordinate_check", cparams}};
  figures(ctx, slopes, slope_c, slope_ms, slope_as);
  record_hps_transfer(ctx);
}

const Registrar registration{{
    .id = "T13",
    .slug = "mup",
    .title = "μP width transfer: buffer scale, raw-key stability, coordinate check",
    .labels = "thm:mup-eta cor:mup-base-lr rem:mu-transfer rem:mup-normalization app:mup-coord fig:mup-coord",
    .claim = "normalized buffer RMS ∝ n^{-1/2} (η=Θ(1)), n^{-1/2-c} (η∝n^{-c}); AK-AdamW μP MLP coordinates collapse across widths",
    .body = t13_mup,
}};

}  // namespace akm::exp
