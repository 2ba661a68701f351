// T2 targets — [def:wms, def:fms, app:divergent-optima, app:updates-as-sgd, rem:kfac,
// tab:targets, par:fixed-point]
//
// Two estimation objectives for the buffer M from pairs (x, δ):
//   J_w(M) = ½E‖M − δxᵀ‖_F²  [def:wms]  minimized by M_w* = Ḡ        (EMA's target)
//   J_f(M) = ½E‖δ − Mx‖²     [def:fms]  minimized by M_f* = ḠΣ^{-1}  (Wiener, pure delta)
// [app:divergent-optima]. EMA is online SGD on J_w, the pure delta rule online SGD on J_f
// [app:updates-as-sgd]. With δ = Ax + ξ: Ḡ = AΣ, ḠΣ^{-1} = A and Ḡu_i = λ_i A u_i.
// Both rules are affine in M and M_{t−1} is independent of x_t, so from M_0 = 0 the means
// are exact at every step: E[M_t] = Ḡ(1 − β^t) (EMA), E[M_t] = ḠΣ^{-1}(I − (I − ηΣ)^t)
// (pure delta), i.e. E[M_t]u_i = Au_i(1 − (1 − ηλ_i)^t). No Monte-Carlo check needs a bias
// term. The other claims (sample minimizers, uniform multiples iff Σ = cI, the μ limits of
// φ_i [tab:targets], the K-FAC input-side factor [rem:kfac]) are deterministic.
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "akm/theory/phase.hpp"
#include "common.hpp"

