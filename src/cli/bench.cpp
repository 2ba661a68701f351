// akm bench — throughput of the workloads W1–W4 against the references measured in the
// same run: the plain reference engine, the machine's FMA peak and normal-variate
// throughput, (--vs-numpy) a NumPy implementation vectorized over trials, and (--vs-jax) a
// JAX vmap + jit implementation at the full size (on a GPU where JAX has one). W3s is the
// `phase --measure` kernel with keys shared across the grid, its reference the per-point keys.
//
// Everything is timed in one process run, so the ratios share the machine's load at that
// moment: on a shared machine read the ratios, not the absolute rates.
#include <chrono>
#include <sys/wait.h>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "akm/app/bench_ceilings.hpp"
#include "akm/check/check.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/engine/limits.hpp"
#include "akm/sim/ops/ak_sgd_ema.hpp"
#include "akm/sim/ops/deployed.hpp"
#include "akm/sim/ops/phase_map.hpp"
#include "akm/sim/ops/transport.hpp"
#include "akm/sim/phase_measure.hpp"
#include "akm/base/errors.hpp"
#include "akm/base/progress.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"
#include "bench_machine.hpp"
#include "command.hpp"

namespace akm::cli {
namespace {

using engine::Precision;
using json = nlohmann::json;

struct BenchFlags {
  std::string workload = "all", precision = "both";
  Backend backend = Backend::cpu;  // cpu or cuda (parsed where the flag is read)
  bool json_out = false, vs_numpy = false, vs_jax = false, quick = false, quiet = false;
  int threads = 0;
  unsigned long long seed = 1;
  std::string python = "/usr/bin/python3";
};

template <class Fn>
double seconds(Fn&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The ops under their bench labels: W1 transport, W2 ak_sgd_ema, W3 phase_map, W4 deployed.
struct Sizes {
  ops::Transport w1, w1_ref, w1_np;
  ops::AkSgdEma w2, w2_ref, w2_np;
  ops::PhaseMap w3, w3_ref, w3_np;
  ops::Deployed w4;
};

// Full sizes are the issue's; the reference and NumPy run slices of them (fewer trials or
// steps, same per-trial-step work), compared by throughput.
Sizes make_sizes(bool quick) {
  Sizes s;
  if (quick) {
    s.w1.trials = 256;
    s.w1.steps = 200;
    s.w2.trials = 32;
    s.w2.steps = 200;
    s.w3.n_eta = s.w3.n_beta = 8;
    s.w3.trials = 32;
    s.w3.steps = 200;
    s.w4.m = s.w4.n = 256;
    s.w4.batch = 1024;
  }
  s.w1_ref = s.w1;
  s.w1_ref.trials = quick ? 8 : 64;
  s.w2_ref = s.w2;
  s.w2_ref.trials = quick ? 2 : 8;
  s.w3_ref = s.w3;
  s.w3_ref.n_eta = 1;
  s.w3_ref.n_beta = 4;
  s.w3_ref.trials = quick ? 4 : 64;
  s.w1_np = s.w1;
  s.w1_np.trials = quick ? 512 : 4096;
  s.w1_np.steps = quick ? 50 : 200;
  s.w2_np = s.w2;
  s.w2_np.trials = quick ? 64 : 256;
  s.w2_np.steps = quick ? 50 : 200;
  s.w3_np = s.w3;
  s.w3_np.n_eta = s.w3_np.n_beta = quick ? 4 : 8;
  s.w3_np.trials = quick ? 64 : 256;
  s.w3_np.steps = quick ? 50 : 200;
  return s;
}

json params(const ops::Transport& w, std::uint64_t seed) {
  return {{"workload", "W1"}, {"n", w.n}, {"trials", w.trials}, {"steps", w.steps},
          {"beta", w.beta}, {"eta", w.eta}, {"seed", seed}};
}
json params(const ops::AkSgdEma& w, std::uint64_t seed) {
  return {{"workload", "W2"}, {"m", w.m}, {"n", w.n}, {"trials", w.trials}, {"steps", w.steps},
          {"alpha", w.alpha}, {"beta", w.beta}, {"eta", w.eta}, {"sigma", w.sigma}, {"seed", seed}};
}
json params(const ops::PhaseMap& w, std::uint64_t seed) {
  return {{"workload", "W3"}, {"n", w.n}, {"n_eta", w.n_eta}, {"n_beta", w.n_beta},
          {"trials", w.trials}, {"steps", w.steps}, {"renorm", w.renorm},
          {"eta_max", w.eta_max}, {"seed", seed}};
}

// The engine's statistics under the names numpy_ref.py prints.
json engine_stats(const ops::Transport& w, const ops::Observations& o) {
  auto ms = [&](int j) { auto [m, s] = o.mean_se(j); return json::array({m, s}); };
  return {{"v0", ms(0)}, {"v_mid", ms(w.n / 2)}, {"norm_sq", ms(w.n)}};
}
json engine_stats(const ops::AkSgdEma& w, const ops::Observations& o) {
  auto ms = [&](int j) { auto [m, s] = o.mean_se(j); return json::array({m, s}); };
  return {{"loss_ak", ms(2 * w.n)}, {"loss_ema", ms(2 * w.n + 1)}};
}
json engine_stats(const ops::PhaseMap& w, const ops::Observations& o) {
  json j;
  for (int p = 0; p < w.points(); ++p) {
    auto [m, s] = o.mean_se(0, p * w.trials, (p + 1) * w.trials);
    j["p" + std::to_string(p)] = json::array({m, s});
  }
  return j;
}

// Runs tests/bench/<script> '<params JSON>' under --python and parses its one JSON line.
// Exit 3 from the script means its library is missing (jax_ref.py): returned as {"missing": …}.
json run_script(const BenchFlags& f, const std::string& script_name, const std::string& what, const json& p) {
  namespace fs = std::filesystem;
  const fs::path script = fs::path(AKM_SOURCE_DIR) / "tests" / "bench" / script_name;
  const std::string cmd = f.python + " " + script.string() + " '" + p.dump() + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("cannot start " + f.python);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe.get())) out += buf;
  const int rc = pclose(pipe.release());
  if (WIFEXITED(rc) && WEXITSTATUS(rc) == 3) return {{"missing", what + " is not importable by " + f.python}};
  if (rc != 0 || out.empty()) throw std::runtime_error(what + " reference failed (" + cmd + ")");
  return json::parse(out);
}

json run_numpy(const BenchFlags& f, const json& p) {
  return run_script(f, "numpy_ref.py", "NumPy (is python3-numpy installed?)", p);
}

// Agreement before the NumPy time counts: every statistic within z·√(se₁² + se₂²), z the
// Bonferroni quantile for a family false-alarm rate of 1e-6 over the statistics compared.
json agree(const json& a, const json& b) {
  const double z = z_two_sided(1e-6 / double(a.size()));
  int bad = 0;
  double worst = 0.0;
  for (auto& [k, v] : a.items()) {
    const double d = std::abs(v[0].get<double>() - b.at(k)[0].get<double>());
    const double se = std::hypot(v[1].get<double>(), b.at(k)[1].get<double>());
    const double zz = se > 0 ? d / se : (d == 0 ? 0.0 : 1e300);
    worst = std::max(worst, zz);
    bad += zz > z;
  }
  return {{"statistics", a.size()}, {"z_limit", z}, {"worst_z", worst}, {"agree", bad == 0}};
}

struct Row {
  json j;
};

std::vector<Precision> precisions(const BenchFlags& f) {
  if (f.precision == "double") return {Precision::f64};
  if (f.precision == "float") return {Precision::f32};
  return {Precision::f64, Precision::f32};
}

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

// `run(op, seed, backend, exec)` is the op's entry point (akm/sim/ops/<op>.hpp).
template <class W, class Run>
json bench_mc(const BenchFlags& f, const std::string& name, const W& full, const W& ref_w,
              const W& np_w, double normals_per_ts, double state_words, Run run,
              const std::map<Precision, Limits>& limits, int threads, bool& failed) {
  json out = json::array();
  double ref_tput = 0.0;
  auto engine_fn = [&](const W& w, Precision p) { return run(w, f.seed, f.backend, ops::Exec{p, threads}); };
  if (f.backend == Backend::cpu) {
    const double t_ref = seconds([&] { run(ref_w, f.seed, Backend::reference, ops::Exec{Precision::f64, threads}); });
    ref_tput = ref_w.trial_steps() / t_ref;
  }
  // On the device a first call pays for the context, the module load and the first
  // allocations: a small untimed call keeps them out of the timed one.
  if (f.backend == Backend::cuda) engine_fn(ref_w, Precision::f32);
  json np;
  double np_tput = 0.0;
  if (f.vs_numpy) {
    np = run_numpy(f, params(np_w, f.seed));
    np_tput = np["trial_steps"].template get<double>() / np["seconds"].template get<double>();
    ops::Observations o;
    const double t = seconds([&] { o = engine_fn(np_w, Precision::f64); });
    np["engine_seconds_same_size"] = t;
    np["engine_trial_steps_per_s_same_size"] = np_w.trial_steps() / t;
    np["agreement"] = agree(engine_stats(np_w, o), np["stats"]);
    np.erase("stats");
    if (!np["agreement"]["agree"].template get<bool>()) failed = true;
  }
  // JAX (float32) at the full size: compared with the float row, whose statistics it must match.
  json jx;
  if (f.vs_jax) {
    json pj = params(full, f.seed);
    jx = run_script(f, "jax_ref.py", "JAX", pj);
  }
  for (Precision p : precisions(f)) {
    if (f.backend == Backend::cuda && p == Precision::f64) continue;  // the device path is float
    ops::Observations obs;
    const double t = seconds([&] { obs = engine_fn(full, p); });
    const double tput = full.trial_steps() / t;
    json r = {{"workload", name}, {"backend", to_string(f.backend)}, {"precision", engine::to_string(p)},
              {"threads", threads}, {"trial_steps", full.trial_steps()}, {"seconds", t},
              {"trial_steps_per_s", tput},
              {"gflops", tput * full.flops_per_trial_step() / 1e9}};
    if (f.backend == Backend::cpu) {
      r["reference_trial_steps_per_s"] = ref_tput;
      r["speedup_vs_reference"] = tput / ref_tput;
      // The per-trial state (state_words numbers) is read and written once per trial-step
      // when it does not fit in L1 (the op's cpu path streams it once per step).
      const double bytes = state_words * (p == Precision::f64 ? 8.0 : 4.0);
      const double l1 = double(engine::l1d_bytes());
      r["limit"] = limit_fraction(tput, normals_per_ts, full.flops_per_trial_step(),
                                  l1 > 0 && bytes > l1 ? 2.0 * bytes : 0.0, limits.at(p),
                                  engine::to_string(p));
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
        j["agreement"] = agree(engine_stats(full, obs), j["stats"]);
        j.erase("stats");
        j["trial_steps_per_s"] = jax_tput;
        if (j["agreement"]["agree"].template get<bool>()) r["speedup_vs_jax"] = tput / jax_tput;
        else failed = true;
      }
      r["jax"] = j;
    }
    out.push_back(r);
  }
  return out;
}

