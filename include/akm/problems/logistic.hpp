// logistic — the logistic teacher problem of [app:glm] and [prop:first-order-optimal].
//
// A canonical GLM with inverse link σ: keys x ~ N(0, Σ) drawn in the eigenbasis of Σ
// (x_i = √λ_i z_i), labels y ~ Bernoulli(σ(w*ᵀx)), per-sample value δ = σ(wᵀx) − y, so the
// per-sample gradient (σ(wᵀx) − y)xᵀ has the key–value form the AK buffer is built on. This
// layer holds the pieces the GLM experiments need and nothing else:
//  * stable scalar functions (σ and its derivatives, softplus φ, and two difference forms
//    that keep full relative precision where a plain subtraction cancels);
//  * the teacher (sampling) and a fixed finite data set with exact L, Ḡ, H and the third
//    directional derivative [eq:taylor];
//  * Monte-Carlo estimates, with standard errors, of Ĝ(w) = E[δx̂], Σ̂ = E[x̂x̂ᵀ] and
//    K = E[σ'(w*ᵀx)‖x‖x̂x̂ᵀ] [app:glm];
//  * an antithetic pair of AK-SGD runs from w* ± εv that share keys and labels, carried as
//    midpoint and half-difference (the reference is two plain runs; tests hold them together).
#pragma once
#include <cstdint>

#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"

namespace akm::logistic {

// ------------------------------------------------------------------ scalar functions

/// σ(z) = 1/(1+e^{−z}), no overflow for any z.
double sigmoid(double z);
/// σ'(z) = σ(z)(1−σ(z)).
double sigmoid_d1(double z);
/// σ''(z) = σ'(z)(1−2σ(z)).
double sigmoid_d2(double z);
/// σ'''(z) = σ'(z)(1−6σ'(z)).
double sigmoid_d3(double z);
/// φ(z) = log(1+e^z) (softplus), φ' = σ: the per-sample logistic loss is φ(wᵀx) − y wᵀx.
double softplus(double z);
/// (σ(a+d) − σ(a−d))/2 = sinh d / (2(cosh a + cosh d)): relative precision for any d,
/// where the plain difference loses log10(1/|d|) digits.
double sigmoid_half_difference(double a, double d);
/// φ(z−h) − φ(z) = −log1p(σ(z−h)·expm1(h)): relative precision for any h.
double softplus_change(double z, double h);

/// Suprema used by the experiments' deterministic bounds: sup σ' = 1/4 (at 0),
/// sup|σ''| = 1/(6√3) (at z = ±log(2+√3)), sup|σ'''| = 1/8 (at 0).
inline constexpr double kSupD1 = 0.25;
inline constexpr double kSupD2 = 0.096225044864937627;  ///< sup|σ''| = 1/(6√3)
inline constexpr double kSupD3 = 0.125;  ///< sup|σ'''| = 1/8

// ------------------------------------------------------------------ the teacher

/// Logistic teacher in the eigenbasis of Σ = diag(λ) [app:glm].
class Teacher {
 public:
  /// λ_i > 0 and finite, w* finite and of the same size; else InputError.
  Teacher(const Vec& lambda, const Vec& w_star);
  /// Dimension n.
  int n() const { return static_cast<int>(lambda_.size()); }
  /// Eigenvalues λ_i of Σ.
  const Vec& lambda() const { return lambda_; }
  /// √λ_i.
  const Vec& sqrt_lambda() const { return sqrt_lambda_; }
  /// The teacher's weights w*.
  const Vec& w_star() const { return w_star_; }
  /// x_i = √λ_i z_i, z ~ N(0, I).
  void key(Stream& s, Vec& x) const;
  /// P(y = 1 | x) = σ(w*ᵀx).
  double p(ConstVecRef x) const;
  /// y ~ Bernoulli(σ(w*ᵀx)) from one uniform of `s`.
  double label(Stream& s, ConstVecRef x) const;

