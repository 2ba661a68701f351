// T2 targets — what its parts share: the design constants, the dense setting and the part
// entry points (the claims and their order: claim.cpp).
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

/// Refuses a Monte Carlo whose trial variance grows without bound (E1's radius ≥ 1).
double require_mean_square_stable(const Vec& lambda, double beta, double eta,
                                  const std::string& what);
/// The dense setting from the seed, its params, and one sample (X, D) of size X.cols().
Dense make_dense(std::uint64_t seed);
nlohmann::json dense_params(const Dense& d);
void draw_sample(const Dense& d, Stream& keys, Stream& noise, Mat& X, Mat& D);
/// [app:updates-as-sgd]: EMA → Ḡ and pure delta → ḠΣ^{-1}, exact means at every step.
void online_rules(ExperimentContext& ctx, const Setting& s);
/// [app:divergent-optima]: the two sample minimizers, exactly and in expectation.
void least_squares(ExperimentContext& ctx, const Dense& d);
/// Uniform multiples of the Wiener target iff Σ = cI.
void uniform_multiples(ExperimentContext& ctx);
/// [tab:targets]: φ_i → 1/λ_i as μ → 0 and φ_i/φ_j → 1 as μ → ∞.
void mu_limits(ExperimentContext& ctx, const Vec& lambda);
/// [rem:kfac]: the pure delta rule reaches the K-FAC input-side factor ḠΣ^{-1}.
void kfac(ExperimentContext& ctx, const Dense& d);
/// [rem:kfac]: E[δδᵀ]·F^{-1}Ḡ with F = E[δδᵀ] ⊗ Σ built as a Kronecker product (= ḠΣ^{-1}).
Mat kfac_input_factor(const Dense& d);
/// [rem:kfac-app, rem:normalized-key]: the ridge μ's interpolation toward the K-FAC factor,
/// and the raw and normalized keys side by side (normalized_key.cpp).
void kfac_app(ExperimentContext& ctx, const Dense& d);
/// Normalized-key moments of the dense Gaussian law in its basis: Σ̂ = E[x̂x̂ᵀ] and
/// K̂ = E[‖x‖x̂x̂ᵀ] (so Ĝ = AK̂), exact from the Gaussian-key quadrature.
struct DenseNormalized {
  KeyMoments km;
  Mat sigma_hat, k_hat;
};
DenseNormalized dense_normalized(const Dense& d);
void normalized_key(ExperimentContext& ctx, const Dense& d);

}  // namespace akm::exp::t02