// W4 on the cpu backend: every host GEMM that loads here (Eigen's own products, OpenBLAS, BLIS),
// each in each precision, beside the plain reference in the same run; "default" marks what
// HostGemm::automatic runs.
json bench_w4(const BenchFlags& f, const ops::Deployed& w, const std::map<Precision, Limits>& limits,
              int threads) {
  Mat M0, D, X;
  ops::deployed_data(w, f.seed, M0, D, X);
  json out = json::array();
  ops::DeployedResult ref;
  double t_ref = 0.0;
  if (f.backend == Backend::cpu) t_ref = seconds([&] { ref = ops::deployed(w, M0, D, X, Backend::reference); });
  const double ref_flops = w.flops(true) + w.flops(false);
  if (f.backend == Backend::cuda) {  // untimed warm-up: context, cuBLAS handle, first allocations
    ops::Deployed small = w;
    small.m = small.n = small.batch = 64;
    Mat m0, d, x;
    ops::deployed_data(small, f.seed, m0, d, x);
    ops::deployed(small, m0, d, x, f.backend, ops::Exec{Precision::f32, threads});
  }
  std::vector<ops::HostGemm> gemms = {ops::HostGemm::automatic};  // cuda: one row per precision
  if (f.backend == Backend::cpu) {
    gemms.clear();
    for (auto g : {ops::HostGemm::eigen, ops::HostGemm::openblas, ops::HostGemm::blis})
      if (ops::host_gemm_available(g)) gemms.push_back(g);
  }
  for (Precision p : precisions(f)) {
    if (f.backend == Backend::cuda && p == Precision::f64) continue;
    for (ops::HostGemm g : gemms) {
      ops::DeployedResult r;
      const double t = seconds([&] { r = ops::deployed(w, M0, D, X, f.backend, ops::Exec{p, threads}, g); });
      json j = {{"workload", "W4"}, {"backend", to_string(f.backend)}, {"precision", engine::to_string(p)},
                {"threads", threads}, {"m", w.m}, {"n", w.n}, {"batch", w.batch},
                {"seconds_both_orders", t}, {"gflops", ref_flops / t / 1e9},
                {"orders_rel_diff", (r.gram - r.through_n).norm() / r.gram.norm()}};
      if (f.backend == Backend::cpu) {
        j["gemm"] = ops::to_string(g);
        j["default"] = g == ops::host_gemm_default();
        j["reference_gflops"] = ref_flops / t_ref / 1e9;
        j["speedup_vs_reference"] = t_ref / t;
        j["rel_diff_vs_reference"] = (r.gram - ref.gram).norm() / ref.gram.norm();
        const std::string ps = engine::to_string(p);
        const double fr = ref_flops / t / limits.at(p).fma;
        j["limit"] = {{"binding", "FMA peak"}, {"ceilings", {{"fma_" + ps, fr}}}, {"fraction_of_limit", fr}};
        // The per-call ceiling: one block's largest product (the rows of M in their blocks;
        // the G term ΔᵀX̂, k = N) as one call on one thread, against one core's FMA rate.
        const int rows = std::max(1, w.m / ops::host_gemm_row_blocks());
        const double g1 = ops::host_gemm_gflops(g, p, rows, w.n, w.batch);
        const double fr1 = g1 * 1e9 / limits.at(p).fma_one_core;
        j["one_call"] = {{"shape", fmt::format("{}×{}×{}", rows, w.n, w.batch)}, {"gflops", g1},
                         {"ceilings", {{"fma_one_core_" + ps, fr1}}}, {"fraction_of_one_core_fma", fr1}};
      }
      out.push_back(j);
    }
  }
  return out;
}

