// T7 stability — [prop:bounded-sigma-hat, thm:unconditional-stability, rem:mup-normalization]
//
// [prop:bounded-sigma-hat] For any key law, Σ̂ = E[x̂x̂ᵀ] has unit trace and eigenvalues in
// [0, 1]: checked on Monte-Carlo estimates for Gaussian, Rademacher, Student-t (ν = 3, no
// fourth moment) and a scale mixture. Each sample's x̂x̂ᵀ has trace 1, so the estimate's
// trace is 1 to rounding (an exact check); the bounds are deterministic (at_most).
//
// [thm:unconditional-stability] The normalized buffer's forgetting factors βI − ηx̂x̂ᵀ do not
// see the input scale (x̂ is scale-free), so with the keys multiplied by s ∈ [1e-3, 1e3] the
// mean transport E[u_iᵀP_k u_i] = β̃_i^k, β̃_i = β − ηλ̂_i, at every s; and [rem:mup-
// normalization] ‖βI − ηx̂x̂ᵀ‖ = max(β, |β−η|) (checked by SVD), so for η < 1+β every path
// contracts surely: ‖P_T‖ ≤ max(β,|β−η|)^T. The raw buffer's factor βI − ηs²xxᵀ has mean
// βI − ηs²Σ: it contracts in mean along u_i iff |β − ηλ_i s²| < 1, so its mean diverges once
// ηλ_max s² > 1+β. The buffer is M_0 = I with δ = 0, i.e. the product P_T itself: the value
// injection ηΣδ_t k_tᵀP_{t→T} is bounded whenever these products are.
//
// Divergence of the raw path, with a margin from theory. ‖P‖_op ≥ |det P|^{1/n} and
// det(βI − ηs²xxᵀ) = β^{n−1}(β − ηs²‖x‖²), so on every path
//   log‖P_T‖ ≥ (1/n) Σ_t [(n−1) log β + log|β − ηs²‖x_t‖²|]        (pathwise, exact algebra)
// whose mean L(s) = (T/n)[(n−1) log β + E log|β − ηs²‖x‖²|] comes from a separately seeded
// Monte Carlo of ‖x‖². Checked: the inequality on every path, and the path bound's mean
// against L(s). Where L(s) > 0 this proves growth of the trial-mean log‖M_T‖ by at least
// L(s) over log‖M_0‖ = 0; L(s) is a lower bound, loose by the other n−1 singular values.
//
// Standard errors. Normalized factors have norm ≤ max(β,|β−η|) < 1, so every moment of P
// is bounded, and for sign-symmetric laws (all four here) the second moments of a pushed
// row are exact (THEOREMS.md E1): E[(u_iᵀP_ku_i)²] = (A^k)_ii with
// A = β²I − 2βη diag(λ̂) + η²Q, Q_ij = E[x̂_i²x̂_j²]. The normalized checks take their
// standard error from this exact variance, not from the sample: on the floor directions of
// Student-t ν = 3 keys x̂_i² has skewness ≈ 11 (its mean is carried by rare samples where
// one light coordinate dominates), and a few hundred trials usually miss those samples, so
// the sample variance underestimates the true one several-fold. The sample error is kept
// in the CSV. Raw checks use only lags up to 20 on laws with E‖x‖⁴ < ∞, with sample errors;
// the raw Student-t ν = 3 law has E x⁴ = ∞, so its raw means are shown, not checked (a
// Monte-Carlo mean of an infinite-variance quantity has no standard error) — only its
// pathwise bound is. Rademacher keys make some observables deterministic (‖x‖² = Σλ), so
// every Monte-Carlo check carries a rounding allowance of 1e-9·max(1, |predicted|).
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/sim/key_law_moments.hpp"
#include "akm/spectrum/keys.hpp"
#include "akm/rules/kernels.hpp"
#include "common.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

const std::vector<double> kEtaNorm{0.5, 1.5};  // η < β (mean contraction), β < η < 1+β (sure only)
constexpr double kRawFrac = 0.4;               // η_raw·λ_max(Σ) at s = 1
constexpr int kSteps = 40;
const std::vector<int> kLags{1, 5, 20};
constexpr long long kPredSamples = 400000;     // ‖x‖² samples for L(s)
constexpr double kRounding = 1e-9;             // relative rounding allowance (header)
double rounding(double p) { return kRounding * std::max(1.0, std::abs(p)); }

