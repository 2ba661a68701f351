// optimizers — AdamW and AK-AdamW on one parameter matrix W (m×n) of a linear layer y = Wx.
//
// AK-AdamW is AdamW with its first-moment EMA replaced by the normalized-key AK buffer;
// the second moment, bias correction and decoupled weight decay are unchanged
// [sec:methodology "Modular instantiations", app:deployed, app:second-moment]:
//
//   AdamW     m ← β1 m + (1−β1) g                      (EMA of the weight gradient)
//   AK-AdamW  M ← β1 M + η(δ − M x̂) x̂ᵀ  per sample   [eq:dm-norm-update]
//             M ← β1 M + η(G − M Σ̂_B)     batch, G = ΔᵀX̂/N, Σ̂_B = X̂ᵀX̂/N   [eq:deployed]
//   both      v ← β2 v + (1−β2) g⊙g, g the ordinary weight gradient δxᵀ or ΔᵀX/N (raw keys)
//             m̂ = m/(1−β1^t), v̂ = v/(1−β2^t)
//             W ← W − lr·(m̂ ⊘ (√v̂ + ε) + wd·W)
//
// Bias correction of the AK buffer — our reading. The paper says the bias correction is
// "unchanged" and writes the update as M̂_t ⊘ (√v̂_t + ε) [sec:methodology, app:deployed];
// tab:hps lists AK-AdamW's β1 (= 0.99) beside η (= 0.37), so the buffer's decay β is the
// β1 of AdamW. We therefore divide the AK buffer by exactly AdamW's factor 1 − β1^t, with
// β1 = β. This is the literal "unchanged" correction, not an exact debiasing of the AK
// buffer: from M_0 = 0 the AK mean approaches its fixed point as 1 − β̃_i^t per direction
// (β̃_i = β − ηλ̂_i, [thm:fixedpoint transient]), a direction-dependent factor no scalar can
// remove, and its fixed point ηĜ((1−β)I+ηΣ̂)^{-1} is not Ĝ. Both differences are overall
// scale; the first fades as β^t → 0 and the second is absorbed by the learning rate
// ("The one place they overlap", app:second-moment). The second moment v is taken on the
// ordinary (raw-key) weight gradient in both optimizers (app:deployed), so on the same
// stream AdamW and AK-AdamW hold the identical v.
#pragma once
#include "akm/base/linalg.hpp"
#include "akm/rules/bias_factor.hpp"
#include "akm/rules/rules.hpp"

namespace akm {

/// Hyper-parameters shared by AdamW and AK-AdamW (names as in tab:hps).
struct AdamWParams {
  double lr = 1e-3;           ///< base learning rate, > 0
  double beta1 = 0.9;         ///< first-moment decay in [0,1): EMA β1, or the AK decay β
  double beta2 = 0.999;       ///< second-moment decay in [0,1)
  double eps = 1e-8;          ///< ε added to √v̂, > 0
  double weight_decay = 0.0;  ///< decoupled weight decay wd ≥ 0
};

/// Throws InputError naming the first invalid field (lr, beta1, beta2, eps, weight_decay).
void validate(const AdamWParams& p);

namespace adamw {

/// v ← β2 v + (1−β2) g⊙g (the unchanged second moment).
void second_moment_step(Mat& v, ConstMatRef g, double beta2);
/// W ← W − lr·(first_hat ⊘ (√v_hat + ε) + wd·W), the AdamW parameter update with
/// decoupled weight decay (wd multiplies the old W).
void apply(Mat& W, ConstMatRef first_hat, ConstMatRef v_hat, const AdamWParams& p);

}  // namespace adamw

/// AdamW: EMA first moment m, second moment v, both bias corrected, decoupled decay.
struct AdamW {
  AdamWParams params;  ///< the hyper-parameters
  Mat m;              ///< first moment (EMA of g)
  Mat v;              ///< second moment (EMA of g⊙g)
  long long t = 0;    ///< steps taken

  /// Zero moments for a rows×cols parameter matrix.
  AdamW(int rows, int cols, const AdamWParams& p);
  /// One step from a weight gradient g (rows×cols).
  void step(Mat& W, ConstMatRef g);
  /// Per-sample factors: g = δxᵀ [eq:rank-one-grad].
  void step(Mat& W, ConstVecRef delta, ConstVecRef x);
  /// Batch: g = ΔᵀX/N, Delta N×m (rows δ), X N×n (rows x).
  void step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X);
  Mat first_hat() const;   ///< m̂ = m/(1−β1^t)
  Mat second_hat() const;  ///< v̂ = v/(1−β2^t)
};

/// AK-AdamW: the normalized-key AK buffer M as the first moment; v, bias correction and
/// decoupled weight decay as in AdamW (see the header comment for the bias correction).
struct AkAdamW {
  AdamWParams params;  ///< beta1 is the AK decay β
  double eta;          ///< delta-rule coefficient η > 0
  Mat M;               ///< the AK buffer (first moment)
  Mat v;               ///< second moment of the raw-key weight gradient
  long long t = 0;  ///< steps taken

  /// Zero moments for a rows×cols parameter matrix, AK step η.
  AkAdamW(int rows, int cols, const AdamWParams& p, double eta);
  /// Per-sample: buffer by [eq:dm-norm-update] on x̂ = x/‖x‖, v on g = δxᵀ.
  void step(Mat& W, ConstVecRef delta, ConstVecRef x);
  /// Deployed batch form [eq:deployed]: buffer on G = ΔᵀX̂/N and Σ̂_B = X̂ᵀX̂/N (rows of X
  /// normalized here), v on g = ΔᵀX/N; the correction MΣ̂_B contracted in `order`.
  void step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X, rules::Order order);
  /// Same with the cheaper order for this layer shape [eq:dispatch].
  void step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X);
  Mat first_hat() const;   ///< M̂ = M/(1−β1^t)
  Mat second_hat() const;  ///< v̂ = v/(1−β2^t)
};

}  // namespace akm
