// Google Benchmark of the engine's kernels: the batched normal generator against akm::Stream,
// one W1/W2/W3 trial-step batch in double and float against the plain references, and the
// phase-map kernel with per-point and shared keys; the ceilings `akm bench` divides by (FMA
// loop, one core; STREAM triad).
// Build target `akm_bench_kernels` (when libbenchmark-dev is installed); run
// build/tests/bench/akm_bench_kernels. Items/s = normals (generator) or trial-steps.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "akm/sim/engine/engine.hpp"
#include "akm/sim/engine/limits.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/workloads.hpp"

using namespace akm;
using engine::Precision;

static void BM_StreamNormal(benchmark::State& st) {
  Stream s(1, 0, Purpose::keys);
  for (auto _ : st) benchmark::DoNotOptimize(s.normal());
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_StreamNormal);

template <class T>
static void BM_NormalStreamFill(benchmark::State& st) {
  engine::NormalStream s(1, 0, Purpose::keys);
  std::vector<T> buf(st.range(0));
  for (auto _ : st) {
    s.fill(buf.data(), int(buf.size()));
    benchmark::DoNotOptimize(buf.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}
BENCHMARK_TEMPLATE(BM_NormalStreamFill, double)->Arg(32)->Arg(64)->Arg(256);
BENCHMARK_TEMPLATE(BM_NormalStreamFill, float)->Arg(32)->Arg(64)->Arg(256);

static void BM_W1(benchmark::State& st) {
  wl::W1 w;
  w.trials = 16;
  w.steps = 200;
  const int mode = int(st.range(0));  // 0 reference, 1 engine double, 2 engine float
  for (auto _ : st) {
    auto o = mode == 0 ? wl::w1_reference(w, 1, 1)
                       : engine::w1(w, 1, 1, mode == 1 ? Precision::f64 : Precision::f32);
    benchmark::DoNotOptimize(o.values.data());
  }
  st.SetItemsProcessed(st.iterations() * (long long)w.trial_steps());
  st.SetLabel(mode == 0 ? "reference" : mode == 1 ? "engine double" : "engine float");
}
BENCHMARK(BM_W1)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

static void BM_W2(benchmark::State& st) {
  wl::W2 w;
  w.trials = 2;
  w.steps = 200;
  const int mode = int(st.range(0));
  for (auto _ : st) {
    auto o = mode == 0 ? wl::w2_reference(w, 1, 1)
                       : engine::w2(w, 1, 1, mode == 1 ? Precision::f64 : Precision::f32);
    benchmark::DoNotOptimize(o.values.data());
  }
  st.SetItemsProcessed(st.iterations() * (long long)w.trial_steps());
  st.SetLabel(mode == 0 ? "reference" : mode == 1 ? "engine double" : "engine float");
}
BENCHMARK(BM_W2)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

static void BM_W3(benchmark::State& st) {
  wl::W3 w;
  w.n_eta = 1;
  w.n_beta = 2;
  w.trials = 8;
  w.steps = 200;
  const int mode = int(st.range(0));
  for (auto _ : st) {
    auto o = mode == 0 ? wl::w3_reference(w, 1, 1)
                       : engine::w3(w, 1, 1, mode == 1 ? Precision::f64 : Precision::f32);
    benchmark::DoNotOptimize(o.values.data());
  }
  st.SetItemsProcessed(st.iterations() * (long long)w.trial_steps());
  st.SetLabel(mode == 0 ? "reference" : mode == 1 ? "engine double" : "engine float");
}
BENCHMARK(BM_W3)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// `akm phase --measure` kernels, n = 32, normalized keys, 200 steps, one trial of a grid of
// range(1) points: per-point keys (engine::phase_trial per point) against keys shared by the
// grid (engine::phase_shared, issue 17). Items/s = point-steps, so the per-point cost of a
// 16- and a 1024-point grid compare directly.
static void BM_PhaseMeasure(benchmark::State& st) {
  const int n = 32, count = int(st.range(1));
  const bool shared = st.range(0) == 1;
  std::vector<double> sl(n);
  for (int i = 0; i < n; ++i) sl[i] = 1.0 / std::sqrt(i + 1.0);
  phase::MeasureOptions o;
  o.steps = 200;
  std::vector<phase::PointPlan> pts(count);
  for (int q = 0; q < count; ++q) pts[q] = {0.1 + 1.5 * q / count, 0.5 + 0.49 * ((q * 7) % count) / count, 0, 10, 1};
  std::vector<phase::TrialResult> out(count);
  std::uint64_t trial = 0;
  for (auto _ : st) {
    if (shared) {
      engine::phase_shared(sl.data(), n, o, pts.data(), count, 1, trial, out.data());
    } else {
      for (int q = 0; q < count; ++q)
        out[q] = engine::phase_trial(sl.data(), n, o, pts[q].beta, pts[q].eta, 0, 10, 1, trial);
    }
    benchmark::DoNotOptimize(out.data());
    ++trial;
  }
  st.SetItemsProcessed(st.iterations() * (long long)count * o.steps);
  st.SetLabel(shared ? "shared keys" : "per-point keys");
}
BENCHMARK(BM_PhaseMeasure)->ArgsProduct({{0, 1}, {16, 1024}})->Unit(benchmark::kMillisecond);

// The FMA ceiling on one core: counters GFLOP/s and the documented rate's ratio where known.
static void BM_FmaPeakOneCore(benchmark::State& st) {
  const Precision p = st.range(0) ? Precision::f32 : Precision::f64;
  double r = 0;
  for (auto _ : st) r = engine::fma_peak(p, 1, 0.1);
  st.counters["GFLOP/s"] = r / 1e9;
  const auto doc = engine::documented_fma(p);
  const double hz = engine::clock_hz(0.05);
  if (doc.flops_per_cycle > 0 && hz > 0) st.counters["of_documented"] = r / (doc.flops_per_cycle * hz);
  st.SetLabel(p == Precision::f64 ? "double" : "float");
}
BENCHMARK(BM_FmaPeakOneCore)->Arg(0)->Arg(1)->Iterations(3)->Unit(benchmark::kMillisecond);

static void BM_Triad(benchmark::State& st) {
  double r = 0;
  for (auto _ : st) r = engine::triad_bandwidth(1, 0.1, std::size_t(1) << 23);
  st.counters["GB/s"] = r / 1e9;
}
BENCHMARK(BM_Triad)->Iterations(3)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
