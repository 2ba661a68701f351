// muon — Muon and AK-Muon on one parameter matrix W (m×n) of a linear layer y = Wx.
//
// AK-Muon is Muon with its EMA momentum replaced by the deployed AK buffer; Newton–Schulz,
// the √(m/n) prefactor and decoupled weight decay are unchanged [cor:mup-base-lr, AK-Muon
// bullet; app:structured, "the delta buffer would replace the EMA that feeds Newton–Schulz"]:
//
//   Muon     m ← βm + (1−β)G,                  G = ΔᵀX/N            [eq:ema-update]
//   AK-Muon  M ← βM + η(Ĝ − MΣ̂_B),             Ĝ = ΔᵀX̂/N, Σ̂_B = X̂ᵀX̂/N   [eq:deployed]
//   both     W ← W(1 − lr·wd) − lr·√(m/n)·NS(buffer)                 [cor:mup-base-lr]
//
// NS is Muon's quintic iteration (rules/newton_schulz.hpp) on the buffer itself: the paper's
// AK-Muon is NS(M_t), with no Nesterov look-ahead, so the Muon here orthogonalises its EMA
// buffer m_t the same way, and the pair differs only in how the buffer is formed (the paper's
// isolating comparison, app:related). The prefactor is the √(m/n) that cor:mup-base-lr names;
// Muon's reference code writes max(1, m/n)^½, which differs for wide layers (m < n). A buffer
// that is exactly 0 (no gradient yet, or a dead layer) gives no update, as Muon's reference's
// ε in ‖·‖_F + ε does. akm.torch's AKMuon (src/python/akm/torch/muon.py) is the same rule.
#pragma once
#include "akm/base/linalg.hpp"
#include "akm/rules/newton_schulz.hpp"
#include "akm/rules/rules.hpp"

namespace akm {

/// Hyper-parameters of Muon and AK-Muon (names as in tab:hps and akm.torch).
struct MuonParams {
  double lr = 0.02;           ///< learning rate α, > 0
  double beta = 0.95;         ///< momentum decay β in [0, 1): EMA β, or the AK decay β
  double weight_decay = 0.0;  ///< decoupled weight decay wd ≥ 0
  int ns_steps = ns::kSteps;  ///< Newton–Schulz iterations ≥ 1
};

/// Throws InputError naming the first invalid field (lr, beta, weight_decay, ns_steps).
void validate(const MuonParams& p);

namespace muon {
/// √(m/n) for an m×n weight [cor:mup-base-lr].
double prefactor(Eigen::Index rows, Eigen::Index cols);
/// W ← W(1 − lr·wd) − lr·√(m/n)·NS(buffer); a zero buffer leaves W to the decay alone.
void apply(Mat& W, ConstMatRef buffer, const MuonParams& p);
}  // namespace muon

/// Muon: EMA momentum, orthogonalised by Newton–Schulz.
struct Muon {
  MuonParams params;  ///< the hyper-parameters
  Mat m;              ///< the EMA buffer
  long long t = 0;    ///< steps taken
  /// Zero buffer for a rows×cols parameter matrix.
  Muon(int rows, int cols, const MuonParams& p);
  /// One step from a weight gradient g (rows×cols).
  void step(Mat& W, ConstMatRef g);
  /// Batch: g = ΔᵀX/N, Delta N×m (rows δ), X N×n (rows x).
  void step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X);
};

/// AK-Muon: the deployed AK buffer, orthogonalised by Newton–Schulz.
struct AkMuon {
  MuonParams params;  ///< beta is the AK decay β
  double eta;         ///< delta-rule coefficient η > 0
  Mat M;              ///< the AK buffer
  long long t = 0;    ///< steps taken
  /// Zero buffer for a rows×cols parameter matrix, AK step η.
  AkMuon(int rows, int cols, const MuonParams& p, double eta);
  /// Deployed batch form [eq:deployed] on keys Xhat already normalized (rows x̂, or 0 for a
  /// dead row), the correction MΣ̂_B contracted in `order`; then the update.
  void step_normalized(Mat& W, ConstMatRef Delta, ConstMatRef Xhat, rules::Order order);
  /// The same from raw keys X (rows normalized here; a zero row is refused), cheaper order.
  void step_batch(Mat& W, ConstMatRef Delta, ConstMatRef X);
};

}  // namespace akm
