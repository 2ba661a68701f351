// T2 targets — what its parts share: the design constants, the dense setting and each
// part's measurement with its measure, check and record passes (the order: claim.cpp).
#pragma once
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "akm/theory/phase.hpp"
#include "common.hpp"

namespace akm::exp::t02 {

constexpr int kM = 2;            // value dimension: rows of M
constexpr double kNoise = 0.5;   // σ of ξ
constexpr double kRel = 1e-10;   // algebraic identities in double

// Online rules (EMA, pure delta) and the μ limits: eigenbasis, a power law over two decades
// (λ from 10 to 0.09).
inline const char* kOnlineSpec = "power:n=16,exp=1.7,scale=10";
constexpr double kBetaEma = kBeta;
constexpr int kEmaSteps = 150;
inline const std::vector<int> kEmaCheckpoints{5, 25, kEmaSteps};
// ηλ_max = 0.4: inside 0 < ηλ_i < 2 and mean-square stable. The slowest direction needs
// t ≫ 1/(ηλ_min) ≈ 280 steps; at 1500 its remaining gap (1 − ηλ_min)^t is below 0.5%.
constexpr double kEtaLamMax = 0.4;
constexpr int kDeltaSteps = 1500;
inline const std::vector<int> kDeltaCheckpoints{50, 300, kDeltaSteps};

// Sample least squares and K-FAC: a dense (random Haar) basis with cond(Σ) = 100.
inline const char* kDenseSpec = "spiked:n=8,spikes=10/3/1,floor=0.1,basis=random";
inline const std::vector<int> kSampleSizes{50, 500};  // exact least-squares identities
constexpr int kMcSample = 50;                  // S of the unbiasedness Monte Carlo
inline const std::vector<int> kKfacCheckpoints{150, kDeltaSteps};

// Uniform multiples iff Σ = cI: isotropic vs anisotropic, both in a random basis.
inline const char* kIsoSpec = "iso:n=16,scale=2,basis=random";
inline const char* kAnisoSpec = "spiked:n=16,spikes=10/3/1,floor=0.1,basis=random";
constexpr double kMinDistance = 1e-3;

// The 67M proxy's d_model (tab:arch): the width of the η sweep [app:eta-sweep] and of the
// RMSNorm computation.
constexpr int kProxyWidth = 384;

inline nlohmann::json rows_json(const Mat& X) {
  auto j = nlohmann::json::array();
  for (Eigen::Index r = 0; r < X.rows(); ++r) j.push_back(to_std(X.row(r).transpose()));
  return j;
}

/// "u1", "u2", … (as dir_name, but formatted by fmt: GCC 12's -Wrestrict misfires on the
/// inlined `"u" + std::to_string(…)`).
inline std::string dir_label(int i) { return fmt::format("u{}", i + 1); }

/// ‖X − Y‖_F / ‖Y‖_F: a matrix identity holds when this is at rounding level.
inline double rel_dist(const Mat& X, const Mat& Y) { return (X - Y).norm() / Y.norm(); }

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

/// An AK buffer on the dense law from M_0 = 0, δ = Ax + σξ, or δ = cAx̂ + σξ (dense_buffer.cpp).
struct DenseBuffer {
  BufferKind rule;  ///< ak_raw, or ak_normalized
  double beta, eta;  ///< β = 1: the pure delta rule
  std::vector<int> checkpoints;  ///< increasing steps
  bool in_basis;  ///< record M_t U (true) or M_t (false)
  double c = 0.0;  ///< > 0: the values δ = cAx̂ + σξ, keys of deterministic norm c (x = cx̂)
};
/// The buffer's Monte Carlo on ops::row_buffers: per checkpoint the kM×n entries of M_t U or
/// M_t, column-major (entry q + j·kM of a checkpoint's block).
McResult dense_buffer(ExperimentContext& ctx, const Dense& d, const DenseBuffer& b, std::uint64_t seed,
                      long long trials, const std::string& label);
/// Refuses a Monte Carlo whose trial variance grows without bound (E1's radius ≥ 1).
double require_mean_square_stable(const Vec& lambda, double beta, double eta,
                                  const std::string& what);
/// The dense setting from the seed, its params, and one sample (X, D) of size X.cols().
Dense make_dense(std::uint64_t seed);
nlohmann::json dense_params(const Dense& d);
void draw_sample(const Dense& d, Stream& keys, Stream& noise, Mat& X, Mat& D);
// Each part is three passes, called from claim.cpp's sections in the order the checks are
// recorded: a measure step (its Monte Carlo, or its exact computation) returning the part's
// measurement, a check step, and a record step (params, tables, figures).

/// One online rule [app:updates-as-sgd]: EMA (β; η unused) or pure delta (β = 1, η).
struct Online {
  BufferKind rule;  // ema or delta
  double beta, eta;
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
/// Where M_t(r, i) at checkpoint cp sits in an online run's observables (ops::row_buffers'
/// layout: per checkpoint, row by row).
inline std::size_t online_obs(int n, std::size_t cp, int r, int i) {
  return (cp * kM + std::size_t(r)) * std::size_t(n) + std::size_t(i);
}
/// [app:updates-as-sgd]: EMA → Ḡ and pure delta → ḠΣ^{-1}, exact means at every step.
struct OnlineRun {
  Mat A;
  double rho;  // the pure delta rule's mean-square radius
  std::vector<Online> rules;  // EMA, pure delta
  std::vector<McResult> res;  // per rule
};
OnlineRun measure_online(ExperimentContext& ctx, const Setting& s);
void check_online(ExperimentContext& ctx, const Setting& s, const OnlineRun& run);
void record_online(ExperimentContext& ctx, const Setting& s, const OnlineRun& run);

/// [app:divergent-optima]: the two sample minimizers, exactly (per sample size: relative
/// distances to Ḡ_S and Ḡ_SΣ_S^{-1}) and in expectation (Monte Carlo).
struct ExactSample {
  int S;
  double cond_sigma_S, rel_dist_weight, rel_dist_function;
};
struct LeastSquaresRun {
  std::vector<ExactSample> exact;
  long long trials;
  McResult res;
};
LeastSquaresRun measure_least_squares(ExperimentContext& ctx, const Dense& d);
void check_least_squares(ExperimentContext& ctx, const Dense& d, const LeastSquaresRun& run);
void record_least_squares(ExperimentContext& ctx, const LeastSquaresRun& run);

/// Uniform multiples of the Wiener target iff Σ = cI (uniform.cpp), per spectrum.
struct UniformCase {
  std::string name;
  Spectrum sp;
  Mat A;
  double c, distance, wiener_vs_A, per_direction;
};
std::vector<UniformCase> measure_uniform(ExperimentContext& ctx);
void check_uniform(ExperimentContext& ctx, const std::vector<UniformCase>& cases);
void record_uniform(ExperimentContext& ctx, const std::vector<UniformCase>& cases);

/// [tab:targets]: φ_i → 1/λ_i as μ → 0 and φ_i/φ_j → 1 as μ → ∞, on a μ grid.
struct MuLimits {
  Vec lambda;
  std::vector<double> grid;
  std::vector<Vec> w, e;        // per μ: λ_iφ_i and φ_i/φ_1
  std::vector<double> err_e;    // per μ: max_ij |φ_i/φ_j − 1|
  double rise_w, rise_e;        // the largest step-to-step increase over the grid
};
MuLimits measure_mu_limits(const Vec& lambda);
void check_mu_limits(ExperimentContext& ctx, const MuLimits& m);
void record_mu_limits(ExperimentContext& ctx, const MuLimits& m);

/// [app:eta-sweep]: the sweep's ridge μ = (1−β)/η and how far it takes each direction toward
/// Wiener (sweep_limit.cpp), read from the iterated mean recursion.
struct SweepLimit {
  struct Row {
    std::string spectrum;  // "isotropic" | "power" (trace-one Σ̂ at the proxy's width)
    double eta = 0;
    double mu_measured = 0;  // 1/m − λ̂ along the first direction
    int half_way = 0;        // directions with λ̂_iφ_i ≥ ½
    Vec wiener;              // λ̂_iφ_i per direction (1: Wiener)
  };
  std::vector<Row> rows;  // per spectrum, the sweep's η grid in order
  double mu_at_beta = 0, mu_at_one = 0;  // μ read at η = β and η = 1
};
SweepLimit measure_sweep_limit();
void check_sweep_limit(ExperimentContext& ctx, const SweepLimit& s);
void record_sweep_limit(ExperimentContext& ctx, const SweepLimit& s);

/// [cor:fixedpoint-normalized]'s RMSNorm condition: ‖x‖ of RMSNorm outputs (rmsnorm.cpp).
struct RmsNormRun {
  Vec equal, signs, unequal;  // the gains γ: 1, ±1, 1 + 0.1u
  double equal_err = 0, signs_err = 0, eps_err = 0;  // largest departures over the draws
  double norm2_lo = 0, norm2_hi = 0;  // ‖x‖²/n over the draws, unequal gains
  double eps_spread_lo = 1;           // smallest mean z²/(mean z² + ε) over the draws
  double basis_ratio = 0, gamma_ratio2 = 0, gmin2 = 0, gmax2 = 0;
};
RmsNormRun measure_rmsnorm(std::uint64_t seed);
void check_rmsnorm(ExperimentContext& ctx, const RmsNormRun& r);
void record_rmsnorm(ExperimentContext& ctx, const RmsNormRun& r);

/// [rem:kfac]: the pure delta rule reaches the K-FAC input-side factor ḠΣ^{-1}.
struct KfacRun {
  double eta, rho;
  Mat factor;  // ḠΣ^{-1}, explicit inverse
  double closed_vs_factor, kron_vs_closed;  // relative distances (kfac.cpp)
  std::vector<Mat> pred, alt;  // per checkpoint: E[M_t] and the no-Σ^{-1} rival
  long long trials;
  McResult res;
};
KfacRun measure_kfac(ExperimentContext& ctx, const Dense& d);
void check_kfac(ExperimentContext& ctx, const Dense& d, const KfacRun& run);
void record_kfac(ExperimentContext& ctx, const Dense& d, const KfacRun& run);
/// [rem:kfac]: E[δδᵀ]·F^{-1}Ḡ with F = E[δδᵀ] ⊗ Σ built as a Kronecker product (= ḠΣ^{-1}).
Mat kfac_input_factor(const Dense& d);

/// [rem:kfac-app]: the ridge μ's interpolation toward the K-FAC factor (kfac_app.cpp).
struct RidgeRun {
  double mu, beta, rho;
  double cond_ridged, distance_to_kfac;  // cond(μI + Σ), ‖M*(μ) − K‖/‖K‖
  long long trials;
  McResult res;
};
struct KfacAppRun {
  double eta;
  Mat K;  // the K-FAC factor read off the Fisher
  double worst_up, worst_down, far_end, near_end;  // the exact interpolation on the fine grid
  std::vector<RidgeRun> ridges;
};
KfacAppRun measure_kfac_app(ExperimentContext& ctx, const Dense& d);
void check_kfac_app(ExperimentContext& ctx, const Dense& d, const KfacAppRun& run);
void record_kfac_app(ExperimentContext& ctx, const Dense& d, const KfacAppRun& run);

/// Normalized-key moments of the dense Gaussian law in its basis: Σ̂ = E[x̂x̂ᵀ] and
/// K̂ = E[‖x‖x̂x̂ᵀ] (so Ĝ = AK̂), exact from the Gaussian-key quadrature.
struct DenseNormalized {
  KeyMoments km;
  Mat sigma_hat, k_hat;
};
DenseNormalized dense_normalized(const Dense& d);
/// [rem:normalized-key]: the raw and normalized keys side by side, the deterministic norm,
/// the Gaussian law's missing scalar and the closed loop's trace (normalized_key.cpp).
struct NormalizedRun {
  DenseNormalized nk;
  std::vector<double> side_eta;  // raw, normalized
  std::vector<McResult> side;    // raw, normalized
  long long side_trials;
  double det_c, det_mu, det_scalar_dist, det_kfac_dist;  // the deterministic norm's exact part
  Mat det_ghat;                                          // c A Σ̂
  long long det_trials;
  McResult det;
  double no_scalar_dist;                                 // the Gaussian law's distance
  std::vector<double> loop_det;                          // per direction: det A_i
  long long loop_trials;
  std::vector<McResult> loop;  // per value row q: ops::optimizer_loop's states of (EU)_q
};
NormalizedRun measure_normalized_key(ExperimentContext& ctx, const Dense& d);
void check_normalized_key(ExperimentContext& ctx, const Dense& d, const NormalizedRun& run);
void record_normalized_key(ExperimentContext& ctx, const Dense& d, const NormalizedRun& run);

}  // namespace akm::exp::t02
