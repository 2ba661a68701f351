// bench_shared_keys — W3s of `akm bench`: the phase-map kernel as `akm phase --measure` runs it
// (the transport factors βI − ηk_tk_tᵀ [eq:transport-expansion], normalized key, n = 32, a
// side×side (η, β) grid) with keys shared across the grid (ops::phase_trials_shared_cpu),
// timed beside the per-point path on the same grid in the same run; "×ref" is shared over
// per-point keys (bench_parts.hpp).
#include <utility>
#include <vector>

#include "akm/sim/measured_map.hpp"
#include "bench_parts.hpp"

namespace akm::bench {

// Flops per point-step: per coordinate v ← βv − ck (mul + FMA), ‖v‖² and v·k_{t+1} (an FMA
// each) = 7; the key (≈ 5n per step) is shared by the grid and left out.
json bench_shared_keys(Context& c) {
  const Options& f = c.options;
  const int n = 32, side = f.quick ? 16 : 32;
  Vec lambda(n);
  for (int i = 0; i < n; ++i) lambda[i] = 1.0 / (i + 1.0);
  const Vec lam_key = lambda / lambda.sum();
  std::vector<std::pair<double, double>> eb;
  for (int a = 0; a < side; ++a)
    for (int b = 0; b < side; ++b) eb.emplace_back(2.0 * (a + 1) / side, 0.3 + 0.69 * b / (side - 1));
  phase::MeasureOptions o;
  o.trials = f.quick ? 8 : 32;
  o.steps = f.quick ? 100 : 400;
  o.seed = f.seed;
  o.threads = c.threads;
  const double ts = double(eb.size()) * double(o.trials) * o.steps, flops = 7.0 * n;
  o.keys = phase::Keys::per_point;
  const double t_pp = seconds([&] { phase::measure(eb, lambda, lam_key, -1, o); });
  o.keys = phase::Keys::shared;
  const double t_sh = seconds([&] { phase::measure(eb, lambda, lam_key, -1, o); });
  const double tput = ts / t_sh;
  json r = {{"workload", "W3s"}, {"backend", "cpu"}, {"precision", "double"},
            {"threads", c.threads}, {"n", n}, {"points", eb.size()}, {"trials", o.trials},
            {"steps", o.steps}, {"trial_steps", ts}, {"seconds", t_sh},
            {"trial_steps_per_s", tput}, {"gflops", tput * flops / 1e9},
            {"reference", "per-point keys (akm phase --measure --keys per-point)"},
            {"reference_seconds", t_pp}, {"reference_trial_steps_per_s", ts / t_pp},
            {"speedup_vs_reference", t_pp / t_sh}};
  const double fr = tput * flops / c.limits.at(engine::Precision::f64).fma;
  r["limit"] = {{"binding", "FMA peak"}, {"ceilings", {{"fma_double", fr}}}, {"fraction_of_limit", fr}};
  return json::array({r});
}

}  // namespace akm::bench
