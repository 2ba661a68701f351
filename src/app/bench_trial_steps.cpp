// bench_trial_steps — the trial-step ops of `akm bench` (transport, ak_sgd_ema, phase_map),
// each timed at its full size in every precision beside the plain reference, NumPy and JAX,
// and held to the limit the machine's ceilings put on it (bench_parts.hpp).
#include <algorithm>

#include "akm/app/bench_device.hpp"
#include "akm/sim/engine/limits.hpp"
#include "bench_parts.hpp"

namespace akm::bench {
namespace {

using engine::Precision;

// Binding limit of a trial-step workload. One thread draws a trial-step's normals and then does
// its arithmetic, and the generator's transforms (log, sincos) run on the same FMA units, so
// those two add: normals at the measured normal rate plus flops at the measured FMA peak. Moving
// a per-trial state too large for L1 through L2 (state_bytes: read and write per trial-step; 0
// when it fits) overlaps with the arithmetic, so a trial-step takes at least the longer of the
// two. The limit is the inverse of that time (a model: a measurement above it says more
// overlaps than assumed, and the table then says the ceiling is wrong); it is named by what
// binds — L2 traffic, or the normals and the flops (a part under 10% of their sum is not named).
json limit_fraction(double tput, double normals_per_ts, double flops_per_ts, double state_bytes_per_ts,
                    const Limits& L, const std::string& ps) {
  // fraction_of_limit > 1 is kept in the JSON (it is the measurement) but flagged: the
  // table refuses to print it as a percentage.
  const double t_n = normals_per_ts / L.normals, t_f = flops_per_ts / L.fma,
               t_m = L.l2 > 0 ? state_bytes_per_ts / L.l2 : 0.0;
  const double t_c = t_n + t_f, lim = 1.0 / std::max(t_c, t_m), share = t_n / t_c;
  const std::string binding = t_m > t_c       ? "L2 traffic"
                              : share >= 0.9  ? "normal variates"
                              : share <= 0.1  ? "FMA peak"
                                              : "normals + FMA";
  // The ceilings this limit divides by, each with the fraction of it the run reaches on its
  // part alone (akm/app/bench_ceilings.hpp: a part above 1 contradicts that ceiling).
  json ceilings = json::object();
  if (t_n > 0) ceilings["normals_" + ps] = tput * t_n;
  if (t_f > 0) ceilings["fma_" + ps] = tput * t_f;
  if (t_m > 0) ceilings["l2"] = tput * t_m;
  return {{"binding", binding}, {"ceilings", ceilings},
          {"seconds_per_trial_step", {{"normals", t_n}, {"flops", t_f}, {"l2_traffic", t_m}}},
          {"limit_trial_steps_per_s", lim},
          {"fraction_of_limit", tput / lim}};
}

// `run(op, seed, backend, exec)` is the op's entry point (akm/sim/ops/<op>.hpp); normals_per_ts
// the normal variates one trial-step draws, state_words the per-trial state it streams.
template <class Op, class Run>
json bench_op(Context& c, const Slices<Op>& s, double normals_per_ts, double state_words, Run run) {
  const Options& f = c.options;
  const std::string name = label(s.full);
  json out = json::array();
  double ref_tput = 0.0;
  auto engine_fn = [&](const Op& w, Precision p) { return run(w, f.seed, f.backend, ops::Exec{p, c.threads}); };
  if (f.backend == Backend::cpu) {
    const double t_ref =
        seconds([&] { run(s.reference, f.seed, Backend::reference, ops::Exec{Precision::f64, c.threads}); });
    ref_tput = s.reference.trial_steps() / t_ref;
  }
  // On the device a first call pays for the context, the module load and the first
  // allocations: a small untimed call keeps them out of the timed one.
  if (f.backend == Backend::cuda) engine_fn(s.reference, Precision::f32);
  json np;
  double np_tput = 0.0;
  if (f.vs_numpy) {
    np = run_script(f, "numpy_ref.py", "NumPy (is python3-numpy installed?)", params(s.numpy, f.seed));
    np_tput = np["trial_steps"].template get<double>() / np["seconds"].template get<double>();
    ops::Observations o;
    const double t = seconds([&] { o = engine_fn(s.numpy, Precision::f64); });
    np["engine_seconds_same_size"] = t;
    np["engine_trial_steps_per_s_same_size"] = s.numpy.trial_steps() / t;
    np["agreement"] = agree(engine_stats(s.numpy, o), np["stats"]);
    np.erase("stats");
    if (!np["agreement"]["agree"].template get<bool>()) c.failed = true;
  }
  // JAX (float32) at the full size: compared with the float row, whose statistics it must match.
  json jx;
  if (f.vs_jax) jx = run_script(f, "jax_ref.py", "JAX", params(s.full, f.seed));
  for (Precision p : precisions(f)) {
    if (f.backend == Backend::cuda && p == Precision::f64) continue;  // the device path is float
    ops::Observations obs;
    const double t = seconds([&] { obs = engine_fn(s.full, p); });
    const double tput = s.full.trial_steps() / t;
    json r = {{"workload", name}, {"backend", to_string(f.backend)}, {"precision", engine::to_string(p)},
              {"threads", c.threads}, {"trial_steps", s.full.trial_steps()}, {"seconds", t},
              {"trial_steps_per_s", tput},
              {"gflops", tput * s.full.flops_per_trial_step() / 1e9}};
    if (f.backend == Backend::cpu) {
      r["reference_trial_steps_per_s"] = ref_tput;
      r["speedup_vs_reference"] = tput / ref_tput;
      // The per-trial state (state_words numbers) is read and written once per trial-step
      // when it does not fit in L1 (the op's cpu path streams it once per step).
      const double bytes = state_words * (p == Precision::f64 ? 8.0 : 4.0);
      const double l1 = double(engine::l1d_bytes());
      r["limit"] = limit_fraction(tput, normals_per_ts, s.full.flops_per_trial_step(),
                                  l1 > 0 && bytes > l1 ? 2.0 * bytes : 0.0, c.limits.at(p),
                                  engine::to_string(p));
    } else if (c.device) {  // the device's measured ceilings (akm/app/bench_device.hpp)
      r["limit"] = device_limit(tput, normals_per_ts, s.full.flops_per_trial_step(), *c.device);
    }
    if (f.vs_numpy) {
      r["numpy"] = np;
      r["numpy_trial_steps_per_s"] = np_tput;
      const bool ok = np["agreement"]["agree"].template get<bool>();
      if (ok) r["speedup_vs_numpy"] = tput / np_tput;
    }
    if (f.vs_jax && p == Precision::f32) {
      json j = jx;
      if (!j.contains("missing")) {
        const double jax_tput = j["trial_steps"].template get<double>() / j["seconds"].template get<double>();
        j["agreement"] = agree(engine_stats(s.full, obs), j["stats"]);
        j.erase("stats");
        j["trial_steps_per_s"] = jax_tput;
        if (j["agreement"]["agree"].template get<bool>()) r["speedup_vs_jax"] = tput / jax_tput;
        else c.failed = true;
      }
      r["jax"] = j;
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace

// The transport v ← v(βI − ηx̂x̂ᵀ) [lem:transport] draws n normals per trial-step and keeps its
// state (v) in L1. On the device the earlier kernel (one thread per trial,
// Transport::warp_per_trial = false) is timed beside the warp-per-trial one in the same run,
// same size and seed (after its own untimed small call: it is another kernel to load).
json bench_transport(Context& c, const Slices<ops::Transport>& s) {
  json rows = bench_op(c, s, s.full.n, 0.0, ops::transport);
  if (c.options.backend != Backend::cuda) return rows;
  ops::Transport per_thread = s.full, warm = s.reference;
  per_thread.warp_per_trial = warm.warp_per_trial = false;
  const ops::Exec e{Precision::f32, c.threads};
  ops::transport(warm, c.options.seed, Backend::cuda, e);
  const double t = seconds([&] { ops::transport(per_thread, c.options.seed, Backend::cuda, e); });
  for (auto& r : rows) {
    r["thread_per_trial_kernel"] = {{"seconds", t}, {"trial_steps_per_s", per_thread.trial_steps() / t}};
    r["warp_speedup_vs_thread_per_trial"] = t / r["seconds"].template get<double>();
  }
  return rows;
}

// AK-SGD beside SGD-EMA [eq:dm-norm-update, eq:ema-update] draws the key and the label noise
// (n + m normals); its state is E and M of both optimizers, 4·m·n numbers.
// On the device the earlier kernel (one block sum per sum, AkSgdEma::fused_reduction = false)
// is timed beside the fused one in the same run, same size and seed: the fused reduction's A/B.
json bench_ak_sgd_ema(Context& c, const Slices<ops::AkSgdEma>& s) {
  json rows = bench_op(c, s, s.full.n + s.full.m, 4.0 * s.full.m * s.full.n, ops::ak_sgd_ema);
  if (c.options.backend != Backend::cuda) return rows;
  ops::AkSgdEma per_sum = s.full;
  per_sum.fused_reduction = false;
  const ops::Exec e{Precision::f32, c.threads};
  const double t = seconds([&] { ops::ak_sgd_ema(per_sum, c.options.seed, Backend::cuda, e); });
  for (auto& r : rows) {
    r["per_sum_kernel"] = {{"seconds", t}, {"trial_steps_per_s", per_sum.trial_steps() / t}};
    r["fused_speedup_vs_per_sum"] = t / r["seconds"].template get<double>();
  }
  return rows;
}

// The phase map's raw-key transport [app:stability_norm_key_dm] draws one key (n normals) per
// point-trial-step; its state stays in L1.
json bench_phase_map(Context& c, const Slices<ops::PhaseMap>& s) {
  return bench_op(c, s, s.full.n, 0.0, ops::phase_map);
}

}  // namespace akm::bench
