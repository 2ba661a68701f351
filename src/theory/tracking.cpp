// tracking — closed forms of thm:tracking across a distribution shift.
#include "akm/theory/tracking.hpp"

#include <algorithm>
#include <cmath>

#include "akm/theory/theory.hpp"

namespace akm::theory {

namespace {
/// Q diag(d) Qᵀ: a diagonal of Σ_0's basis in Σ_1's coordinates.
Mat rotate(const Mat& Q, const Vec& d) { return Q * d.asDiagonal() * Q.transpose(); }
}  // namespace

TrackingPrediction tracking_prediction(const TrackingShift& s, BufferKind rule, double eta) {
  const int n = static_cast<int>(s.lambda1.size());
  const Vec& l0 = s.lambda0;
  const Vec& lh0 = s.lambda_hat0;
  const Vec& k0 = s.kappa0;
  const Vec& l1 = s.lambda1;
  const Vec& lh1 = s.lambda_hat1;
  const Vec& k1 = s.kappa1;
  const double beta = s.beta;
  const Vec& a0 = s.a0;
  const Vec& a1 = s.a1;
  const bool raw = rule == BufferKind::ak_raw, norm = rule == BufferKind::ak_normalized;
  const Mat S0 = rotate(s.Q, l0), Sh0 = rotate(s.Q, lh0), K0 = rotate(s.Q, k0);
  const double mu = theory::mu(beta, eta);
  TrackingPrediction p;
  p.m_t0 = p.mstar1 = p.y0 = p.rate = p.scale = Vec::Zero(n);

  // Pre-shift mean in Σ_0's eigenbasis, per eigen-direction v_j = Q e_j:
  //   raw  E[M_t]v_j = A_0 v_j λ⁰_j φ(λ⁰_j)(1 − (β−ηλ⁰_j)^t)     [thm:fixedpoint]
  //   norm E[M_t]v_j = A_0 v_j κ⁰_j φ(λ̂⁰_j)(1 − (β−ηλ̂⁰_j)^t)    [cor:fixedpoint-normalized]
  //   EMA  E[M_t]v_j = A_0 v_j λ⁰_j (1 − β^t)                     [eq:ema-update]
  Vec d0(n);
  for (int j = 0; j < n; ++j) {
    if (raw)
      d0[j] = transient_mean(l0[j] * phi(mu, l0[j]), beta_tilde(beta, eta, l0[j]), s.t0);
    else if (norm)
      d0[j] = transient_mean(k0[j] * phi(mu, lh0[j]), beta_tilde(beta, eta, lh0[j]), s.t0);
    else
      d0[j] = transient_mean(l0[j], beta, s.t0);
  }
  const Vec m0 = rotate(s.Q, d0) * a0;  // (A_0 Q diag(d0) Qᵀ)ᵀ; rotate() is symmetric
  p.m_t0 = m0;
  for (int i = 0; i < n; ++i) {
    // New target along u_i [eq:dm-eigen].
    const double target = raw    ? a1[i] * l1[i] * phi(mu, l1[i])
                          : norm ? a1[i] * k1[i] * phi(mu, lh1[i])
                                 : a1[i] * l1[i];
    p.mstar1[i] = target;
    p.y0[i] = m0[i] - target;
    p.rate[i] = raw    ? beta_tilde(beta, eta, l1[i])
                : norm ? beta_tilde(beta, eta, lh1[i])
                       : beta;  // [eq:tracking-ema]
  }

  // Noise scale. EMA: exact — M_t is a sum of independent terms (1−β)β^{t−s}δ_s x_sᵀ and
  // Var(δx_i) = (aᵀΣa + σ²)Σ_ii + (Σa)_i² for Gaussian x; the larger of the pre-shift value
  // at t0 and the post-shift stationary value. AK: additive forcing, residual evaluated
  // exactly at M = E[M_{t0}] under both laws (the residual right at the shift, where it is
  // largest), the larger of the two.
  const Vec S0a = S0 * a0;
  const double sig2 = s.noise_sigma * s.noise_sigma;
  for (int i = 0; i < n; ++i) {
    double v_pre = 0, v_post = 0;
    if (rule == BufferKind::ema) {
      const double f = (1 - beta) * (1 - beta) / (1 - beta * beta);
      v_pre = f * (1 - std::pow(beta, 2 * s.t0)) *
              ((a0.dot(S0a) + sig2) * S0(i, i) + S0a[i] * S0a[i]);
      const double s1a = l1[i] * a1[i];
      v_post = f * ((a1.cwiseProduct(a1).dot(l1) + sig2) * l1[i] + s1a * s1a);
    } else {
      const Vec e0 = a0 - m0, e1 = a1 - m0;
      // raw: E(δ − Mx)² = (A−M)Σ(A−M)ᵀ + σ²; normalized: AΣAᵀ − 2AKMᵀ + MΣ̂Mᵀ + σ².
      const double r2_pre = raw ? e0.dot(S0 * e0) + sig2
                                : a0.dot(S0a) - 2 * a0.dot(K0 * m0) + m0.dot(Sh0 * m0) + sig2;
      const double r2_post = raw ? e1.cwiseProduct(e1).dot(l1) + sig2
                                 : a1.cwiseProduct(a1).dot(l1) - 2 * a1.cwiseProduct(k1).dot(m0) +
                                       m0.cwiseProduct(m0).dot(lh1) + sig2;
      const double kk_pre = raw ? S0(i, i) : Sh0(i, i);
      const double kk_post = raw ? l1[i] : lh1[i];
      const double b_pre = beta - eta * kk_pre, b_post = beta - eta * kk_post;
      v_pre = eta * eta * r2_pre * kk_pre / (1 - b_pre * b_pre);
      v_post = eta * eta * r2_post * kk_post / (1 - b_post * b_post);
    }
    p.scale[i] = std::sqrt(std::max(v_pre, v_post));
  }
  return p;
}

}  // namespace akm::theory
