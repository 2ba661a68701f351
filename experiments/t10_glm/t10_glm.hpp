// T10 glm — what the three parts share: the constants of the design, the teacher's scaling
// and the 2×2 rate ρ(A_i) (the claim and its parts are stated in claim.cpp).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/rules/kernels.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/sim/glm_moments.hpp"
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


/// Part A [app:glm]: E[M_t] at a fixed w and after a switch of w, against the closed forms;
/// returns the full K at the generic w* it used.
void buffer_alone(ExperimentContext& ctx, const Setting& s, const Vec& lh, Mat& k_generic);
/// Part B [app:glm, lem:loss-free-det]: the local rate ρ(A_i) at w* on u_1 from antithetic
/// pairs (soft labels checked, Bernoulli labels reported); returns K there.
void local_rates(ExperimentContext& ctx, const Setting& s, const Vec& lh, nlohmann::json& findings,
                 Mat& k_eig);
/// Part B's figures (local_rates_figures.cpp).
void local_rates_figures(ExperimentContext& ctx, const std::vector<Arm>& arms, const std::vector<int>& shown);
/// Part C: K's distance from commuting with Σ̂ at a generic w*, and det of the joint map.
void generic_w_star(ExperimentContext& ctx, const Vec& lh, const Mat& k_gen, const Mat& k_eig,
                    nlohmann::json& findings);

}  // namespace akm::exp::t10