const std::vector<std::string> kLaws{"gaussian", "rademacher", "student:nu=3",
                                     "mixture:weights=0.5/0.5,scales=1/100,bases=identity/reverse"};

std::string law_name(const KeySampler& k) {
  const std::string& kind = k.law().kind;
  return kind == "student" ? fmt::format("student-nu{}", k.law().nu) : kind;
}

// Half-decade input scales 1e-3 … 1e3; the normalized arms use the whole decades.
std::vector<double> scales(bool decades_only) {
  std::vector<double> s;
  for (int e = -6; e <= 6; ++e)
    if (!decades_only || e % 2 == 0) s.push_back(std::pow(10.0, e / 2.0));
  return s;
}

struct Arm {
  Key key;
  double eta;
  std::string name() const {
    return key == Key::raw ? std::string("raw") : fmt::format("normalized eta={}", eta);
  }
};

// Observables: diag(P_k) at each lag (|lags|·n), log‖P_T‖_op, violation indicator, and the
// pathwise determinant bound (raw) — the per-trial record of one (law, arm, scale).
struct Layout {
  int n;
  std::size_t diag(std::size_t l, int i) const { return l * static_cast<std::size_t>(n) + static_cast<std::size_t>(i); }
  std::size_t log_norm() const { return kLags.size() * static_cast<std::size_t>(n); }
  std::size_t violation() const { return log_norm() + 1; }
  std::size_t det_bound() const { return log_norm() + 2; }
  std::size_t size() const { return log_norm() + 3; }
};

double op_norm(const Mat& P) {
  const Eigen::SelfAdjointEigenSolver<Mat> es(P.transpose() * P, Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(es.eigenvalues().maxCoeff(), 0.0));
}

McResult simulate(ExperimentContext& ctx, const KeySampler& law, const Arm& arm, double s,
                  std::uint64_t seed, long long R) {
  const int n = law.n();
  const Layout L{n};
  const double q = std::max(kBeta, std::abs(kBeta - arm.eta));  // sure per-step bound (normalized)
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, static_cast<std::uint64_t>(trial), Purpose::keys);
    Mat P = Mat::Identity(n, n);
    Vec x(n), w(n), k(n), r(n);
    double log_scale = 0.0, bound = 0.0;
    std::size_t l = 0;
    for (int t = 1; t <= kSteps; ++t) {
      law.draw(keys, x, w);
      x *= s;
      kern::key_for(arm.key, x, k);
      kern::transport_step(P, k, kBeta, arm.eta, r);
      if (arm.key == Key::raw) {
        bound += ((n - 1) * std::log(kBeta) + std::log(std::abs(kBeta - arm.eta * x.squaredNorm()))) / n;
        // Keep the raw product representable: P = e^{log_scale}·P after the recorded lags.
        const double mx = P.cwiseAbs().maxCoeff();
        if (t > kLags.back() && mx > 1e100) P /= mx, log_scale += std::log(mx);
      }
      if (l < kLags.size() && t == kLags[l]) {
        for (int i = 0; i < n; ++i) out[L.diag(l, i)] = P(i, i);
        ++l;
      }
    }
    const double mx = P.cwiseAbs().maxCoeff();
    const double log_norm = log_scale + std::log(mx) + std::log(op_norm(P / mx));
    out[L.log_norm()] = log_norm;
    if (arm.key == Key::raw) {
      // ‖P_T‖ ≥ |det P_T|^{1/n}, up to rounding of the two logarithms.
      out[L.violation()] = log_norm < bound - 1e-9 * std::max(1.0, std::abs(bound)) ? 1.0 : 0.0;
      out[L.det_bound()] = bound;
    } else {
      out[L.violation()] = log_norm > kSteps * std::log(q) + 1e-12 ? 1.0 : 0.0;
      out[L.det_bound()] = 0.0;
    }
  };
  return monte_carlo(ctx.mc(R, fmt::format("T7 {} {} s={:g}", law_name(law), arm.name(), s)), L.size(), kernel);
}

