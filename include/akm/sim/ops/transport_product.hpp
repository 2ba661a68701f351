// ops/transport_product — the transport product pushed from the identity, T3's Monte Carlo
// [lem:transport, eq:horizon]; its backends in src/sim/ops/transport_product/.
//
// P_k = Π_{j≤k}(βI − ηk_jk_jᵀ), P_0 = I, in the eigenbasis of Σ with keys k = x (raw) or
// x̂ = x/‖x‖ (normalized), x = √λ ∘ z. E[P_k] = (βI − ηE[kkᵀ])^k is diagonal with entries
// β̃_i^k, and Σ_k β̃_i^k = τ_i. Row r of P evolves alone, p ← βp − η(p·k)k, on the trial's
// keys: the device backends give each row its own thread. With key_rho = ρ ≠ 0 the keys are
// dependent, x_t = ρx_{t−1} + √(1−ρ²)·√λ∘z_t from x_1 = √λ∘z_1 (an AR(1) chain with the same
// marginal; E2), on the reference and cpu paths only. With `law_keys`, the keys are a
// KeySampler law's draws (a mixture, Student-t or Rademacher keys; T16) read along given
// directions, where E[kkᵀ] need not be diagonal; `forms` records quadratic forms bᵀP_kb. Both on
// the reference and cpu paths only. `key_scale` s multiplies every key before the buffer sees it
// (T7's input scale: raw keys s·x, normalized keys unchanged by it up to rounding); `path_norms`
// records the last product's log‖P_T‖_op and the pathwise determinant bound
// (1/n)Σ_t log|det(βI − ηk_tk_tᵀ)| ≤ log‖P_T‖_op [thm:unconditional-stability], on the host paths.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/base/key.hpp"
#include "akm/base/linalg.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"
#include "akm/sim/ops/transport_product_layout.hpp"
#include "akm/sim/ops/key_law.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// One transport-product experiment: the key law, the rule's (β, η), what each trial records.
struct TransportProduct {
  Vec sqrt_lambda;  ///< √λ_i of the key law x = √λ ∘ z (eigen-coordinates); n = its size
  Key key = Key::raw;  ///< the buffer's key: x, or x̂ = x/‖x‖
  double beta = 0.9;  ///< decay β in [0, 1)
  double eta = 0.1;  ///< AK step η > 0
  /// E[k_i²] (λ_i raw, λ̂_i normalized): the control variates' centring (transport_control.hpp).
  Vec second_moment;
  int steps = 150;  ///< pushes per trial; the horizon sums stop here
  int lags = 60;  ///< lags 1..lags whose diagonal is recorded (≤ steps)
  std::vector<int> full_lags{1, 5, 20};  ///< increasing lags ≤ steps whose every entry is recorded
  bool squares = false;  ///< also record P_k(i,i)², k = 1..lags
  /// ρ of the AR(1) key chain, in (−1, 1); 0: independent keys. ≠ 0 runs on reference and cpu only.
  double key_rho = 0.0;
  /// A key law instead of √λ ∘ z (key_law.hpp), read along coords' columns (P_k is then
  /// coordsᵀP_k coords); sqrt_lambda then only sizes the op. Empty: √λ ∘ z.
  LawKeys law_keys;
  /// Rows b_q (q × n, in the op's coordinates): b_qᵀP_kb_q is recorded at each of `form_lags`.
  Mat forms;
  std::vector<int> form_lags;  ///< increasing lags ≤ steps at which the forms are recorded
  /// s > 0: the key is drawn as s·x (x = √λ ∘ z or the law's draw), then normalized when `key`
  /// is; second_moment is then E[k_i²] of the scaled key. Every backend (the device's √λ scaled).
  double key_scale = 1.0;
  /// Also record log‖P_steps‖_op and (1/n)Σ_t log|det(βI − ηk_tk_tᵀ)| (reference and cpu only).
  /// Past the last recorded lag the product is divided by its largest |entry| whenever that
  /// exceeds kRescaleAbove and the scale is kept in log form, so a divergent raw product keeps a
  /// finite log-norm; the horizon sums stay those of the true product (infinite once it leaves
  /// double range).
  bool path_norms = false;
  /// The largest |entry| of P kept before a rescaling (path_norms).
  static constexpr double kRescaleAbove = 1e100;

  int n() const { return int(sqrt_lambda.size()); }  ///< the key's dimension
  /// Where each observable sits in a trial's row.
  TransportProductLayout layout() const {
    return {n(), lags, int(full_lags.size()), squares, int(forms.rows()), int(form_lags.size()), path_norms};
  }
  /// Whether the keys or the observables need the reference or cpu path (dependent keys, a
  /// law, forms, path norms): the device paths draw √λ ∘ z and record neither forms nor norms.
  bool host_only() const { return key_rho != 0.0 || bool(law_keys) || forms.rows() > 0 || path_norms; }
  /// The last lag whose product is recorded entry by entry (lags, full lags, form lags): past it
  /// path_norms may rescale the product.
  int last_recorded_lag() const;
  /// Full lags the device kernel records at most.
  static constexpr int kDeviceFullLags = 8;
  /// Whether the sizes are the device kernel's: it is unrolled for n = 16, 32 or 64 and records
  /// at most kDeviceFullLags full lags (the device paths refuse others, naming "n" or "full_lags").
  bool device_sizes() const {
    return (n() == 16 || n() == 32 || n() == 64) && int(full_lags.size()) <= kDeviceFullLags;
  }
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b: every backend for independent Gaussian keys without
/// forms at the device kernel's sizes, reference and cpu for the rest (TransportProduct::host_only,
/// TransportProduct::device_sizes). A claim asked for a device backend runs the rest on the cpu.
inline bool transport_product_has(Backend b, const TransportProduct& op) {
  return (!op.host_only() && op.device_sizes()) || b == Backend::reference || b == Backend::cpu;
}

/// Rows of trials [first, first + count) into rows (count × layout().size(), row-major), trial t
/// on the stream (seed, t, keys), on `backend` with `threads` host threads.
void transport_product_rows(const TransportProduct& op, std::uint64_t seed, Backend backend, long long first,
                            long long count, int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials (mc's groups, chunks and threads) on
/// `backend`: the trials' rows folded in chunk order (monte_carlo_rows), so the statistics do
/// not depend on the thread count or on how the backend batches its trials.
McResult transport_product(const TransportProduct& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
