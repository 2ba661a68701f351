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
#include <cmath>
#include <stdexcept>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

#include "akm/check/one_sided.hpp"
#include "akm/problems/mlp.hpp"
#include "akm/rules/rules.hpp"
#include "akm/problems/train.hpp"
#include "common.hpp"
#include "fit.hpp"
#include "mup_coord.hpp"

namespace akm::exp {
namespace {

constexpr double kEta0 = 0.5, kDecay = 0.5;  // η = η0 (n/128)^{-c}
// The growing schedule η = η0 (n/128)^{+g} [thm:mup-eta's η = ω(1)]: g = ½ takes η from 0.5 to
// 2 > 1+β at n = 2048, past the per-step contraction bound of βI − ηx̂x̂ᵀ (eigenvalue β − η
// along x̂), yet ρ = β² + (η² − 2βη)/n stays < 1 while η < β + √(β² + n(1−β²)) = Θ(√n).
constexpr double kGrowth = 0.5;
constexpr int kSchedules = 3;
constexpr int kRows = 16, kBurn = 60, kAvg = 100;
const std::vector<int> kWidths{128, 256, 512, 1024, 2048};
// AK-AdamW base rate at the base width 128: the recipe lr ≈ AdamW's/10 [app:hp-sweep] (AdamW 1e-2).
// With the unchanged bias correction the first steps carry M̂ ≈ ηĜ/(1−β), i.e. ×50 at
// β = 0.99, η = 0.5 (optimizers.hpp), so 1e-2 itself overshoots in the first steps.
constexpr double kCoordLr = 1e-3;
// SGD-m base rate (R2's middle grid value) and AK-SGD's at equal injection: α_AK η = α_SGD (1−β),
// so a key of norm 1 would give both buffers the same gradient term and their paired
// difference isolates the key norm (the AK update is the smaller one: no divergence risk).
constexpr double kSgdLr = 0.1;
// Seeds of the coordinate check (full, quick), set from a pilot at --seed 1 (not the committed
// seed) so the paired checks have power ≥ 0.9 against their ±½ alternatives: the per-seed
// spread of the paired slope difference was 0.09–0.10 at widths 128–1024 (16 seeds gave
// power 0.76 and 0.53) and 0.23–0.25 at 64–256; with the Student-t factor at this run's
// level, 32 and 80 seeds give power ≈ 1 and ≈ 0.99.
constexpr int kFullSeeds = 32, kQuickSeeds = 80;
// Equivalence margin of the paired width-slope difference AK − AdamW (declared before any run).
// The claim [cor:mup-base-lr] predicts 0; the key-norm argument (AK buffer ≈ EMA buffer/‖x‖,
// ‖x‖ ∝ √n on a fan-in-n layer, v unchanged) predicts −½. A margin m decides between the two
// with equal slack on both sides when m = ½ · ½ = ¼: a slope nearer the claim than the
// alternative counts as collapse. Over the full run's widths (×8) ¼ is a factor 8^¼ = 1.68 in
// update size, the same order as μP's own finite-width drift is allowed in fig:mup-coord.
constexpr double kMargin = 0.25;
constexpr const char* kMarginWhy =
    "half the distance between the claim (0) and the key-norm alternative (-1/2): m = 1/4, so a slope nearer the "
    "claim than the alternative counts as collapse; over widths x8 that is a factor 8^(1/4) = 1.68 in update size";

double eta_of(int schedule, int n) {
  const double exponent[kSchedules] = {0.0, -kDecay, kGrowth};
  return kEta0 * std::pow(n / 128.0, exponent[schedule]);
}

/// Largest η of mean-square stability of the normalized buffer: ρ = β² + (η² − 2βη)/n < 1.
double eta_ms_normalized(int n) { return kBeta + std::sqrt(kBeta * kBeta + n * (1 - kBeta * kBeta)); }

/// Exact time average over t ∈ (kBurn, kBurn+kAvg] of the per-coordinate mean square.
double predicted_ms(int n, double eta) {
  const double rho = kBeta * kBeta + (eta * eta - 2 * kBeta * eta) / n;
  double s = 0;
  for (int t = kBurn + 1; t <= kBurn + kAvg; ++t) s += (eta * eta / n) * (1 - std::pow(rho, t)) / (1 - rho);
  return s / kAvg;
}

double eta_ms(int n) { return (kBeta + std::sqrt(kBeta * kBeta + (n + 2) * (1 - kBeta * kBeta))) / (n + 2); }

}  // namespace

static void t13_mup(ExperimentContext& ctx) {
  // Theorem, not Empirical. Parts A and B test closed forms exactly. Part C tests
  // cor:mup-base-lr through 20 training steps at widths 64–1024, which is a proxy — but the
  // failing mechanism is not a small-scale effect: the key-norm factor 1/‖x‖ ∝ n^{-1/2} is
  // exact at every width and grows with it, and the √w arm removes it. "Not reproduced at
  // this scale" would suggest larger widths might agree; the derivation says they disagree more.
  ctx.kind = ClaimKind::Theorem;
  const bool quick = ctx.opts.quick;
  const int nw = static_cast<int>(kWidths.size());
  // ---- (A) buffer scale ----
  // The growing schedule draws from its own root, so the first two keep their streams.
  const std::uint64_t seedA = derive_seed(ctx.opts.seed, "T13/buffer"), seedG = derive_seed(ctx.opts.seed, "T13/buffer-growing");
  auto kernelA = [&](long long trial, double* out) {
    for (int sch = 0; sch < kSchedules; ++sch)
      for (int w = 0; w < nw; ++w) {
        const int n = kWidths[w];
        const double eta = eta_of(sch, n);
        const std::uint64_t root = sch < 2 ? seedA : seedG;
        const long long id = sch < 2 ? trial * 16 + sch * 8 + w : trial * 8 + w;
        Stream keys(root, id, Purpose::keys), vals(root, id, Purpose::noise);
        Mat M = Mat::Zero(kRows, n);
        Vec x(n), d(kRows);
        double acc = 0;
        for (int t = 1; t <= kBurn + kAvg; ++t) {
          for (int j = 0; j < n; ++j) x[j] = keys.normal();
          for (int r = 0; r < kRows; ++r) d[r] = vals.normal();
          rules::ak_normalized(M, d, x, kBeta, eta);
          if (t > kBurn) acc += M.squaredNorm() / (double(kRows) * n);
        }
        out[sch * nw + w] = acc / kAvg;
      }
  };
  const long long trialsA = trials(ctx, 160, 40);
  const auto resA = monte_carlo(ctx.mc(trialsA, "T13 buffer scale"), kSchedules * nw, kernelA);
  CsvTable bt{{"schedule", "n", "eta", "predicted_rms", "measured_rms", "stderr_rms", "predicted_ms", "measured_ms", "stderr_ms"}, {}};
  nlohmann::json slopes = nlohmann::json::object();
  const char* sch_name[kSchedules] = {"eta-constant", "eta-decaying", "eta-growing"};
  for (int sch = 0; sch < kSchedules; ++sch) {
    std::vector<double> lx, ly, lse, lp;
    for (int w = 0; w < nw; ++w) {
      const int n = kWidths[w];
      const double p = predicted_ms(n, eta_of(sch, n));
      const double m = resA.total.mean()[sch * nw + w], s = resA.total.stderr_mean()[sch * nw + w];
      ctx.checks.mc(fmt::format("buffer/{}/n={}/per-coordinate mean square", sch_name[sch], n), p, m, s);
      bt.add({std::string(sch_name[sch]), n, eta_of(sch, n), std::sqrt(p), std::sqrt(m),
              s / (2 * std::sqrt(m)), p, m, s});
      // log RMS = ½ log(mean square); se(log RMS) = se/(2·ms).
      lx.push_back(std::log(n)), ly.push_back(0.5 * std::log(m)), lse.push_back(s / (2 * m)), lp.push_back(0.5 * std::log(p));
    }
    const LineFit fm = wls(lx, ly, lse), fp = wls(lx, lp, lse);
    const double asym[kSchedules] = {-0.5, -0.5 - kDecay, -0.5 + kGrowth};
    ctx.checks.mc(fmt::format("buffer/{}/log-log RMS slope vs width (exact-value slope; asymptote {})", sch_name[sch], asym[sch]),
                  fp.slope, fm.slope, fm.se_slope);
    slopes[sch_name[sch]] = {{"measured", fm.slope}, {"se", fm.se_slope}, {"exact_finite_n", fp.slope}, {"asymptotic", asym[sch]}};
  }
  ctx.out.write_csv("data_buffer_scale.csv", bt);
  // η = ω(1) [thm:mup-eta]: where the growing η leaves the per-step contraction (η > 1+β) and
  // how far it stays below the mean-square boundary Θ(√n).
  nlohmann::json growing = nlohmann::json::array();
  for (int n : kWidths)
    growing.push_back({{"n", n}, {"eta", eta_of(2, n)}, {"per_step_eigenvalue_along_key", kBeta - eta_of(2, n)},
                       {"rho", kBeta * kBeta + (eta_of(2, n) * eta_of(2, n) - 2 * kBeta * eta_of(2, n)) / n},
                       {"eta_mean_square_boundary", eta_ms_normalized(n)}});

  // ---- (B) raw key ----
  CsvTable rt{{"n", "eta_contraction", "eta_mean_square", "eta_almost_sure", "growth_predicted", "growth_measured", "growth_stderr"}, {}};
  std::vector<double> lx, lc, lm, la;
  const int samplesB = quick ? 4000 : 40000;
  Stream sb(derive_seed(ctx.opts.seed, "T13/raw"), 0, Purpose::aux);
  for (int n : kWidths) {
    boost::math::chi_squared_distribution<double> chi(n - 1);
    std::vector<double> z2(samplesB), nx(samplesB);
    for (int k = 0; k < samplesB; ++k) {
      const double z = sb.normal();
      z2[k] = z * z;
      nx[k] = z * z + boost::math::quantile(chi, sb.uniform());
    }
    const double em = eta_ms(n);
    auto ratio = [&](int k, double eta) { return kBeta * kBeta - 2 * kBeta * eta * z2[k] + eta * eta * z2[k] * nx[k]; };
    double s1 = 0, s2 = 0;
    for (int k = 0; k < samplesB; ++k) s1 += ratio(k, em), s2 += ratio(k, em) * ratio(k, em);
    const double gm = s1 / samplesB, gse = std::sqrt((s2 / samplesB - gm * gm) / (samplesB - 1));
    ctx.checks.mc(fmt::format("raw/n={}/mean-square growth factor at η_ms = 1", n), 1.0, gm, gse);
    auto lyap = [&](double eta) {
      double s = 0;
      for (int k = 0; k < samplesB; ++k) s += std::log(ratio(k, eta));
      return s / samplesB;
    };
    double lo = em, hi = 20 * em;  // Jensen: E log < log E = 0 at η_ms
    for (int it = 0; it < 60; ++it) {
      const double mid = std::sqrt(lo * hi);
      (lyap(mid) < 0 ? lo : hi) = mid;
    }
    const double ec = (1 + kBeta) / n;
    rt.add({n, ec, em, lo, 1.0, gm, gse});
    lx.push_back(std::log(n)), lc.push_back(std::log(ec)), lm.push_back(std::log(em)), la.push_back(std::log(lo));
  }
  ctx.out.write_csv("data_raw_key.csv", rt);
  const double slope_c = ols_slope(lx, lc), slope_ms = ols_slope(lx, lm), slope_as = ols_slope(lx, la);
  // An identity of the closed form (1+β)/n, not evidence: a design check.
  ctx.checks.exact("raw/per-step contraction bound (1+β)/n: log-log slope −1 [rem:mup-normalization]", -1.0, slope_c, 1e-12);
  ctx.checks.design();

  // ---- (C) coordinate check (mup_coord.hpp) ----
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
  const std::uint64_t seedC = derive_seed(ctx.opts.seed, "T13/coord");
  const auto resC = monte_carlo(ctx.mc(seeds, "T13 coordinate check"), lay.size(),
                                [&](long long seed, double* out) { coord::run_seed(cs, arms, lay, task, seedC, seed, out); });
  const Vec cm = resC.total.mean(), cse = resC.total.stderr_mean();
  // Student-t tolerance at the run's Bonferroni level: the Monte-Carlo comparisons made so far
  // (buffer and raw key, counted by Checks) and the coordinate checks below.
  constexpr long long kCoordChecks = 4;
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
  // AK-SGD's bullet names hidden layers and output heads; both have fan-in n, so the key-norm
  // rival predicts −½ on each.
  for (int l : {1, 2}) {
    ctx.checks.mc(fmt::format("coord/{} ΔWx, steps 2-20: width slope AK-SGD − SGD-m = 0 within ±{} "
                              "[cor:mup-base-lr] (paired, t-corrected, {} seeds)", l == 1 ? "hidden" : "output", kMargin, seeds),
                  0.0, cm[lay.diff(3, 1, l)], cse[lay.diff(3, 1, l)] * t_over_z, 0.0, kMargin);
    ctx.checks.against(-0.5, "key-norm scaling: AK buffer = EMA buffer/‖x‖, n^{-1/2}");
  }
  // The level above assumed that these are the run's last Monte-Carlo comparisons.
  if (mc_comparisons(ctx.checks) != n_comparisons)
    throw std::logic_error("T13: the coordinate checks' Bonferroni family is not the run's");
  nlohmann::json cparams = coord::write_tables(ctx.out, cs, arms, lay, cm, cse);
  // Findings, with numbers: the windows, the paired differences, step 1 against its closed form.
  const auto pm = [&](int i) { return fmt::format("{:.3f} ± {:.3f}", cm[i], cse[i]); };
  ctx.findings.push_back(fmt::format(
      "hidden-layer RMS(ΔWx) width slope over steps 2-20 ({} seeds, widths {}-{}): AK-AdamW {}, AdamW {}, "
      "AK-AdamW at rate ∝ n^-½ {}; paired AK − AdamW {} and fix − AdamW {} (margin ±{}, alternative −½)",
      seeds, cs.widths.front(), cs.widths.back(), pm(lay.window_slope(0, 1, H, 1)), pm(lay.window_slope(1, 1, H, 1)),
      pm(lay.window_slope(2, 1, H, 1)), pm(lay.diff(0, 1, H)), pm(lay.diff(2, 1, H)), kMargin));
  ctx.findings.push_back(fmt::format(
      "RMS(ΔWx) width slope over steps 2-20, hidden layer: AK-SGD {}, SGD-m {}, paired AK-SGD − SGD-m {}; output layer: "
      "AK-SGD {}, SGD-m {}, paired {} (margin ±{}, alternative −½)",
      pm(lay.window_slope(3, 1, H, 1)), pm(lay.window_slope(4, 1, H, 1)), pm(lay.diff(3, 1, H)),
      pm(lay.window_slope(3, 1, 2, 1)), pm(lay.window_slope(4, 1, 2, 1)), pm(lay.diff(3, 1, 2)), kMargin));
  ctx.findings.push_back(fmt::format(
      "step 1 alone: hidden RMS(ΔWx) width slope AK-AdamW {}, AdamW {}, paired difference {}; the equal-key-norm closed "
      "form ΔW₁(AK) = κ m̄ ΔW₁(AdamW), κ = (α_AK/α_A)η/(1−β) = {:.3g}, m̄ = mean 1/‖x_i‖, predicts the slope of m̄ = {}",
      pm(lay.window_slope(0, 0, H, 1)), pm(lay.window_slope(1, 0, H, 1)), pm(lay.diff(0, 0, H)),
      arms[0].lr / arms[1].lr * cs.eta / (1 - cs.beta), pm(lay.mbar_slope())));
  std::string per_width;
  for (int w = 0; w < cw; ++w)
    per_width += fmt::format("{}n = {}: AK {} vs AdamW {}, log excess over κm̄ {}, RMS(R) {}, median |R| {}", w ? "; " : "",
                             cs.widths[w], pm(lay.value(0, w, 0, H, 1)), pm(lay.value(1, w, 0, H, 1)), pm(lay.step1(w, 3)),
                             pm(lay.step1(w, 1)), pm(lay.step1(w, 2)));
  ctx.findings.push_back("step 1 by width (R = Ĝ/(|g| m̄), 1 for equal key norms): " + per_width);
  ctx.findings.push_back(fmt::format(
      "all 20 steps (the former statistic): slope AK-AdamW {}, AdamW {}; the step-1 transient (heavy-tailed R where g ≈ 0) "
      "dominates it at small width", pm(lay.window_slope(0, 2, H, 1)), pm(lay.window_slope(1, 2, H, 1))));
  cparams["seeds"] = seeds;
  cparams["t_over_z"] = t_over_z;
  cparams["margin"] = kMargin;
  cparams["margin_derivation"] = kMarginWhy;
  cparams["task"] = "teacher (spiked √λ 10/5/2, floor 1; GELU teacher width 64, depth 3; label noise 0.1)";

  ctx.params = {{"buffer", {{"beta", kBeta}, {"eta0", kEta0}, {"decay_c", kDecay}, {"rows", kRows}, {"burn", kBurn},
                            {"average_steps", kAvg}, {"widths", kWidths}, {"trials", trialsA}, {"slopes", slopes},
                            {"growth_g", kGrowth}, {"eta_growing", growing}}},
                {"raw_key", {{"samples", samplesB}, {"slope_contraction", slope_c}, {"slope_mean_square", slope_ms},
                             {"slope_almost_sure", slope_as},
                             {"finding", "the per-step contraction bound scales as 1/n, the actual mean-square and almost-sure "
                                         "stability boundaries of the raw rule scale close to n^{-1/2}"}}},
                {"coordinate_check", cparams}};

  Figure fb;
  fb.name = "buffer-scale";
  fb.title = fmt::format("T13 normalized AK buffer per-coordinate RMS vs width: slopes {:.3f} (η const), {:.3f} (η ∝ n^-½), "
                         "{:.3f} (η ∝ n^½)", slopes["eta-constant"]["measured"].get<double>(),
                         slopes["eta-decaying"]["measured"].get<double>(), slopes["eta-growing"]["measured"].get<double>());
  fb.xlabel = "width n";
  fb.ylabel = "RMS(M_ij)";
  fb.logx = fb.logy = true;
  for (int sch = 0; sch < kSchedules; ++sch) {
    fb.measured_vs_predicted({.csv = "data_buffer_scale.csv", .x = "n", .measured = "measured_rms", .se = "stderr_rms",
                              .predicted = "predicted_rms", .measured_title = std::string("measured, ") + sch_name[sch],
                              .predicted_title = std::string("exact, ") + sch_name[sch],
                              .where = std::string("schedule=") + sch_name[sch]});
  }
  ctx.out.figure(fb);

  Figure fr;
  fr.name = "raw-key-stability";
  fr.title = fmt::format("T13 raw-key η boundaries vs width: slopes {:.2f} (per-step contraction), {:.2f} (mean square), {:.2f} (a.s.)",
                         slope_c, slope_ms, slope_as);
  fr.xlabel = "width n";
  fr.ylabel = "largest stable η";
  fr.logx = fr.logy = true;
  fr.series = {{"data_raw_key.csv", "n", "eta_contraction", "", "(1+β)/n, every step a contraction", "linespoints", ""},
               {"data_raw_key.csv", "n", "eta_mean_square", "", "mean-square boundary", "linespoints", ""},
               {"data_raw_key.csv", "n", "eta_almost_sure", "", "almost-sure boundary (Lyapunov = 0)", "linespoints", ""}};
  ctx.out.figure(fr);

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
