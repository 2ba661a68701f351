// phase_validate — the one validation of a phase request (akm/app/phase.hpp): every text
// parsed and every value checked before any work, in the order the refusals have always come,
// so `akm phase`, `akm.phase()` and `akm explore` refuse the same input with the same message.
#include <string>

#include <fmt/format.h>

#include "akm/app/phase.hpp"
#include "akm/base/errors.hpp"
#include "akm/base/key.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/dist.hpp"

namespace akm::phase {

Plan validate(const Request& r) {
  Plan p;
  Options& o = p.opts;
  o.x = parse_axis(r.x, "--x");
  o.y = parse_axis(r.y, "--y");
  // The grid's size is known from the axes alone: a server refuses a too large map before it
  // reads the spectrum (a data set's covariance is work).
  const long long points = static_cast<long long>(o.x.n) * o.y.n;
  if (r.max_points > 0 && points > r.max_points)
    throw InputError("--x", fmt::format("{} × {} points", o.x.n, o.y.n),
                     fmt::format("the map may have at most {} points per request", r.max_points));
  o.metric = parse_metric(r.metric);
  o.key = parse_key(r.key);
  o.eta = r.eta;
  o.beta = r.beta;
  o.alpha = parse_alpha(r.alpha);
  p.seed = r.seed;
  p.spectrum = r.read_spectrum ? r.read_spectrum(r.spectrum, r.seed) : parse_spectrum(r.spectrum, r.seed);
  const int n = p.spectrum.n();
  o.direction = parse_direction(r.direction, n);
  validate(o, n);
  if (r.threads < 0)
    throw InputError("--threads", std::to_string(r.threads), "must be >= 1 (or omitted for all cores)");
  p.threads = resolve_threads(r.threads);
  p.measure = r.measure;
  if (r.measure) validate_measure(o, r.trials, r.steps);

  MeasureOptions& mo = p.measure_opts;
  mo.key = o.key;
  mo.trials = r.trials;
  // Within [1, 10⁶] once validate_measure passed; unused without --measure.
  mo.steps = static_cast<int>(r.steps);
  mo.seed = r.seed;
  mo.threads = p.threads;
  // --backend: who runs the --measure trials (cpu: the fast engine, src/sim/ops/phase_measure/cpu.cpp).
  mo.backend = parse_backend(r.backend, "--backend", {Backend::cpu, Backend::cuda});
  // --keys: common random numbers across the grid (shared, ops::phase_trials_shared_cpu) or the
  // per-point reference streams (akm/sim/measured_map.hpp).
  mo.keys = parse_keys(r.keys, "--keys");
  if (mo.backend == Backend::cuda) {
    if (!r.measure)
      throw InputError("--backend", "cuda", "applies to --measure only (the closed-form map runs no simulation)");
    cuda::require_usable();
  }
  // Under mpirun every rank measures its block of points and holds the gathered map; rank 0
  // alone writes.
  p.writes = dist::root();
  p.ranks = dist::size();
  return p;
}

}  // namespace akm::phase
