// ops/mlp_coord — the μP coordinate check [app:mup-coord, fig:mup-coord]: per trial (a seed),
// the depth-3 μP MLP of problems/mlp.hpp trained online at every width by each arm, the
// per-step RMS of the pre-activations and of the update's effect ΔW·x on a fixed probe batch,
// reduced to per-seed width slopes (so the slopes' errors come from seeds, and differences
// between arms are paired: every arm starts from the same init and sees the same batches, so
// at step 1 all arms hold the same gradient). T13's coordinate check and its Muon pair run on
// it; backends in src/sim/ops/mlp_coord/.
//
// Step 1's key-norm quantities (arm 0 the AK arm, arm 1 its base): from M_0 = 0, m_0 = v_0 = 0,
// with the batch gradient g = ΔᵀX/N and its normalized-key twin Ĝ = ΔᵀX̂/N (x̂_i = x_i/‖x_i‖),
//   AdamW     m̂₁ = g,            v̂₁ = g²   →  ΔW₁ = −α_A · g/|g|         (a sign matrix)
//   AK-AdamW  M̂₁ = ηĜ/(1−β),     v̂₁ = g²   →  ΔW₁ = −α_AK · η/(1−β) · Ĝ/|g|
// (ε = 1e-8 negligible). If every key of the batch had the same norm, Ĝ = g·m̄ with
// m̄ = mean_i 1/‖x_i‖, and the AK step is the AdamW step times κ·m̄, κ = (α_AK/α_A)η/(1−β):
// the step-1 width slope of AK-AdamW is AdamW's plus the slope of m̄ (≈ −½, ‖x‖ ∝ √n for a
// width-n layer input). Keys of unequal norm leave R = Ĝ/(|g| m̄) ≠ ±1 entrywise; where g_rj
// is near 0 by cancellation Ĝ_rj is not, so R has a heavy tail (E R² diverges logarithmically
// for a density of g at 0) — the seed-to-seed scatter of step 1. Each seed records RMS(R) and
// median |R| (both 1 for equal norms). Steps ≥ 2: the AK buffer is ≈ the EMA buffer divided by
// ‖x‖ while v is unchanged, so AK-AdamW's update carries 1/‖x‖ ∝ n^{-1/2} on every fan-in-n
// layer; an arm with those rates × √w (width_lr_power = ½) removes it. The same argument holds
// for AK-SGD against SGD-m (no v to divide by: the update is α times the buffer).
//
// Streams of seed s, width index w, under root r: the initial weights from r + 1000·s + w, the
// batches from (r, s, data), the probe batch from (r, s, aux); every arm reads the same ones.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "akm/problems/mlp.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// One arm: an optimizer of problems/train.hpp at a base rate.
struct MlpCoordArm {
  std::string label;  ///< the arm's name in tables and checks
  std::string optimizer;  ///< TrainConfig::optimizer (sgd-m, ak-sgd, adamw, ak-adamw, muon, ak-muon)
  double lr;  ///< TrainConfig::lr, the base rate
  double width_lr_power;  ///< TrainConfig::width_lr_power (½: the key-norm correction w^½)
  int reference = -1;  ///< index of the arm this one is paired with (its base optimizer), −1 none
};

/// The training every arm runs at every width.
struct MlpCoordSetup {
  std::vector<int> widths;  ///< hidden widths n (at least two: the slopes are across them)
  int steps = 20;  ///< online steps S
  int probe = 64;  ///< rows of the fixed probe batch
  int base = 128;  ///< the μP base width n0
  int batch = 32;  ///< batch size N
  double beta = 0.99;  ///< β (β₁ of the Adam family)
  double eta = 0.5;  ///< the AK coefficient η
  double beta2 = 0.999;  ///< β₂ of the Adam family
  double aux_lr = 1e-2;  ///< the Muon family's AdamW rate on the input and output layers
};

