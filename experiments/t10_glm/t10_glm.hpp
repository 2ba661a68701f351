// T10 glm — what the three parts share: the constants of the design, the teacher's scaling,
// the 2×2 rate ρ(A_i), and each part's measurement with its passes (the claim and its parts
// are stated in claim.cpp).
#pragma once
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "akm/check/pooled.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/sim/glm_moments.hpp"
#include "akm/sim/ops/glm_pair.hpp"
#include "akm/sim/fitted_map.hpp"
#include "common.hpp"
#include "sensitivity.hpp"

namespace akm::exp::t10 {

namespace lg = akm::logistic;


constexpr double kEta = 0.5;
constexpr double kMargin = 2.0;        // sd of w*ᵀx
constexpr double kSwitchMargin = 1.5;  // sd of w_1ᵀx (part A)
constexpr int kT0 = 60, kPost = 60;    // part A: steps at w_0 = 0, then at w_1
inline const std::vector<int> kCheckpoints{5, 20, kT0, kT0 + 1, kT0 + 5, kT0 + 20, kT0 + kPost};
// The pooled recovery's denominator for the shown directions: E[M_t u_i] averaged over the
// last kPlateau steps before the switch (pooled.cpp).
constexpr int kPlateau = 30;
constexpr double kEps = 1e-3;          // part B: offset, in units of the sd of vᵀx
constexpr double kRemainderDeclared = 1e-4;
// Trial groups of the jackknife: its standard error has groups − 1 degrees of freedom and
// the checks run at z ≈ 6 (Bonferroni); with 100 groups the t_99 tail there is ≈ 3e-8.
constexpr int kGroups = 100;

struct Arm {
  std::string name;
  bool soft;      // y = σ(w*ᵀx) instead of a Bernoulli draw
  double gamma0;  // α·c_1
  int steps;
  long long trials;
  bool checked;
};

/// Scales `dir` so that the sd of vᵀx under Σ = diag(λ) is `margin`.
inline Vec with_margin(const Vec& dir, const Vec& lambda, double margin) {
  return dir * (margin / std::sqrt(dir.cwiseProduct(dir).dot(lambda)));
}

inline Vec gaussian_vector(int n, std::uint64_t seed) {
  Stream s(seed, 0, Purpose::init);
  Vec v(n);
  for (int i = 0; i < n; ++i) v[i] = s.normal();
  return v;
}

inline double rho_of(double alpha, double k, double bt) {
  return theory::spectral_radius(theory::iter_matrix_ak(alpha, kEta * k, bt));
}

// |∂ρ/∂k| by a central difference (ρ is smooth away from the band edges; inside the band it
// is √β̃, flat in k).
inline double drho_dk(double alpha, double k, double bt) {
  const double h = 1e-6 * k;
  return std::abs(rho_of(alpha, k + h, bt) - rho_of(alpha, k - h, bt)) / (2 * h);
}


// Each part is three passes, called from claim.cpp's sections in the order the checks are
// recorded: measure (its moment estimates and Monte Carlo), check, record.

/// Part A [app:glm]: E[M_t] at a fixed w and after a switch of w, against the closed forms
/// (buffer.cpp).
struct BufferRun {
  Vec ws, w0, w1;            // the generic w*, the two fixed w
  lg::GlmMoments m0, m1;     // at w0 (with the full K at this w*) and at w1, independent samples
  std::vector<int> shown;    // the directions whose whole trajectory is recorded
  long long trials;
  McResult res;
  /// E[M_t u_i] and its standard error (Ĝ_0, Ĝ_1 are independent estimates), as a closed
  /// form of (η, β, λ̂_i) at fixed Ĝ, for the alternative and the sensitivities.
  std::pair<double, double> predict_at(double eta, double beta, double lam, int i, int t) const;
};
BufferRun measure_buffer(ExperimentContext& ctx, const Setting& s);
void check_buffer(ExperimentContext& ctx, const Vec& lh, const BufferRun& run);
void record_buffer(ExperimentContext& ctx, const Vec& lh, const BufferRun& run);

/// One direction of one part-B arm: the predicted map A_i (with β̃_i, ρ(A_i), its standard
/// error from K's, whether α·c_i is in the underdamped band) and the jackknifed fitted rate.
struct DirRate {
  Mat2 A;
  double bt, rho, sp;
  bool under;
  double fit, fse;
};
/// One part-B arm: its step, its op (ops::glm_pair, whose index functions read its
/// observables), Monte Carlo, remainder ratio q, midpoint spread, rates.
struct ArmResult {
  Arm arm;
  double alpha;
  ops::GlmPair pair;
  McResult res;
  double q, spread;
  std::vector<DirRate> dirs;
};
/// Part B [app:glm, lem:loss-free-det]: the local rate ρ(A_i) at w* on u_1 from antithetic
/// pairs (soft labels checked, Bernoulli labels reported) (local_rates.cpp).
struct LocalRates {
  Vec ws, v;                // w* on u_1; the offset direction (ε v the offset)
  lg::GlmMoments mo;        // at w*, K full
  Vec k, k_se;              // diag K and its standard errors
  std::vector<int> shown;
  std::vector<ArmResult> arms;
};
LocalRates measure_local_rates(ExperimentContext& ctx, const Setting& s, const Vec& lh);
void check_local_rates(ExperimentContext& ctx, const Vec& lh, const LocalRates& lr);
/// Part B's tables, findings, params and figures (local_rates_record.cpp).
void record_local_rates(ExperimentContext& ctx, const Vec& lh, const LocalRates& lr, nlohmann::json& findings);

/// Part A's observables free of the estimated Ĝ, added to the claim's pooled recovery (pooled.cpp).
void add_pooled_buffer(PooledRecovery& pooled, const Vec& lh, const BufferRun& buffer);
/// Part B's observables free of the estimated K, added to the claim's pooled recovery (pooled.cpp).
void add_pooled_local_rates(PooledRecovery& pooled, const Vec& lh, const LocalRates& local);

/// Part C: K's distance from commuting with Σ̂ at a generic w* (and at w* on u_1, whose exact
/// value 0 shows the Monte-Carlo floor), and det of the joint map (generic.cpp).
struct Commutation {
  double commutator, off_block, off_diagonal, det_joint, det_pred, rho_joint, rho_blocks;
};
struct GenericRun {
  double alpha;  // the checked soft arm's step
  Commutation on_u1, generic;
};
GenericRun measure_generic(const Vec& lh, const Mat& k_gen, const Mat& k_eig);
void check_generic(ExperimentContext& ctx, const GenericRun& run);
void record_generic(ExperimentContext& ctx, const Vec& lh, const Mat& k_gen, const GenericRun& run,
                    nlohmann::json& findings);

}  // namespace akm::exp::t10