// E log|β − c‖x‖²| for each c, from a separately seeded sample of ‖x‖²: {mean, se}.
std::vector<std::pair<double, double>> mean_log_det_factor(const KeySampler& law, const std::vector<double>& c,
                                                           std::uint64_t seed) {
  Stream st(seed, 0, Purpose::aux);
  Vec x(law.n()), w(law.n());
  std::vector<double> sum(c.size(), 0.0), sq(c.size(), 0.0);
  for (long long t = 0; t < kPredSamples; ++t) {
    law.draw(st, x, w);
    const double q = x.squaredNorm();
    for (std::size_t j = 0; j < c.size(); ++j) {
      const double v = std::log(std::abs(kBeta - c[j] * q));
      sum[j] += v, sq[j] += v * v;
    }
  }
  std::vector<std::pair<double, double>> out;
  const double N = static_cast<double>(kPredSamples);
  for (std::size_t j = 0; j < c.size(); ++j) {
    const double m = sum[j] / N;
    out.push_back({m, std::sqrt(std::max(sq[j] / N - m * m, 0.0) / (N - 1))});
  }
  return out;
}

// Worst summary of n per-direction comparisons with per-direction predictive errors; the
// worst is the largest skew-corrected deviation (include/akm/check/check.hpp). Returns the
// index of the direction the check reports (its alternative and sensitivity are that one's).
Eigen::Index family(ExperimentContext& ctx, const std::string& name, const Vec& pred, const Vec& pred_se,
                    const std::vector<MeanEstimate>& est) {
  double worst = -1;
  Eigen::Index w = 0;
  for (Eigen::Index i = 0; i < pred.size(); ++i) {
    const MeanEstimate& e = est[static_cast<std::size_t>(i)];
    const double diff = e.mean - pred[i], slack = rounding(pred[i]);
    const double shrunk = diff > 0 ? std::max(diff - slack, 0.0) : std::min(diff + slack, 0.0);
    const double z = std::abs(corrected_deviation(shrunk, std::hypot(e.se, pred_se[i]) + 1e-300, e));
    if (z > worst) worst = z, w = i;
  }
  ctx.checks.mc_family(name, pred[w], est[static_cast<std::size_t>(w)], pred.size(), pred_se[w], rounding(pred[w]));
  return w;
}

// Means with sample errors from a large moment Monte Carlo (skewness not tracked there;
// ~10⁵ samples make it negligible).
std::vector<MeanEstimate> estimates(const Vec& mean, const Vec& se) {
  std::vector<MeanEstimate> out;
  for (Eigen::Index i = 0; i < mean.size(); ++i) out.push_back({mean[i], se[i]});
  return out;
}

// Exact standard errors of the normalized transport E[u_iᵀP_ku_i] over R trials (header):
// Var = (A^k)_ii − β̃_i^{2k}, A = β²I − 2βη diag(λ̂) + η²Q.
Vec exact_transport_se(const KeyLawMoments& m, double eta, int k, long long R) {
  const Vec lh = m.lambda_hat();
  const Eigen::Index n = lh.size();
  Mat A = eta * eta * m.fourth;
  A.diagonal().array() += kBeta * kBeta - 2.0 * kBeta * eta * lh.array();
  Mat Ak = Mat::Identity(n, n);
  for (int t = 0; t < k; ++t) Ak = Ak * A;
  Vec se(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double mean = std::pow(kBeta - eta * lh[i], k);
    se[i] = std::sqrt(std::max(Ak(i, i) - mean * mean, 0.0) / static_cast<double>(R));
  }
  return se;
}

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
    t.add({static_cast<long long>(n), m, se, static_cast<double>(n), 1.0 + kBeta, (1.0 + kBeta) / n});
  }
  ctx.out.write_csv("data_width.csv", t);
}

}  // namespace

