// rules — the momentum buffers of the paper, per sample and in the deployed batch form.
//
// Plain Eigen implementations: these are the reference the Monte-Carlo engine's inlined
// eigenbasis kernels are tested against.
#pragma once
#include "akm/base/linalg.hpp"
#include "akm/base/key.hpp"

namespace akm::rules {

/// EMA  M ← βM + (1−β) δxᵀ  [eq:ema-update].
void ema(Mat& M, ConstVecRef delta, ConstVecRef x, double beta);
/// AK raw key  M ← βM + η(δ − Mx)xᵀ  [eq:dm-update].
void ak_raw(Mat& M, ConstVecRef delta, ConstVecRef x, double beta, double eta);
/// AK normalized key  M ← βM + η(δ − Mx̂)x̂ᵀ, x̂ = x/‖x‖  [eq:dm-norm-update].
void ak_normalized(Mat& M, ConstVecRef delta, ConstVecRef x, double beta, double eta);
/// Pure delta rule (β = 1)  M ← M + η(δ − Mx)xᵀ  [eq:delta-rule].
void pure_delta(Mat& M, ConstVecRef delta, ConstVecRef x, double eta);
/// Hebbian  M ← M + δxᵀ (contrast only).
void hebbian(Mat& M, ConstVecRef delta, ConstVecRef x);
/// AK with either key.
void ak(Mat& M, ConstVecRef delta, ConstVecRef x, double beta, double eta, Key key);

/// Contraction order of the deployed correction M Σ̂_B [eq:dispatch].
enum class Order { gram, through_n };
/// Gram order (form Σ̂_B = X̂ᵀX̂/N first) is cheaper iff n < 2m [eq:dispatch].
Order dispatch(int n, int m);
/// Deployed batch form  M ← βM + η(G − MΣ̂_B), G = ΔᵀX̂/N, Σ̂_B = X̂ᵀX̂/N [eq:deployed].
/// Delta is N×m (rows δ), Xhat is N×n (rows x̂, already normalized), M is m×n.
void deployed(Mat& M, ConstMatRef Delta, ConstMatRef Xhat, double beta, double eta,
              Order order);
/// Row-normalizes X (each row divided by its norm) [lem:norm-cost].
Mat normalize_rows(ConstMatRef X);

}  // namespace akm::rules

namespace akm {

/// AK-SGD: buffer M by the AK rule, then θ ← θ − αM [sec:methodology].
struct AkSgd {
  double alpha;  ///< learning rate α
  double beta;  ///< decay β
  double eta;  ///< AK step η
  Key key;  ///< raw or normalized key
  Mat M;  ///< the buffer (m×n)
  /// Zero buffer of an m×n parameter matrix.
  AkSgd(int m, int n, double alpha, double beta, double eta, Key key);
  /// One step on the parameter matrix W from the per-sample factors (δ, x).
  void step(Mat& W, ConstVecRef delta, ConstVecRef x);
};

/// SGD-m with the EMA buffer M ← βM + (1−β)δxᵀ, θ ← θ − αM.
struct SgdEma {
  double alpha;  ///< learning rate α
  double beta;  ///< decay β
  Mat M;  ///< the buffer (m×n)
  /// Zero buffer of an m×n parameter matrix.
  SgdEma(int m, int n, double alpha, double beta);
  /// One step on the parameter matrix W from the per-sample factors (δ, x).
  void step(Mat& W, ConstVecRef delta, ConstVecRef x);
};

}  // namespace akm