// W3 as `akm phase --measure` runs it (normalized key, n = 32, a side×side (η, β) grid): the
// shared-key engine (ops::phase_trials_shared_cpu) timed beside the per-point path on the
// same grid in the same run; "×ref" is shared over per-point keys. Flops per point-step: per
// coordinate v ← βv − ck (mul + FMA), ‖v‖² and v·k_{t+1} (an FMA each) = 7; the key (≈ 5n
// per step) is shared by the grid and left out.
json bench_phase_keys(const BenchFlags& f, int threads, const Limits& lim) {
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
  o.threads = threads;
  const double ts = double(eb.size()) * double(o.trials) * o.steps, flops = 7.0 * n;
  o.keys = phase::Keys::per_point;
  const double t_pp = seconds([&] { phase::measure(eb, lambda, lam_key, -1, o); });
  o.keys = phase::Keys::shared;
  const double t_sh = seconds([&] { phase::measure(eb, lambda, lam_key, -1, o); });
  const double tput = ts / t_sh;
  json r = {{"workload", "W3s"}, {"backend", "cpu"}, {"precision", "double"},
            {"threads", threads}, {"n", n}, {"points", eb.size()}, {"trials", o.trials},
            {"steps", o.steps}, {"trial_steps", ts}, {"seconds", t_sh},
            {"trial_steps_per_s", tput}, {"gflops", tput * flops / 1e9},
            {"reference", "per-point keys (akm phase --measure --keys per-point)"},
            {"reference_seconds", t_pp}, {"reference_trial_steps_per_s", ts / t_pp},
            {"speedup_vs_reference", t_pp / t_sh}};
  const double fr = tput * flops / lim.fma;
  r["limit"] = {{"binding", "FMA peak"}, {"ceilings", {{"fma_double", fr}}}, {"fraction_of_limit", fr}};
  return json::array({r});
}

