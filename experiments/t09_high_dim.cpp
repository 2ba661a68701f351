// T9 high-dim — [app:high-dim, eq:cond-ceiling, cor:fixedpoint-normalized]
//
// p > n_s: a fixed data set of n_s Gaussian keys in R^p (spiked covariance), sampled with
// replacement each step, values δ_s = A x_s + ξ_s fixed with the data. Both buffers start
// at M_0 = 0.
//  * Off the key span both buffers are exactly zero: every update adds a multiple of a data
//    key, so ‖M_t P_⊥‖ is rounding only (P_⊥ from the QR of the keys).
//  * The fixed point M* = Ĝ(μI+Σ̂)^{-1} is well posed although Σ̂ has rank n_s < p; it is
//    computed in the n_s-dimensional span (Gram route, cross-checked by Woodbury), never as
//    a p×p inverse. Keys drawn i.i.d. from the empirical law make M_{t−1} independent of
//    x̂_t, so E[M_t] = M* + (M_0 − M*)(βI − ηΣ̂)^t exactly: along an eigenvector u_k of Σ̂,
//    E[M_t]u_k = M*u_k (1 − β̃_k^t) with β̃_k = β − ηλ̂_k, and the EMA buffer gives
//    E[M_t]u_k = Ḡu_k (1 − β^t), Ḡ = (1/n_s)Σ δ_s x_sᵀ.
//  * cond(μI+Σ̂) ≤ 1 + η/(1−β) on the span and overall (λ̂ ∈ [0,1]) [eq:cond-ceiling]; the
//    improvement over the queried span, (μ+λ̂_max)/(μ+λ̂_min), is measured as the ratio of
//    the buffer's gains on the bottom and top span directions.
// Each step costs O(mp) (m = 2); the projections M_t u_k follow by an O(m) recursion.
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/spectrum/dataset_spectrum.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "common.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

constexpr int kM = 2;             // rows of the buffer: per-step cost O(m p)
constexpr double kEta = 0.8;      // μ = 0.125, ceiling 1 + η/(1−β) = 9
constexpr double kNoise = 0.5;    // σ of ξ_s, drawn once per data point
constexpr int kSteps = 200;
constexpr int kWindowStart = 51;  // time-average window [51, 200]: see the gain ratio below
constexpr int kWindow = kSteps - kWindowStart + 1;
const std::vector<int> kCheckpoints{5, 25, kSteps};
constexpr int kGroups = 100;      // trial groups for the jackknife of the gain ratio
constexpr int kPathsOffSpan = 3;  // sample paths whose final buffers are projected off-span
// A Monte-Carlo mean of a projection is checked only where its sampling distribution is
// close enough to normal for the check's first-order skew correction (include/akm/check/check.hpp)
// by the design, not by the sample: a step adds c_s = δ_{s,r}·(k_sᵀu_j) for a key drawn
// uniformly from the data set, so the mean of D draws has skewness γ_c/√D with γ_c the
// exact skewness of c over the n_s keys. Where a projection is carried by a few keys (the
// bottom direction, ~1.3 keys of 1024; row 1 of Δ, which weights those keys by 1/√λ̂_bottom)
// γ_c ≈ 20, and a seed that happens to draw them rarely measures ≈ 0 with a tiny sample
// error — the audit's T9 false alarms at 1e-6 (tests/audit). Checked iff γ_c/√D ≤ 0.1,
// D = R·min(t, memory) (the window length for window averages).
constexpr double kMaxDesignSkew = 0.1;

// Steps at which the projections are recorded, about evenly on a log axis (the checkpoints
// are among them).
std::vector<int> record_grid() {
  return {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 175, kSteps};
}

struct Shape {
  int p, n_s;
};
const std::vector<Shape> kShapes{{512, 64}, {512, 128}, {4096, 512}, {4096, 1024}};

std::string shape_name(const Shape& s) { return fmt::format("p{}-ns{}", s.p, s.n_s); }

// Spikes scale with p so that they carry a fixed share of tr Σ (λ̂ ≈ 0.2, 0.09, 0.035 on the
// data sets) while the floor spreads the rest over the span: the queried spectrum spans 2–3.5
// decades.
std::string spec_for(int p) {
  return fmt::format("spiked:n={},spikes={}/{}/{},floor=1", p, 0.5 * p, 0.15 * p, 0.05 * p);
}

// One (p, n_s) data set: keys, their norms and directions, and the values attached to them.
struct DataSet {
  Shape shape;
  std::string spec;
  Mat X;          // p × n_s raw keys x_s
  Vec norms;      // ‖x_s‖
  Mat K_hat;      // p × n_s normalized keys x̂_s (= X̂ᵀ)
  Mat Delta;      // m × n_s values δ_s
};

