// kernels — allocation-free per-trial steps used inside Monte-Carlo trials.
//
// Same arithmetic as the reference rules in akm/rules/rules.hpp (tests hold them together), but
// written against caller-owned scratch so a trial allocates nothing per step. Keys are
// drawn in the eigenbasis of Σ: x_i = √λ_i z_i, O(n) per key (docs/architecture.md,
// "Simulating in the eigenbasis").
#pragma once
#include <cmath>

#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"
#include "akm/base/key.hpp"

namespace akm::kern {

/// x_i = √λ_i z_i with z ~ N(0, I).
inline void gaussian_key(Stream& s, const Vec& sqrt_lambda, Vec& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = sqrt_lambda[i] * s.normal();
}

/// The key the AK buffer sees: x itself (raw) or x̂ = x/‖x‖ (normalized).
inline void key_for(Key key, const Vec& x, Vec& k) {
  if (key == Key::raw) {
    k = x;
  } else {
    k = x / x.norm();
  }
}

/// AK step with an already-formed key k: M ← βM + η(δ − Mk)kᵀ [eq:dm-update].
/// `r` is scratch of size m.
inline void ak_step(Mat& M, const Vec& delta, const Vec& k, double beta, double eta, Vec& r) {
  r.noalias() = M * k;
  r = eta * (delta - r);
  M *= beta;
  M.noalias() += r * k.transpose();
}

/// EMA step M ← βM + (1−β)δxᵀ [eq:ema-update].
inline void ema_step(Mat& M, const Vec& delta, const Vec& x, double beta) {
  M *= beta;
  M.noalias() += ((1.0 - beta) * delta) * x.transpose();
}

/// Row push through the transport factor: v ← v(βI − ηkkᵀ) for every row of P
/// [eq:transport-expansion]. `r` is scratch of size rows(P).
inline void transport_step(Mat& P, const Vec& k, double beta, double eta, Vec& r) {
  r.noalias() = P * k;
  P *= beta;
  P.noalias() -= (eta * r) * k.transpose();
}

}  // namespace akm::kern
