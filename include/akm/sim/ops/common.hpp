// ops/common — what every Monte-Carlo op of akm/sim/ops/ shares: how it runs besides its
// backend (Exec), its per-trial observations and the loop that fills them, and the
// power-law spectrum of the benchmark ops.
//
// Every op is simulated in the eigenbasis of Σ (docs/architecture.md, "Simulating in the
// eigenbasis"): a key is x_i = √λ_i z_i.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "akm/base/interrupt.hpp"
#include "akm/base/linalg.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/sim.hpp"

namespace akm::ops {

/// How an op runs besides its backend.
struct Exec {
  /// Arithmetic of the cpu backend; the others have one each (reference: double; cuda and
  /// cuda_emulated: float) and do not read it.
  engine::Precision precision = engine::Precision::f64;
  int threads = 0;  ///< host threads (0: all); results never depend on it; cuda does not read it
  /// (done, total), called from worker threads where the op reports (fit on cpu); may be empty.
  std::function<void(long long, long long)> progress = nullptr;
  /// Device memory one batch of trials may fill (fit on cuda and cuda_emulated; 0: the
  /// backend's own, 1 GiB on the device, 16 MiB emulated); smaller only splits into more batches.
  std::size_t batch_bytes = 0;
};

/// Power-law spectrum λ_i = 1/(i+1), i = 0..n−1, optionally rescaled to unit trace.
Vec power_spectrum(int n, bool unit_trace);

/// Per-trial observables of an op: trials × n_obs, row-major, trial order.
/// The one place akm holds a whole sample, and why: the benchmark ops (transport,
/// ak_sgd_ema, phase_map) are checked row for row — each fast path must equal the plain
/// reference trial by trial up to a rounding bound (tests/ops/), which needs every row; at
/// the bench's sizes that is at most ~0.5 M doubles (4 MB). The fit op of `akm simulate`
/// stores one row per trial group (groups × n_obs), and the experiments' monte_carlo()
/// (sim.hpp) streams per-group statistics, never trials × observables.
struct Observations {
  long long trials = 0;  ///< rows (trials or groups)
  int n_obs = 0;  ///< observables per row
  std::vector<double> values;  ///< trials × n_obs values, row-major
  /// Observable j of row t.
  double at(long long t, int j) const { return values[std::size_t(t) * n_obs + j]; }
  /// Mean and standard error of observable j over trials [t0, t1) (sequential sum, so the
  /// numbers never depend on the thread count).
  std::pair<double, double> mean_se(int j, long long t0 = 0, long long t1 = -1) const;
};

/// Runs fn(trial, out) for every trial on `threads` threads of the shared pool (0: all);
/// each trial writes its own row, so the result is the same for any thread count.
template <class Fn>
Observations run_trials(long long trials, int n_obs, int threads, Fn&& fn) {
  Observations o;
  o.trials = trials;
  o.n_obs = n_obs;
  o.values.assign(std::size_t(trials) * n_obs, 0.0);
  parallel_for(0, std::size_t(trials > 0 ? trials : 0), threads,
               [&](std::size_t t) {
                 if (t % 8 == 0) interrupt::throw_if_stop_requested();  // a host's Ctrl-C
                 fn((long long)t, o.values.data() + t * std::size_t(n_obs));
               }, 8);
  return o;
}

/// A claim op's statistics (monte_carlo_rows over mc), whatever its backend: `rows_on(first,
/// count, threads, rows)` runs the backend's path; the device (cuda) gets launches of at least
/// `device_batch` trials, the host backends a trial per call spread over the threads; and the
/// result records the unit roundoff of the trials' arithmetic (float on cuda and cuda_emulated).
template <class RowsOn>
McResult fold_rows(const McOptions& mc, std::size_t n_obs, Backend backend, long long device_batch, RowsOn&& rows_on) {
  McResult res = monte_carlo_rows(mc, n_obs, rows_on, backend == Backend::cuda ? device_batch : 0);
  if (backend == Backend::cuda || backend == Backend::cuda_emulated) res.unit_roundoff = 0x1p-24;
  return res;
}

}  // namespace akm::ops
