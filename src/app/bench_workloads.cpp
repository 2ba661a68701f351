// bench_workloads — the ops `akm bench` times, at their sizes, under their bench labels, and
// as the reference scripts see them (bench_parts.hpp).
#include <string>

#include "bench_parts.hpp"

namespace akm::bench {

Sizes make_sizes(bool quick) {
  Sizes s;
  auto& [transport, ak, map, deployed] = s;
  if (quick) {
    transport.full.trials = 256;
    transport.full.steps = 200;
    ak.full.trials = 32;
    ak.full.steps = 200;
    map.full.n_eta = map.full.n_beta = 8;
    map.full.trials = 32;
    map.full.steps = 200;
    deployed.m = deployed.n = 256;
    deployed.batch = 1024;
  }
  transport.reference = transport.full;
  transport.reference.trials = quick ? 8 : 64;
  ak.reference = ak.full;
  ak.reference.trials = quick ? 2 : 8;
  map.reference = map.full;
  map.reference.n_eta = 1;
  map.reference.n_beta = 4;
  map.reference.trials = quick ? 4 : 64;
  transport.numpy = transport.full;
  transport.numpy.trials = quick ? 512 : 4096;
  transport.numpy.steps = quick ? 50 : 200;
  ak.numpy = ak.full;
  ak.numpy.trials = quick ? 64 : 256;
  ak.numpy.steps = quick ? 50 : 200;
  map.numpy = map.full;
  map.numpy.n_eta = map.numpy.n_beta = quick ? 4 : 8;
  map.numpy.trials = quick ? 64 : 256;
  map.numpy.steps = quick ? 50 : 200;
  return s;
}

const char* label(const ops::Transport&) { return "W1"; }
const char* label(const ops::AkSgdEma&) { return "W2"; }
const char* label(const ops::PhaseMap&) { return "W3"; }

json params(const ops::Transport& w, std::uint64_t seed) {
  return {{"workload", label(w)}, {"n", w.n}, {"trials", w.trials}, {"steps", w.steps},
          {"beta", w.beta}, {"eta", w.eta}, {"seed", seed}};
}
json params(const ops::AkSgdEma& w, std::uint64_t seed) {
  return {{"workload", label(w)}, {"m", w.m}, {"n", w.n}, {"trials", w.trials}, {"steps", w.steps},
          {"alpha", w.alpha}, {"beta", w.beta}, {"eta", w.eta}, {"sigma", w.sigma}, {"seed", seed}};
}
json params(const ops::PhaseMap& w, std::uint64_t seed) {
  return {{"workload", label(w)}, {"n", w.n}, {"n_eta", w.n_eta}, {"n_beta", w.n_beta},
          {"trials", w.trials}, {"steps", w.steps}, {"renorm", w.renorm},
          {"eta_max", w.eta_max}, {"seed", seed}};
}

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

std::vector<engine::Precision> precisions(const Options& o) {
  if (o.precision == "double") return {engine::Precision::f64};
  if (o.precision == "float") return {engine::Precision::f32};
  return {engine::Precision::f64, engine::Precision::f32};
}

}  // namespace akm::bench