namespace akm::exp {
namespace {

constexpr int kM = 2;            // value dimension: rows of M
constexpr double kNoise = 0.5;   // σ of ξ
constexpr double kRel = 1e-10;   // algebraic identities in double

// Online rules (EMA, pure delta) and the μ limits: eigenbasis, a power law over two decades
// (λ from 10 to 0.09).
const char* kOnlineSpec = "power:n=16,exp=1.7,scale=10";
constexpr double kBetaEma = kBeta;
constexpr int kEmaSteps = 150;
const std::vector<int> kEmaCheckpoints{5, 25, kEmaSteps};
// ηλ_max = 0.4: inside 0 < ηλ_i < 2 and mean-square stable. The slowest direction needs
// t ≫ 1/(ηλ_min) ≈ 280 steps; at 1500 its remaining gap (1 − ηλ_min)^t is below 0.5%.
constexpr double kEtaLamMax = 0.4;
constexpr int kDeltaSteps = 1500;
const std::vector<int> kDeltaCheckpoints{50, 300, kDeltaSteps};

// Sample least squares and K-FAC: a dense (random Haar) basis with cond(Σ) = 100.
const char* kDenseSpec = "spiked:n=8,spikes=10/3/1,floor=0.1,basis=random";
const std::vector<int> kSampleSizes{50, 500};  // exact least-squares identities
constexpr int kMcSample = 50;                  // S of the unbiasedness Monte Carlo
const std::vector<int> kKfacCheckpoints{150, kDeltaSteps};

// Uniform multiples iff Σ = cI: isotropic vs anisotropic, both in a random basis.
const char* kIsoSpec = "iso:n=16,scale=2,basis=random";
const char* kAnisoSpec = "spiked:n=16,spikes=10/3/1,floor=0.1,basis=random";
constexpr double kMinDistance = 1e-3;

nlohmann::json rows_json(const Mat& X) {
  auto j = nlohmann::json::array();
  for (Eigen::Index r = 0; r < X.rows(); ++r) j.push_back(to_std(X.row(r).transpose()));
  return j;
}

/// "u1", "u2", … (as dir_name, but formatted by fmt: GCC 12's -Wrestrict misfires on the
/// inlined `"u" + std::to_string(…)`).
std::string dir_label(int i) { return fmt::format("u{}", i + 1); }

/// ‖X − Y‖_F / ‖Y‖_F: a matrix identity holds when this is at rounding level.
double rel_dist(const Mat& X, const Mat& Y) { return (X - Y).norm() / Y.norm(); }

/// Refuses a Monte Carlo whose variance grows without bound: its standard errors would
/// mean nothing. The radius is that of the second-moment map of a buffer row
/// v ← v(βI − ηxxᵀ), raw Gaussian keys (E1, theory/phase.hpp); < 1 bounds the trial variance.
double require_mean_square_stable(const Vec& lambda, double beta, double eta,
                                  const std::string& what) {
  const double rho = phase::ms_radius(phase::ms_matrix_raw(lambda, beta, eta));  // [E1]
  if (!(rho < 1.0))
    throw std::logic_error(fmt::format(
        "T2 {}: mean-square radius {:.6g} >= 1 at beta = {}, eta = {:.6g} (eta*lambda_max = "
        "{:.3g}); lower eta so the buffer variance stays bounded",
        what, rho, beta, eta, eta * lambda.maxCoeff()));
  return rho;
}

// ------------------------------- EMA → Ḡ and pure delta → ḠΣ^{-1} [app:updates-as-sgd]

struct Online {
  BufferKind rule;  // ema or delta
  double beta, eta;  // EMA: β (η unused); pure delta: β = 1 and η
  int steps;
  std::vector<int> checkpoints;
  long long trials;
  std::string name() const { return to_string(rule); }
  /// Per-step contraction of E[M_t]u_i: β for EMA, 1 − ηλ_i for the pure delta rule.
  double contraction(double lam) const {
    return rule == BufferKind::ema ? beta : theory::beta_tilde(1.0, eta, lam);
  }
  /// lim E[M_t]u_i / Au_i: λ_i for EMA (→ Ḡ), 1 for pure delta (→ ḠΣ^{-1} = A).
  double gain(double lam) const { return rule == BufferKind::ema ? lam : 1.0; }
};

// Observables: M_t at each checkpoint (column-major, so M_t u_i are m consecutive entries),
// then per direction the A-projected ratio M_T u_i / Ḡu_i at the last step (figure (i)).
McResult simulate_online(ExperimentContext& ctx, const Setting& s, const Mat& A, const Online& o,
                         std::uint64_t seed) {
  const int n = s.n();
  const std::size_t block = static_cast<std::size_t>(kM) * n;
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Mat M = Mat::Zero(kM, n);
    Vec x(n), delta(kM), r(kM);
    std::size_t cp = 0;
    for (int t = 1; t <= o.steps; ++t) {
      kern::gaussian_key(keys, s.sqrt_lambda, x);
      delta.noalias() = A * x;
      for (int q = 0; q < kM; ++q) delta[q] += kNoise * noise.normal();
      if (o.rule == BufferKind::ema)
        kern::ema_step(M, delta, x, o.beta);  // online SGD on J_w [app:updates-as-sgd (a)]
      else
        kern::ak_step(M, delta, x, 1.0, o.eta, r);  // online SGD on J_f [app:updates-as-sgd (b)]
      if (cp < o.checkpoints.size() && t == o.checkpoints[cp]) {
        std::copy(M.data(), M.data() + block, out + cp * block);
        ++cp;
      }
    }
    double* ratio = out + o.checkpoints.size() * block;
    for (int i = 0; i < n; ++i)
      ratio[i] = A.col(i).dot(M.col(i)) / (A.col(i).squaredNorm() * s.spectrum.lambda[i]);
  };
  return monte_carlo(ctx.mc(o.trials, "T2 " + o.name()), o.checkpoints.size() * block + n, kernel);
}

// E[M_t u_i] = gain_i A u_i (1 − c_i^t): per checkpoint, direction and row.
void check_online(ExperimentContext& ctx, const Setting& s, const Mat& A, const Online& o,
                  const McResult& res, CsvTable& table) {
  const Vec mean = res.total.mean(), se = res.total.stderr_mean();
  const int n = s.n();
  const std::size_t block = static_cast<std::size_t>(kM) * n;
  for (std::size_t cp = 0; cp < o.checkpoints.size(); ++cp) {
    const int t = o.checkpoints[cp];
    for (int i = 0; i < n; ++i) {
      const double lam = s.spectrum.lambda[i];
      for (int r = 0; r < kM; ++r) {
        const std::size_t k = cp * block + static_cast<std::size_t>(i) * kM + r;
        ctx.checks.mc(fmt::format("{}/t={}/{}[{}]", o.name(), t, dir_label(i), r),
                      theory::transient_mean(o.gain(lam) * A(r, i), o.contraction(lam), t),
                      res.total.estimate(static_cast<Eigen::Index>(k)));
        // These rules are not AK, so EMA is no alternative: each must rule out the other's
        // target at its own transient — EMA → ḠΣ^{-1} (gain 1) instead of Ḡ (gain λ_i), pure
        // delta → Ḡ instead of ḠΣ^{-1} [app:divergent-optima]. Where λ_i = 1 they coincide.
        const double other_gain = o.rule == BufferKind::ema ? 1.0 : lam;
        ctx.checks.against(theory::transient_mean(other_gain * A(r, i), o.contraction(lam), t),
                           o.rule == BufferKind::ema ? "G Sigma^-1 target" : "G target");
      }
    }
  }
  const std::size_t base = o.checkpoints.size() * block;
  for (int i = 0; i < n; ++i) {
    const double lam = s.spectrum.lambda[i];
    table.add({o.name(), dir_label(i), lam, o.gain(lam) / lam,
               theory::transient_mean(o.gain(lam) / lam, o.contraction(lam), o.steps),
               mean[base + i], se[base + i]});
  }
}

void online_figure(ExperimentContext& ctx, const Online& ema, const Online& delta) {
  Figure fig;
  fig.name = "targets";
  fig.title = fmt::format("T2 targets: EMA (β = {}) → Ḡ, pure delta (ηλ_{{max}} = {}) → ḠΣ^{{-1}}",
                          ema.beta, kEtaLamMax);
  fig.xlabel = "λ_i (eigenvalue of Σ)";
  fig.ylabel = "M_T u_i / Ḡu_i  (trial mean ± s.e.)";
  fig.logx = fig.logy = true;
  fig.series = {
      {"data_online.csv", "lambda", "measured_ratio", "stderr_ratio",
       fmt::format("EMA, T = {}", ema.steps), "errorbars", "rule=ema"},
      {"data_online.csv", "lambda", "measured_ratio", "stderr_ratio",
       fmt::format("pure delta, T = {}", delta.steps), "errorbars", "rule=delta"},
      {"data_online.csv", "lambda", "predicted_ratio", "", "exact mean at T (EMA)", "lines",
       "rule=ema"},
      {"data_online.csv", "lambda", "predicted_ratio", "", "exact mean at T (delta)", "lines",
       "rule=delta"}};
  fig.functions = {"1 title 'EMA target Ḡ: ratio 1' lw 1 dt 2 lc rgb 'gray30'",
                   "1/x title 'Wiener target ḠΣ^{-1}: ratio 1/λ_i' lw 1 dt 2 lc rgb 'black'"};
  fig.extra = {"set xrange [0.07:13]", "set yrange [0.07:15]"};
  ctx.out.figure(fig);
}

void online_rules(ExperimentContext& ctx, const Setting& s) {
  const Mat A = value_map(kM, s.n(), derive_seed(ctx.opts.seed, "T2/A/online"));
  const double eta = kEtaLamMax / s.spectrum.lambda.maxCoeff();
  const double rho = require_mean_square_stable(s.spectrum.lambda, 1.0, eta, "pure delta");
  const Online ema{BufferKind::ema, kBetaEma, 0.0, kEmaSteps, kEmaCheckpoints, trials(ctx, 20000, 2000)};
  const Online delta{BufferKind::delta, 1.0, eta, kDeltaSteps, kDeltaCheckpoints,
                     trials(ctx, 8000, 800)};
  ctx.params["online"] = {
      {"spec", s.spectrum.spec}, {"lambda", to_std(s.spectrum.lambda)}, {"A", rows_json(A)},
      {"M0", "zero"},
      {"ema", {{"beta", ema.beta}, {"steps", ema.steps}, {"checkpoints", ema.checkpoints},
               {"trials", ema.trials}, {"prediction", "E[M_t u_i] = lambda_i A u_i (1 - beta^t)"}}},
      {"delta", {{"beta", 1.0}, {"eta", eta}, {"steps", delta.steps},
                 {"checkpoints", delta.checkpoints}, {"trials", delta.trials},
                 {"mean_square_radius", rho},
                 {"prediction", "E[M_t u_i] = A u_i (1 - (1 - eta lambda_i)^t)"}}}};

  CsvTable table{{"rule", "direction", "lambda", "target_ratio", "predicted_ratio",
                  "measured_ratio", "stderr_ratio"}, {}};
  for (const Online* o : {&ema, &delta}) {
    const auto res = simulate_online(ctx, s, A, *o, derive_seed(ctx.opts.seed, "T2/" + o->name()));
    check_online(ctx, s, A, *o, res, table);
  }
  ctx.out.write_csv("data_online.csv", table);
  online_figure(ctx, ema, delta);
}

// ------------------------------------------------ a dense (non-eigen) basis, shared by the
// ------------------------------------ sample least squares [app:divergent-optima] and K-FAC

struct Dense {
  Spectrum sp;
  Vec sqrt_lambda;
  Mat sigma, A;
  int n() const { return sp.n(); }
  /// x = U(√λ ∘ z), z ~ N(0, I): covariance Σ = UΛUᵀ. `z` is scratch.
  void key(Stream& s, Vec& z, Vec& x) const {
    for (Eigen::Index i = 0; i < z.size(); ++i) z[i] = sqrt_lambda[i] * s.normal();
    x.noalias() = sp.basis * z;
  }
  Mat gbar() const { return A * sigma; }  // Ḡ = E[δxᵀ] = AΣ
};

Dense make_dense(std::uint64_t seed) {
  Dense d{parse_spectrum(kDenseSpec, derive_seed(seed, "T2/basis/dense")), {}, {}, {}};
  d.sqrt_lambda = d.sp.lambda.array().sqrt().matrix();
  d.sigma = d.sp.covariance();
  d.A = value_map(kM, d.n(), derive_seed(seed, "T2/A/dense"));
  return d;
}

nlohmann::json dense_params(const Dense& d) {
  return {{"spec", d.sp.spec}, {"lambda", to_std(d.sp.lambda)}, {"U", rows_json(d.sp.basis)},
          {"A", rows_json(d.A)}};
}

/// S pairs: rows of X are keys x_sᵀ, rows of D are values δ_sᵀ = (Ax_s + ξ_s)ᵀ.
void draw_sample(const Dense& d, Stream& keys, Stream& noise, Mat& X, Mat& D) {
  Vec z(d.n()), x(d.n());
  for (Eigen::Index s = 0; s < X.rows(); ++s) {
    d.key(keys, z, x);
    X.row(s) = x.transpose();
  }
  D.noalias() = X * d.A.transpose();
  for (Eigen::Index s = 0; s < D.rows(); ++s)
    for (int q = 0; q < kM; ++q) D(s, q) += kNoise * noise.normal();
}

/// argmin_M Σ_s ‖M − δ_s x_sᵀ‖_F² [def:wms] as a generic least-squares problem: the design
/// stacks one identity block per pair acting on vec(M); normal equations solved by LDLT.
Mat weight_space_minimizer(const Mat& X, const Mat& D) {
  const Eigen::Index S = X.rows(), m = D.cols(), n = X.cols(), k = m * n;
  Mat design = Mat::Zero(S * k, k);
  Vec y(S * k);
  for (Eigen::Index s = 0; s < S; ++s) {
    design.block(s * k, 0, k, k).setIdentity();
    const Mat g = D.row(s).transpose() * X.row(s);  // δ_s x_sᵀ
    y.segment(s * k, k) = Eigen::Map<const Vec>(g.data(), k);
  }
  const Vec v = (design.transpose() * design).ldlt().solve(design.transpose() * y);
  return Eigen::Map<const Mat>(v.data(), m, n);
}

/// argmin_M Σ_s ‖δ_s − M x_s‖² [def:fms]: X Mᵀ ≈ D by column-pivoted Householder QR.
Mat function_space_minimizer(const Mat& X, const Mat& D) {
  return X.colPivHouseholderQr().solve(D).transpose();
}

// [app:divergent-optima] on a finite sample: the minimizers equal Ḡ_S = DᵀX/S and
// Ḡ_S Σ_S^{-1} (Σ_S = XᵀX/S, explicit LU inverse), to rounding.
void exact_minimizers(ExperimentContext& ctx, const Dense& d, nlohmann::json& out) {
  Stream keys(derive_seed(ctx.opts.seed, "T2/ls/sample"), 0, Purpose::keys);
  Stream noise(derive_seed(ctx.opts.seed, "T2/ls/sample"), 0, Purpose::noise);
  for (const int S : kSampleSizes) {
    Mat X(S, d.n()), D(S, kM);
    draw_sample(d, keys, noise, X, D);
    const Mat g_s = D.transpose() * X / S;
    const Mat sigma_s = X.transpose() * X / S;
    const Mat wiener_s = g_s * sigma_s.inverse();
    const double w = rel_dist(weight_space_minimizer(X, D), g_s);
    const double f = rel_dist(function_space_minimizer(X, D), wiener_s);
    ctx.checks.exact(fmt::format("ls/S={}/argmin J_w = G_S (rel. Frobenius)", S), 0.0, w, 0.0, kRel);
    ctx.checks.exact(fmt::format("ls/S={}/argmin J_f (QR) = G_S Sigma_S^-1 (rel. Frobenius)", S),
                     0.0, f, 0.0, kRel);
    const Eigen::SelfAdjointEigenSolver<Mat> es(sigma_s, Eigen::EigenvaluesOnly);
    out["exact_samples"].push_back(
        {{"S", S}, {"cond_sigma_S", es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff()},
         {"rel_dist_weight", w}, {"rel_dist_function", f}});
  }
}

// Over trials of S pairs: E[argmin J_f] = A = ḠΣ^{-1} (the sample Wiener solution is
// conditionally unbiased given X, since E[ξ | X] = 0) and E[Ḡ_S] = Ḡ = AΣ.
void unbiased_minimizers(ExperimentContext& ctx, const Dense& d, nlohmann::json& out) {
  const long long R = trials(ctx, 20000, 2000);
  const std::uint64_t seed = derive_seed(ctx.opts.seed, "T2/ls/mc");
  const std::size_t k = static_cast<std::size_t>(kM) * d.n();
  auto kernel = [&](long long trial, double* obs) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Mat X(kMcSample, d.n()), D(kMcSample, kM);
    draw_sample(d, keys, noise, X, D);
    const Mat mf = function_space_minimizer(X, D);
    const Mat gs = D.transpose() * X / kMcSample;
    std::copy(mf.data(), mf.data() + k, obs);
    std::copy(gs.data(), gs.data() + k, obs + k);
  };
  const auto res = monte_carlo(ctx.mc(R, "T2 least squares"), 2 * k, kernel);
  const Vec mean = res.total.mean(), se = res.total.stderr_mean();
  const Mat gbar = d.gbar();
  for (int j = 0; j < d.n(); ++j)
    for (int r = 0; r < kM; ++r) {
      const std::size_t e = static_cast<std::size_t>(j) * kM + r;
      // Each minimizer against the other objective's (the divergence of the two optima).
      ctx.checks.mc(fmt::format("ls/unbiased/argmin J_f[{},{}] = A = G Sigma^-1", r, j), d.A(r, j),
                    res.total.estimate(static_cast<Eigen::Index>(e)));
      ctx.checks.against(gbar(r, j), "argmin J_w = G");
      ctx.checks.mc(fmt::format("ls/unbiased/argmin J_w[{},{}] = G", r, j), gbar(r, j),
                    res.total.estimate(static_cast<Eigen::Index>(k + e)));
      ctx.checks.against(d.A(r, j), "argmin J_f = A");
    }
  out["mc"] = {{"S", kMcSample}, {"trials", R}};
}

