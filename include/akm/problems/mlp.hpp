// mlp — a small multilayer perceptron with hand-written forward and backward passes, μP
// parameterization, and the teacher–student, linear and logistic tasks of T13–T20.
//
// Architecture: L linear layers without biases, z_l = W_l h_l, h_{l+1} = GELU(z_l) (tanh
// form) between layers, the last layer linear (the output). Depth 1 is a linear model (the
// linear and logistic regression tasks). No biases: every layer is y = Wx, so each layer's
// weight gradient is exactly the batch form ΔᵀX/N of [eq:rank-one-grad] and the AK buffer
// is formed from (x̂, δ) as the paper's hooks do [app:deployed]: the forward pass keeps
// each layer's input rows X_l, the backward pass its output errors Δ_l = ∂ℓ_i/∂z_l.
//
// μP [app:muP, cor:mup-base-lr], widths relative to a base width n0 (w = n/n0), following
// the "no multiplier" table of Yang et al. (Tensor Programs V, Table 3):
//   layer    init std              SGD-family lr     AdamW-family lr
//   input    1/√fan_in             α·w               α
//   hidden   1/√fan_in             α   (Θ(1))        α/w (∝ 1/n)
//   output   1/(√fan_in · w)       α/w (Θ(1/n))      α/w
// cor:mup-base-lr: AK-SGD α = Θ(1) on hidden layers and Θ(1/n) on output heads; AK-AdamW
// α = Θ(1/n) on hidden layers — the base optimizers' own rules, inherited unchanged
// because the AK buffer has EMA's per-coordinate scale Θ(n^{-1/2}) [thm:mup-eta]. Muon and
// AK-Muon: α = Θ(n^{-1/2}) on hidden layers, the optimizer applying the √(m/n) prefactor
// [cor:mup-base-lr]; their input and output layers are AdamW's, as in Muon's reference. At the
// base width (w = 1) this is the standard parameterization. A depth-1 model (linear or
// logistic regression) starts at W = 0 with multiplier 1.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"

namespace akm {

/// Loss of a task: squared error, logistic (one output), softmax cross-entropy.
enum class LossKind { mse, logistic, softmax_ce };
/// Role of a linear layer for the μP multipliers (single: the only layer).
enum class LayerRole { input, hidden, output, single };
/// Optimizer family for the μP learning-rate multipliers (muon: Muon and AK-Muon on hidden
/// layers, whose input and output layers go to the AdamW fallback).
enum class OptimizerFamily { sgd, adam, muon };

/// Sizes of an MLP (GELU, no biases).
struct MlpShape {
  int d_in = 16;  ///< input dimension
  int width = 64;   ///< n, the hidden width
  int depth = 3;    ///< number of linear layers (≥ 1)
  int d_out = 1;  ///< output dimension
};

/// Throws InputError for a non-positive size.
void validate(const MlpShape& s);

/// μP multipliers [cor:mup-base-lr] for a layer of role `role` at width multiplier w = n/n0.
double mup_init_std(LayerRole role, int fan_in, double w);
/// μP learning-rate multiplier of a layer [cor:mup-base-lr].
double mup_lr_multiplier(OptimizerFamily family, LayerRole role, double w);

/// Activations and errors of one batch: X[l] (N×fan_in) the input rows of layer l, Z[l]
/// (N×fan_out) its pre-activations, Delta[l] (N×fan_out) its output errors ∂ℓ_i/∂z_l.
struct MlpCache {
  std::vector<Mat> X;  ///< X[l]: input rows of layer l (N×fan_in)
  std::vector<Mat> Z;  ///< Z[l]: pre-activations (N×fan_out)
  std::vector<Mat> Delta;  ///< Delta[l]: output errors ∂ℓ_i/∂z_l (N×fan_out)
};

/// A multilayer perceptron with GELU activations and no biases, initialized by μP.
class Mlp {
 public:
  /// μP initialization at width multiplier w = width/base_width, weights from `seed`.
  Mlp(const MlpShape& shape, int base_width, std::uint64_t seed);

