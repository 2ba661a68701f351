// akm bench — the command line of `akm bench`: its flags bound to bench::Options, the run to
// bench::run (akm/app/bench.hpp, the driver: workloads W1–W4 against the references and the
// machine's ceilings), and its output: the JSON contract (--json) or the table.
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "akm/app/bench.hpp"
#include "command.hpp"

namespace akm::cli {
namespace {

using json = nlohmann::json;

// The table's header lines: the machine, its generators and its FMA cross-checks.
void print_ceilings(const json& machine) {
  std::cout << fmt::format("machine: {}; {} threads, {}-bit SIMD, {}; FMA peak {:.1f} GFLOP/s (double) "
                           "{:.1f} (float); normals {:.0f} M/s (double) {:.0f} M/s (float); triad {:.1f} GB/s "
                           "(memory), {:.1f} GB/s (L2)\n",
                           machine["cpu_model"].get<std::string>(), machine["threads"].get<int>(),
                           machine["simd_bits"].get<int>(),
                           machine["clock_ghz"].is_null()
                               ? "clock not established (" + machine["clock_check"]["why_not"].get<std::string>() + ")"
                               : fmt::format("{:.2f} GHz", machine["clock_ghz"].get<double>()),
                           machine["fma_peak_gflops_double"].get<double>(), machine["fma_peak_gflops_float"].get<double>(),
                           machine["normals_per_s_double"].get<double>() / 1e6,
                           machine["normals_per_s_float"].get<double>() / 1e6, machine["triad_gbs"].get<double>(),
                           machine["l2_triad_gbs"].get<double>());
  for (const char* ps : {"double", "float"}) {
    std::string rates;
    for (const char* k : {"libmvec", "sleef", "ziggurat"})
      if (machine.contains(std::string("normals_per_s_") + ps + "_" + k))
        rates += fmt::format("{}{} {:.0f} M/s", rates.empty() ? "" : ", ", k,
                             machine[std::string("normals_per_s_") + ps + "_" + k].get<double>() / 1e6);
    if (!rates.empty())
      std::cout << fmt::format("normal variates ({}): {}; the engine uses {}, the ceiling is the fastest ({})\n", ps,
                               rates, machine[std::string("normals_engine_kernel_") + ps].get<std::string>(),
                               machine[std::string("normals_fastest_kernel_") + ps].get<std::string>());
    const json& x = machine[std::string("fma_cross_check_") + ps];
    if (x["documented_gflops_per_core"].is_null())
      std::cout << fmt::format("FMA ceiling ({}): one core {:.1f} GFLOP/s, not cross-checked: {}\n", ps,
                               x["one_core_gflops"].get<double>(), x["why_not_cross_checked"].get<std::string>());
    else if (x["documented_contradicted"].get<bool>())
      std::cout << fmt::format("FMA ceiling ({}): one core {:.1f} GFLOP/s, {:.2f}× the documented {:.1f} of the {} row "
                               "({}): more than the hardware of that row allows, so this core is not that row's "
                               "(a virtual machine may report another model); the measured rate is the ceiling\n", ps,
                               x["one_core_gflops"].get<double>(), x["measured_over_documented"].get<double>(),
                               x["documented_gflops_per_core"].get<double>(), x["core"].get<std::string>(),
                               x["formula"].get<std::string>());
    else
      std::cout << fmt::format("FMA ceiling ({}): one core {:.1f} GFLOP/s = {:.2f}× the documented {:.1f} ({}: {}); "
                               "the ceiling is the {}\n", ps,
                               x["one_core_gflops"].get<double>(), x["measured_over_documented"].get<double>(),
                               x["documented_gflops_per_core"].get<double>(), x["core"].get<std::string>(),
                               x["formula"].get<std::string>(),
                               machine[std::string("fma_ceiling_source_") + ps].get<std::string>());
  }
  if (machine.contains("device_ceilings")) {  // --backend cuda: measured on the device (docs/cuda.md)
    const json& d = machine["device_ceilings"];
    std::cout << fmt::format("device {}: FMA {:.1f} TFLOP/s (float); triad {:.0f} GB/s, copy {:.0f} GB/s; normals "
                             "{:.3g}/s (float stream), {:.3g}/s (double); measured (CUDA events, best of {})\n",
                             d["device"].get<std::string>(), d["fma_gflops_float"].get<double>() / 1e3,
                             d["triad_gbs"].get<double>(), d["copy_gbs"].get<double>(),
                             d["normals_per_s_float"].get<double>(), d["normals_per_s_double"].get<double>(),
                             d["kernels"]["fma"]["repeats"].get<int>());
  }
}

std::string ratio(const json& r, const char* key) {
  return r.contains(key) ? fmt::format("{:.1f}×", r[key].get<double>()) : std::string("—");
}

// The table: the machine's header lines, one line per row, and the notes on its references and
// on every contradicted ceiling.
void print_table(const json& machine, const json& rows) {
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
    if (r.contains("kernel_gflops")) {  // W4 on cuda: the GEMMs alone, and the per-call path's A/B
      const json& u = r["uncached"];
      std::cout << fmt::format("     GEMMs alone (CUDA events): {:.1f} GFLOP/s; the per-call path (uncached): {:.1f} "
                               "GFLOP/s end to end, {:.1f} GEMMs alone; cached {:.2f}× faster end to end\n",
                               r["kernel_gflops"].get<double>(), u["gflops"].get<double>(),
                               u["kernel_gflops"].get<double>(), r["cached_speedup_vs_uncached"].get<double>());
    }
    if (r.contains("thread_per_trial_kernel"))  // W1 on cuda: the earlier kernel's A/B
      std::cout << fmt::format("     the thread-per-trial kernel: {:.3e} trial-steps/s; warp per trial {:.2f}× faster\n",
                               r["thread_per_trial_kernel"]["trial_steps_per_s"].get<double>(),
                               r["warp_speedup_vs_thread_per_trial"].get<double>());
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

// What the command line adds to bench::Options: the output's form and --quiet.
struct BenchState {
  bench::Options o;
  bool json_out = false, quiet = false;
};

const RegisterCommand bench_cmd(70, "bench", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<BenchState>();
  bench::Options& o = st->o;
  o.scripts = std::string(AKM_SOURCE_DIR) + "/tests/bench";
  auto* b = app.add_subcommand("bench", "throughput of workloads W1–W4 against references and machine limits");
  b->add_option("--workload", o.workload, "W1 | W2 | W3 | W4 | all")->capture_default_str();
  b->add_option_function<std::string>(
       "--backend", [&o](const std::string& s) { o.backend = parse_backend(s, "--backend", {Backend::cpu, Backend::cuda}); },
       "cpu | cuda")->default_str(to_string(o.backend));
  b->add_option("--precision", o.precision, "double | float | both")->capture_default_str();
  b->add_option("--threads", o.threads, "worker threads (0: all)")->capture_default_str();
  b->add_option("--seed", o.seed, "seed")->capture_default_str();
  b->add_flag("--json", st->json_out, "JSON output");
  b->add_flag("--vs-numpy", o.vs_numpy, "also time the NumPy reference (W1–W3)");
  b->add_flag("--vs-jax", o.vs_jax, "also time a JAX vmap + jit version at the full size (W1–W3, float; --python must import jax)");
  b->add_option("--python", o.python, "interpreter for --vs-numpy and --vs-jax")->capture_default_str();
  b->add_flag("--quick", o.quick, "small sizes (seconds, for CI)");
  b->add_flag("--quiet", st->quiet, "no progress lines (drawn on stderr only when it is a terminal)");
  return Plan{[st] { bench::validate(st->o); },
              [st] {
                st->o.progress = show_progress(st->quiet);
                const bench::Result r = bench::run(st->o);
                if (st->json_out) std::cout << r.to_json().dump(2) << "\n";
                else print_table(r.machine, r.rows);
                return r.failed ? 1 : 0;
              }};
});

}  // namespace
}  // namespace akm::cli