 private:
  Vec lambda_, sqrt_lambda_, w_star_;
};

/// δ = σ(wᵀx) − y: the scalar value of the per-sample gradient (σ(wᵀx) − y)xᵀ.
double residual(ConstVecRef w, ConstVecRef x, double y);

// ------------------------------------------------------------------ a finite data set

/// A fixed data set: rows of X are keys, y their labels. On it L, Ḡ and H are exact
/// [prop:first-order-optimal].
struct DataSet {
  Mat X;  ///< keys, one per row
  Vec y;  ///< labels in {0, 1}
  /// Number of samples N.
  long long size() const { return static_cast<long long>(X.rows()); }
};

/// `size` ≥ 1 samples from the teacher (keys from Purpose::data, labels from Purpose::noise).
DataSet sample_data(const Teacher& teacher, long long size, std::uint64_t seed);

/// L(w) = (1/N) Σ_k φ(wᵀx_k) − y_k wᵀx_k.
double loss(const DataSet& data, ConstVecRef w);
/// Ḡ = ∇L = (1/N) Σ_k (σ(wᵀx_k) − y_k) x_k.
Vec gradient(const DataSet& data, ConstVecRef w);
/// H = ∇²L = (1/N) Σ_k σ'(wᵀx_k) x_k x_kᵀ.
Mat hessian(const DataSet& data, ConstVecRef w);
/// D³L(w)[m,m,m] = (1/N) Σ_k σ''(wᵀx_k)(mᵀx_k)³.
double third_derivative(const DataSet& data, ConstVecRef w, ConstVecRef m);
/// L(w − αm) − L(w), summed per sample from softplus_change (relative precision: no
/// cancellation against L itself, which the plain difference of two losses suffers).
double loss_change(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha);
/// The Taylor residual of [eq:taylor] along m:
///   r(α) = L(w − αm) − [L(w) − α⟨m,Ḡ⟩ + (α²/2) mᵀHm]
///        = (1/N) Σ_k φ(z_k − αd_k) − φ(z_k) + αd_kσ(z_k) − (α²/2)d_k²σ'(z_k),
/// z = wᵀx, d = mᵀx (the label terms are linear in w and cancel exactly).
double taylor_residual(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha);
/// A bound on the floating-point error of taylor_residual: c·u·(1/N)Σ_k (|φ(z−αd) − φ(z)| +
/// |αdσ| + (α²/2)d²σ') with u = 2^-53 and c = 16 (each of the four per-sample terms is a
/// few correctly rounded operations plus log1p/expm1/exp within 1 ulp, and the compensated
/// sum adds one more u).
double taylor_residual_rounding(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha);
/// Same for L(w − αm) − L(w) computed as a plain difference of two losses (the rounding
/// floor the stable form avoids): c·u·(1/N)Σ_k (|φ(z−αd)| + |φ(z)| + |y|(|z|+|αd|)).
double naive_difference_rounding(const DataSet& data, ConstVecRef w, ConstVecRef m, double alpha);

// ------------------------------------------------------------------ antithetic AK-SGD

/// Two AK-SGD runs with the normalized key and m = 1 [eq:dm-norm-update, sec:methodology],
/// started at c ± v with zero buffers, that see the same keys and labels. They are carried
/// as midpoint (w̄, M̄) and half-difference (Δw, ΔM): the AK rule is linear in (M, δ), so
///   M̄  ← βM̄  + η(δ̄ − M̄x̂)x̂ᵀ,   δ̄  = (σ(a+d) + σ(a−d))/2 − y,
///   ΔM ← βΔM + η(Δδ − ΔMx̂)x̂ᵀ,  Δδ = (σ(a+d) − σ(a−d))/2 (the label cancels),
/// a = w̄ᵀx, d = Δwᵀx, then w̄ ← w̄ − αM̄, Δw ← Δw − αΔM. Δw keeps full relative precision
/// however small it gets, where w⁺ − w⁻ from two runs would be swamped by rounding.
class AkSgdPair {
 public:
  /// Both runs started at center ± offset with zero buffers, rate α, decay β, AK step η.
  AkSgdPair(ConstVecRef center, ConstVecRef offset, double alpha, double beta, double eta);
  /// What one step saw: a = w̄ᵀx, d = Δwᵀx, Δδ.
  struct StepInfo {
    double a;  ///< a = w̄ᵀx
    double d;  ///< d = Δwᵀx
    double delta_half;  ///< Δδ = (σ(a+d) − σ(a−d))/2
  };
  /// One step on key x (normalized inside) with label y.
  StepInfo step(ConstVecRef x, double y);
  /// Midpoint w̄ of the two weight vectors.
  const Vec& w_mid() const { return w_mid_; }
  /// Half-difference Δw.
  const Vec& w_half() const { return w_half_; }
  /// Midpoint M̄ of the two buffers.
  const Vec& m_mid() const { return m_mid_; }
  /// Half-difference ΔM.
  const Vec& m_half() const { return m_half_; }
  /// w⁺ = w̄ + Δw.
  Vec w_plus() const { return w_mid_ + w_half_; }
  /// w⁻ = w̄ − Δw.
  Vec w_minus() const { return w_mid_ - w_half_; }

 private:
  double alpha_, beta_, eta_;
  Vec w_mid_, w_half_, m_mid_, m_half_, xh_;
};

}  // namespace akm::logistic
