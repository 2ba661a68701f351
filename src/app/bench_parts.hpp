// bench_parts — what the sources of `akm bench`'s driver share (private to src/app/bench_*.cpp):
// the ops' sizes, their parameters as the reference scripts read them, the references, and
// one timing function per kind of workload. The public driver is akm/app/bench.hpp.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/app/bench.hpp"
#include "akm/app/bench_machine.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/ops/ak_sgd_ema.hpp"
#include "akm/sim/ops/deployed.hpp"
#include "akm/sim/ops/phase_map.hpp"
#include "akm/sim/ops/transport.hpp"

namespace akm::bench {

using json = nlohmann::json;

/// Wall-clock seconds that fn() takes.
template <class Fn>
double seconds(Fn&& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// One trial-step op at the size timed, and the slices of it that the plain reference and
/// NumPy run (fewer trials or steps, same per-trial-step work), compared by throughput.
template <class Op>
struct Slices {
  Op full, reference, numpy;
};

/// Every op the bench times (bench_workloads.cpp).
struct Sizes {
  Slices<ops::Transport> transport;
  Slices<ops::AkSgdEma> ak_sgd_ema;
  Slices<ops::PhaseMap> phase_map;
  ops::Deployed deployed;
};

/// Full sizes are docs/performance.md's; quick: small ones (seconds, for CI).
Sizes make_sizes(bool quick);

/// The op's bench label (W1, W2, W3), as rows, progress lines and the scripts name it.
const char* label(const ops::Transport&);
const char* label(const ops::AkSgdEma&);
const char* label(const ops::PhaseMap&);

/// The op's parameters as tests/bench/numpy_ref.py and jax_ref.py read them.
json params(const ops::Transport& op, std::uint64_t seed);
json params(const ops::AkSgdEma& op, std::uint64_t seed);
json params(const ops::PhaseMap& op, std::uint64_t seed);

/// The engine's statistics of one run under the names numpy_ref.py prints.
json engine_stats(const ops::Transport& op, const ops::Observations& o);
json engine_stats(const ops::AkSgdEma& op, const ops::Observations& o);
json engine_stats(const ops::PhaseMap& op, const ops::Observations& o);

/// Runs `<o.scripts>/<script>` '<params JSON>' under o.python and parses its one JSON line
/// (bench_references.cpp). Exit 3 from the script means its library is missing: returned as
/// {"missing": "<what> is not importable by <python>"}.
json run_script(const Options& o, const std::string& script, const std::string& what, const json& p);

/// Agreement of two sets of statistics {name: [mean, se]}: every one within z·√(se₁² + se₂²), z
/// the Bonferroni quantile for a family false-alarm rate of 1e-6 over the statistics compared.
json agree(const json& a, const json& b);

/// The precisions --precision names, double first.
std::vector<engine::Precision> precisions(const Options& o);

/// What every workload's timing reads: the options, the resolved thread count, the ceilings
/// of each precision; `failed` is set when a reference disagrees with the engine.
struct Context {
  const Options& options;
  int threads;
  const std::map<engine::Precision, Limits>& limits;
  bool failed = false;
  const cuda::DeviceCeilings* device = nullptr;  ///< the device's ceilings (--backend cuda)
};

/// The trial-step ops, each row against the reference, NumPy, JAX and its limit
/// (bench_trial_steps.cpp). W2's per-trial state (E and M of both optimizers, 4·m·n numbers)
/// streams through L2 when it outgrows L1.
json bench_transport(Context& c, const Slices<ops::Transport>& s);
json bench_ak_sgd_ema(Context& c, const Slices<ops::AkSgdEma>& s);
json bench_phase_map(Context& c, const Slices<ops::PhaseMap>& s);

/// The deployed rule, one row per precision and host GEMM (bench_deployed.cpp).
json bench_deployed(Context& c, const ops::Deployed& op);

/// `akm phase --measure`'s shared-key kernel beside its per-point path (bench_shared_keys.cpp).
json bench_shared_keys(Context& c);

}  // namespace akm::bench