void least_squares(ExperimentContext& ctx, const Dense& d) {
  nlohmann::json out = {{"exact_samples", nlohmann::json::array()}};
  exact_minimizers(ctx, d, out);
  unbiased_minimizers(ctx, d, out);
  ctx.params["least_squares"] = out;
}

// ---------------------------------------------------- uniform multiples iff Σ = cI

struct Uniformity {
  double c, distance, wiener_vs_A, per_direction;
};

// W = ḠΣ^{-1} by explicit LU inversion; c = ⟨W, Ḡ⟩/‖Ḡ‖² is the least-squares multiple and
// ‖W − cḠ‖/‖W‖ its relative distance: zero iff every W u_i / Ḡu_i = 1/λ_i is the same.
Uniformity uniformity(const Spectrum& sp, const Mat& A) {
  const Mat sigma = sp.covariance();
  const Mat gbar = A * sigma;
  const Mat W = gbar * sigma.partialPivLu().inverse();
  const double c = W.cwiseProduct(gbar).sum() / gbar.squaredNorm();
  const Mat& U = sp.basis;
  // [tab:targets] Wiener row: W u_i λ_i = Ḡu_i, all directions at once.
  const double per_dir = rel_dist(W * U * sp.lambda.asDiagonal(), gbar * U);
  return {c, (W - c * gbar).norm() / W.norm(), rel_dist(W, A), per_dir};
}

