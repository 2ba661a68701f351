// bench_device — see akm/app/bench_device.hpp.
#include "akm/app/bench_device.hpp"

#include <algorithm>
#include <string>

namespace akm::bench {

using json = nlohmann::json;

namespace {

json rate_json(const cuda::Rate& r, const char* unit) {
  return {{"per_s", r.per_s}, {"unit", unit}, {"best_seconds", r.best_seconds}, {"work_per_launch", r.work},
          {"repeats", r.repeats}, {"blocks", r.blocks}, {"threads", r.threads}};
}

}  // namespace

json device_ceilings_json(const cuda::DeviceCeilings& d) {
  return {{"device", d.device},
          {"multiprocessors", d.multiprocessors},
          {"fma_gflops_float", d.fma.per_s / 1e9},
          {"triad_gbs", d.triad.per_s / 1e9},
          {"copy_gbs", d.copy.per_s / 1e9},
          {"normals_per_s_float", d.normals_float.per_s},
          {"normals_per_s_double", d.normals_double.per_s},
          {"array_bytes", d.array_bytes},
          {"normals_check_float", d.normals_check_float},
          {"normals_check_double", d.normals_check_double},
          {"timing", "CUDA events, best of the repeats after one untimed launch"},
          {"kernels",
           {{"fma", rate_json(d.fma, "flop")},
            {"triad", rate_json(d.triad, "byte")},
            {"copy", rate_json(d.copy, "byte")},
            {"normals_float", rate_json(d.normals_float, "normal")},
            {"normals_double", rate_json(d.normals_double, "normal")}}}};
}

json device_limit(double tput, double normals_per_ts, double flops_per_ts, const cuda::DeviceCeilings& d) {
  const double t_n = d.normals_float.per_s > 0 ? normals_per_ts / d.normals_float.per_s : 0.0;
  const double t_f = d.fma.per_s > 0 ? flops_per_ts / d.fma.per_s : 0.0;
  const double t = t_n + t_f, share = t > 0 ? t_n / t : 0.0;
  const std::string binding = share >= 0.9 ? "normal variates" : share <= 0.1 ? "FMA peak" : "normals + FMA";
  json ceilings = json::object();
  if (t_n > 0) ceilings["device_normals_float"] = tput * t_n;
  if (t_f > 0) ceilings["device_fma_float"] = tput * t_f;
  return {{"binding", binding}, {"ceilings", ceilings},
          {"seconds_per_trial_step", {{"normals", t_n}, {"flops", t_f}}},
          {"limit_trial_steps_per_s", t > 0 ? 1.0 / t : 0.0},
          {"fraction_of_limit", tput * t}};
}

json device_gemm_limit(double flops_per_s, const cuda::DeviceCeilings& d) {
  const double fr = d.fma.per_s > 0 ? flops_per_s / d.fma.per_s : 0.0;
  return {{"binding", "FMA peak"}, {"ceilings", {{"device_fma_float", fr}}}, {"fraction_of_limit", fr}};
}

}  // namespace akm::bench
