// T5 tracking — [thm:tracking, eq:tracking-ema, eq:tracking-delta,
//                app:direction-selective-tracking, eq:horizon, eq:ratio]
//
// At step t0 the stream switches (Ḡ_0, Σ_0) → (Ḡ_1, Σ_1). With T_{t,i} = (M_t − M*_1)u_i and
// u_i the eigenvectors of Σ_1, the theorem says E[T_{t,i}] = β̃_i E[T_{t−1,i}] for AK
// (β̃_i = β − ηλ_i raw key, β − ηλ̂_i normalized key) and β E[T_{t−1,i}] for EMA, whose
// target is M*_1 = Ḡ_1. The proof (app:direction-selective-tracking) uses only that M_{t−1}
// is independent of the new key, so the whole mean trajectory is exact:
//   E[M_t] = M*_0 + (M_0 − M*_0)(βI − ηΣ_0)^t before the shift (thm:fixedpoint transient),
//   E[T_{t0+k}]u_i = β̃_i^k (E[M_{t0}] − M*_1)u_i after it,
// and every per-direction, per-lag check carries no bias term.
//
// Setting. Σ_1 is the spiked spectrum, simulated in its own eigenbasis (O(n) keys). Σ_0 is
// the power-law spectrum placed in a basis Q relative to Σ_1's: Q = I ("same-basis") or Q
// Haar random ("rotated", the eigenbasis itself moves at the shift). Pre-shift keys are
// x = Q diag(√λ⁰) z, O(n²), affordable at n = 32. Values δ = A_k x + ξ with A_0 ≠ A_1,
// so Ḡ_k = A_kΣ_k, Ĝ_k = A_k K_k with K_0 = Q diag(κ⁰) Qᵀ, Σ̂_0 = Q diag(λ̂⁰) Qᵀ (the
// normalization commutes with the rotation). m = 1: the buffer is one row.
//
// Measured on top of the exact means:
//  * per-direction contraction rates r̂_i, the least-squares AR(1) ratio of the trial-mean
//    trajectory over a window fixed by theory before the data is seen; because the
//    trial-mean error also satisfies E[e_{k+1} | e_k] = β̃_i e_k, E[Σ y_{k+1}y_k] = β̃_i E[Σ y_k²]
//    exactly, so r̂_i is unbiased up to the O(1/trials) ratio bias the jackknife removes;
//  * the horizon ratio τ^EMA/τ^AK = (1 − r̂_AK)/(1 − r̂_EMA) against 1 + ηλ_i/(1−β)
//    [eq:horizon, eq:ratio], jackknifed jointly (both buffers see the same keys).
// Which directions are fitted is decided from predictions alone, before simulating: direction
// i of a buffer is fitted iff |y_0| = |E[T_{t0,i}]| ≥ 20 × (noise scale)/√(20 000), the
// noise scale being the exact per-trial standard deviation for EMA and an additive-forcing
// approximation for AK (predict()). A ratio fit needs a denominator far above its noise: in
// 10 000-trial runs over seven seeds, fits with this ratio between 10 and 20 gave z-scores with
// mean +0.3 and sd 1.2 (a small-sample skew of N/D over the 28-pair floor windows), fits above
// 20 mean −0.06 and sd 1.03.
// The same count (kSelectionTrials, quick mode's when the rule was set) in both modes, so
// --quick keeps every check.
#include "t05_tracking.hpp"