  /// Its sizes.
  const MlpShape& shape() const { return shape_; }
  /// Number of linear layers.
  int layers() const { return static_cast<int>(W.size()); }
  /// Role of layer l.
  LayerRole role(int l) const;
  /// Width multiplier w = width/base_width.
  double width_multiplier() const { return w_; }

  /// Outputs (N×d_out) for inputs (N×d_in); fills X and Z of `cache` when given.
  Mat forward(ConstMatRef X, MlpCache* cache = nullptr) const;
  /// Fills cache.Delta from the per-sample output errors (N×d_out) by backpropagation.
  void backward(MlpCache& cache, ConstMatRef out_err) const;
  /// Weight gradients of the mean loss, G_l = Δ_lᵀ X_l / N.
  std::vector<Mat> gradients(const MlpCache& cache) const;

  std::vector<Mat> W;  ///< W[l] is fan_out × fan_in

 private:
  MlpShape shape_;
  double w_;
};

/// GELU (tanh approximation) and its derivative.
double gelu(double z);
/// Derivative of gelu().
double gelu_grad(double z);

/// Mean loss over rows: mse ½‖y−t‖², logistic log(1+eʸ) − t·y (t ∈ {0,1}, d_out = 1),
/// softmax_ce log Σ_k e^{y_k} − tᵀy (t one-hot over the d_out classes, y the logits).
double mean_loss(LossKind kind, ConstMatRef Y, ConstMatRef T);
/// Per-sample output errors δ_i = ∂ℓ_i/∂y_i: mse y − t, logistic σ(y) − t, softmax_ce
/// softmax(y) − t.
Mat output_error(LossKind kind, ConstMatRef Y, ConstMatRef T);

/// A synthetic task: Gaussian inputs x = √λ ⊙ z (spiked covariance, diagonal basis), a
/// teacher, label noise. kind "linear" (t = A x + σξ), "logistic" (t ~ Bernoulli(σ(aᵀx))),
/// "teacher" (t = teacher MLP(x) + σξ).
struct Task {
  std::string kind;  ///< "linear", "logistic" or "teacher"
  LossKind loss = LossKind::mse;  ///< loss of the task
  Vec sqrt_lambda;            ///< input standard deviations per coordinate
  std::vector<Mat> teacher;   ///< teacher layers (one for linear/logistic)
  double noise = 0.0;         ///< σ of the label noise (mse tasks)
  /// Input dimension.
  int d_in() const { return static_cast<int>(sqrt_lambda.size()); }
  /// Output dimension.
  int d_out() const { return static_cast<int>(teacher.back().rows()); }
  /// Noise-free teacher output (N×d_out), the logit for logistic.
  Mat teacher_output(ConstMatRef X) const;
  /// Draws N inputs and targets from `s`.
  void sample(Stream& s, int N, Mat& X, Mat& T) const;
  /// Input-covariance summaries for T18: condition number, effective rank exp(H(λ/Σλ)),
  /// top-1 fraction λ_1/Σλ.
  double condition_number() const;
  /// Effective rank exp(H(λ/Σλ)) of the input covariance.
  double effective_rank() const;
  /// Top-1 fraction λ_1/Σλ.
  double top1_fraction() const;
};

/// Spiked spectrum of dimension d: the given spikes, then `floor` for the rest.
Vec spiked_sqrt_lambda(int d, const std::vector<double>& spikes, double floor);
/// Builds a task. kind ∈ {linear, logistic, teacher}; the teacher MLP has depth
/// `teacher_depth` and width `teacher_width` (teacher only).
Task make_task(const std::string& kind, const Vec& sqrt_lambda, int d_out, double noise,
               std::uint64_t seed, int teacher_width = 32, int teacher_depth = 3);

}  // namespace akm
