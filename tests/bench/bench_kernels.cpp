// Google Benchmark of the engine's kernels: the batched normal generator against akm::Stream,
// and one W1/W2/W3 trial-step batch in double and float against the plain references.
// Build target `akm_bench_kernels` (when libbenchmark-dev is installed); run
// build/tests/bench/akm_bench_kernels. Items/s = normals (generator) or trial-steps.
#include <benchmark/benchmark.h>

#include <vector>

#include "akm/sim/engine/engine.hpp"
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

BENCHMARK_MAIN();
