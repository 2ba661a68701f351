// train — the reusable training loop: an Mlp on a Task, online (a fresh batch every step),
// with AK-SGD, SGD-m, AdamW or AK-AdamW selected by name.
//
//   sgd-m     M ← βM + (1−β)G,                 W ← W − α_l M          [eq:ema-update]
//   ak-sgd    M ← βM + η(Ĝ − MΣ̂_B),            W ← W − α_l M          [eq:deployed]
//   adamw     AdamW on G (akm::AdamW)
//   ak-adamw  AdamW with the deployed AK buffer as first moment (akm::AkAdamW)
//   muon      hidden layers: W ← W − α_l √(m/n) NS(m), m the EMA buffer (akm::Muon)
//   ak-muon   hidden layers: W ← W − α_l √(m/n) NS(M), M the deployed AK buffer (akm::AkMuon)
//             [cor:mup-base-lr]; the input and output layers of both train with AdamW at
//             aux_lr, as Muon's reference keeps its embedding and head on AdamW
// with G = ΔᵀX/N, Ĝ = ΔᵀX̂/N, Σ̂_B = X̂ᵀX̂/N from each layer's hooks (X_l, Δ_l), the
// correction contracted in the cheaper order on the full counts (cost::cheaper_order, the
// finite-N form of [eq:dispatch]), and the per-layer rate α_l = lr ×
// the μP multiplier of the optimizer's family [cor:mup-base-lr]. The AK rules are applied
// to every linear layer of the model.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "akm/problems/mlp.hpp"
#include "akm/rules/muon.hpp"
#include "akm/rules/optimizers.hpp"

namespace akm {

/// How train() trains: optimizer, rates, batches, steps, evaluation.
struct TrainConfig {
  std::string optimizer = "ak-adamw";  ///< sgd-m | ak-sgd | adamw | ak-adamw | muon | ak-muon
  double lr = 1e-3;      ///< base rate α (μP multipliers applied per layer)
  /// Muon family: AdamW's base rate on the input and output layers (the auxiliary rate of
  /// tab:hps; 3e-4 is Muon's reference default, as akm.torch's AKMuon fallback).
  double aux_lr = 3e-4;
  double beta = 0.9;     ///< β of the buffer (β1 for the Adam family)
  double eta = 0.4;      ///< AK delta-rule coefficient η
  double beta2 = 0.999;  ///< β2 of the Adam family
  double eps = 1e-8;  ///< ε of the Adam family
  double weight_decay = 0.0;  ///< decoupled weight decay (AdamW)
  /// Extra factor w^p (w = n/n0) on the rate of every layer whose fan-in is the width
  /// (hidden, output): 0 is μP as tabulated; T13's 1/2 is the key-norm correction of
  /// AK-AdamW (its buffer is the EMA's divided by ‖x‖ ∝ √n, so α/w becomes α/√w).
  double width_lr_power = 0.0;
  int batch = 32;  ///< batch size
  int steps = 500;  ///< online steps
  int eval_every = 25;   ///< held-out loss every this many steps (and at the end)
  int eval_size = 1024;  ///< held-out samples
  std::uint64_t seed = 1;  ///< data stream (batches) and held-out set
};

/// Throws InputError naming the first invalid field.
void validate(const TrainConfig& c);
/// The optimizer is ak-sgd, ak-adamw or ak-muon.
bool is_ak(const std::string& optimizer);
/// sgd for sgd-m and ak-sgd, adam for adamw and ak-adamw, muon for muon and ak-muon.
OptimizerFamily family_of(const std::string& optimizer);

/// One optimizer per layer, stepping on (W, X, Δ).
class Trainer {
 public:
  /// Validates cfg and builds one optimizer per layer of net.
  Trainer(Mlp& net, const TrainConfig& cfg);
  ~Trainer();
  /// Forward, backward and one optimizer step on (X, T); returns the batch loss before the
  /// step. The batch's activations and errors stay in cache().
  double step(ConstMatRef X, ConstMatRef T, LossKind loss);
  /// The first-moment buffer of layer l (EMA m, AK M; before bias correction or NS).
  const Mat& buffer(int l) const;
  /// Activations and errors of the last batch.
  const MlpCache& cache() const { return cache_; }
  /// Learning rate of layer l (base rate × μP multiplier).
  double layer_lr(int l) const;
  /// Steps taken.
  long long steps() const { return t_; }

 private:
  struct Layer;
  Mlp& net_;
  TrainConfig cfg_;
  std::vector<std::unique_ptr<Layer>> layers_;
  MlpCache cache_;
  long long t_ = 0;
};

/// The held-out losses of a training run.
struct TrainResult {
  std::vector<int> eval_steps;  ///< steps at which the held-out loss was measured
  std::vector<double> eval_loss;  ///< held-out mean loss at eval_steps
  bool diverged = false;          ///< loss non-finite or above 1e3 × its initial value
  /// The last held-out loss.
  double final_loss() const { return eval_loss.back(); }
  /// First eval step with loss ≤ target (−1 if never).
  int steps_to(double target) const;
};

/// Trains `net` on `task` for cfg.steps online steps. `on_step(trainer, t)` runs after
/// every step when given (diagnostics).
TrainResult train(Mlp& net, const Task& task, const TrainConfig& cfg,
                  const std::function<void(const Trainer&, int)>& on_step = {});

/// The held-out set of a config (fixed by cfg.seed).
void held_out(const Task& task, const TrainConfig& cfg, Mat& X, Mat& T);

}  // namespace akm