DataSet make_keys(const Shape& sh, std::uint64_t seed) {
  DataSet d{sh, spec_for(sh.p), {}, {}, {}, {}};
  const Spectrum sp = parse_spectrum(d.spec);
  Stream draw(derive_seed(seed, "T9/keys/" + shape_name(sh)), 0, Purpose::data);
  d.X.resize(sh.p, sh.n_s);
  for (int s = 0; s < sh.n_s; ++s)
    for (int i = 0; i < sh.p; ++i) d.X(i, s) = std::sqrt(sp.lambda[i]) * draw.normal();
  d.norms = d.X.colwise().norm().transpose();
  d.K_hat = normalize_columns(d.X);
  return d;
}

// δ_s = A x_s + ξ_s. Row 0 of A is a generic teacher (N(0,1)/√p entries). A generic row puts
// only a share ≈ λ̂_k of its variance on u_k, so the low-λ̂ span directions would be measured
// with a per-trial signal-to-noise ≈ √λ̂_k, too little to test them; row 1 therefore reads
// the middle and bottom span coordinates, A_1 = (u_mid/√λ̂_mid + u_bot/√λ̂_bot)/‖x‖_rms (each
// term of rms ≈ 1). The predictions hold for any fixed A, data-dependent or not.
Mat value_rows(const DataSet& d, const Vec& u_mid, double lam_mid, const Vec& u_bot, double lam_bot,
               std::uint64_t seed) {
  const std::string tag = shape_name(d.shape);
  Mat A = value_map(kM, d.shape.p, derive_seed(seed, "T9/A/" + tag)) / std::sqrt(static_cast<double>(d.shape.p));
  const double x_rms = std::sqrt(d.norms.squaredNorm() / static_cast<double>(d.shape.n_s));
  A.row(1) = (u_mid / std::sqrt(lam_mid) + u_bot / std::sqrt(lam_bot)).transpose() / x_rms;
  Stream noise(derive_seed(seed, "T9/xi/" + tag), 0, Purpose::noise);
  Mat Delta = A * d.X;
  for (int s = 0; s < d.shape.n_s; ++s)
    for (int r = 0; r < kM; ++r) Delta(r, s) += kNoise * noise.normal();
  return Delta;
}

// One sample path of both buffers over kSteps steps, keys drawn uniformly with replacement.
// Ct (D × n_s) holds Ct(j, s) = x̂_sᵀu_j, so the projections Y = M_t U follow the buffers in
// O(mD) per step: each update adds (increment)·x̂_sᵀ, hence Y ← βY + (increment)·Ct.col(s)ᵀ.
// The direct product M_t U is their reference (checked on the off-span sample paths).
// `at` receives (step, AK buffer, EMA buffer, AK projections, EMA projections).
template <class OnStep>
void sample_path(const DataSet& d, const Mat& Ct, std::uint64_t seed, long long trial, OnStep at) {
  const int p = d.shape.p, n_s = d.shape.n_s;
  Stream pick(seed, trial, Purpose::keys);
  Mat M_ak = Mat::Zero(kM, p), M_ema = Mat::Zero(kM, p);
  Mat Y_ak = Mat::Zero(kM, Ct.rows()), Y_ema = Mat::Zero(kM, Ct.rows());
  Vec k(p), delta(kM), scaled(kM), r(kM);
  for (int t = 1; t <= kSteps; ++t) {
    const int s = std::min(n_s - 1, static_cast<int>(pick.uniform() * n_s));
    k = d.K_hat.col(s);
    delta = d.Delta.col(s);
    kern::ak_step(M_ak, delta, k, kBeta, kEta, r);  // [eq:dm-norm-update]; r = η(δ − M_{t−1}x̂)
    Y_ak *= kBeta;
    Y_ak.noalias() += r * Ct.col(s).transpose();
    scaled = d.norms[s] * delta;                     // δ x_sᵀ = (‖x_s‖δ) x̂_sᵀ
    kern::ema_step(M_ema, scaled, k, kBeta);         // [eq:ema-update], raw gradient
    Y_ema *= kBeta;
    Y_ema.noalias() += ((1.0 - kBeta) * scaled) * Ct.col(s).transpose();
    at(t, M_ak, M_ema, Y_ak, Y_ema);
  }
}

// E over the window of the transient factor: (1/W) Σ_{t=a}^{T} (1 − b^t).
double window_factor(double b) {
  double acc = 0;
  for (int t = kWindowStart; t <= kSteps; ++t) acc += 1.0 - std::pow(b, t);
  return acc / kWindow;
}

struct Direction {
  int k;              // index into λ̂ (descending)
  std::string label;  // top1 / top2 / top3 / middle / bottom
};

std::vector<Direction> queried_directions(int rank) {
  return {{0, "top1"}, {1, "top2"}, {2, "top3"}, {rank / 2, "middle"}, {rank - 1, "bottom"}};
}

}  // namespace

