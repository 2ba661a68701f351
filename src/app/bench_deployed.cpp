// bench_deployed — the deployed batch rule of `akm bench` (W4, both contraction orders
// [eq:dispatch]): on the cpu backend every host GEMM that loads here (Eigen's own products,
// OpenBLAS, BLIS), each in each precision, beside the plain reference in the same run;
// "default" marks what HostGemm::automatic runs (bench_parts.hpp). On cuda each row carries,
// beside the end-to-end time (host copies included), the GEMMs alone (CUDA events), and the
// earlier per-call path (Deployed::cached = false) timed in the same run, same size and seed:
// the cached context's A/B.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "akm/app/bench_device.hpp"
#include "bench_parts.hpp"

namespace akm::bench {

using engine::Precision;

json bench_deployed(Context& c, const ops::Deployed& w) {
  const Options& f = c.options;
  Mat M0, D, X;
  ops::deployed_data(w, f.seed, M0, D, X);
  json out = json::array();
  ops::DeployedResult ref;
  double t_ref = 0.0;
  if (f.backend == Backend::cpu) t_ref = seconds([&] { ref = ops::deployed(w, M0, D, X, Backend::reference); });
  const double ref_flops = w.flops(true) + w.flops(false);
  // Untimed warm-up at the full size: the CUDA context, cuBLAS's kernels, and the cached path's
  // handle, buffers and pinned staging, so the timed call is what a caller repeating the update
  // sees. The per-call path below still makes its own handle and buffers: that is its cost.
  if (f.backend == Backend::cuda) ops::deployed(w, M0, D, X, f.backend, ops::Exec{Precision::f32, c.threads});
  json uncached;
  if (f.backend == Backend::cuda) {
    ops::Deployed per_call = w;
    per_call.cached = false;
    ops::DeployedResult r;
    const ops::Exec e{Precision::f32, c.threads};
    const double t = seconds([&] { r = ops::deployed(per_call, M0, D, X, f.backend, e); });
    uncached = {{"seconds_both_orders", t}, {"gflops", ref_flops / t / 1e9},
                {"kernel_seconds_both_orders", r.kernel_seconds},
                {"kernel_gflops", ref_flops / r.kernel_seconds / 1e9}};
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
      const double t = seconds([&] { r = ops::deployed(w, M0, D, X, f.backend, ops::Exec{p, c.threads}, g); });
      json j = {{"workload", "W4"}, {"backend", to_string(f.backend)}, {"precision", engine::to_string(p)},
                {"threads", c.threads}, {"m", w.m}, {"n", w.n}, {"batch", w.batch},
                {"seconds_both_orders", t}, {"gflops", ref_flops / t / 1e9},
                {"orders_rel_diff", (r.gram - r.through_n).norm() / r.gram.norm()}};
      if (f.backend == Backend::cpu) {
        j["gemm"] = ops::to_string(g);
        j["default"] = g == ops::host_gemm_default();
        j["reference_gflops"] = ref_flops / t_ref / 1e9;
        j["speedup_vs_reference"] = t_ref / t;
        j["rel_diff_vs_reference"] = (r.gram - ref.gram).norm() / ref.gram.norm();
        const std::string ps = engine::to_string(p);
        const double fr = ref_flops / t / c.limits.at(p).fma;
        j["limit"] = {{"binding", "FMA peak"}, {"ceilings", {{"fma_" + ps, fr}}}, {"fraction_of_limit", fr}};
        // The per-call ceiling: one block's largest product (the rows of M in their blocks;
        // the G term ΔᵀX̂, k = N) as one call on one thread, against one core's FMA rate.
        const int rows = std::max(1, w.m / ops::host_gemm_row_blocks());
        const double g1 = ops::host_gemm_gflops(g, p, rows, w.n, w.batch);
        const double fr1 = g1 * 1e9 / c.limits.at(p).fma_one_core;
        j["one_call"] = {{"shape", fmt::format("{}×{}×{}", rows, w.n, w.batch)}, {"gflops", g1},
                         {"ceilings", {{"fma_one_core_" + ps, fr1}}}, {"fraction_of_one_core_fma", fr1}};
      } else if (f.backend == Backend::cuda) {
        // The GEMMs alone, same flop count: the rate the kernels reach without the copies.
        j["cached"] = w.cached;
        j["kernel_timing"] = "CUDA events around each order's GEMMs (no copies, conversions or allocations)";
        j["kernel_seconds_both_orders"] = r.kernel_seconds;
        j["kernel_gflops"] = ref_flops / r.kernel_seconds / 1e9;
        j["uncached"] = uncached;
        j["cached_speedup_vs_uncached"] = uncached["seconds_both_orders"].get<double>() / t;
        if (c.device) {  // the device's measured FMA rate (akm/app/bench_device.hpp)
          j["limit"] = device_gemm_limit(ref_flops / t, *c.device);
          j["kernel_limit"] = device_gemm_limit(ref_flops / r.kernel_seconds, *c.device);
        }
      }
      out.push_back(j);
    }
  }
  return out;
}

}  // namespace akm::bench