std::string ratio(const json& r, const char* key) {
  return r.contains(key) ? fmt::format("{:.1f}×", r[key].get<double>()) : std::string("—");
}

int cmd_bench(const BenchFlags& f) {
  const bool all = f.workload == "all";
  if (!all && f.workload != "W1" && f.workload != "W2" && f.workload != "W3" && f.workload != "W4")
    throw InputError("--workload", f.workload, "one of W1, W2, W3, W4, all");
  if (f.precision != "double" && f.precision != "float" && f.precision != "both")
    throw InputError("--precision", f.precision, "double, float or both");
  if (f.threads < 0) throw InputError("--threads", std::to_string(f.threads), "≥ 0 (0: all)");
  if (f.backend == Backend::cuda) {
    cuda::require_usable();
    if (f.precision == "double")
      throw InputError("--precision", "double", "float on --backend cuda (the device path is float)");
  }
  if ((f.vs_numpy || f.vs_jax) && !std::filesystem::exists(f.python))
    throw InputError("--python", f.python, "an existing interpreter with numpy (apt python3-numpy)");
  if (f.vs_jax && f.precision == "double")
    throw InputError("--precision", "double", "float or both with --vs-jax (JAX runs float32)");
  const int threads = resolve_threads(f.threads);
  const Sizes s = make_sizes(f.quick);
  // "[i/N] stage · elapsed · ETA" on a terminal (stderr): the machine limits, then each workload.
  const std::size_t n_stages = all ? 5 : 2;
  RunProgress progress(n_stages, show_progress(f.quiet));
  std::size_t stage = 0;
  progress.begin(stage++, "limits", "clock, FMA peak, normal-variate rate, triad");

  const Ceilings c = measure_ceilings(threads, f.quick, f.backend);
  const std::map<Precision, Limits>& limits = c.limits;
  bool failed = false;
  json rows = json::array();
  auto add = [&](const json& a) {
    for (auto& r : a) rows.push_back(r);
  };
  const bool gpu = f.backend == Backend::cuda;
  if (all || f.workload == "W1") {
    progress.begin(stage++, "W1", "transport v ← v(βI − ηx̂x̂ᵀ)");
    add(bench_mc(f, "W1", s.w1, s.w1_ref, s.w1_np, s.w1.n, 0.0, ops::transport, limits, threads, failed));
  }
  if (all || f.workload == "W2") {
    progress.begin(stage++, "W2", "AK-SGD vs SGD-EMA least squares");
    // State: E and M of both optimizers, 4·m·n numbers.
    add(bench_mc(f, "W2", s.w2, s.w2_ref, s.w2_np, s.w2.n + s.w2.m, 4.0 * s.w2.m * s.w2.n, ops::ak_sgd_ema, limits,
                 threads, failed));
  }
  if (all || f.workload == "W3") {
    progress.begin(stage++, "W3", "stability grid over (η, β)");
    add(bench_mc(f, "W3", s.w3, s.w3_ref, s.w3_np, s.w3.n, 0.0, ops::phase_map, limits, threads, failed));
    // The phase-map kernel with keys shared across the grid, beside its per-point path.
    if (!gpu && f.precision != "float") add(bench_phase_keys(f, threads, limits.at(Precision::f64)));
  }
  if (all || f.workload == "W4") {
    progress.begin(stage++, "W4", "deployed batch rule, both contraction orders");
    add(bench_w4(f, s.w4, limits, threads));
  }

  // A ceiling that a workload of this run exceeds is contradicted: no fraction rests on it.
  json machine = c.machine;
  app::judge_ceilings(machine, rows);
  if (f.json_out) {
    std::cout << json{{"machine", machine}, {"quick", f.quick}, {"results", rows}}.dump(2) << "\n";
  } else {
    print_ceilings(machine);
    std::cout << fmt::format("{:<13} {:<7} {:>14} {:>9} {:>9} {:>8} {:>8} {:>17} {:>9}\n", "workload", "prec",
                             "trial-steps/s", "GFLOP/s", "×ref", "×NumPy", "×JAX", "limit (binding)",
                             "% limit");
    for (auto& r : rows) {
      const bool w4 = r["workload"] == "W4";
      const std::string tps = w4 ? "—" : fmt::format("{:.3e}", r["trial_steps_per_s"].get<double>());
      std::string lim = "—", frac = "—";
      if (r.contains("limit")) {
        lim = r["limit"]["binding"].get<std::string>();
        const json& fr = r["limit"]["fraction_of_limit"];
        frac = fr.is_number() ? fmt::format("{:.0f}%", 100 * fr.get<double>())
                              : r["limit"]["contradicted"].get<std::string>() + " contradicted";
      }
      // W4 rows name their GEMM (a "*" marks the one HostGemm::automatic runs).
      std::string label = r["workload"].get<std::string>();
      if (r.contains("gemm"))
        label += " " + r["gemm"].get<std::string>() + (r["default"].get<bool>() ? "*" : "");
      std::cout << fmt::format("{:<13} {:<7} {:>14} {:>9.2f} {:>9} {:>8} {:>8} {:>17} {:>9}\n",
                               label, r["precision"].get<std::string>(),
                               tps, r["gflops"].get<double>(), ratio(r, "speedup_vs_reference"),
                               ratio(r, "speedup_vs_numpy"), ratio(r, "speedup_vs_jax"), lim, frac);
      if (r.contains("one_call")) {
        const json& oc = r["one_call"];
        std::cout << fmt::format("     one block's product ({}, C = AᵀB) as one call on one thread: {:.1f} GFLOP/s "
                                 "= {} of one core's FMA rate\n", oc["shape"].get<std::string>(),
                                 oc["gflops"].get<double>(),
                                 oc["fraction_of_one_core_fma"].is_number()
                                     ? fmt::format("{:.0f}%", 100 * oc["fraction_of_one_core_fma"].get<double>())
                                     : std::string("(contradicted ceiling)"));
      }
      if (r.contains("numpy") && !r["numpy"]["agreement"]["agree"].get<bool>())
        std::cout << "     NumPy statistics disagree with the engine: its time is not counted\n";
      if (r.contains("jax") && r["jax"].contains("missing"))
        std::cout << "     JAX not timed: " << r["jax"]["missing"].get<std::string>() << "\n";
      else if (r.contains("jax") && !r["jax"]["agreement"]["agree"].get<bool>())
        std::cout << "     JAX statistics disagree with the engine: its time is not counted\n";
    }
    for (const auto& x : machine["contradicted_ceilings"])
      std::cout << fmt::format("note: {} measured {:.2f}× the {} ceiling on that ceiling's part alone, so it is "
                               "wrong (too low) on this run; no fraction rests on it\n",
                               x["exceeded_by"].get<std::string>(), x["measured_over_ceiling"].get<double>(),
                               x["ceiling"].get<std::string>());
  }
  return failed ? 1 : 0;
}

