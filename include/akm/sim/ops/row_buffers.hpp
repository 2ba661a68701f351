// ops/row_buffers — buffer rows fed by one key stream, each against a target that may drift:
// the Monte Carlo of T1 (the fixed point and its transient), T2 (the online rules), T6 (the lag
// under drift), T8 (the contraction from an offset), T13 (the buffer's scale with width) and T16
// (tracking under a mixture law) [thm:fixedpoint, thm:tracking, prop:nc1, thm:mup-eta]; backends in src/sim/ops/row_buffers/.
//
// Step t = 1..steps draws one key x_t = √λ ∘ z (coordinates: the key law's eigenbasis; or a
// law's draw read along given directions, `law_keys`) and
// `noise_slots` normals ξ_{t,0..}; a schedule may turn each step's key, x_t ← K_t x_t. Buffer row
// b, with its own rule (AK raw key [eq:dm-update], AK normalized key [eq:dm-norm-update] or EMA
// [eq:ema-update]) and η, sees the value δ_{b,t} = a_t (d_b·x_t) + σ ξ_{t,slot_b}, a_t = a_0 +
// a_1 t (d_b may change per step, the schedule's value rows), from M_{b,0} = start_b. A row of
// an m×n buffer moves on its own row of δ alone, so an m-row buffer is m rows here sharing the
// key. The observables read the error e_{b,t} = M_{b,t} − a_t c_b against the target's
// direction c_b: the whole error at the recorded steps, its mean over a window of steps, and
// probes Σ_{b,i} W_{b,i} e_{b,t,i} (a weighted sum per trial, its standard error from the
// trials) at chosen steps or over the window, and the window mean of the mean square error
// (1/(B·n))Σ_{b,i} e_{b,t,i}² (T13's per-coordinate buffer scale), and AdamW's second moment of
// each row's raw-key gradient δ_{b,t} x_tᵀ, bias corrected, at chosen steps (T17's v̂
// [app:second-moment]); a row's noise may carry its own scale s_b (δ = … + s_b σ ξ; 0: a
// noise-free row, whose buffer is then the transport product pushed from its start). Keys may carry a mean,
// x_t = √λ ∘ z + μ (T13's spiked keys), and trials may draw on interleaved stream ids
// (trial·stride + offset), so that runs of several settings share one seed's streams.
//
// No device kernel yet: the rows' count and rules vary per claim; row_buffers_has(Backend) says
// which backends run it, and a claim on another backend runs the cpu path and says so.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/rules/buffer_kind.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/ops/key_law.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// Trial t's stream id when several runs interleave their trials on one seed: t·stride + offset.
inline std::uint64_t interleaved_stream(long long t, long long stride, long long offset) {
  return std::uint64_t(t * stride + offset);
}

/// One buffer row: its rule, its step, its value row, where it starts and its target's direction.
struct BufferRow {
  BufferKind rule = BufferKind::ak_normalized;  ///< the row's update rule: ak_raw, ak_normalized or ema
  double eta = 0.5;  ///< AK step (EMA: unused)
  Vec d;  ///< value row: δ = a_t (d·x) + σξ
  Vec start;  ///< M_0
  Vec center;  ///< c: the target is a_t c, the error e_t = M_t − a_t c
  int noise_slot = 0;  ///< which of the step's noise normals ξ_{t,slot} the row's value carries
  double noise_scale = 1.0;  ///< s_b ≥ 0: the row's value carries s_b σ ξ_{t,slot}
};

/// A weighted sum Σ_{b,i} W(b,i) e_{b,t,i}, one observable per step in `steps` (or, when
/// `window`, one over the window's mean error).
struct RowProbe {
  Mat W;  ///< rows × n
  std::vector<int> steps;  ///< increasing in 1..steps
  bool window = false;  ///< one observable over the window's mean error instead of steps
};