void uniform_multiples(ExperimentContext& ctx) {
  auto out = nlohmann::json::array();
  const std::vector<std::pair<std::string, const char*>> cases{{"iso", kIsoSpec},
                                                               {"spiked", kAnisoSpec}};
  for (const auto& [name, spec] : cases) {
    const Spectrum sp = parse_spectrum(spec, derive_seed(ctx.opts.seed, "T2/basis/" + name));
    const Mat A = value_map(kM, sp.n(), derive_seed(ctx.opts.seed, "T2/A/uniform"));
    const Uniformity u = uniformity(sp, A);
    const std::string p = "uniform/" + name;
    ctx.checks.exact(p + "/G Sigma^-1 (LU) = A", 0.0, u.wiener_vs_A, 0.0, kRel);
    ctx.checks.exact(p + "/W u_i = G u_i / lambda_i", 0.0, u.per_direction, 0.0, kRel);
    if (sp.kind == "iso") {
      ctx.checks.exact(p + "/distance of W from c*G = 0", 0.0, u.distance, 0.0, kRel);
      ctx.checks.exact(p + "/c = 1/scale", 1.0 / sp.lambda[0], u.c);
    } else {
      ctx.checks.at_most(fmt::format("{}/distance of W from c*G >= {}", p, kMinDistance),
                         -kMinDistance, -u.distance);
    }
    out.push_back({{"spec", sp.spec}, {"lambda", to_std(sp.lambda)}, {"U", rows_json(sp.basis)},
                   {"A", rows_json(A)}, {"c", u.c}, {"distance", u.distance}});
  }
  ctx.params["uniform"] = out;
}

