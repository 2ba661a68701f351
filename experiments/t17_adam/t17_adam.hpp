// T17 Adam — the parts shared by t17_adam*.cpp: the design constants, the model (Σ, its
// rotation Σ' = RΣRᵀ with the same diagonal, the value streams), the probes, the observable
// layout, the Monte-Carlo run (model.cpp) and the figures.
#pragma once
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

#include "common.hpp"

namespace akm::exp::t17 {

constexpr int kN = 8, kM = 3;
// kBeta (common.hpp) is the AK decay β, in AdamW's β1 slot.
// η < 1+β: every factor βI − ηx̂x̂ᵀ has norm max(β, |β−η|) = 0.9 [thm:unconditional-stability],
// so the pushed probes are bounded and every Monte-Carlo mean has a finite variance.
constexpr double kEta = 0.8;
constexpr double kBeta2 = 0.99;    // tab:hps
constexpr double kTheta = std::numbers::pi / 3;
constexpr int kSteps = 400;        // v checkpoints up to here (~4 horizons of β2)
constexpr int kLags = 30;          // contraction recorded for lags 1..kLags
constexpr double kDepNoise = 0.5;  // σ of ξ in the dependent stream
constexpr double kDepScale = 0.3;  // A = 0.3·N(0,1) entries
inline const std::vector<int> kVCheckpoints{1, 20, kSteps};
inline const std::vector<int> kCheckLags{1, 2, 5, 10, 20};
inline const std::vector<double> kValueSd{1.0, 2.0, 0.5};  // sd of δ_i in the independent stream
// Eigenvalues on the Hadamard columns: block A (col0+col2 = col1+col3 = 6.1),
// block B (1.2 = 1.2), so Σ_01 = Σ_45 = 0 and the plane rotations keep diag(Σ).
inline const std::vector<double> kLambda{6.0, 4.0, 0.1, 2.1, 1.0, 0.7, 0.2, 0.5};

struct Model {
  Vec lambda, lambda_hat;
  Mat U, R, B;     // eigenvectors of Σ (columns), rotation, x = B z with B = U diag(√λ)
  Mat sigma, sigma_rot;
  Mat A;           // dependent stream δ = Ax + σξ
  Vec beta_tilde;  // β − ηλ̂_l, shared by Σ and Σ' (same spectrum)
  /// The predictions of v̂_ij [app:second-moment], one place for the check and the record.
  /// Independent streams: the factorization E[δ_i²]E[x_j²] (Σ' has the same diagonal as Σ).
  double v_factorized(int i, int j) const {
    const double s2 = std::pow(kValueSd[static_cast<std::size_t>(i)], 2);
    return s2 * sigma.diagonal()[j];
  }
  /// The dependent stream δ = Ax + σξ: the factorized value E[δ_i²]Σ_jj it is compared with,
  /// and Isserlis' exact E[δ_i²x_j²] = E[δ_i²]Σ_jj + 2E[δ_i x_j]².
  double v_dependent_factorized(int i, int j) const {
    const double e_d2 = (A * sigma * A.transpose())(i, i) + kDepNoise * kDepNoise;
    return e_d2 * sigma.diagonal()[j];
  }
  double v_dependent_isserlis(int i, int j) const {
    const double cross = (A * sigma)(i, j);  // E[δ_i x_j]
    return v_dependent_factorized(i, j) + 2.0 * cross * cross;
  }
  /// E[wᵀ(βI−ηΣ̂)^k w] for keys whose Σ̂ has eigenvectors = columns of V.
  double contraction(const Vec& w, const Mat& V, int k) const {
    double s = 0;
    for (int l = 0; l < kN; ++l) s += std::pow(w.dot(V.col(l)), 2) * std::pow(beta_tilde[l], k);
    return s;
  }
};

/// Σ on Hadamard blocks, the plane rotations R, the dependent stream's A (model.cpp).
Model make_model(std::uint64_t seed);

// Probes (unit rows) pushed through the factors βI − ηx̂x̂ᵀ: under Σ' the rotated eigenvectors,
// the old eigenvectors and the coordinate axes; under Σ the eigenvectors and the axes.
enum Probe { rot_eig = 0, old_eig = 1, axis = 2 };
constexpr int kRotProbes = 3 * kN, kBaseProbes = 2 * kN;

Mat rotated_probes(const Model& md);
Mat base_probes(const Model& md);
// The AK-AdamW buffer started at M_0 with rows w_rᵀ, run on Σ' keys.
Mat buffer_start(const Model& md);

struct Layout {
  static constexpr int kEntries = kM * kN;
  // v block: checkpoint c, stream s (0 Σ, 1 Σ'−Σ, 2 dependent), entry e = j·kM + i.
  static std::size_t v(std::size_t c, int s, int e) { return (c * 3 + s) * kEntries + e; }
  static std::size_t rot(int p, int lag) { return v(kVCheckpoints.size(), 0, 0) + static_cast<std::size_t>(p * kLags + lag - 1); }
  static std::size_t base(int p, int lag) { return rot(kRotProbes, 1) + static_cast<std::size_t>(p * kLags + lag - 1); }
  static std::size_t buffer(int r, std::size_t c) { return base(kBaseProbes, 1) + static_cast<std::size_t>(r) * kCheckLags.size() + c; }
  static std::size_t size() { return buffer(kM, 0); }
};

/// The Monte Carlo (model.cpp): three runs of ops::row_buffers on one seed, Σ's and Σ''s keys on
/// common random numbers; each trial's rows make its record in Layout.
McResult simulate(ExperimentContext& ctx, const Model& md, std::uint64_t seed, long long trials);

/// max |v_AK-AdamW − v_AdamW| after kSteps steps of one stream (Σ' keys, independent values):
/// the second moment is the same function of the same gradients, whatever the first moment.
double second_moment_gap(const Model& md, std::uint64_t seed);

/// Worst entry of a family of Monte-Carlo comparisons: the largest skew-corrected deviation
/// (include/akm/check/check.hpp; v̂ at t = 1 is δ_i²x_j², a product of χ² variables whose mean
/// over a thousand trials is still visibly skewed).
struct WorstZ {
  double z = -1, predicted = 0;
  double alternative = 0;  ///< the named alternative at the worst entry
  MeanEstimate e;
  void add(double pred, const MeanEstimate& m, double alt = 0.0) {
    // An entry with no spread (identical on every trial) counts only if it is off.
    const double zz = m.se > 0.0 ? std::abs(corrected_deviation(m.mean - pred, m.se, m))
                                 : (m.mean == pred ? 0.0 : HUGE_VAL);
    if (!(zz <= z)) z = zz, predicted = pred, e = m, alternative = alt;
  }
};

/// Names the alternative of a contraction check under Σ' = RΣRᵀ: the unrotated contraction
/// where the rotation changes the prediction, else (a probe R leaves alone) the EMA's β^k.
void against_rotation_or_ema(Checks& checks, double predicted, double unrotated, int k);

/// ∂/∂ln η, ln β, ln λ̂ of the contraction wᵀ(βI − ηΣ̂)^k w = Σ_l (wᵀv_l)² (β − ηλ̂_l)^k:
/// central differences of the same sum (experiments/sensitivity.hpp), λ̂ scaled together.
Checks& contraction_sensitivity(Checks& checks, const Model& md, const Vec& w, const Mat& V, int k);

/// The tables, params and the dependent-stream finding (tables.cpp).
void record(ExperimentContext& ctx, const Model& md, const Vec& mean, const Vec& se, long long R);

/// The figures (figures.cpp).
void figures(ExperimentContext& ctx, const Model& md, const Vec& mean, const Vec& se);

}  // namespace akm::exp::t17
