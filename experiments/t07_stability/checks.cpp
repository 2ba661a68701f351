// T7 stability — the set-up checks: [prop:bounded-sigma-hat] on the Monte-Carlo moments,
// [rem:mup-normalization]'s operator-norm identity, the scale-freeness of x̂, and the width
// table.
#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "akm/rules/kernels.hpp"
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
void width_table(ExperimentContext& ctx, long long R) {
  CsvTable t{{"n", "mean_norm_sq", "stderr", "tr_sigma", "eta_max_normalized", "eta_max_raw_typical"}, {}};
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
    ctx.checks.mc(fmt::format("width/n={}/E‖xxᵀ‖_op = E‖x‖² = tr Σ", n), n, m, se);
    ctx.checks.design();  // a generator moment: the table's premise, not the claim
    t.add({n, m, se, static_cast<double>(n), 1.0 + kBeta, (1.0 + kBeta) / n});
  }
  ctx.out.write_csv("data_width.csv", t);
}

}  // namespace akm::exp::t07