// ------------------------------------------------ the μ limits of φ_i [tab:targets]

// Solid: λ_iφ_i (M*u_i against the Wiener target ḠΣ^{-1}u_i), flat at 1 for μ ≪ λ_i.
// Dashed, same colour: φ_i/φ_1 (against EMA's direction-uniform scaling), flat at 1 for
// μ ≫ λ_1. The knee of direction i sits at μ = λ_i.
void mu_figure(ExperimentContext& ctx, const Vec& lambda) {
  const std::vector<int> shown{0, 2, 5, static_cast<int>(lambda.size()) - 1};
  const std::vector<std::string> colors{"#1b9e77", "#d95f02", "#7570b3", "#e7298a"};
  Figure fig;
  fig.name = "mu-interpolation";
  fig.title = "T2 [tab:targets]: φ_i = 1/(μ+λ_i) moves from Wiener (μ → 0) to EMA (μ → ∞)";
  fig.xlabel = "ridge μ = (1−β)/η";
  fig.ylabel = "per-direction scaling of M*u_i";
  fig.logx = fig.logy = true;
  const std::size_t k = shown.size();
  for (std::size_t c = 0; c < k; ++c) {
    fig.extra.push_back(fmt::format("set linetype {} lc rgb '{}' lw 2 dt 1", c + 1, colors[c]));
    fig.extra.push_back(fmt::format("set linetype {} lc rgb '{}' lw 2 dt 2", c + 1 + k, colors[c]));
  }
  fig.extra.insert(fig.extra.end(),
                   {"set key inside right top vertical maxrows 4 box opaque samplen 2",
                    "set format x '10^{%L}'", "set format y '10^{%L}'",
                    "set xrange [1e-6:1e6]", "set yrange [1e-5:1e4]",
                    "set label 'Wiener end: λ_iφ_i = 1  (M* = ḠΣ^{-1})' at graph 0.02, graph 0.52",
                    "set label 'EMA end: φ_i/φ_1 = 1  (M* ∝ Ḡ)' at graph 0.60, graph 0.59"});
  for (const bool wiener : {true, false})
    for (int i : shown)
      fig.series.push_back({"data_mu.csv", "mu", wiener ? "lambda_phi" : "phi_over_phi1", "",
                            fmt::format("{}, λ_i = {:.2g}", wiener ? "λ_iφ_i" : "φ_i/φ_1", lambda[i]),
                            "lines", "direction=" + dir_label(i)});
  fig.functions = {"1 notitle lw 1 lc rgb 'black'"};
  ctx.out.figure(fig);
}