namespace akm::exp {

using namespace t05;

namespace {

nlohmann::json row_json(const Mat& A) { return to_std(A.row(0).transpose()); }

}  // namespace

static void t05_tracking(ExperimentContext& ctx) {
  // ---- Set-up: the model, the two scenarios, every prediction and the fit selection ----
  const long long R = trials(ctx, kTrialsFull, kTrialsQuick);
  Model md;
  md.pre = make_setting("power", kPower, ctx.opts.seed);
  md.post = make_setting("spiked", kSpiked, ctx.opts.seed);
  const int n = md.post.n();
  if (md.pre.n() != n) throw std::logic_error("T5: the two spectra must share n");
  md.A0 = value_map(kM, n, derive_seed(ctx.opts.seed, "T5/A0"));
  md.A1 = value_map(kM, n, derive_seed(ctx.opts.seed, "T5/A1"));
  // u1..un as dir_name() spells them, formatted once (inlining dir_name's string concatenation
  // here trips GCC 12's -Wrestrict false positive).
  std::vector<std::string> dname;
  for (int i = 0; i < n; ++i) dname.push_back(fmt::format("u{}", i + 1));
  // Raw η from the larger λ_max of the two spectra, so β̃ = β − ηλ stays ≥ β − 0.4 > 0 before
  // and after the shift [thm:unconditional-stability]; here Σ_1's spike λ = 100 sets it.
  md.eta_raw =
      kRawFrac / std::max(md.pre.spectrum.lambda.maxCoeff(), md.post.spectrum.lambda.maxCoeff());

  const std::uint64_t q_seed = derive_seed(ctx.opts.seed, "T5/Q");
  const std::vector<Scenario> scenarios{{"same-basis", false, Mat::Identity(n, n)},
                                        {"rotated", true, haar_orthogonal(n, q_seed)}};
  std::vector<Plan> plans;
  for (const Scenario& S : scenarios) plans.push_back(plan(md, S.Q));

  ctx.params = {{"beta", kBeta},
                {"eta_raw", md.eta_raw},
                {"eta_normalized", kEtaNorm},
                {"m", kM},
                {"n", n},
                {"noise_sigma", kNoise},
                {"t0", kT0},
                {"post_steps", kPost},
                {"lags_checked", kLags},
                {"trials", R},
                {"jackknife_groups", kGroups},
                {"selection_trials", kSelectionTrials},
                {"M0", "zero"},
                {"value_stream",
                 "delta = A_k x + xi, xi ~ N(0, noise_sigma^2); A_0 before t0, A_1 "
                 "after; all vectors in the eigen-coordinates of Sigma_1"},
                {"pre_shift", setting_params(md.pre)},
                {"post_shift", setting_params(md.post)},
                {"A0", row_json(md.A0)},
                {"A1", row_json(md.A1)},
                {"raw_eta_rule", "0.4 / max(lambda_max(Sigma_0), lambda_max(Sigma_1))"},
                {"fit_window",
                 "pairs k = 0..L-1, L = max(3, ceil(ln 0.05 / ln rate)), rate = "
                 "predicted contraction; L <= post_steps"},
                {"fit_selection",
                 "fit direction i of a rule iff |y0_i| >= 20 * scale_i / sqrt(selection_trials), "
                 "scale_i from the exact EMA variance or the AK additive-forcing "
                 "approximation (see tracking.cpp); decided before simulating"},
                {"scenarios", nlohmann::json::array()}};
  for (const Scenario& S : scenarios) {
    nlohmann::json sj = {{"name", S.name}};
    if (S.rotated) {
      sj["Q_seed"] = q_seed;
      sj["Q_method"] =
          "haar_orthogonal(n, Q_seed): QR of an n x n N(0,1) matrix (Philox stream "
          "purpose 'basis', trial 0, column-major fill) with column signs fixed by "
          "sign(R_jj) [Mezzadri 2007]; column j is Sigma_0's j-th eigenvector";
      nlohmann::json q = nlohmann::json::array();
      for (int r = 0; r < n; ++r) q.push_back(to_std(S.Q.row(r).transpose()));
      sj["Q"] = q;
    } else {
      sj["Q"] = "identity";
    }
    ctx.params["scenarios"].push_back(sj);
  }

  // ---- Simulate: each scenario's trials, its fitted rates and horizon ratios ----
  std::vector<Measured> measured;
  for (std::size_t sc = 0; sc < scenarios.size(); ++sc)
    measured.push_back(measure(ctx, md, scenarios[sc], plans[sc], R));

  // ---- Check ----
  for (std::size_t sc = 0; sc < scenarios.size(); ++sc) {
    const std::string& name = scenarios[sc].name;
    const Plan& pl = plans[sc];
    const Prediction& p = pl.p;
    const Measured& m = measured[sc];
    // Exact mean trajectory, every direction, at fixed lags: E[T_{t0+k}]u_i = β̃_i^k y_0.
    // Alternatives (k ≥ 1): AK offsets decaying at EMA's rate β [eq:tracking-ema]; the EMA
    // offset decaying at the normalized AK rate β − ηλ̂_i [eq:tracking-delta] — the contrast of
    // thm:tracking seen from either side. k = 0 is the offset at the shift, set by the
    // pre-shift transient and M*_1 (T1's claim), not by the post-shift rate, so it has no
    // rate alternative and keeps the declared 10% effect.
    for (int r = 0; r < kRules; ++r)
      for (int i = 0; i < n; ++i)
        for (std::size_t l = 0; l < kLags.size(); ++l) {
          const int k = kLags[l];
          ctx.checks.mc(fmt::format("mean/{}/{}/k={}/{}", name, rule_name(r), k, dname[i]),
                        std::pow(p.rate(r, i), k) * p.y0(r, i),
                        m.res.total.estimate(static_cast<Eigen::Index>(obs(n, r, k, i))));
          if (k > 0) {
            if (r == kEma)
              ctx.checks.against(std::pow(p.rate(kAkNorm, i), k) * p.y0(r, i), "AK-normalized rate");
            else
              ctx.checks.against(std::pow(kBeta, k) * p.y0(r, i), "EMA rate");
          }
          annotate(ctx.checks, pl.sens[static_cast<std::size_t>(r)], r, static_cast<Eigen::Index>(l), i);
        }
    // Fitted contraction rates on the selected directions [eq:tracking-delta, eq:tracking-ema].
    for (int r = 0; r < kRules; ++r)
      for (int i = 0; i < n; ++i) {
        const std::string check = fmt::format("rate/{}/{}/{}", name, rule_name(r), dname[i]);
        if (!pl.fit[r][i]) {
          ctx.gate(check, fmt::format("fit-selection gate: predicted |y0| / selection se = {:.3g} < {} (decided "
                                      "from predictions before simulating; below it the AR(1) ratio fit has no "
                                      "signal)", pl.snr(r, i), kMinSnr));
          continue;
        }
        ctx.checks.mc(check, p.rate(r, i), m.rate[r][i]);
        if (r == kEma)
          ctx.checks.against(p.rate(kAkNorm, i), "AK-normalized rate");
        else
          ctx.checks.against(kBeta, "EMA");
        annotate(ctx.checks, pl.sens[static_cast<std::size_t>(r)], r, static_cast<Eigen::Index>(kLags.size()), i);
      }
    // Horizon ratio τ^EMA/τ^AK = (1 − r̂_AK)/(1 − r̂_EMA) → 1 + ηλ_i/(1−β) [eq:horizon, eq:ratio],
    // on directions fitted for both buffers.
    for (std::size_t h = 0; h < kHorizonRules.size(); ++h) {
      const int r = kHorizonRules[h];
      const std::string key = to_string(key_of(static_cast<BufferKind>(r)));
      for (int i = 0; i < n; ++i) {
        const std::string check = fmt::format("horizon/{}/{}/{}", name, key, dname[i]);
        if (!pl.horizon_fitted(h, i)) {
          ctx.gate(check, "fit-selection gate: the AK or the EMA rate of this direction is not fitted (predicted "
                          "|y0| / selection se < 20, decided before simulating)");
          continue;
        }
        const double lam = r == kAkRaw ? md.post.spectrum.lambda[i] : md.post.moments.lambda_hat[i];
        ctx.checks.mc(check, pl.horizon(static_cast<Eigen::Index>(h), i), m.horizon[h][i]);
        // EMA's horizon equals its own: were AK to contract at β the ratio would be 1.
        ctx.checks.against(1.0, "EMA");
        annotate_sensitivity(ctx.checks, log_sensitivity(
            [&](double e, double b, double s) { return 1 + theory::ratio_r(b, e, s * lam); }, md.eta(r), kBeta));
      }
    }
  }

  // Pooled recovery of η, β and the λ scale from every post-shift lag of both scenarios
  // (check/pooled.hpp): the claim's resolution.
  PooledRecovery pooled;
  for (std::size_t sc = 0; sc < scenarios.size(); ++sc) add_pooled(pooled, md, scenarios[sc], measured[sc]);
  pooled.record(ctx.checks);

  // ---- Record: the tables and the figures ----
  write_tables(ctx, md, scenarios, plans, measured, dname);
  figures(ctx, md, scenarios, plans, measured, dname);
}

const Registrar registration{{
    .id = "T5",
    .slug = "tracking",
    .title = "Direction-selective tracking after a distribution shift",
    .labels = "thm:tracking eq:tracking-ema eq:tracking-delta app:direction-selective-tracking "
              "eq:horizon eq:ratio",
    .claim = "E[T_{t,i}] = β̃_i E[T_{t−1,i}] (AK, β̃_i = β − ηλ_i or β − ηλ̂_i), β E[T_{t−1,i}] (EMA); "
             "τ^EMA/τ^AK = 1 + ηλ_i/(1−β)",
    .body = t05_tracking,
}};

}  // namespace akm::exp
