// bench_machine — see akm/app/bench_machine.hpp.
#include "akm/app/bench_machine.hpp"

#include <fstream>

#include <fmt/format.h>

#include "akm/app/bench_device.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/engine/limits.hpp"

namespace akm::bench {

using engine::Precision;
using json = nlohmann::json;

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      std::string v = line.substr(line.find(':') + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  return "unknown";
}

Ceilings measure_ceilings(int threads, bool quick, Backend backend) {
  Ceilings c;
  std::map<Precision, Limits>& limits = c.limits;
  json& machine = c.machine;
  machine = {{"threads", threads}, {"simd_bits", 8 * engine::simd_bytes()}, {"cpu_model", cpu_model_name()}};
  const double dt = quick ? 0.2 : 0.5;
  // The clock is printed and used only when its cross-checks agree (akm/sim/engine/limits.hpp).
  const engine::ClockReading reading = engine::read_clock(dt);
  const double clock = reading.consistent ? reading.hz : 0.0;
  machine["clock_ghz"] = reading.consistent ? json(reading.hz / 1e9) : json(nullptr);
  machine["clock_check"] = {{"imul_chain_ghz", reading.hz / 1e9},
                            {"add_immediate_chain_ghz", reading.add_chain_hz / 1e9},
                            {"fma_latency_cycles", reading.fma_latency},
                            {"cpuinfo_ghz", reading.cpuinfo_hz / 1e9},
                            {"consistent", reading.consistent},
                            {"why_not", reading.why}};
  for (Precision p : {Precision::f64, Precision::f32}) {
    const std::string ps = engine::to_string(p);
    // The normal-variate ceiling is the fastest exact generator available here: the engine's
    // kernel, every other Box–Muller kernel this build has (libmvec, SLEEF) and the ziggurat
    // (another exact method on the same Philox words, not the engine's), each timed.
    const engine::NormalKernel used = engine::engine_kernel(p);
    double normals = engine::normal_peak(p, threads, dt, used);
    std::string fastest = engine::to_string(used);
    machine["normals_engine_kernel_" + ps] = fastest;
    for (engine::NormalKernel k : {engine::NormalKernel::libmvec, engine::NormalKernel::sleef}) {
      if (!engine::available(k)) continue;
      const double r = k == used ? normals : engine::normal_peak(p, threads, dt, k);
      machine["normals_per_s_" + ps + "_" + engine::to_string(k)] = r;
      if (r > normals) normals = r, fastest = engine::to_string(k);
    }
    const double zig = engine::ziggurat_peak(p, threads, dt);
    machine["normals_per_s_" + ps + "_ziggurat"] = zig;
    if (zig > normals) normals = zig, fastest = "ziggurat";
    const double measured = engine::fma_peak(p, threads, dt);
    limits[p] = {measured, normals, 0.0, 0.0};
    machine["normals_per_s_" + ps] = limits[p].normals;
    machine["normals_fastest_kernel_" + ps] = fastest;
    // Cross-check of the FMA ceiling: one core's loop against the documented rate at the
    // measured clock (a ratio, not a fraction of a limit: a value near 1 says the loop
    // saturates every FMA pipe).
    const double one_core = engine::fma_peak(p, 1, dt);
    limits[p].fma_one_core = one_core;
    const engine::DocumentedFma doc = engine::documented_fma(p);
    json x = {{"one_core_gflops", one_core / 1e9}, {"all_threads_gflops", measured / 1e9}};
    std::string source = "measured loop";
    if (doc.flops_per_cycle > 0 && clock > 0) {
      const double per_core = doc.flops_per_cycle * clock;
      x["core"] = doc.core;
      x["documented_gflops_per_core"] = per_core / 1e9;
      x["formula"] = fmt::format("{} FMA pipes × {} lanes × 2 × {:.2f} GHz", doc.pipes, doc.lanes, clock / 1e9);
      x["measured_over_documented"] = one_core / per_core;
      // A loop cannot beat the hardware: measured well above the documented rate means the
      // table's row is not this core's (a hypervisor can report another model, and CPUID does
      // not tell a Xeon E's two 512-bit FMA units from a client core's one). 15% covers the
      // clock's turbo drift between the two readings.
      const bool contradicted = one_core > 1.15 * per_core;
      x["documented_contradicted"] = contradicted;
      // A ceiling is the most the machine can do: where the documented row stands, the ceiling
      // is the larger of it and the loop, which can only read low (a loop the compiler spilled
      // read a third of a Zen 4 core's rate, and W4's GEMM then beat that "peak").
      if (!contradicted) {
        if (per_core * threads > limits[p].fma) limits[p].fma = per_core * threads, source = "documented rate";
        if (per_core > limits[p].fma_one_core) limits[p].fma_one_core = per_core;
      }
    } else {
      x["documented_gflops_per_core"] = nullptr;
      x["why_not_cross_checked"] =
          clock > 0 ? fmt::format("no documented {}-bit FMA rate for {} (akm/sim/engine/limits.hpp)",
                                  8 * engine::simd_bytes(), doc.core)
                    : "no clock established: " + reading.why;
    }
    machine["fma_peak_gflops_" + ps] = limits[p].fma / 1e9;
    machine["fma_ceiling_source_" + ps] = source;
    machine["fma_cross_check_" + ps] = x;
  }
  // Memory ceiling: a STREAM triad over 3 × 2^24 doubles (384 MiB; 3 × 2^22 in --quick), far
  // beyond any cache, for workloads that stream memory.
  machine["triad_gbs"] = engine::triad_bandwidth(threads, dt, quick ? std::size_t(1) << 22 : std::size_t(1) << 24) / 1e9;
  // L2: a triad of 3 × 16384 doubles (384 KiB) per thread, past any L1 and within any L2 of
  // the cores akm runs on (≥ 512 KiB per core).
  const double l2 = engine::triad_bandwidth(threads, dt, std::size_t(threads) * 16384);
  machine["l2_triad_gbs"] = l2 / 1e9;
  machine["l1d_bytes"] = engine::l1d_bytes();
  for (auto& [p, lim] : limits) lim.l2 = l2;
  if (backend == Backend::cuda) {
    machine["device"] = cuda::device_name();
    machine["device_fp32_peak_gflops"] = cuda::device_fp32_peak() / 1e9;
    machine["device_mem_bandwidth_gbs"] = cuda::device_mem_bandwidth() / 1e9;
    c.device = cuda::measure_device_ceilings(quick);
    machine["device_ceilings"] = device_ceilings_json(c.device);
  }
  return c;
}

}  // namespace akm::bench