// φ_i = 1/(μ+λ_i) [eq:dm-eigen]. Bounds, exact for every μ > 0:
//   λ_iφ_i − 1 = −μ/(μ+λ_i)          ⇒ |λ_iφ_i − 1| ≤ μ/λ_i ≤ μ/λ_min        (→ 0 as μ → 0)
//   φ_i/φ_j − 1 = (λ_j−λ_i)/(μ+λ_i)  ⇒ |φ_i/φ_j − 1| ≤ |λ_i−λ_j|/μ ≤ (λ_max−λ_min)/μ
//                                                                          (→ 0 as μ → ∞)
// and λ_iφ_i = λ_i/(μ+λ_i) and φ_i/φ_1 = (μ+λ_1)/(μ+λ_i) (λ_1 = λ_max) are non-increasing
// in μ: the interpolation Wiener ↔ EMA of [tab:targets] is monotone.
void mu_limits(ExperimentContext& ctx, const Vec& lambda) {
  const int n = static_cast<int>(lambda.size());
  const double lmin = lambda.minCoeff(), lmax = lambda.maxCoeff();
  CsvTable table{{"mu", "direction", "lambda", "lambda_phi", "phi_over_phi1"}, {}};
  std::vector<double> grid;
  Vec prev_w, prev_e;
  double rise_w = -std::numeric_limits<double>::infinity(), rise_e = rise_w;  // largest step-to-step increase
  for (int k = 0; k <= 48; ++k) {
    const double mu = std::pow(10.0, -6.0 + 0.25 * k);
    grid.push_back(mu);
    Vec phi(n);
    for (int i = 0; i < n; ++i) phi[i] = theory::phi(mu, lambda[i]);
    const Vec w = lambda.cwiseProduct(phi), e = phi / phi[0];
    double err_e = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) err_e = std::max(err_e, std::abs(phi[i] / phi[j] - 1.0));
    ctx.checks.at_most(fmt::format("mu={:.3g}/max|lambda_i phi_i - 1| <= mu/lambda_min", mu),
                       mu / lmin, (w.array() - 1.0).abs().maxCoeff());
    ctx.checks.at_most(
        fmt::format("mu={:.3g}/max|phi_i/phi_j - 1| <= (lambda_max-lambda_min)/mu", mu),
        (lmax - lmin) / mu, err_e);
    if (k > 0) {
      rise_w = std::max(rise_w, (w - prev_w).maxCoeff());
      rise_e = std::max(rise_e, (e - prev_e).maxCoeff());
    }
    prev_w = w;
    prev_e = e;
    for (int i = 0; i < n; ++i) table.add({mu, dir_label(i), lambda[i], w[i], e[i]});
  }
  ctx.checks.at_most("mu/lambda_i phi_i non-increasing in mu", 0.0, rise_w);
  ctx.checks.at_most("mu/phi_i/phi_1 non-increasing in mu", 0.0, rise_e);
  ctx.params["mu_limits"] = {{"lambda", to_std(lambda)}, {"mu_grid", grid}};
  ctx.out.write_csv("data_mu.csv", table);
  mu_figure(ctx, lambda);
}

