// T5 tracking, the model: the exact predictions of each scenario (theory/tracking.hpp), their
// sensitivities and the fit selection (the plan), the Monte-Carlo run and the AR(1) rate fit
// (the measurement). The claim: claim.cpp.
#include "t05_tracking.hpp"

namespace akm::exp::t05 {

/// The shift of one scenario, with β and a scale `sc` on the post-shift eigenvalues the AK
/// buffers contract with (λ¹ and λ̂¹; κ¹ and the pre-shift spectrum held fixed): sc = 1 and
/// β = kBeta are the experiment; other values only feed the resolution (sensitivity.hpp).
theory::TrackingShift make_shift(const Model& md, const Mat& Q, double beta, double sc) {
  theory::TrackingShift s;
  s.lambda0 = md.pre.spectrum.lambda;
  s.lambda_hat0 = md.pre.moments.lambda_hat;
  s.kappa0 = md.pre.moments.kappa;
  s.lambda1 = sc * md.post.spectrum.lambda;
  s.lambda_hat1 = sc * md.post.moments.lambda_hat;
  s.kappa1 = md.post.moments.kappa;
  s.Q = Q;
  s.a0 = md.A0.row(0).transpose();
  s.a1 = md.A1.row(0).transpose();
  s.beta = beta;
  s.noise_sigma = kNoise;
  s.t0 = kT0;
  return s;
}

Prediction predict(const Model& md, const Mat& Q) {
  const theory::TrackingShift s = make_shift(md, Q);
  const int n = md.post.n();
  Prediction p;
  p.mstar1 = p.y0 = p.rate = p.scale = Mat::Zero(kRules, n);
  for (int r = 0; r < kRules; ++r) {
    const auto t = theory::tracking_prediction(s, static_cast<BufferKind>(r), md.eta(r));
    p.mstar1.row(r) = t.mstar1.transpose();
    p.y0.row(r) = t.y0.transpose();
    p.rate.row(r) = t.rate.transpose();
    p.scale.row(r) = t.scale.transpose();
  }
  return p;
}

/// ∂/∂ln(η, β, λ) of rule r's predictions, from the same closed forms (theory/tracking.hpp):
/// rows 0..|kLags|−1 the checked means β̃_i^k y0_i, the last row the rate β̃_i; one column per
/// direction (each depends only on its own post-shift eigenvalue, so one scaled run gives all).
LogSensitivity<Mat> prediction_sensitivity(const Model& md, const Mat& Q, int r) {
  const int n = md.post.n();
  const double eta = r == kEma ? 1.0 : md.eta(r);  // EMA ignores η
  return log_sensitivity(
      [&](double e, double b, double sc) {
        const auto t = theory::tracking_prediction(make_shift(md, Q, b, sc), static_cast<BufferKind>(r), e);
        Mat out(kLags.size() + 1, n);
        for (std::size_t l = 0; l < kLags.size(); ++l)
          for (int i = 0; i < n; ++i) out(static_cast<Eigen::Index>(l), i) = std::pow(t.rate[i], kLags[l]) * t.y0[i];
        out.row(static_cast<Eigen::Index>(kLags.size())) = t.rate.transpose();
        return out;
      },
      eta, kBeta);
}

/// Annotates the check added last with column i, row `row` of a rule's sensitivities (EMA:
/// η and λ do not set its rate, so only β).
void annotate(Checks& checks, const LogSensitivity<Mat>& d, int r, Eigen::Index row, int i) {
  const double none = std::numeric_limits<double>::quiet_NaN();
  checks.sensitivity(r == kEma ? none : d.eta(row, i), d.beta(row, i), r == kEma ? none : d.lambda(row, i));
}

McResult simulate(ExperimentContext& ctx, const Model& md, const Mat& Q, bool rotated,
                  const Prediction& p, std::uint64_t seed, long long trials,
                  const std::string& label) {
  // All three buffers see the same keys and noise, so the horizon ratio's jackknife sees
  // their correlation (ops/tracking.hpp).
  ops::Tracking op;
  op.sqrt_lambda0 = md.pre.sqrt_lambda;
  if (rotated) op.Q = Q;  // x = Q diag(√λ⁰) z ~ N(0, Σ_0); else the pre-shift keys are √λ⁰ ∘ z
  op.sqrt_lambda1 = md.post.sqrt_lambda;
  op.A0 = md.A0;
  op.A1 = md.A1;
  op.noise_sigma = kNoise;
  op.beta = kBeta;
  op.eta_raw = md.eta_raw;
  op.eta_normalized = kEtaNorm;
  op.t0 = kT0;
  op.post = kPost;
  op.center = p.mstar1;  // observables T_{t0+k}u_i = M_{t0+k}u_i − M*_1u_i, at obs()
  return ops::tracking(op, seed, ctx.backend(), ctx.mc(trials, label, kGroups));
}

/// Fit window from theory: pairs k = 0..L−1 with L the first lag where β̃^L ≤ 5%, ≥ 3 pairs.
int window(double rate) {
  int L = kMinPairs;
  if (rate > 0 && rate < 1)
    L = std::max(L, static_cast<int>(std::ceil(std::log(kWindowLevel) / std::log(rate))));
  return std::min(L, kPost);
}

/// Least-squares AR(1) ratio Σ y_{k+1}y_k / Σ y_k² of a mean trajectory.
double ar1(const Vec& v, int n, int r, int i, int L) {
  double num = 0, den = 0;
  for (int k = 0; k < L; ++k) {
    const double y = v[obs(n, r, k, i)];
    num += v[obs(n, r, k + 1, i)] * y;
    den += y * y;
  }
  return num / den;
}

// Which directions are fitted is decided here, from predictions alone: the quick-mode trial
// count is used in both modes, so --quick keeps every check and full mode only tightens the
// standard errors (claim.cpp, header).
Plan plan(const Model& md, const Mat& Q) {
  const int n = md.post.n();
  Plan pl;
  pl.p = predict(md, Q);
  for (int r = 0; r < kRules; ++r) pl.sens.push_back(prediction_sensitivity(md, Q, r));
  pl.se_scale = pl.p.scale / std::sqrt(static_cast<double>(kSelectionTrials));
  pl.snr = pl.p.y0.cwiseAbs().cwiseQuotient(pl.se_scale);
  pl.fit.assign(kRules, std::vector<bool>(n, false));
  for (int r = 0; r < kRules; ++r)
    for (int i = 0; i < n; ++i) pl.fit[r][i] = pl.snr(r, i) >= kMinSnr;
  pl.horizon.resize(static_cast<Eigen::Index>(kHorizonRules.size()), n);
  for (std::size_t h = 0; h < kHorizonRules.size(); ++h) {
    const int r = kHorizonRules[h];
    for (int i = 0; i < n; ++i) {
      const double lam = r == kAkRaw ? md.post.spectrum.lambda[i] : md.post.moments.lambda_hat[i];
      pl.horizon(static_cast<Eigen::Index>(h), i) = 1 + theory::ratio_r(kBeta, md.eta(r), lam);
    }
  }
  return pl;
}

Measured measure(ExperimentContext& ctx, const Model& md, const Scenario& S, const Plan& pl,
                 long long trials) {
  const int n = md.post.n();
  Measured m{simulate(ctx, md, S.Q, S.rotated, pl.p, derive_seed(ctx.opts.seed, "T5/mc/" + S.name),
                      trials, "T5 " + S.name),
             {}, {}, {}, {}};
  m.mean = m.res.total.mean();
  m.se = m.res.total.stderr_mean();
  const Jackknife jack(m.res.groups);  // sim/jackknife.hpp: estimates carry groups − 1 dof
  m.rate.assign(kRules, std::vector<MeanEstimate>(n));
  for (int r = 0; r < kRules; ++r)
    for (int i = 0; i < n; ++i) {
      const int L = window(pl.p.rate(r, i));
      m.rate[r][i] = jack([&](const Vec& v) { return ar1(v, n, r, i, L); });
    }
  // τ^EMA/τ^AK = (1 − r̂_AK)/(1 − r̂_EMA), one joint jackknife over the pooled means.
  m.horizon.assign(kHorizonRules.size(), std::vector<MeanEstimate>(n));
  for (std::size_t h = 0; h < kHorizonRules.size(); ++h) {
    const int r = kHorizonRules[h];
    for (int i = 0; i < n; ++i) {
      if (!pl.horizon_fitted(h, i)) continue;
      const int La = window(pl.p.rate(r, i)), Le = window(kBeta);
      m.horizon[h][i] =
          jack([&](const Vec& v) { return (1 - ar1(v, n, r, i, La)) / (1 - ar1(v, n, kEma, i, Le)); });
    }
  }
  return m;
}

}  // namespace akm::exp::t05