const RegisterCommand bench_cmd(70, "bench", [](CLI::App& app) -> Action {
  auto f = std::make_shared<BenchFlags>();
  auto* b = app.add_subcommand("bench", "throughput of workloads W1–W4 against references and machine limits");
  b->add_option("--workload", f->workload, "W1 | W2 | W3 | W4 | all")->capture_default_str();
  b->add_option_function<std::string>(
       "--backend", [f](const std::string& s) { f->backend = parse_backend(s, "--backend", {Backend::cpu, Backend::cuda}); },
       "cpu | cuda")->default_str(to_string(f->backend));
  b->add_option("--precision", f->precision, "double | float | both")->capture_default_str();
  b->add_option("--threads", f->threads, "worker threads (0: all)")->capture_default_str();
  b->add_option("--seed", f->seed, "seed")->capture_default_str();
  b->add_flag("--json", f->json_out, "JSON output");
  b->add_flag("--vs-numpy", f->vs_numpy, "also time the NumPy reference (W1–W3)");
  b->add_flag("--vs-jax", f->vs_jax, "also time a JAX vmap + jit version at the full size (W1–W3, float; --python must import jax)");
  b->add_option("--python", f->python, "interpreter for --vs-numpy and --vs-jax")->capture_default_str();
  b->add_flag("--quick", f->quick, "small sizes (seconds, for CI)");
  b->add_flag("--quiet", f->quiet, "no progress lines (drawn on stderr only when it is a terminal)");
  return [f] { return cmd_bench(*f); };
});

}  // namespace
}  // namespace akm::cli