// ------------------------------------------------ K-FAC input-side factor [rem:kfac]

/// P^t by repeated multiplication, in whatever basis P is given (no eigendecomposition).
Mat matrix_power(const Mat& P, int t) {
  Mat R = Mat::Identity(P.rows(), P.cols());
  for (int s = 0; s < t; ++s) R = R * P;
  return R;
}

// (a) [eq:dm-fixedpoint] at β = 1, M* = ηḠ((1−β)I + ηΣ)^{-1} by an SPD solve, equals the
// K-FAC input-side factor ḠΣ^{-1} by explicit inversion. [rem:kfac] With F = E[xxᵀ] ⊗ E[δδᵀ]
// acting on column-major vec(M), F vec(X) = vec(ΓXΣ) (Γ = E[δδᵀ]), so F^{-1}vec(Ḡ) =
// vec(Γ^{-1}ḠΣ^{-1}): removing the output side Γ leaves the pure-delta fixed point.
void kfac_exact(ExperimentContext& ctx, const Dense& d, double eta, const Mat& factor) {
  const int n = d.n();
  constexpr double beta = 1.0;
  const Mat gbar = d.gbar();
  const Mat closed = ((1.0 - beta) * Mat::Identity(n, n) + eta * d.sigma)
                         .ldlt()
                         .solve(eta * gbar.transpose())
                         .transpose();
  ctx.checks.exact("kfac/M*(beta=1) = G Sigma^-1 (explicit LU inverse)", 0.0,
                   rel_dist(closed, factor), 0.0, kRel);
  const Mat gamma = d.A * d.sigma * d.A.transpose() + kNoise * kNoise * Mat::Identity(kM, kM);
  Mat F(kM * n, kM * n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) F.block(a * kM, b * kM, kM, kM) = d.sigma(a, b) * gamma;
  const Vec ng = F.ldlt().solve(Eigen::Map<const Vec>(gbar.data(), gbar.size()));
  const Mat natural = Eigen::Map<const Mat>(ng.data(), kM, n);
  ctx.checks.exact("kfac/E[dd^T] F^-1 G (natural gradient, output side removed) = M*(beta=1)",
                   0.0, rel_dist(gamma * natural, closed), 0.0, kRel);
}