/// Index layout of one seed's observables (depth 3: input, hidden, output layer).
struct MlpCoordLayout {
  /// Windows of the steps whose mean enters a slope: step 1, steps 2..S, all S.
  static constexpr int kWindows = 3;
  /// The windows' names in tables and checks.
  static constexpr const char* kWindowName[kWindows] = {"step 1", "steps 2-20", "steps 1-20"};
  int arms;  ///< arms
  int widths;  ///< widths
  int steps;  ///< steps S
  int layers = 3;  ///< linear layers (depth 3)
  std::vector<int> paired;  ///< the arms with a reference, in arm order
  /// The layout of `a`'s arms at widths_ widths over steps_ steps.
  MlpCoordLayout(const std::vector<MlpCoordArm>& a, int widths_, int steps_);
  /// Observables of one (arm, width): per step and layer the two RMS values.
  int per_width() const { return steps * layers * 2; }
  /// Observables of one arm: its values, step slopes and window slopes.
  int per_arm() const { return widths * per_width() + steps * layers * 2 + kWindows * layers * 2; }
  /// RMS of quantity q (0 pre-activation, 1 ΔWx) of layer l at step t, width w, arm a.
  int value(int a, int w, int t, int l, int q) const { return a * per_arm() + w * per_width() + (t * layers + l) * 2 + q; }
  /// Per-seed OLS width slope of log value at step t.
  int step_slope(int a, int t, int l, int q) const { return a * per_arm() + widths * per_width() + (t * layers + l) * 2 + q; }
  /// Per-seed width slope of log(mean over window k).
  int window_slope(int a, int k, int l, int q) const {
    return a * per_arm() + widths * per_width() + steps * layers * 2 + (k * layers + l) * 2 + q;
  }
  /// The first observable after the arms' blocks.
  int shared() const { return arms * per_arm(); }
  /// Step-1 hidden layer, per width: m̄ = mean 1/‖x_i‖, RMS(R), median |R|, and the
  /// log excess log(RMS_AK/RMS_A) − log(κ m̄) of the AK arm (arm 0) over its equal-norm value.
  int step1(int w, int k) const { return shared() + w * 4 + k; }
  /// The per-seed width slope of m̄.
  int mbar_slope() const { return shared() + widths * 4; }
  /// Paired slope differences arm a − its reference arm of ΔWx, window k, layer l (a paired).
  int diff(int a, int k, int l) const;
  /// The same paired difference of the pre-activation RMS (the activation part of app:mup-coord).
  int diff_act(int a, int k, int l) const { return diff(a, k, l) + static_cast<int>(paired.size()) * kWindows * layers; }
  /// Observables per seed.
  int size() const { return mbar_slope() + 1 + 2 * static_cast<int>(paired.size()) * kWindows * layers; }
};

/// The op: the setup, the arms (arm 0 and arm 1 enter step 1's quantities) and the task.
struct MlpCoord {
  MlpCoordSetup setup;  ///< the training
  std::vector<MlpCoordArm> arms;  ///< the arms, arm 0 the AK arm and arm 1 its base
  Task task;  ///< inputs of dimension task.d_in(), one output
  /// The layout of one seed's observables.
  MlpCoordLayout layout() const { return {arms, static_cast<int>(setup.widths.size()), setup.steps}; }
  /// Observables per seed (trial).
  std::size_t n_obs() const { return static_cast<std::size_t>(layout().size()); }
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b (reference and cpu).
inline bool mlp_coord_has(Backend b) { return b == Backend::reference || b == Backend::cpu; }

/// Rows of seeds [first, first + count) into rows (count × n_obs(), row-major) under the root
/// `seed`, on `backend` (reference or cpu).
void mlp_coord_rows(const MlpCoord& op, std::uint64_t seed, Backend backend, long long first, long long count,
                    int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials seeds on `backend` (reference or cpu), folded
/// in chunk order (monte_carlo_rows): independent of the thread count.
McResult mlp_coord(const MlpCoord& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
