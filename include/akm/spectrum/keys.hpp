// keys — key laws: how a key x ∈ R^n is drawn, given the eigenvalues λ of a spectrum,
// parsed from a spec string; and the moments of its normalized key x̂ = x/‖x‖.
//
// Grammar (kind, then comma-separated keys):
//   gaussian                      x_i = √λ_i z_i,  z ~ N(0, I)
//   rademacher                    x_i = √λ_i ε_i,  ε_i = ±1 with probability 1/2 each
//   student:nu=3                  x_i = √λ_i √((ν−2)/ν) t_i,  t_i iid Student-t with ν degrees
//                                 of freedom; ν > 2 (finite variance: Var t_ν = ν/(ν−2))
//   mixture:weights=0.5/0.5,scales=1/100[,bases=identity/random]
//                                 component k (chosen with probability π_k = weights[k]) draws
//                                 x = s_k B_k (√λ ∘ z),  z ~ N(0, I): Gaussian components with
//                                 covariance s_k² B_k diag(λ) B_kᵀ. weights > 0 summing to 1,
//                                 scales > 0, one basis per component: identity | reverse
//                                 (coordinates in reverse order) | random (Haar, drawn from
//                                 the sampler's seed and k); default identity for all.
// Keys are drawn in the eigenbasis of the spectrum (docs/architecture.md, "Simulating in the eigenbasis").
// The first three laws have covariance E[xxᵀ] = diag(λ) exactly; a mixture has
// Σ_mix = Σ_k π_k s_k² B_k diag(λ) B_kᵀ.
//
// Normalized-key moments Σ̂ = E[x̂x̂ᵀ], K = E[‖x‖x̂x̂ᵀ] [prop:bounded-sigma-hat, tab:notation]:
//   gaussian    exact by quadrature (akm/spectrum/moments.hpp): diag(λ̂), diag(κ)
//   rademacher  exact in closed form: ‖x‖² = Σλ for every sample, so λ̂_i = λ_i/Σλ,
//               κ_i = λ_i/√Σλ
//   mixture     exact: x̂ is scale-free, so Σ̂ = Σ_k π_k B_k diag(λ̂) B_kᵀ and
//               K = Σ_k π_k s_k B_k diag(κ) B_kᵀ [app:multimodal]
//   student     no closed form: a large, separately seeded Monte Carlo whose standard error
//               is returned beside the estimate (docs/architecture.md, "Exact Gaussian-key moments")
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"

namespace akm {

/// A parsed key law (independent of the dimension; bind it to λ with KeySampler).
struct KeyLaw {
  std::string spec;  ///< normalized spec string
  std::string kind;  ///< gaussian | rademacher | student | mixture
  double nu = 0.0;   ///< student only
  std::vector<double> weights;  ///< mixture only: weights π_k
  std::vector<double> scales;  ///< mixture only: scales s_k
  std::vector<std::string> bases;       ///< mixture only: identity | reverse | random
};

/// Parses a key-law spec; throws InputError naming the key (keys.nu, keys.weights, …), the
/// offending value and the valid range.
KeyLaw parse_key_law(std::string_view spec);

/// A key law bound to eigenvalues λ (and, for random mixture bases, a seed).
/// Thread-safe: draw() is const and keeps no state.
class KeySampler {
 public:
  /// λ: n ≥ 1 finite values > 0 (InputError "keys.lambda" otherwise).
  KeySampler(KeyLaw law, const Vec& lambda, std::uint64_t basis_seed = 0);

  /// Dimension n.
  int n() const { return static_cast<int>(lambda_.size()); }
  /// The law.
  const KeyLaw& law() const { return law_; }
  /// Eigenvalues λ.
  const Vec& lambda() const { return lambda_; }
  /// Mixture components (1 for the other laws).
  int components() const { return static_cast<int>(bases_.size()); }
  /// B_k (n×n orthogonal; the identity for non-mixture laws).
  const Mat& basis(int k) const { return bases_.at(static_cast<std::size_t>(k)); }
  /// True when Σ, Σ̂ and K are diagonal in the drawing coordinates (every B_k a permutation).
  bool diagonal() const { return diagonal_; }
  /// E‖x‖⁴ < ∞ (false for Student-t with ν ≤ 4: raw-key Monte-Carlo variances are infinite).
  bool finite_fourth_moment() const { return law_.kind != "student" || law_.nu > 4.0; }

  /// Draws one key into x (size n). `work` (size n) is scratch, used only by rotated mixture
  /// components. Returns the mixture component drawn (0 for the other laws).
  int draw(Stream& s, Vec& x, Vec& work) const;

  /// Exact E[xxᵀ]: diag(λ), or Σ_k π_k s_k² B_k diag(λ) B_kᵀ for a mixture.
  Mat covariance() const;
  /// Exact E‖x‖⁴ (+inf for Student-t with ν ≤ 4).
  double fourth_moment_norm() const;

 private:
  KeyLaw law_;
  Vec lambda_, sqrt_lambda_;
  std::vector<Mat> bases_;
  std::vector<int> basis_kind_;  // 0 identity, 1 reverse, 2 dense
  std::vector<double> cumulative_;
  double student_factor_ = 1.0;  // √((ν−2)/ν)
  bool diagonal_ = true;
};

/// Σ̂ = E[x̂x̂ᵀ] and K = E[‖x‖x̂x̂ᵀ] in the drawing coordinates, with entrywise standard
/// errors (zero when exact); on request, for diagonal laws, the fourth moments
/// Q_ij = E[x̂_i²x̂_j²] that set the variance of the normalized buffer (E1's second-moment map).
struct KeyLawMoments {
  Mat sigma_hat;  ///< Σ̂ = E[x̂x̂ᵀ]
  Mat sigma_hat_se;  ///< entrywise standard errors of Σ̂ (zero when exact)
  Mat K;  ///< K = E[‖x‖x̂x̂ᵀ]
  Mat K_se;  ///< entrywise standard errors of K (zero when exact)
  Mat fourth;  ///< Q_ij = E[x̂_i²x̂_j²]; empty unless requested
  Mat fourth_se;  ///< standard errors of Q
  bool exact = false;  ///< the moments are exact (quadrature or closed form)
  std::string method;      ///< "quadrature" | "closed form" | "monte carlo"
  long long samples = 0;   ///< Monte-Carlo samples (0 when exact)
  /// λ̂_i, the diagonal of Σ̂.
  Vec lambda_hat() const { return sigma_hat.diagonal(); }
  /// Standard errors of λ̂_i.
  Vec lambda_hat_se() const { return sigma_hat_se.diagonal(); }
  /// κ_i, the diagonal of K.
  Vec kappa() const { return K.diagonal(); }
  /// Standard errors of κ_i.
  Vec kappa_se() const { return K_se.diagonal(); }
};

/// Keys drawn per batch by the Monte-Carlo moment estimates.
inline constexpr long long kKeyBatch = 64;

/// Exact Gaussian-component moments of a mixture or Gaussian law, or the closed form of
/// Rademacher; throws std::logic_error for Student-t (no closed form), and for Q of a
/// mixture with a rotated (random) component (Q would need the full fourth-moment tensor).
/// Rademacher: Q_ij = λ_iλ_j/(Σλ)²; Gaussian: the quadrature of akm/spectrum/moments.hpp; a
/// permutation mixture: Σ_k π_k Π_k Q Π_kᵀ.
KeyLawMoments exact_key_moments(const KeySampler& law, bool with_fourth = false);

}  // namespace akm