/// The key law, the rows, the schedule and what is recorded.
struct RowBuffers {
  Vec sqrt_lambda;  ///< √λ of the key law; n = its size
  std::vector<BufferRow> rows;  ///< the buffer rows, all on the same keys
  double beta = 0.9;  ///< β of every row, in [0, 1); 1 (the pure delta rule [eq:delta-rule]) when every row is AK
  double noise_sigma = 0.5;  ///< σ of ξ
  int noise_slots = 1;  ///< normals drawn a step (≥ every row's noise_slot + 1)
  double a0 = 1.0;  ///< value scale a_t = a0 + a1·t: its value at t = 0
  double a1 = 0.0;  ///< value scale's change per step
  int steps = 100;  ///< steps per trial
  std::vector<int> record;  ///< steps whose whole error is recorded, increasing in 1..steps
  int window_start = 0;  ///< the window mean runs over steps [window_start, steps]; 0: no window
  std::vector<RowProbe> probes;  ///< weighted sums of the errors, after the records and the window
  /// A key law instead of √λ ∘ z (key_law.hpp), read along coords' columns (every row, value
  /// row and probe is then in those coordinates); sqrt_lambda then only sizes the op.
  LawKeys law_keys;
  /// The values see the key's direction only: δ = a_t (d·x̂) + σξ instead of a_t (d·x) + σξ (T16).
  bool value_on_normalized = false;
  /// A schedule over the steps (E2's quasi-static drift, app:scope), each empty or one entry per
  /// step (index t − 1): key_turns[t − 1] (n × n) turns step t's key, x_t ← K_t x_t, before its
  /// normalization; value_rows[t − 1] (rows × n) holds the value rows d_{b,t} of step t in place
  /// of the rows' d_b.
  std::vector<Mat> key_turns;
  std::vector<Mat> value_rows;  ///< see key_turns
  /// The keys' mean μ (n entries; empty: none): x_t = √λ ∘ z + μ (or the law's draw + μ), before
  /// the schedule's turn and the normalization.
  Vec key_mean;
  /// > 0: one more observable, the mean over steps [msq_window_start, steps] of the mean square
  /// error (1/(B·n))Σ_{b,i} e_{b,t,i}²; 0: none.
  int msq_window_start = 0;
  /// AdamW's second moment of each row's raw-key gradient g_{b,t} = δ_{b,t} x_tᵀ (x_t after the
  /// mean and the schedule's turn, before any normalization) [app:second-moment]: v_b ← β2 v_b +
  /// (1 − β2) g_b⊙g_b from v_b = 0, recorded bias corrected, v̂ = v/(1 − β2^t), at these steps
  /// (increasing in 1..steps; every row and coordinate); empty: none.
  std::vector<int> second_moment_record;
  double beta2 = 0.999;  ///< β2 of the second moment, in [0, 1)
  /// Trial t draws on the streams (seed, t·stream_stride + stream_offset, keys | noise).
  long long stream_stride = 1;
  long long stream_offset = 0;  ///< see stream_stride

  int n() const { return int(sqrt_lambda.size()); }  ///< the key's dimension
  int B() const { return int(rows.size()); }  ///< buffer rows
  std::size_t per_record() const { return std::size_t(B()) * n(); }  ///< observables per record
  /// Row b's error on direction i at record c (c = record.size(): the window mean).
  std::size_t obs(std::size_t c, int b, int i) const { return c * per_record() + std::size_t(b) * n() + i; }
  /// Probe p's observable at its s-th step (0 for a window probe).
  std::size_t probe_obs(std::size_t p, std::size_t s) const {
    std::size_t o = (record.size() + (window_start > 0 ? 1 : 0)) * per_record();
    for (std::size_t q = 0; q < p; ++q) o += probes[q].window ? 1 : probes[q].steps.size();
    return o + s;
  }
  /// The window mean of the mean square error (msq_window_start > 0).
  std::size_t msq_obs() const { return probe_obs(probes.size(), 0); }
  /// Row b's v̂ on coordinate i at the c-th step of second_moment_record.
  std::size_t second_moment_obs(std::size_t c, int b, int i) const {
    return msq_obs() + (msq_window_start > 0 ? 1 : 0) + c * per_record() + std::size_t(b) * n() + i;
  }
  std::size_t n_obs() const { return second_moment_obs(second_moment_record.size(), 0, 0); }  ///< observables per trial
  /// The stream id of trial t.
  std::uint64_t stream(long long t) const { return interleaved_stream(t, stream_stride, stream_offset); }
  /// The value scale at step t (t = 0: the start).
  double a(int t) const { return a0 + a1 * t; }
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b (reference and cpu).
inline bool row_buffers_has(Backend b) { return b == Backend::reference || b == Backend::cpu; }

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), trial t on the
/// streams (seed, stream(t), keys) and (seed, stream(t), noise), on `backend` (reference or cpu).
void row_buffers_rows(const RowBuffers& op, std::uint64_t seed, Backend backend, long long first, long long count,
                      int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend` (reference or cpu),
/// folded in chunk order (monte_carlo_rows): independent of the thread count.
McResult row_buffers(const RowBuffers& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
