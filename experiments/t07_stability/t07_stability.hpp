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

double op_norm(const Mat& P);
/// The trials of one (law, arm, scale): M_0 = I, δ = 0, so the buffer is the product P_T.
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
// Exact standard errors of the normalized transport E[u_iᵀP_ku_i] over R trials (header):
// Var = (A^k)_ii − β̃_i^{2k}, A = β²I − 2βη diag(λ̂) + η²Q.
Vec exact_transport_se(const KeyLawMoments& m, double eta, int k, long long R);

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
  std::size_t si;  ///< index into scales(!raw)
  double s;
  std::string tag;
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
  double eta_raw = 0;
  std::vector<double> c;  ///< η_raw s² for L(s)
  std::vector<std::pair<double, double>> logdet;
  std::vector<ScaleRun> runs;
  double L_pred(std::size_t si) const;  ///< L(s) at raw scale si (T/n · ((n−1)log β + E log|…|))
  double L_se(std::size_t si) const;
};

/// One lag of one run: the predictions β̃_i^k with their delta-method errors, the estimates
/// (normalized: with the exact error, see the header of claim.cpp) and the eigenvalue used.
struct LagView {
  Vec lam_key, bt, p, pse;
  std::vector<MeanEstimate> est;
};
LagView lag_view(const LawRun& lr, const ScaleRun& run, std::size_t l, long long R);

/// Every check of one law (checks.cpp): Σ̂'s bounds, the identities, then per (arm, scale)
/// the transport at each lag and the pathwise bounds.
void check_law(ExperimentContext& ctx, const LawRun& lr, long long R);

/// One law's params entry, finding and rows of data_scale.csv / data_contraction.csv (tables.cpp).
void record_law(ExperimentContext& ctx, const LawRun& lr, long long R, CsvTable& scale_t, CsvTable& contr);

/// The figures (figures.cpp).
void figures(ExperimentContext& ctx, const CsvTable& contr, const Spectrum& spec, double s_mean, double s_div);

}  // namespace akm::exp::t07