static void t09_high_dim(ExperimentContext& ctx) {
  const long long R = trials(ctx, 4000, 800);
  const double mu = theory::mu(kBeta, kEta);
  const double ceiling = theory::cond_ceiling(kBeta, kEta);
  const std::vector<int> grid = record_grid();
  ctx.params = {{"beta", kBeta}, {"eta", kEta}, {"mu", mu}, {"cond_ceiling", ceiling}, {"m", kM},
                {"noise_sigma", kNoise}, {"steps", kSteps}, {"checkpoints", kCheckpoints}, {"window", {kWindowStart, kSteps}},
                {"record_grid", grid}, {"trials", R}, {"M0", "zero"}, {"key", "normalized (AK), raw gradient (EMA)"},
                {"sampling", "keys drawn uniformly with replacement from the fixed data set each step"},
                {"value_stream", "delta_s = A x_s + xi_s, xi_s ~ N(0, noise_sigma^2) drawn once per data point; A row 0 "
                                 "N(0,1)/sqrt(p) entries, row 1 = (u_middle/sqrt(lambda_hat_middle) + "
                                 "u_bottom/sqrt(lambda_hat_bottom))/rms|x|"},
                {"predictions", "AK: E[M_t]u_k = (M* u_k)(1 - (beta - eta lambda_hat_k)^t), M* u_k = "
                                "G_hat u_k/(mu + lambda_hat_k); EMA: E[M_t]u_k = (G_bar u_k)(1 - beta^t); window checks: "
                                "the same averaged over t in the window"},
                {"notes", "the bottom span eigenvector is carried by ~2 keys (participation number in "
                          "data_gains.csv), so its projections are measured through window averages"},
                {"settings", nlohmann::json::array()}};

  CsvTable spectrum{{"setting", "p", "n_s", "k", "k_frac", "lambda_hat", "weight", "rel_weight"}, {}};
  CsvTable gains{{"setting", "rule", "direction", "k", "lambda_hat", "participation", "phi", "predicted_window_gain",
                  "measured_window_gain", "stderr"}, {}};
  CsvTable cond{{"setting", "p", "n_s", "rank", "lambda_max", "lambda_min", "mu", "cond_span",
                 "cond_overall", "ceiling", "improvement_measured", "improvement_stderr"}, {}};

  for (const Shape& sh : kShapes) {
    const std::string name = shape_name(sh);
    DataSet d = make_keys(sh, ctx.opts.seed);
    const Mat& K_hat = d.K_hat;
    const double n = sh.n_s;

    // Spectrum of Σ̂ from the n_s×n_s Gram matrix [app:high-dim].
    const DatasetSpectrum S(K_hat);
    const Vec& lam = S.lambda_hat();
    const int rank = S.rank();
    // Set-up checks (.design()): the data set's spectrum and its two numerical routes.
    ctx.checks.exact(name + "/rank Sigma_hat = n_s", n, rank, 0.0);
    ctx.checks.design();
    ctx.checks.exact(name + "/tr Sigma_hat = sum lambda_hat = 1", 1.0, lam.sum());
    ctx.checks.design();
    ctx.checks.at_most(name + "/lambda_hat_max <= 1", 1.0, lam[0]);
    ctx.checks.design();
    // Independent route: Lanczos on the matrix-free p×p operator, top three eigenvalues.
    const EigenPairs top = dataset_top_eigenpairs(K_hat, 3);
    for (int k = 0; k < 3; ++k) {
      ctx.checks.exact(fmt::format("{}/lambda_hat_{} Gram = Lanczos", name, k + 1), top.values[k], lam[k]);
      ctx.checks.design();
    }

    const auto dirs = queried_directions(rank);
    const std::size_t D = dirs.size();
    Mat U(sh.p, static_cast<Eigen::Index>(D));
    for (std::size_t j = 0; j < D; ++j) {
      U.col(j) = S.eigenvector(dirs[j].k);
      // Σ̂u = λ̂u with Σ̂ applied matrix-free (not through the Gram eigenvectors).
      ctx.checks.at_most(fmt::format("{}/{} eigen-residual |Sigma_hat u - lambda u| / lambda_max", name, dirs[j].label),
                         1e-10, (S.apply(U.col(j)) - lam[dirs[j].k] * U.col(j)).norm() / lam[0]);
      ctx.checks.design();
    }
    d.Delta = value_rows(d, U.col(D - 2), lam[dirs[D - 2].k], U.col(D - 1), lam[dirs[D - 1].k], ctx.opts.seed);
    const Mat G_hat = d.Delta * K_hat.transpose() / n;                          // Ĝ = (1/n_s) Σ δ_s x̂_sᵀ
    const Mat G_bar = d.Delta * d.norms.asDiagonal() * K_hat.transpose() / n;   // Ḡ = (1/n_s) Σ δ_s x_sᵀ

    // Fixed point in the span, two routes; the fixed-point equation with Σ̂ matrix-free.
    const Mat M_star = S.ridge_solve(G_hat, mu);
    const Mat M_wood = ridge_solve_woodbury(K_hat, G_hat, mu);
    ctx.checks.at_most(name + "/M* spectral vs Woodbury (relative)", 1e-10, (M_star - M_wood).norm() / M_star.norm());
    ctx.checks.design();  // two numerical routes to one solve
    double resid = 0;
    for (int r = 0; r < kM; ++r) {
      const Vec row = M_star.row(r).transpose();
      resid += (mu * row + S.apply(row) - G_hat.row(r).transpose()).squaredNorm();
    }
    ctx.checks.at_most(name + "/M*(mu I + Sigma_hat) = G_hat (relative residual)", 1e-10,
                       std::sqrt(resid) / G_hat.norm());
    const Mat MU = M_star * U, GU = G_hat * U, GbU = G_bar * U;
    for (std::size_t j = 0; j < dirs.size(); ++j)  // [eq:dm-eigen] along span eigenvectors
      ctx.checks.at_most(fmt::format("{}/{} M* u = G_hat u/(mu+lambda) (relative)", name, dirs[j].label), 1e-10,
                         (MU.col(j) - GU.col(j) / (mu + lam[dirs[j].k])).norm() / MU.col(j).norm());

    // Off the span: P_⊥ from the QR of the raw keys (same span as the normalized ones).
    const SpanComplement perp(d.X);
    ctx.checks.at_most(name + "/|G_hat P_perp| <= 1e-12 |G_hat|", 1e-12 * G_hat.norm(), perp.off_span_norm(G_hat));
    ctx.checks.design();  // Ĝ is a combination of data keys by construction
    ctx.checks.at_most(name + "/|M* P_perp| <= 1e-12 |M*|", 1e-12 * M_star.norm(), perp.off_span_norm(M_star));
    const std::uint64_t mc_seed = derive_seed(ctx.opts.seed, "T9/mc/" + name);
    const Mat Ct = U.transpose() * K_hat;  // D × n_s, Ct(j, s) = u_jᵀx̂_s
    for (int path = 0; path < kPathsOffSpan; ++path) {
      Mat last_ak, last_ema, y_ak, y_ema;
      sample_path(d, Ct, mc_seed, path, [&](int t, const Mat& a, const Mat& e, const Mat& ya, const Mat& ye) {
        if (t == kSteps) {
          last_ak = a;
          last_ema = e;
          y_ak = ya;
          y_ema = ye;
        }
      });
      ctx.checks.at_most(fmt::format("{}/path {} AK |M_T P_perp| <= 1e-12 |M_T|", name, path),
                         1e-12 * last_ak.norm(), perp.off_span_norm(last_ak));
      ctx.checks.at_most(fmt::format("{}/path {} EMA |M_T P_perp| <= 1e-12 |M_T|", name, path),
                         1e-12 * last_ema.norm(), perp.off_span_norm(last_ema));
      // The O(mD) projection recursion against the direct product M_T U.
      ctx.checks.at_most(fmt::format("{}/path {} AK |Y_T - M_T U| <= 1e-12 |M_T|", name, path),
                         1e-12 * last_ak.norm(), (y_ak - last_ak * U).norm());
      ctx.checks.design();  // the fast projection recursion against its reference
      ctx.checks.at_most(fmt::format("{}/path {} EMA |Y_T - M_T U| <= 1e-12 |M_T|", name, path),
                         1e-12 * last_ema.norm(), (y_ema - last_ema * U).norm());
      ctx.checks.design();
    }

    // Conditioning [eq:cond-ceiling]: on the span λ̂ ∈ [λ̂_min, λ̂_max]; overall the null
    // space (dimension p − n_s > 0) adds the eigenvalue μ of μI+Σ̂.
    const double cond_span = (mu + lam[0]) / (mu + lam[rank - 1]);
    const double cond_all = (mu + lam[0]) / mu;
    ctx.checks.at_most(name + "/cond on span <= 1 + eta/(1-beta)", ceiling, cond_span);
    ctx.checks.at_most(name + "/cond overall <= 1 + eta/(1-beta)", ceiling, cond_all);

    // Monte Carlo: projections M_t u_k of both buffers on the recorded grid, then (slot G)
    // their average over the window [kWindowStart, T].
    const std::size_t per_t = 2 * D * kM, G = grid.size();
    auto kernel = [&](long long trial, double* out) {
      std::size_t g = 0;
      Eigen::Map<Mat> win_ak(out + G * per_t, kM, D), win_ema(out + G * per_t + D * kM, kM, D);
      win_ak.setZero();
      win_ema.setZero();
      sample_path(d, Ct, mc_seed, trial, [&](int t, const Mat&, const Mat&, const Mat& ya, const Mat& ye) {
        if (g < G && t == grid[g]) {
          Eigen::Map<Mat>(out + g * per_t, kM, D) = ya;
          Eigen::Map<Mat>(out + g * per_t + D * kM, kM, D) = ye;
          ++g;
        }
        if (t >= kWindowStart) {
          win_ak += ya / kWindow;
          win_ema += ye / kWindow;
        }
      });
    };
    const McResult res = monte_carlo(ctx.mc(R, "T9 " + name, kGroups), (G + 1) * per_t, kernel);
    const Vec mean = res.total.mean(), se = res.total.stderr_mean();
    auto obs = [&](std::size_t g, int rule, std::size_t j, int r) {
      return g * per_t + static_cast<std::size_t>(rule) * D * kM + j * kM + static_cast<std::size_t>(r);
    };
    auto grid_index = [&](int t) {
      const auto it = std::find(grid.begin(), grid.end(), t);
      if (it == grid.end()) throw std::logic_error(fmt::format("T9: checkpoint {} is not on the record grid", t));
      return static_cast<std::size_t>(it - grid.begin());
    };

    // Design skewness of the mean of projection (rule, j, r) over R trials of t_eff draws:
    // γ_c/√(R·t_eff) with c_s = δ_{s,r}·(k_sᵀu_j), k = x̂ (AK) or x (EMA) (header).
    auto design_skew = [&](int rule, std::size_t j, int r, double t_eff) {
      const Eigen::Index ns = K_hat.cols();
      Vec c(ns);
      for (Eigen::Index k = 0; k < ns; ++k)
        c[k] = d.Delta(r, k) * Ct(static_cast<Eigen::Index>(j), k) * (rule == 0 ? 1.0 : d.norms[k]);
      const Vec dev = c.array() - c.mean();
      const double m2 = dev.squaredNorm() / n, m3 = dev.array().cube().sum() / n;
      if (!(m2 > 0.0)) return 0.0;
      return std::abs(m3) / std::pow(m2, 1.5) / std::sqrt(static_cast<double>(R) * t_eff);
    };
    auto memory = [&](int rule, std::size_t j) {
      return 1.0 / (1.0 - (rule == 0 ? theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]) : kBeta));
    };
    long long rare = 0;
    // Alternatives and sensitivities. The AK projection E[M_t]u_k = (Ĝu_k/(μ+λ̂_k))(1 − β̃_k^t)
    // is a closed form of (η, β, λ̂_k) at fixed data (Ĝ does not depend on them); its EMA
    // alternative is the same buffer without the self-correction, M ← βM + ηδx̂ᵀ, i.e. λ̂_k → 0:
    // (Ĝu_k/μ)(1 − β^t). The EMA arm's prediction (Ḡu_k)(1 − β^t) reads β only and keeps the
    // declared 10% effect. `f(t)` is the transient factor: 1 − b^t at a checkpoint, the window
    // average of it otherwise.
    auto ak_check = [&](std::size_t j, int r, const std::function<double(double)>& f) {
      const double g = GU(r, static_cast<Eigen::Index>(j)), l = lam[dirs[j].k];
      ctx.checks.against(g / mu * f(kBeta), "EMA");
      sensitivity(ctx.checks,
                  [&](double e, double b, double m) {
                    return g / (theory::mu(b, e) + m * l) * f(theory::beta_tilde(b, e, m * l));
                  },
                  kEta, kBeta);
    };
    auto ema_check = [&](std::size_t j, int r, const std::function<double(double)>& f) {
      const double g = GbU(r, static_cast<Eigen::Index>(j));
      sensitivity(ctx.checks, [&](double, double b, double) { return g * f(b); }, kEta, kBeta);
    };
    const std::string skew_reason =
        "T9 design-skewness gate (README \"Check rules\"): the exact skewness of this mean's sampling distribution, "
        "γ_c/√D, exceeds {} ({:.3g}); the first-order skew correction does not hold its rate there";
    for (int t : kCheckpoints) {
      const std::size_t g = grid_index(t);
      for (std::size_t j = 0; j < D; ++j) {
        const double bt = theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]);
        for (int r = 0; r < kM; ++r) {
          const double ak_skew = design_skew(0, j, r, std::min<double>(t, memory(0, j)));
          const double ema_skew = design_skew(1, j, r, std::min<double>(t, memory(1, j)));
          const bool ak_ok = ak_skew <= kMaxDesignSkew;
          const bool ema_ok = ema_skew <= kMaxDesignSkew;
          rare += !ak_ok + !ema_ok;
          const auto at_t = [t](double b) { return 1.0 - std::pow(b, t); };
          const std::string ak_name = fmt::format("{}/AK/t={}/{}[{}]", name, t, dirs[j].label, r);
          const std::string ema_name = fmt::format("{}/EMA/t={}/{}[{}]", name, t, dirs[j].label, r);
          if (ak_ok) {
            ctx.checks.mc(ak_name,
                        theory::transient_mean(MU(r, j), bt, t), res.total.estimate(static_cast<Eigen::Index>(obs(g, 0, j, r))));
            ak_check(j, r, at_t);
          } else {
            ctx.gate(ak_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ak_skew));
          }
          if (ema_ok) {
            ctx.checks.mc(ema_name,
                        theory::transient_mean(GbU(r, j), kBeta, t), res.total.estimate(static_cast<Eigen::Index>(obs(g, 1, j, r))));
            ema_check(j, r, at_t);
          } else {
            ctx.gate(ema_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ema_skew));
          }
        }
      }
    }

    for (std::size_t j = 0; j < D; ++j) {  // time averages over the window, exact prediction
      const double bt = theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]);
      for (int r = 0; r < kM; ++r) {
        const double ak_skew = design_skew(0, j, r, kWindow), ema_skew = design_skew(1, j, r, kWindow);
        const bool ak_ok = ak_skew <= kMaxDesignSkew;
        const bool ema_ok = ema_skew <= kMaxDesignSkew;
        rare += !ak_ok + !ema_ok;
        const std::string ak_name = fmt::format("{}/AK/window/{}[{}]", name, dirs[j].label, r);
        const std::string ema_name = fmt::format("{}/EMA/window/{}[{}]", name, dirs[j].label, r);
        if (ak_ok) {
          ctx.checks.mc(ak_name, MU(r, j) * window_factor(bt),
                      res.total.estimate(static_cast<Eigen::Index>(obs(G, 0, j, r))));
          ak_check(j, r, window_factor);
        } else {
          ctx.gate(ak_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ak_skew));
        }
        if (ema_ok) {
          ctx.checks.mc(ema_name, GbU(r, j) * window_factor(kBeta),
                      res.total.estimate(static_cast<Eigen::Index>(obs(G, 1, j, r))));
          ema_check(j, r, window_factor);
        } else {
          ctx.gate(ema_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ema_skew));
        }
      }
    }

    // Gain of a buffer along u_k, projected on w_k = Ĝu_k (AK) or Ḡu_k (EMA):
    // E = (1 − β̃_k^t)/(μ+λ̂_k) for AK, 1 − β^t for EMA.
    auto gain = [&](const Vec& m, std::size_t g, int rule, std::size_t j) {
      const Vec& w = rule == 0 ? GU.col(j) : GbU.col(j);
      double num = 0;
      for (int r = 0; r < kM; ++r) num += w[r] * m[obs(g, rule, j, r)];
      return num / w.squaredNorm();
    };
    // Improvement over the queried span: the AK gain ratio bottom/top against
    // (μ+λ̂_max)/(μ+λ̂_min) (EMA's ratio is 1). The bottom eigenvector of Σ̂ is carried by few
    // keys (those most aligned with a spike; their near-duplicate directions make the
    // smallest Gram eigenvalues), so a snapshot of M_T u_bottom rests on the few draws of
    // those keys in its last ~1/(1−β̃) steps; the window average over 150 steps sees ~15× as
    // many. The transient over the window is the known remainder.
    const std::size_t jb = D - 1;
    // Number of keys that carry u_k: 1/Σ_s v_k[s]⁴ for the unit Gram eigenvector v_k.
    auto participation = [&](std::size_t j) { return 1.0 / S.gram_vectors().col(dirs[j].k).array().pow(4).sum(); };
    const auto [impr, impr_se] = jackknife(res.groups, [&](const Vec& m) { return gain(m, G, 0, jb) / gain(m, G, 0, 0); });
    const double exact_w = window_factor(theory::beta_tilde(kBeta, kEta, lam[rank - 1])) /
                           window_factor(theory::beta_tilde(kBeta, kEta, lam[0])) * cond_span;
    ctx.checks.mc(name + "/improvement (mu+lambda_max)/(mu+lambda_min)", cond_span, impr, impr_se, 0.0,
                  std::abs(exact_w - cond_span));
    ctx.checks.against(1.0, "EMA");  // the EMA buffer's gain is 1 along every direction
    sensitivity(ctx.checks,
                [&](double e, double b, double m) {
                  return (theory::mu(b, e) + m * lam[0]) / (theory::mu(b, e) + m * lam[rank - 1]);
                },
                kEta, kBeta);
    for (std::size_t j = 0; j < D; ++j) {
      for (int rule = 0; rule < 2; ++rule) {
        const auto [gv, gse] = jackknife(res.groups, [&](const Vec& m) { return gain(m, G, rule, j); });
        const double bt = rule == 0 ? theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]) : kBeta;
        const double phi = rule == 0 ? theory::phi(mu, lam[dirs[j].k]) : 1.0;
        gains.add({name, rule == 0 ? "AK" : "EMA", dirs[j].label, static_cast<long long>(dirs[j].k + 1),
                   lam[dirs[j].k], participation(j), phi, phi * window_factor(bt), gv, gse});
      }
    }
    cond.add({name, static_cast<long long>(sh.p), static_cast<long long>(sh.n_s), static_cast<long long>(rank), lam[0],
              lam[rank - 1], mu, cond_span, cond_all, ceiling, impr, impr_se});

    for (int k = 0; k < rank; ++k)
      spectrum.add({name, static_cast<long long>(sh.p), static_cast<long long>(sh.n_s), static_cast<long long>(k + 1),
                    (k + 0.5) / rank, lam[k], 1.0 / (mu + lam[k]), (mu + lam[0]) / (mu + lam[k])});

    // Transient along each direction, normalized by the fixed point: measured q_k(t) =
    // gain_k(t)/gain_k(∞) against 1 − β̃_k^t (AK) or 1 − β^t (EMA).
    CsvTable trans{{"rule", "direction", "curve", "k", "lambda_hat", "t", "predicted", "measured", "stderr"}, {}};
    for (std::size_t g = 0; g < grid.size(); ++g) {
      for (int rule = 0; rule < 2; ++rule) {
        for (std::size_t j = 0; j < D; ++j) {
          const Vec& w = rule == 0 ? GU.col(j) : GbU.col(j);
          const double target = rule == 0 ? 1.0 / (mu + lam[dirs[j].k]) : 1.0;
          double var = 0;  // rows treated as independent (display only)
          for (int r = 0; r < kM; ++r) var += std::pow(w[r] * se[obs(g, rule, j, r)], 2);
          const double bt = rule == 0 ? theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]) : kBeta;
          const std::string rl = rule == 0 ? "AK" : "EMA";
          trans.add({rl, dirs[j].label, rl + "-" + dirs[j].label, static_cast<long long>(dirs[j].k + 1),
                     lam[dirs[j].k], static_cast<long long>(grid[g]), 1.0 - std::pow(bt, grid[g]),
                     gain(mean, g, rule, j) / target, std::sqrt(var) / w.squaredNorm() / target});
        }
      }
    }
    const std::string tcsv = "data_transient_" + name + ".csv";
    ctx.out.write_csv(tcsv, trans);
    Figure ft;
    ft.name = "transient-" + name;
    ft.title = fmt::format("T9 projection of E[M_t] on span eigenvectors u_k, p = {}, n_s = {}", sh.p, sh.n_s);
    ft.xlabel = "step t";
    ft.ylabel = "E[M_t]u_k / lim E[M_t]u_k, on Ĝu_k (lines: 1 − β̃_k^t, 1 − β^t)";
    ft.logx = true;
    // Each measured series and its prediction share a colour (linetypes 2i+1 and 2i+2).
    const std::vector<std::pair<std::string, std::string>> curves{
        {"AK-top1", "AK u_1"}, {"AK-top3", "AK u_3"}, {"AK-middle", "AK u_{mid}"},
        {"AK-bottom", "AK u_{bottom}"}, {"EMA-top1", "EMA u_1"}};
    const std::vector<std::string> colours{"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#666666"};
    for (std::size_t i = 0; i < curves.size(); ++i) {
      const auto& [c, label] = curves[i];
      const int j = c == "AK-top1" || c == "EMA-top1" ? 0 : c == "AK-top3" ? 2 : c == "AK-middle" ? 3 : 4;
      ft.series.push_back({tcsv, "t", "measured", "stderr",
                           fmt::format("{} (λ̂ = {:.2g})", label, lam[dirs[j].k]), "errorbars",
                           "curve=" + c});
      ft.series.push_back({tcsv, "t", "predicted", "", "", "lines", "curve=" + c});
      for (int lt : {1, 2})
        ft.extra.push_back(linetype(2 * i + lt, colours[i]));
    }
    ft.extra.push_back("set key inside right bottom vertical");
    ft.extra.push_back("set yrange [0:1.15]");
    ft.extra.push_back(fmt::format("set xrange [0.9:{}]", kSteps * 1.1));
    ctx.out.figure(ft);

    nlohmann::json dj = nlohmann::json::array();
    for (std::size_t j = 0; j < D; ++j)
      dj.push_back({{"label", dirs[j].label}, {"k", dirs[j].k + 1}, {"lambda_hat", lam[dirs[j].k]},
                    {"participation", participation(j)}, {"G_hat_u", to_std(GU.col(j))}, {"G_bar_u", to_std(GbU.col(j))}, {"M_star_u", to_std(MU.col(j))}});
    ctx.params["settings"].push_back({{"name", name}, {"p", sh.p}, {"n_s", sh.n_s}, {"spec", d.spec},
                                      {"rank", rank}, {"lambda_hat", to_std(lam)}, {"directions", dj},
                                      {"cond_span", cond_span}, {"cond_overall", cond_all},
                                      {"improvement_measured", impr}, {"improvement_stderr", impr_se},
                                      {"projections_not_checked_skewed", rare},
                                      {"max_design_skew_of_mean", kMaxDesignSkew}});
  }

  ctx.out.write_csv("data_spectrum.csv", spectrum);
  ctx.out.write_csv("data_cond.csv", cond);
  ctx.out.write_csv("data_gains.csv", gains);

  Figure fg;
  fg.name = "gains";
  fg.title = "T9 buffer gain along span eigenvectors, all (p, n_s), window average over t ∈ [51, 200]";
  fg.xlabel = "λ̂_k (eigenvalue of Σ̂ of the data set)";
  fg.ylabel = "w_kᵀE[M]u_k / w_kᵀGu_k,  w_k = Gu_k,  G = Ĝ (AK), Ḡ (EMA)";
  fg.logx = fg.logy = true;
  fg.series = {{"data_gains.csv", "lambda_hat", "measured_window_gain", "stderr", "AK measured", "errorbars", "rule=AK"},
               {"data_gains.csv", "lambda_hat", "measured_window_gain", "stderr", "EMA measured", "errorbars",
                "rule=EMA"}};
  fg.functions = {fmt::format("1/({:.10g}+x) title 'AK 1/(μ+λ̂), μ = {:.3g}' lw 2 dt 2", mu, mu),
                  "1 title 'EMA (1)' lw 2 lc rgb 'gray40'"};
  fg.extra = {"set xrange [5e-5:0.5]", "set format x '10^{%L}'", "set yrange [0.5:12]", "set key inside left bottom vertical"};
  ctx.out.figure(fg);

  Figure fs;
  fs.name = "spectrum";
  fs.title = "T9 eigenvalues of Σ̂ for a data set of n_s keys in R^p (spiked covariance)";
  fs.xlabel = "k (span eigen-directions, descending)";
  fs.ylabel = "λ̂_k";
  fs.logx = fs.logy = true;
  for (const Shape& sh : kShapes)
    fs.series.push_back({"data_spectrum.csv", "k", "lambda_hat", "", fmt::format("p = {}, n_s = {}", sh.p, sh.n_s),
                         "lines", "setting=" + shape_name(sh)});
  fs.extra = {"set xrange [1:1100]", "set format y '10^{%L}'"};
  fs.functions = {fmt::format("{:.10g} title 'μ = (1−β)/η = {:.3g}' lw 2 dt 2 lc rgb 'black'", mu, mu)};
  ctx.out.figure(fs);

  Figure fw;
  fw.name = "preconditioner";
  fw.title = fmt::format("T9 preconditioner weights 1/(μ+λ̂_k), β = {}, η = {}: every ratio ≤ 1 + η/(1−β) = {:.3g}",
                         kBeta, kEta, ceiling);
  fw.xlabel = "k (span eigen-directions, descending)";
  fw.ylabel = "1/(μ+λ̂_k)";
  fw.logx = fw.logy = true;
  for (const Shape& sh : kShapes)
    fw.series.push_back({"data_spectrum.csv", "k", "weight", "", fmt::format("p = {}, n_s = {}", sh.p, sh.n_s),
                         "lines", "setting=" + shape_name(sh)});
  // λ̂ ∈ [0, 1] confines every weight to [1/(μ+1), 1/μ]; 1/μ is also the weight off the span.
  fw.functions = {fmt::format("{:.10g} title '1/μ (λ̂ = 0, off the span)' lw 2 dt 2 lc rgb 'black'", 1.0 / mu),
                  fmt::format("{:.10g} title '1/(μ+1) (λ̂ = 1)' lw 2 dt 3 lc rgb 'black'", 1.0 / (mu + 1.0))};
  fw.extra = {fmt::format("set yrange [{}:{}]", 0.7 / (mu + 1.0), 1.4 / mu), "set xrange [1:1100]"};
  ctx.out.figure(fw);

}

const Registrar registration{
    "T9", "high-dim", "High-dimensional regime p > n_s: span confinement, well-posed fixed point, cond ceiling",
    "app:high-dim eq:cond-ceiling cor:fixedpoint-normalized",
    "M_t P_perp = 0; E[M_t] = M* + (M_0 - M*)(beta I - eta Sigma_hat)^t with M* = G_hat(mu I + "
    "Sigma_hat)^{-1} for rank-deficient Sigma_hat; cond(mu I + Sigma_hat) <= 1 + eta/(1 - beta)", t09_high_dim};

}  // namespace akm::exp
