// T7 stability — the parts shared by t07_stability*.cpp: the design constants, the key laws
// and input scales, the arms, the observable layout, the Monte-Carlo run and the exact
// standard errors (model.cpp), the set-up and width checks
// (checks.cpp), and the figures.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "akm/sim/key_law_moments.hpp"
#include "akm/spectrum/keys.hpp"
#include "common.hpp"

namespace akm::exp::t07 {

inline const std::vector<double> kEtaNorm{0.5, 1.5};  // η < β (mean contraction), β < η < 1+β (sure only)
constexpr double kRawFrac = 0.4;               // η_raw·λ_max(Σ) at s = 1
// Pre-registered raw points ηλ_max s² (s = √(u/kRawFrac)), chosen before their runs: three
// inside the window β < ηλ_max s² < 1+β, where the written "requires η < β/λ_max" and the
// mean's condition |β − ηλ_max s²| < 1 differ, and one just below β, where the Gaussian
// key's mean square already diverges (ρ(A) > 1, header of claim.cpp). They run more trials.
inline const std::vector<double> kWindowFrac{0.8, 1.1, 1.4, 1.7};
// The rivals of the raw checks at those points: the written condition read for the mean
// (no contraction past ηλ_max s² = β: the one-step factor along u_1, negative there, at −1
// or below) and for the mean square (it contracts: A_11 ≤ ρ(A) < 1, A ≥ 0 entrywise).
inline const std::string kRivalNoContraction = "written condition: no mean contraction past beta";
inline const std::string kRivalMeanSquare = "mean square contracts (rho(A) < 1)";
constexpr int kSteps = 40;
inline const std::vector<int> kLags{1, 5, 20};
constexpr long long kPredSamples = 400000;     // ‖x‖² samples for L(s)
constexpr double kRounding = 1e-9;             // relative rounding allowance (header)
inline double rounding(double p) { return kRounding * std::max(1.0, std::abs(p)); }

inline const std::vector<std::string> kLaws{"gaussian", "rademacher", "student:nu=3",
                                     "mixture:weights=0.5/0.5,scales=1/100,bases=identity/reverse"};

inline std::string law_name(const KeySampler& k) {
  const std::string& kind = k.law().kind;
  return kind == "student" ? fmt::format("student-nu{}", k.law().nu) : kind;
}

// Half-decade input scales 1e-3 … 1e3; the normalized arms use the whole decades.
std::vector<double> scales(bool decades_only);
// The raw arm's scales: the half decades and the pre-registered points kWindowFrac, sorted.
std::vector<double> raw_scales();
inline bool window_scale(double s) {
  for (double u : kWindowFrac)
    if (std::abs(s - std::sqrt(u / kRawFrac)) < 1e-12 * s) return true;
  return false;
}

struct Arm {
  Key key;
  double eta;
  std::string name() const {
    return key == Key::raw ? std::string("raw") : fmt::format("normalized eta={}", eta);
  }
};

// Observables: diag(P_k) at each lag (|lags|·n), diag(P_1)² (n), log‖P_T‖_op, violation
// indicator, the pathwise determinant bound (raw) and the raw Rademacher sure-bound
// violation — the per-trial record of one (law, arm, scale).
struct Layout {
  int n;
  std::size_t diag(std::size_t l, int i) const { return l * static_cast<std::size_t>(n) + static_cast<std::size_t>(i); }
  std::size_t diag_sq(int i) const { return kLags.size() * static_cast<std::size_t>(n) + static_cast<std::size_t>(i); }
  std::size_t log_norm() const { return (kLags.size() + 1) * static_cast<std::size_t>(n); }
  std::size_t violation() const { return log_norm() + 1; }
  std::size_t det_bound() const { return log_norm() + 2; }
  /// Raw Rademacher keys: ‖P_T‖ above the sure bound max(β, |β − ηs² tr Σ|)^T (‖x‖² = tr Σ).
  std::size_t sure_violation() const { return log_norm() + 3; }
  std::size_t size() const { return log_norm() + 4; }
};

/// The trials of one (law, arm, scale): M_0 = I, δ = 0, so the buffer is the product P_T, on
/// ops::transport_product (the cpu path on a device backend: a key law is host-only).
McResult simulate(ExperimentContext& ctx, const KeySampler& law, const Arm& arm, double s,
                  std::uint64_t seed, long long R);
// E log|β − c‖x‖²| for each c, from a separately seeded sample of ‖x‖²: {mean, se}.
std::vector<std::pair<double, double>> mean_log_det_factor(const KeySampler& law, const std::vector<double>& c,
                                                           std::uint64_t seed);
// Worst summary of n per-direction comparisons with per-direction predictive errors; the
// worst is the largest skew-corrected deviation (include/akm/check/check.hpp). Returns the
// index of the direction the check reports (its alternative and sensitivity are that one's).
Eigen::Index family(ExperimentContext& ctx, const std::string& name, const Vec& pred, const Vec& pred_se,
                    const std::vector<MeanEstimate>& est);
// Means with sample errors from a large moment Monte Carlo (skewness not tracked there;
// ~10⁵ samples make it negligible).
std::vector<MeanEstimate> estimates(const Vec& mean, const Vec& se);
// The second-moment map of a pushed row (header of claim.cpp): for a sign-symmetric key law
// diagonal in the eigenbasis, E[(P_k)_{ai}²] = (A^k)_{ai} with
// A = diag(β² − 2βη lam) + η²Q, Q_aj = E[k_a²k_j²] of the key k fed to the buffer.
Mat second_moment_map(const Vec& lam, const Mat& Q, double eta);
// Exact standard errors of the transport E[u_iᵀP_ku_i] over R trials (header):
// Var = (A^k)_ii − β̃_i^{2k}, β̃_i = β − η lam_i.
Vec exact_transport_se(const Vec& lam, const Mat& Q, double eta, int k, long long R);
// ρ(A) (A is symmetric and entrywise ≥ 0): the mean square of the buffer contracts iff < 1.
double spectral_radius(const Mat& A);

// The raw key's even moments for the T7 laws (diagonal, sign-symmetric: Gaussian, Rademacher,
// Gaussian mixtures with identity/reverse bases); empty (`finite` false) for Student-t ν = 3,
// whose E x⁴ is infinite.
struct RawMoments {
  bool finite = false;
  Mat Q;      ///< Q_aj = E[x_a²x_j²]
  Mat even;   ///< even(i, p) = E[x_i^{2p}], p = 0 … 4
};
RawMoments raw_moments(const KeySampler& law);
// The smallest ηλ_max s² at which ρ(A) reaches 1 (a scan in steps of 0.01, then bisection);
// +∞ when ρ(A) < 1 up to ηλ_max s² = 10.
double mean_square_threshold(const RawMoments& m, const Vec& cov);

// [prop:bounded-sigma-hat] on a Monte-Carlo estimate, and the estimate against the exact
// moments where those exist.
void check_sigma_hat(ExperimentContext& ctx, const std::string& name, const KeySampler& law,
                     const KeyLawMoments& mc);
// [rem:mup-normalization] ‖βI − ηx̂x̂ᵀ‖_op = max(β, |β−η|) on random keys, β, η (Eigen SVD).
double worst_opnorm_identity(const KeySampler& law, std::uint64_t seed);
// x̂ is scale-free: (s·x)/‖s·x‖ = x/‖x‖ to rounding for every s of the sweep.
double worst_scale_dependence(const KeySampler& law, std::uint64_t seed);
// [rem:mup-normalization] ‖xxᵀ‖_op = ‖x‖² grows like tr Σ = n for per-coordinate Θ(1) keys,
// while ‖x̂x̂ᵀ‖_op = 1 at every width: the raw per-sample stable η shrinks like 1/n.
struct Width {
  int n;
  double mean_norm_sq, se;
};
std::vector<Width> measure_width(ExperimentContext& ctx, long long R);
void check_width(ExperimentContext& ctx, const std::vector<Width>& widths);
void write_width(ExperimentContext& ctx, const std::vector<Width>& widths);

/// One (arm, scale) of a law: the trials of its product P_T.
struct ScaleRun {
  Arm arm;
  std::size_t si;  ///< index into raw_scales() (raw) or scales(true) (normalized)
  double s;
  std::string tag;
  long long R;  ///< trials (more at the pre-registered raw points, kWindowFrac)
  McResult res;
};

/// One key law: its normalized-key moments (Monte-Carlo for every law; `pred` exact where
/// they exist), the identities measured on it, the raw step, L(s)'s log-det terms, every run.
struct LawRun {
  explicit LawRun(KeySampler k) : law(std::move(k)) {}
  KeySampler law;
  std::string ln;
  KeyLawMoments mc, pred;
  double worst_opnorm = 0, worst_scale = 0;
  Vec cov;  ///< every T7 law is diagonal in the eigenbasis
  RawMoments raw;  ///< the raw key's moments (not finite for Student-t ν = 3)
  double u_ms = 0;  ///< ηλ_max s² where the raw mean square turns divergent (ρ(A) = 1)
  double eta_raw = 0;
  std::vector<double> c;  ///< η_raw s² for L(s)
  std::vector<std::pair<double, double>> logdet;
  std::vector<ScaleRun> runs;
  double L_pred(std::size_t si) const;  ///< L(s) at raw scale si (T/n · ((n−1)log β + E log|…|))
  double L_se(std::size_t si) const;
  Eigen::Index top() const;  ///< u_1: the direction of λ_max(Σx)
  Mat raw_A(double s) const { return second_moment_map(cov, raw.Q, eta_raw * s * s); }
};

/// One lag of one run: the predictions β̃_i^k with their delta-method errors, the estimates
/// (normalized: with the exact error, see the header of claim.cpp) and the eigenvalue used.
struct LagView {
  Vec lam_key, bt, p, pse;
  std::vector<MeanEstimate> est;
};
LagView lag_view(const LawRun& lr, const ScaleRun& run, std::size_t l);

/// The one-step second moment along u_1 at a raw scale: ηλ_max s², ρ(A), the prediction
/// A_11, the measured mean of P_1(1,1)² with its exact error (and the sample one).
struct SecondMoment {
  double u, rho, pred, se_sample;
  MeanEstimate est;
};
SecondMoment second_moment(const LawRun& lr, const ScaleRun& run);

/// Every check of one law (checks.cpp): Σ̂'s bounds, the identities, then per (arm, scale)
/// the transport at each lag and the pathwise bounds.
void check_law(ExperimentContext& ctx, const LawRun& lr);

/// One law's params entry, findings and rows of data_scale.csv, data_contraction.csv and
/// data_second_moment.csv (tables.cpp).
void record_law(ExperimentContext& ctx, const LawRun& lr, CsvTable& scale_t, CsvTable& contr, CsvTable& second);

/// The figures (figures.cpp).
void figures(ExperimentContext& ctx, const CsvTable& contr, const Spectrum& spec, double s_mean, double s_div);
/// The one-step second moment along u_1 and ρ(A) against ηλ_max s², with each law's
/// mean-square threshold (figures.cpp).
void second_moment_figure(ExperimentContext& ctx, const std::vector<std::pair<std::string, double>>& thresholds);

}  // namespace akm::exp::t07
