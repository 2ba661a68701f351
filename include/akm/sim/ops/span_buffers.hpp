// ops/span_buffers — the AK buffer (normalized key) and the EMA buffer (raw gradient) on keys
// drawn uniformly with replacement from a fixed data set, followed through their projections on
// chosen directions: T9's Monte Carlo [app:high-dim]; backends in src/sim/ops/span_buffers/.
//
// Step t draws s uniformly from the n_s data points (one uniform of the trial's keys stream),
// then M_ak ← βM_ak + η(δ_s − M_ak x̂_s)x̂_sᵀ [eq:dm-norm-update] and
// M_ema ← βM_ema + (1 − β)δ_s x_sᵀ [eq:ema-update], from zero. Both buffers stay in the span of
// the keys; the observables are their projections Y = M U on the columns of U at the recorded
// steps and averaged over a window. Since each update adds (increment)·x̂_sᵀ, Y follows as
// Y ← βY + (increment)·(Uᵀx̂_s)ᵀ in O(mD) a step. The reference carries the full m×p buffers;
// the cpu path carries M_ak as coefficients on the keys (M_ak = C K̂ᵀ, so M_ak x̂_s = C·(K̂ᵀx̂_s)
// reads the Gram matrix: O(m n_s) a step instead of O(m p)) and never forms M_ema, which no
// observable reads but through Y. No device kernel: a trial's p-dimensional buffers do not fit
// a thread; span_buffers_has(Backend) says which backends run it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// The data set, the buffers' parameters and what is recorded.
struct SpanBuffers {
  Mat keys;  ///< p × n_s: the normalized keys x̂_s
  Vec norms;  ///< n_s: ‖x_s‖ (the EMA's raw gradient δ_s x_sᵀ = (‖x_s‖δ_s) x̂_sᵀ)
  Mat values;  ///< m × n_s: the values δ_s
  Mat directions;  ///< p × D: the directions u_j the buffers are projected on
  double beta = 0.9;  ///< β of both buffers
  double eta = 0.8;  ///< η of the AK buffer
  int steps = 200;  ///< steps per trial
  std::vector<int> grid;  ///< recorded steps, increasing in 1..steps
  int window_start = 1;  ///< the window average runs over steps [window_start, steps]

  int p() const { return int(keys.rows()); }  ///< the key's dimension
  int n_s() const { return int(keys.cols()); }  ///< data points
  int m() const { return int(values.rows()); }  ///< the buffers' rows
  int D() const { return int(directions.cols()); }  ///< directions
  std::size_t per_step() const { return 2 * std::size_t(D()) * m(); }  ///< observables per record
  /// Observable of rule (0 AK, 1 EMA), direction j, row r at record g (g = grid.size(): the
  /// window average): the m×D projection Y of each rule, column-major, AK then EMA.
  std::size_t obs(std::size_t g, int rule, std::size_t j, int r) const {
    return g * per_step() + std::size_t(rule) * D() * m() + j * m() + std::size_t(r);
  }
  std::size_t n_obs() const { return (grid.size() + 1) * per_step(); }  ///< observables per trial
  /// Refuses (InputError naming the field, its value and the valid range) what no backend can run.
  void validate() const;
};

/// Whether the op has a path on backend b (reference and cpu).
inline bool span_buffers_has(Backend b) { return b == Backend::reference || b == Backend::cpu; }

/// One sample path of both buffers, the reference's step: `Ct` = Uᵀ K̂ (D × n_s); `at` receives
/// (step, AK buffer, EMA buffer, AK projections, EMA projections) after every step. T9's
/// off-span paths read the full buffers from it.
template <class OnStep>
void span_path(const SpanBuffers& op, const Mat& Ct, std::uint64_t seed, long long trial, OnStep at) {
  const int p = op.p(), n_s = op.n_s(), m = op.m();
  Stream pick(seed, std::uint64_t(trial), Purpose::keys);
  Mat M_ak = Mat::Zero(m, p), M_ema = Mat::Zero(m, p);
  Mat Y_ak = Mat::Zero(m, Ct.rows()), Y_ema = Mat::Zero(m, Ct.rows());
  Vec k(p), delta(m), scaled(m), r(m);
  for (int t = 1; t <= op.steps; ++t) {
    const int s = std::min(n_s - 1, static_cast<int>(pick.uniform() * n_s));
    k = op.keys.col(s);
    delta = op.values.col(s);
    kern::ak_step(M_ak, delta, k, op.beta, op.eta, r);  // [eq:dm-norm-update]; r = η(δ − M_{t−1}x̂)
    Y_ak *= op.beta;
    Y_ak.noalias() += r * Ct.col(s).transpose();
    scaled = op.norms[s] * delta;  // δ x_sᵀ = (‖x_s‖δ) x̂_sᵀ
    kern::ema_step(M_ema, scaled, k, op.beta);  // [eq:ema-update], raw gradient
    Y_ema *= op.beta;
    Y_ema.noalias() += ((1.0 - op.beta) * scaled) * Ct.col(s).transpose();
    at(t, M_ak, M_ema, Y_ak, Y_ema);
  }
}

/// Rows of trials [first, first + count) into rows (count × n_obs(), row-major), trial t on the
/// stream (seed, t, keys), on `backend` (reference or cpu) with `threads` host threads.
void span_buffers_rows(const SpanBuffers& op, std::uint64_t seed, Backend backend, long long first, long long count,
                       int threads, double* rows);

/// The op's Monte-Carlo statistics over mc.trials trials on `backend` (reference or cpu),
/// folded in chunk order (monte_carlo_rows): independent of the thread count.
McResult span_buffers(const SpanBuffers& op, std::uint64_t seed, Backend backend, const McOptions& mc);

}  // namespace akm::ops