// (b) The reference rules::pure_delta in the dense basis: E[M_t] = ḠΣ^{-1}(I − (I − ηΣ)^t)
// for every entry; one family check per checkpoint reports the worst entry.
void kfac_monte_carlo(ExperimentContext& ctx, const Dense& d, double eta, const Mat& factor,
                      nlohmann::json& out) {
  const long long R = trials(ctx, 6000, 600);
  const std::uint64_t seed = derive_seed(ctx.opts.seed, "T2/kfac");
  const int n = d.n(), T = kKfacCheckpoints.back();
  const std::size_t block = static_cast<std::size_t>(kM) * n;
  auto kernel = [&](long long trial, double* obs) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Mat M = Mat::Zero(kM, n);
    Vec z(n), x(n), delta(kM);
    std::size_t cp = 0;
    for (int t = 1; t <= T; ++t) {
      d.key(keys, z, x);
      delta.noalias() = d.A * x;
      for (int q = 0; q < kM; ++q) delta[q] += kNoise * noise.normal();
      rules::pure_delta(M, delta, x, eta);
      if (cp < kKfacCheckpoints.size() && t == kKfacCheckpoints[cp]) {
        std::copy(M.data(), M.data() + block, obs + cp * block);
        ++cp;
      }
    }
  };
  const auto res = monte_carlo(ctx.mc(R, "T2 K-FAC"), kKfacCheckpoints.size() * block, kernel);
  const Vec mean = res.total.mean(), se = res.total.stderr_mean();
  const Mat P = Mat::Identity(n, n) - eta * d.sigma;
  CsvTable table{{"t", "row", "col", "predicted", "measured", "stderr"}, {}};
  for (std::size_t cp = 0; cp < kKfacCheckpoints.size(); ++cp) {
    const int t = kKfacCheckpoints[cp];
    const Mat pred = factor * (Mat::Identity(n, n) - matrix_power(P, t));
    std::size_t worst = 0;
    double worst_z = -1;
    for (std::size_t e = 0; e < block; ++e) {
      const double z = std::abs(mean[cp * block + e] - pred(e)) / se[cp * block + e];
      if (z > worst_z) worst_z = z, worst = e;
      table.add({static_cast<long long>(t), static_cast<long long>(e % kM),
                 static_cast<long long>(e / kM), pred(e), mean[cp * block + e], se[cp * block + e]});
    }
    ctx.checks.mc_family(
        fmt::format("kfac/t={}/E[M_t] = G Sigma^-1 (I - (I - eta Sigma)^t), worst of {} entries", t,
                    block),
        pred(worst), res.total.estimate(static_cast<Eigen::Index>(cp * block + worst)),
        static_cast<long long>(block));
    // Alternative at the reported (worst) entry: the same transient without the input-side
    // factor Σ^{-1}, i.e. the buffer converging to Ḡ as EMA's does.
    const Mat alt = d.gbar() * (Mat::Identity(n, n) - matrix_power(P, t));
    ctx.checks.against(alt(static_cast<Eigen::Index>(worst)), "G (no Sigma^-1)");
  }
  ctx.out.write_csv("data_kfac.csv", table);
  out["trials"] = R;
  out["remaining_transient_norm"] = matrix_power(P, T).norm();
}

void kfac(ExperimentContext& ctx, const Dense& d) {
  const double eta = kEtaLamMax / d.sp.lambda.maxCoeff();
  const double rho = require_mean_square_stable(d.sp.lambda, 1.0, eta, "K-FAC pure delta");
  const Mat factor = d.gbar() * d.sigma.partialPivLu().inverse();  // ḠΣ^{-1}, explicit
  nlohmann::json out = dense_params(d);
  out.update({{"beta", 1.0}, {"eta", eta}, {"checkpoints", kKfacCheckpoints},
              {"mean_square_radius", rho}, {"M0", "zero"},
              {"prediction", "E[M_t] = A Sigma Sigma^-1 (I - (I - eta Sigma)^t), Sigma = U diag(lambda) U^T"}});
  kfac_exact(ctx, d, eta, factor);
  kfac_monte_carlo(ctx, d, eta, factor, out);
  ctx.params["kfac"] = out;
}

}  // namespace

static void t02_targets(ExperimentContext& ctx) {
  ctx.params = {{"m", kM}, {"noise_sigma", kNoise},
                {"value_stream", "delta = A x + xi, xi ~ N(0, noise_sigma^2 I), "
                                 "x ~ N(0, U diag(lambda) U^T) (U = I unless given)"}};
  const Setting online = make_setting("power", kOnlineSpec, ctx.opts.seed);
  online_rules(ctx, online);
  const Dense dense = make_dense(ctx.opts.seed);
  ctx.params["least_squares_setting"] = dense_params(dense);
  least_squares(ctx, dense);
  uniform_multiples(ctx);
  mu_limits(ctx, online.spectrum.lambda);
  kfac(ctx, dense);
}

const Registrar registration{
    "T2", "targets",
    "Estimator targets: EMA → Ḡ, pure delta → ḠΣ^{-1} (Wiener, K-FAC input side)",
    "def:wms def:fms app:divergent-optima app:updates-as-sgd rem:kfac tab:targets "
    "par:fixed-point",
    "argmin J_w = Ḡ (EMA's limit), argmin J_f = ḠΣ^{-1} (pure delta's limit, the K-FAC "
    "input-side factor); uniform multiples iff Σ = cI; φ_i → 1/λ_i as μ → 0 and "
    "φ_i/φ_j → 1 as μ → ∞", t02_targets};

}  // namespace akm::exp
