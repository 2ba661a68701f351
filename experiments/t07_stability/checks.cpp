// T7 stability — the checks: [prop:bounded-sigma-hat] on the Monte-Carlo moments,
// [rem:mup-normalization]'s operator-norm identity, the scale-freeness of x̂, the width
// moments, and per (law, arm, scale) the transport β̃_i^k and the pathwise bounds.
#include <algorithm>
#include <cmath>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "akm/rules/kernels.hpp"
#include "sensitivity.hpp"
#include "t07_stability.hpp"

namespace akm::exp::t07 {

// [prop:bounded-sigma-hat] on a Monte-Carlo estimate, and the estimate against the exact
// moments where those exist.
void check_sigma_hat(ExperimentContext& ctx, const std::string& name, const KeySampler& law,
                     const KeyLawMoments& mc) {
  const Vec lh = mc.lambda_hat();
  ctx.checks.exact(name + "/tr Σ̂ = 1 (Monte-Carlo estimate, every x̂x̂ᵀ has trace 1)", 1.0, mc.sigma_hat.trace());
  ctx.checks.exact(name + "/Σ_ij Q_ij = E‖x̂‖⁴ = 1 (Monte-Carlo estimate)", 1.0, mc.fourth.sum());
  ctx.checks.at_most(name + "/max λ̂_i ≤ 1", 1.0, lh.maxCoeff());
  ctx.checks.at_most(name + "/−min λ̂_i ≤ 0", 0.0, -lh.minCoeff());
  if (law.law().kind == "student") return;  // the estimate is the prediction
  const KeyLawMoments ex = exact_key_moments(law);
  if (law.law().kind == "rademacher") {  // ‖x‖² = Σλ on every sample: exact to rounding
    ctx.checks.exact(name + "/Monte-Carlo λ̂ = λ/Σλ (max entry)", 0.0, (lh - ex.lambda_hat()).cwiseAbs().maxCoeff(), 0.0, 1e-12);
    ctx.checks.design();  // the moment generator against its closed form, not the claim
    return;
  }
  // The Monte-Carlo moment generator against the exact moments: set-up checks.
  family(ctx, name + "/Monte-Carlo λ̂_i = exact (" + ex.method + ")", ex.lambda_hat(), Vec::Zero(law.n()),
         estimates(lh, mc.lambda_hat_se()));
  ctx.checks.design();
  family(ctx, name + "/Monte-Carlo κ_i = exact (" + ex.method + ")", ex.kappa(), Vec::Zero(law.n()),
         estimates(mc.kappa(), mc.kappa_se()));
  ctx.checks.design();
}

// [rem:mup-normalization] ‖βI − ηx̂x̂ᵀ‖_op = max(β, |β−η|) on random keys, β, η (Eigen SVD).
double worst_opnorm_identity(const KeySampler& law, std::uint64_t seed) {
  Stream st(seed, 0, Purpose::aux);
  const int n = law.n();
  Vec x(n), w(n);
  double worst = 0.0;
  for (int t = 0; t < 100; ++t) {
    law.draw(st, x, w);
    x.normalize();
    const double beta = st.uniform() * 0.999, eta = 3.0 * st.uniform();
    const Mat F = beta * Mat::Identity(n, n) - eta * x * x.transpose();
    const double sv = Eigen::JacobiSVD<Mat>(F).singularValues()[0];
    const double want = std::max(beta, std::abs(beta - eta));
    worst = std::max(worst, std::abs(sv - want) / want);
  }
  return worst;
}

// x̂ is scale-free: (s·x)/‖s·x‖ = x/‖x‖ to rounding for every s of the sweep.
double worst_scale_dependence(const KeySampler& law, std::uint64_t seed) {
  Stream st(seed, 0, Purpose::aux);
  const int n = law.n();
  Vec x(n), w(n);
  double worst = 0.0;
  for (int t = 0; t < 100; ++t) {
    law.draw(st, x, w);
    const Vec xh = x / x.norm();
    for (double s : scales(false)) {
      const Vec y = s * x;
      worst = std::max(worst, (y / y.norm() - xh).cwiseAbs().maxCoeff());
    }
  }
  return worst;
}

// [rem:mup-normalization] ‖xxᵀ‖_op = ‖x‖² grows like tr Σ = n for per-coordinate Θ(1) keys,
// while ‖x̂x̂ᵀ‖_op = 1 at every width: the raw per-sample stable η shrinks like 1/n.
std::vector<Width> measure_width(ExperimentContext& ctx, long long R) {
  std::vector<Width> out;
  for (int n : {64, 256, 1024, 4096}) {
    Stream st(derive_seed(ctx.opts.seed, fmt::format("T7/width/{}", n)), 0, Purpose::keys);
    const KeySampler law(parse_key_law("gaussian"), Vec::Ones(n));
    Vec x(n), w(n);
    double sum = 0, sq = 0;
    for (long long r = 0; r < R; ++r) {
      law.draw(st, x, w);
      const double v = x.squaredNorm();
      sum += v, sq += v * v;
    }
    const double m = sum / R, se = std::sqrt((sq / R - m * m) / (R - 1));
    out.push_back({n, m, se});
  }
  return out;
}

void check_width(ExperimentContext& ctx, const std::vector<Width>& widths) {
  for (const Width& w : widths) {
    ctx.checks.mc(fmt::format("width/n={}/E‖xxᵀ‖_op = E‖x‖² = tr Σ", w.n), w.n, w.mean_norm_sq, w.se);
    ctx.checks.design();  // a generator moment: the table's premise, not the claim
  }
}

double LawRun::L_pred(std::size_t si) const {
  const int n = static_cast<int>(cov.size());
  return kSteps / static_cast<double>(n) * ((n - 1) * std::log(kBeta) + logdet[si].first);
}

double LawRun::L_se(std::size_t si) const {
  return kSteps / static_cast<double>(cov.size()) * logdet[si].second;
}

LagView lag_view(const LawRun& lr, const ScaleRun& run, std::size_t l) {
  const bool raw = run.arm.key == Key::raw;
  const int n = static_cast<int>(lr.cov.size());
  const Layout L{n};
  const int k = kLags[l];
  LagView v{Vec(n), Vec(n), Vec(n), Vec(n), {}};
  // The exact error from the second-moment map (header of claim.cpp): normalized keys, and
  // raw keys with a finite fourth moment (the key fed to the buffer is s·x: η s², λ, Q).
  const Vec e_exact = !raw           ? exact_transport_se(lr.pred.lambda_hat(), lr.pred.fourth, run.arm.eta, k, run.R)
                      : lr.raw.finite ? exact_transport_se(lr.cov, lr.raw.Q, run.arm.eta * run.s * run.s, k, run.R)
                                      : Vec();
  for (int i = 0; i < n; ++i) {
    // Per-direction mean factor: β − ηλ̂_i (normalized) or β − ηλ_i s² (raw).
    v.lam_key[i] = raw ? lr.cov[i] * run.s * run.s : lr.pred.lambda_hat()[i];
    v.bt[i] = theory::beta_tilde(kBeta, run.arm.eta, v.lam_key[i]);
    const double bt_se = raw ? 0.0 : run.arm.eta * lr.pred.lambda_hat_se()[i];
    v.p[i] = std::pow(v.bt[i], k);
    v.pse[i] = k * std::pow(std::abs(v.bt[i]), k - 1) * bt_se;  // delta method
    // The exact error with the sample skewness of the mean (standardized) — the header's
    // reasons; the sample error only where no exact one exists (raw Student-t, not checked).
    MeanEstimate e = run.res.total.estimate(static_cast<Eigen::Index>(L.diag(l, i)));
    if (e_exact.size() > 0) e.se = e_exact[i], e.se_exact = true;
    v.est.push_back(e);
  }
  return v;
}

Eigen::Index LawRun::top() const {
  Eigen::Index t = 0;
  cov.maxCoeff(&t);
  return t;
}

SecondMoment second_moment(const LawRun& lr, const ScaleRun& run) {
  const Eigen::Index t = lr.top();
  const double c = run.arm.eta * run.s * run.s;  // the raw key is s·x
  SecondMoment m;
  m.u = c * lr.cov[t];
  m.rho = spectral_radius(lr.raw_A(run.s));
  m.pred = lr.raw_A(run.s)(t, t);
  // y = β − c x_1²: E y⁴ = Σ_p C(4,p) β^{4−p} (−c)^p E x_1^{2p}; Var y² = E y⁴ − (E y²)².
  double y4 = 0.0;
  const double binom[5] = {1, 4, 6, 4, 1};
  for (int p = 0; p <= 4; ++p) y4 += binom[p] * std::pow(kBeta, 4 - p) * std::pow(-c, p) * lr.raw.even(t, p);
  m.est = run.res.total.estimate(static_cast<Eigen::Index>(Layout{static_cast<int>(lr.cov.size())}.diag_sq(static_cast<int>(t))));
  m.se_sample = m.est.se;
  m.est.se = std::sqrt(std::max(y4 - m.pred * m.pred, 0.0) / static_cast<double>(run.R));
  m.est.se_exact = true;
  return m;
}

void check_law(ExperimentContext& ctx, const LawRun& lr) {
  const std::string& ln = lr.ln;
  check_sigma_hat(ctx, ln, lr.law, lr.mc);
  ctx.checks.exact(ln + "/‖βI − ηx̂x̂ᵀ‖_op = max(β,|β−η|) (worst of 100, relative)", 0.0, lr.worst_opnorm, 0.0, 1e-10);
  ctx.checks.exact(ln + "/x̂(s·x) = x̂(x) for s in 1e-3..1e3 (worst entry)", 0.0, lr.worst_scale, 0.0, 1e-14);
  ctx.checks.design();  // x̂ is scale-free by construction
  const Layout L{static_cast<int>(lr.cov.size())};
  const Eigen::Index top = lr.top();
  for (const ScaleRun& run : lr.runs) {
    const bool raw = run.arm.key == Key::raw;
    const Vec mean = run.res.total.mean();
    const double u = run.arm.eta * lr.cov.maxCoeff() * run.s * run.s;  // ηλ_max s² (raw)
    const bool mean_contracting = raw && std::abs(kBeta - u) < 1.0;
    for (std::size_t l = 0; l < kLags.size(); ++l) {
      const int k = kLags[l];
      const std::string name = fmt::format("{}/lag={}/E[u_iᵀP_ku_i] = β̃_i^k", run.tag, k);
      // Raw: lag 1 at every scale (the one-step mean factor), longer lags only where the
      // mean contracts, |β − ηλ_max s²| < 1; never for an infinite-fourth-moment law (header).
      if (!raw || (lr.raw.finite && (k == 1 || mean_contracting))) {
        const LagView v = lag_view(lr, run, l);
        const Eigen::Index w = family(ctx, name, v.p, v.pse, v.est);
        // The EMA buffer's transport is β^k I whatever the keys [eq:ema-update].
        ctx.checks.against(std::pow(kBeta, k), "EMA");
        sensitivity(ctx.checks,
                    [&](double e, double b, double m) { return std::pow(theory::beta_tilde(b, e, m * v.lam_key[w]), k); },
                    run.arm.eta, kBeta);
        // Inside the window β < ηλ_max s² < 1+β the written condition denies contraction; the
        // one-step factor along u_1 is β − ηλ_1s² ∈ (−1, 0), and E[P_k] = (βI − ηs²Σ)^k.
        if (k == 1 && window_scale(run.s) && u > kBeta) {
          ctx.checks.mc(fmt::format("{}/lag=1/E[u_1ᵀP_1u_1] = β − ηλ_1s² in (−1, 0)", run.tag), v.p[top],
                        v.est[static_cast<std::size_t>(top)], v.pse[top], rounding(v.p[top]));
          ctx.checks.against(-1.0, kRivalNoContraction);
        }
      } else {
        ctx.gate(name, !lr.raw.finite
                           ? "raw key with E x⁴ = ∞ (Student-t ν = 3): the Monte-Carlo mean of P_ii has no standard error"
                           : "raw key at a scale where the mean does not contract (|β − ηλ_max s²| ≥ 1): lags > 1 are checked "
                             "only where it does");
      }
    }
    // The one-step second moment along u_1 at the pre-registered points, with its exact
    // error: A_11 > 1 proves ρ(A) ≥ A_11 > 1 (A ≥ 0 entrywise), a diverging mean square.
    // Rademacher keys are left out (P_1(1,1)² = (β − ηλ_1s²)² on every path), Student-t
    // ν = 3 too (E x⁴ = ∞: the mean square is infinite after one step at every η > 0).
    if (raw && window_scale(run.s) && lr.raw.finite && lr.law.law().kind != "rademacher") {
      const SecondMoment m = second_moment(lr, run);
      ctx.checks.mc(fmt::format("{}/lag=1/E[(u_1ᵀP_1u_1)²] = A_11 = β² − 2βηλ_1s² + η²s⁴E[x_1⁴]", run.tag), m.pred,
                    m.est, 0.0, rounding(m.pred));
      ctx.checks.against(1.0, kRivalMeanSquare);
    }
    if (raw) {
      const double L_pred = lr.L_pred(run.si);
      ctx.checks.at_most(run.tag + "/fraction of paths with log‖P_T‖ < (1/n)log|det P_T|", 0.0, mean[L.violation()]);
      ctx.checks.mc(run.tag + "/mean (1/n)log|det P_T| = L(s)", L_pred,
                    run.res.total.estimate(static_cast<Eigen::Index>(L.det_bound())), lr.L_se(run.si), rounding(L_pred));
      ctx.checks.against(kSteps * std::log(kBeta), "EMA");  // P_T = β^T I: (1/n)log|det| = T log β
      if (lr.law.law().kind == "rademacher") {
        const double q = std::max(kBeta, std::abs(kBeta - u * lr.law.lambda().sum() / lr.cov.maxCoeff()));
        ctx.checks.at_most(fmt::format("{}/fraction of paths with ‖P_T‖ > max(β,|β − ηs² tr Σ|)^T = {:.3g}", run.tag,
                                       std::pow(q, kSteps)),
                           0.0, mean[L.sure_violation()]);
      }
    } else {
      const double q = std::max(kBeta, std::abs(kBeta - run.arm.eta));
      ctx.checks.at_most(fmt::format("{}/fraction of paths with ‖P_T‖ > max(β,|β−η|)^T = {:.3g}", run.tag, std::pow(q, kSteps)),
                         0.0, mean[L.violation()]);
    }
  }
}

}  // namespace akm::exp::t07