static void t07_stability(ExperimentContext& ctx) {
  const long long R = trials(ctx, 1500, 200);
  const long long moment_samples = ctx.opts.quick ? 200000 : 1000000;
  const Spectrum spec = parse_spectrum(kSpiked);
  const int n = spec.n();
  const Layout L{n};
  // η_raw·λ_max = kRawFrac at s = 1 for every law, so the thresholds in s are shared.
  const double s_mean = std::sqrt(kBeta / kRawFrac), s_div = std::sqrt((1.0 + kBeta) / kRawFrac);
  ctx.params = {{"beta", kBeta}, {"eta_normalized", kEtaNorm}, {"raw_eta_times_lambda_max", kRawFrac},
                {"steps", kSteps}, {"lags", kLags}, {"trials", R}, {"spectrum", spec.spec},
                {"lambda", to_std(spec.lambda)}, {"scales_raw", scales(false)},
                {"scales_normalized", scales(true)}, {"M0", "identity (m = n)"}, {"delta", "0"},
                {"moment_samples", moment_samples}, {"pred_samples_norm_sq", kPredSamples},
                {"threshold_mean_contraction_s", s_mean}, {"threshold_divergence_s", s_div},
                {"laws", nlohmann::json::array()}};

  // mean_transport_log10: log10‖E[M_T]‖ = T·log10 max_i|β − ηλ_is²| (raw), the norm of the
  // mean, which bounds E‖M_T‖ from below (Jensen) but not the typical log‖M_T‖.
  CsvTable scale_t{{"law", "arm", "series", "scale", "log10_norm", "stderr_log10_norm", "det_bound_log10",
                    "L_pred_log10", "sure_bound_log10", "mean_transport_log10"}, {}};
  // stderr: the error the check uses (exact variance for normalized arms); stderr_sample:
  // the spread over trials.
  CsvTable contr{{"key", "law", "arm", "direction", "lam_key", "scale", "lag", "predicted", "predicted_se",
                  "measured", "stderr", "stderr_sample"}, {}};

  for (const std::string& spec_str : kLaws) {
    const KeySampler law(parse_key_law(spec_str), spec.lambda, derive_seed(ctx.opts.seed, "T7/bases"));
    const std::string ln = law_name(law);
    // Normalized-key moments: a large Monte Carlo for every law (the checks of
    // [prop:bounded-sigma-hat]); predictions use the exact moments where they exist.
    const KeyLawMoments mc = key_moments_mc(law, moment_samples, derive_seed(ctx.opts.seed, "T7/moments/" + ln),
                                            ctx.opts.threads, true);
    check_sigma_hat(ctx, ln, law, mc);
    const KeyLawMoments pred = law.law().kind == "student" ? mc : exact_key_moments(law, true);
    ctx.checks.exact(ln + "/‖βI − ηx̂x̂ᵀ‖_op = max(β,|β−η|) (worst of 100, relative)", 0.0,
                     worst_opnorm_identity(law, derive_seed(ctx.opts.seed, "T7/svd/" + ln)), 0.0, 1e-10);
    ctx.checks.exact(ln + "/x̂(s·x) = x̂(x) for s in 1e-3..1e3 (worst entry)", 0.0,
                     worst_scale_dependence(law, derive_seed(ctx.opts.seed, "T7/scalefree/" + ln)), 0.0, 1e-14);
    ctx.checks.design();  // x̂ is scale-free by construction

    const Vec cov = law.covariance().diagonal();  // every T7 law is diagonal in the eigenbasis
    const double eta_raw = kRawFrac / cov.maxCoeff();
    std::vector<double> c;  // η_raw s² for L(s)
    for (double s : scales(false)) c.push_back(eta_raw * s * s);
    const auto logdet = mean_log_det_factor(law, c, derive_seed(ctx.opts.seed, "T7/logdet/" + ln));
    ctx.params["laws"].push_back({{"spec", law.law().spec}, {"name", ln}, {"covariance_diagonal", to_std(cov)},
                                  {"lambda_hat", to_std(pred.lambda_hat())},
                                  {"lambda_hat_se", to_std(pred.lambda_hat_se())},
                                  {"lambda_hat_method", pred.method}, {"eta_raw", eta_raw},
                                  {"Q_fourth_moments_rows", [&] {
                                     nlohmann::json j = nlohmann::json::array();
                                     for (int r = 0; r < n; ++r) j.push_back(to_std(pred.fourth.row(r).transpose()));
                                     return j;
                                   }()},
                                  {"E_log_abs_beta_minus_eta_s2_normsq", [&] {
                                     nlohmann::json j = nlohmann::json::array();
                                     for (const auto& [m, se] : logdet) j.push_back({{"mean", m}, {"se", se}});
                                     return j;
                                   }()}});

    // Smallest scale whose lower bound L(s) exceeds log‖M_0‖ = 0: growth proven from there on.
    double proven = std::nan("");
    for (std::size_t si = 0; si < c.size() && std::isnan(proven); ++si)
      if ((n - 1) * std::log(kBeta) + logdet[si].first > 0) proven = scales(false)[si];
    ctx.params["laws"].back()["raw_growth_proven_from_scale"] = proven;
    ctx.findings.push_back(
        std::isnan(proven)
            ? fmt::format("{} keys, raw buffer: the pathwise lower bound L(s) stays ≤ 0 at every scale up to 1e3", ln)
            : fmt::format("{} keys, raw buffer: the pathwise lower bound L(s) > 0 from s = {:g} (ηλ_max s² = {:.3g}; "
                          "divergence of the mean at ηλ_max s² > 1+β = {:g}): the trial-mean log‖M_T‖ provably grows "
                          "there, by at least L(s) = {:.3g} at s = 1e3",
                          ln, proven, kRawFrac * proven * proven, 1 + kBeta,
                          kSteps / static_cast<double>(n) * ((n - 1) * std::log(kBeta) + logdet.back().first)));

    std::vector<Arm> arms;
    for (double e : kEtaNorm) arms.push_back({Key::normalized, e});
    arms.push_back({Key::raw, eta_raw});
    for (const Arm& arm : arms) {
      const bool raw = arm.key == Key::raw;
      const auto sc = scales(!raw);
      for (std::size_t si = 0; si < sc.size(); ++si) {
        const double s = sc[si];
        const std::string tag = fmt::format("{}/{}/s={:g}", ln, arm.name(), s);
        const McResult res = simulate(ctx, law, arm, s, derive_seed(ctx.opts.seed, "T7/" + tag), R);
        const Vec mean = res.total.mean(), se = res.total.stderr_mean();
        // Per-direction mean factor: β − ηλ̂_i (normalized) or β − ηλ_i s² (raw).
        Vec bt(n), bt_se(n), lam_key(n);
        for (int i = 0; i < n; ++i) {
          lam_key[i] = raw ? cov[i] * s * s : pred.lambda_hat()[i];
          bt[i] = theory::beta_tilde(kBeta, arm.eta, lam_key[i]);
          bt_se[i] = raw ? 0.0 : arm.eta * pred.lambda_hat_se()[i];
        }
        const bool mean_contracting = raw && arm.eta * cov.maxCoeff() * s * s <= kBeta;
        for (std::size_t l = 0; l < kLags.size(); ++l) {
          const int k = kLags[l];
          Vec p(n), pse(n);
          std::vector<MeanEstimate> est;
          const Vec e_exact = raw ? Vec() : exact_transport_se(pred, arm.eta, k, R);
          for (int i = 0; i < n; ++i) {
            p[i] = std::pow(bt[i], k);
            pse[i] = k * std::pow(std::abs(bt[i]), k - 1) * bt_se[i];  // delta method
            // Raw: the sample error (studentized). Normalized: the exact error, with the
            // sample skewness of the mean (standardized) — the header's reasons.
            MeanEstimate e = res.total.estimate(static_cast<Eigen::Index>(L.diag(l, i)));
            if (!raw) e.se = e_exact[i], e.se_exact = true;
            est.push_back(e);
            contr.add({fmt::format("{}|{}|{}|lag={}", ln, arm.name(), dir_name(i), k), ln, arm.name(), dir_name(i),
                       lam_key[i], s, static_cast<long long>(k), p[i], pse[i], e.mean, e.se, se[L.diag(l, i)]});
          }
          // Raw: lag 1 at every scale (the one-step mean factor), longer lags only where the
          // mean contracts; never for an infinite-fourth-moment law (see the header).
          const bool check = !raw || (law.finite_fourth_moment() && (k == 1 || mean_contracting));
          if (check) {
            const Eigen::Index w = family(ctx, fmt::format("{}/lag={}/E[u_iᵀP_ku_i] = β̃_i^k", tag, k), p, pse, est);
            // The EMA buffer's transport is β^k I whatever the keys [eq:ema-update].
            ctx.checks.against(std::pow(kBeta, k), "EMA");
            sensitivity(ctx.checks,
                        [&](double e, double b, double m) { return std::pow(theory::beta_tilde(b, e, m * lam_key[w]), k); },
                        arm.eta, kBeta);
          } else {
            ctx.gate(fmt::format("{}/lag={}/E[u_iᵀP_ku_i] = β̃_i^k", tag, k),
                     !law.finite_fourth_moment()
                         ? "raw key with E x⁴ = ∞ (Student-t ν = 3): the Monte-Carlo mean of P_ii has no standard error"
                         : "raw key at a scale where the mean does not contract (ηλ_max s² > β): lags > 1 are checked only "
                           "where it does, their sample error is not a usable standard error beyond");
          }
        }
        const double q = std::max(kBeta, std::abs(kBeta - arm.eta));
        double L_pred = 0.0, L_se = 0.0;
        if (raw) {
          L_pred = kSteps / static_cast<double>(n) * ((n - 1) * std::log(kBeta) + logdet[si].first);
          L_se = kSteps / static_cast<double>(n) * logdet[si].second;
          ctx.checks.at_most(tag + "/fraction of paths with log‖P_T‖ < (1/n)log|det P_T|", 0.0,
                             mean[L.violation()]);
          ctx.checks.mc(tag + "/mean (1/n)log|det P_T| = L(s)", L_pred,
                        res.total.estimate(static_cast<Eigen::Index>(L.det_bound())), L_se, rounding(L_pred));
          ctx.checks.against(kSteps * std::log(kBeta), "EMA");  // P_T = β^T I: (1/n)log|det| = T log β
        } else {
          ctx.checks.at_most(fmt::format("{}/fraction of paths with ‖P_T‖ > max(β,|β−η|)^T = {:.3g}", tag, std::pow(q, kSteps)),
                             0.0, mean[L.violation()]);
        }
        const double ln10 = std::log(10.0);
        const double mean_factor = bt.cwiseAbs().maxCoeff();
        scale_t.add({ln, arm.name(), ln + " " + arm.name(), s, mean[L.log_norm()] / ln10, se[L.log_norm()] / ln10,
                     raw ? mean[L.det_bound()] / ln10 : std::nan(""), raw ? L_pred / ln10 : std::nan(""),
                     raw ? std::nan("") : kSteps * std::log(q) / ln10,
                     raw ? kSteps * std::log10(mean_factor) : std::nan("")});
      }
    }
  }
  width_table(ctx, trials(ctx, 4000, 1000));
  ctx.out.write_csv("data_scale.csv", scale_t);
  ctx.out.write_csv("data_contraction.csv", contr);

  // Figure 1: final ‖M_T‖ vs input scale, raw vs normalized, with both thresholds.
  Figure f;
  f.name = "stability-scale";
  f.title = fmt::format("T7 final buffer norm vs input scale (M_0 = I, δ = 0, T = {}, β = {})", kSteps, kBeta);
  f.xlabel = "input scale s (keys multiplied by s)";
  f.ylabel = "mean log_{10} ‖M_T‖_{op}";
  f.logx = true;
  f.extra = {fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead dt 2 lc rgb 'gray50'", s_mean),
             fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead lw 2 lc rgb 'red'", s_div),
             fmt::format("set label 'ηλ_{{max}}s^2 = β' at {},graph 0.06 right offset -0.5,0 tc rgb 'gray40'", s_mean),
             fmt::format("set label 'ηλ_{{max}}s^2 = 1+β (raw mean diverges)' at {},graph 0.12 left offset 0.5,0 tc rgb 'red'", s_div),
             "set key inside top left Left reverse font ',9' box opaque", "set xrange [5e-4:2e3]",
             // series order: 4 raw laws, 2 raw reference lines, 4 normalized arms, sure bound
             "set linetype 1 lc rgb '#e41a1c'", "set linetype 2 lc rgb '#ff7f00'", "set linetype 3 lc rgb '#a65628'",
             "set linetype 4 lc rgb '#f781bf'", "set linetype 5 lc rgb '#984ea3' dt 2", "set linetype 6 lc rgb 'black' dt 3",
             "set linetype 7 lc rgb '#377eb8'", "set linetype 8 lc rgb '#80b1d3'", "set linetype 9 lc rgb '#4daf4a'",
             "set linetype 10 lc rgb '#b2df8a'", "set linetype 11 lc rgb '#666666' dt 2"};
  for (const std::string& spec_str : kLaws) {
    const std::string ln = law_name(KeySampler(parse_key_law(spec_str), spec.lambda));
    f.series.push_back({"data_scale.csv", "scale", "log10_norm", "stderr_log10_norm", "raw " + ln, "errorbars",
                        "series=" + ln + " raw"});
  }
  f.series.push_back({"data_scale.csv", "scale", "L_pred_log10", "",
                      "raw gaussian: pathwise lower bound L(s) = E(1/n)log_{10}|det M_T|", "lines", "series=gaussian raw"});
  f.series.push_back({"data_scale.csv", "scale", "mean_transport_log10", "",
                      "raw gaussian: log_{10}‖E[M_T]‖ = T log_{10}max_i|β−ηλ_is^2|", "lines", "series=gaussian raw"});
  for (const std::string ln : {"gaussian", "student-nu3"})
    for (double e : kEtaNorm)
      f.series.push_back({"data_scale.csv", "scale", "log10_norm", "stderr_log10_norm",
                          fmt::format("normalized η={} {}", e, ln), "errorbars",
                          fmt::format("series={} normalized eta={}", ln, e)});
  f.series.push_back({"data_scale.csv", "scale", "sure_bound_log10", "", "normalized: sure bound T·log_{10}max(β,|β−η|)",
                      "lines", "series=gaussian normalized eta=0.5"});
  ctx.out.figure(f);

  // Figure 2: one-step mean factor along u_1 and u_n vs scale (Gaussian keys).
  Figure g;
  g.name = "contraction-scale";
  g.title = "T7 one-step mean factor E[u_iᵀ(βI − ηkkᵀ)u_i], Gaussian keys: normalized flat, raw β − ηλ_is^2";
  g.xlabel = "input scale s";
  g.ylabel = "mean factor along u_i";
  g.logx = true;
  g.extra = {"set yrange [-2:1.1]", "set key bottom left"};
  // measured and predicted of one curve share a colour (series i uses linetype i)
  for (const auto& l : paired_linetypes(4)) g.extra.push_back(l);
  g.extra.insert(g.extra.end(), {fmt::format("set arrow from {0},graph 0 to {0},graph 1 nohead lw 2 lc rgb 'red'", s_div),
             "set arrow from graph 0,first -1 to graph 1,first -1 nohead dt 3 lc rgb 'red'"});
  for (const std::string arm : {"raw", "normalized eta=0.5"})
    for (const std::string& d : std::vector<std::string>{dir_name(0), dir_name(n - 1)}) {
      const std::string key = fmt::format("gaussian|{}|{}|lag=1", arm, d);
      g.series.push_back({"data_contraction.csv", "scale", "measured", "stderr", arm + " " + d + " measured",
                          "errorbars", "key=" + key});
      g.series.push_back({"data_contraction.csv", "scale", "predicted", "", arm + " " + d + " predicted", "lines",
                          "key=" + key});
    }
  ctx.out.figure(g);

  // Figure 3: normalized per-direction transport at lag 5, Student-t ν = 3, every scale.
  Figure h;
  h.name = "normalized-directions";
  h.title = "T7 normalized key, Student-t ν=3, η=0.5: E[u_iᵀP_5u_i] at every input scale vs (β−ηλ̂_i)^5";
  h.xlabel = "λ̂_i (Monte-Carlo, Student-t ν=3)";
  h.ylabel = "mean transport at lag 5";
  h.logx = true;
  CsvTable dirs{{"scale", "lam_hat", "measured", "stderr", "predicted"}, {}};
  for (const auto& row : contr.rows)
    if (std::get<std::string>(row[1]) == "student-nu3" && std::get<std::string>(row[2]) == "normalized eta=0.5" &&
        std::get<long long>(row[6]) == 5)
      dirs.add({fmt::format("{:g}", std::get<double>(row[5])), row[4], row[9], row[10], row[7]});
  ctx.out.write_csv("data_normalized_directions.csv", dirs);
  for (double s : scales(true))
    h.series.push_back({"data_normalized_directions.csv", "lam_hat", "measured", "stderr",
                        fmt::format("s = {:g}", s), "errorbars", fmt::format("scale={:g}", s)});
  h.series.push_back({"data_normalized_directions.csv", "lam_hat", "predicted", "", "(β−ηλ̂_i)^5", "lines",
                      "scale=1"});
  h.extra = {"set xrange [0.005:0.7]"};
  ctx.out.figure(h);
}

const Registrar registration{
    "T7", "stability", "Stability: tr Σ̂ = 1, λ̂ ∈ [0,1]; normalized contraction is input-scale free",
    "prop:bounded-sigma-hat thm:unconditional-stability rem:mup-normalization",
    "tr Σ̂ = 1, 0 ≤ λ̂_i ≤ 1 for any key law; normalized: E[u_iᵀP_ku_i] = (β−ηλ̂_i)^k at every "
    "input scale, ‖βI−ηx̂x̂ᵀ‖ = max(β,|β−η|); raw: mean factor β−ηλ_is², diverges for "
    "ηλ_max s² > 1+β", t07_stability};

}  // namespace akm::exp
