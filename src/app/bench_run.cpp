// bench_run — `akm bench`'s validation and its run: the machine's ceilings, then each chosen
// workload, then the ceilings judged against the rows (akm/app/bench.hpp).
#include <cstddef>
#include <filesystem>
#include <string>

#include "akm/app/bench_ceilings.hpp"
#include "akm/base/errors.hpp"
#include "akm/base/progress.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/sim/cuda.hpp"
#include "bench_parts.hpp"

namespace akm::bench {

void validate(const Options& o) {
  if (o.workload != "all" && o.workload != "W1" && o.workload != "W2" && o.workload != "W3" && o.workload != "W4")
    throw InputError("--workload", o.workload, "one of W1, W2, W3, W4, all");
  if (o.precision != "double" && o.precision != "float" && o.precision != "both")
    throw InputError("--precision", o.precision, "double, float or both");
  if (o.threads < 0) throw InputError("--threads", std::to_string(o.threads), "≥ 0 (0: all)");
  if (o.backend == Backend::cuda) {
    cuda::require_usable();
    if (o.precision == "double")
      throw InputError("--precision", "double", "float on --backend cuda (the device path is float)");
  }
  if ((o.vs_numpy || o.vs_jax) && !std::filesystem::exists(o.python))
    throw InputError("--python", o.python, "an existing interpreter with numpy (apt python3-numpy)");
  if (o.vs_jax && o.precision == "double")
    throw InputError("--precision", "double", "float or both with --vs-jax (JAX runs float32)");
}

json Result::to_json() const { return {{"machine", machine}, {"quick", quick}, {"results", rows}}; }

Result run(const Options& o) {
  const bool all = o.workload == "all";
  auto chosen = [&](const char* w) { return all || o.workload == w; };
  const int threads = resolve_threads(o.threads);
  const Sizes s = make_sizes(o.quick);
  // "[i/N] stage · elapsed · ETA" (stderr): the machine limits, then each workload.
  RunProgress progress(all ? 5 : 2, o.progress);
  std::size_t stage = 0;
  progress.begin(stage++, "limits", "clock, FMA peak, normal-variate rate, triad");
  const Ceilings ceilings = measure_ceilings(threads, o.quick, o.backend);
  Context c{o, threads, ceilings.limits};
  if (o.backend == Backend::cuda) c.device = &ceilings.device;
  Result r;
  r.quick = o.quick;
  auto add = [&](const json& rows) {
    for (auto& row : rows) r.rows.push_back(row);
  };
  if (chosen("W1")) {
    progress.begin(stage++, "W1", "transport v ← v(βI − ηx̂x̂ᵀ)");
    add(bench_transport(c, s.transport));
  }
  if (chosen("W2")) {
    progress.begin(stage++, "W2", "AK-SGD vs SGD-EMA least squares");
    add(bench_ak_sgd_ema(c, s.ak_sgd_ema));
  }
  if (chosen("W3")) {
    progress.begin(stage++, "W3", "stability grid over (η, β)");
    add(bench_phase_map(c, s.phase_map));
    // The phase-map kernel with keys shared across the grid, beside its per-point path.
    if (o.backend != Backend::cuda && o.precision != "float") add(bench_shared_keys(c));
  }
  if (chosen("W4")) {
    progress.begin(stage++, "W4", "deployed batch rule, both contraction orders");
    add(bench_deployed(c, s.deployed));
  }
  // A ceiling that a workload of this run exceeds is contradicted: no fraction rests on it.
  r.machine = ceilings.machine;
  app::judge_ceilings(r.machine, r.rows);
  r.failed = c.failed;
  return r;
}

}  // namespace akm::bench
