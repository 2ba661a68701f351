// bench — the driver of `akm bench`: the engine's throughput on four Monte-Carlo ops against
// references measured in the same run — the plain reference engine, the machine's ceilings
// (FMA peak, normal-variate rate, L2 bandwidth; akm/app/bench_machine.hpp), (--vs-numpy) a
// NumPy implementation vectorized over trials and (--vs-jax) a JAX vmap + jit implementation
// at the full size (on a GPU where JAX has one).
//
// The ops run under the bench labels of docs/performance.md, which name them in the flags,
// the rows and the progress lines only: W1 the transport v ← v(βI − ηx̂x̂ᵀ) [lem:transport]
// (ops::transport), W2 AK-SGD beside SGD-EMA (ops::ak_sgd_ema), W3 the raw-key Lyapunov
// exponents on an (η, β) grid (ops::phase_map; W3s: `akm phase --measure`'s shared-key
// kernel beside its per-point path), W4 the deployed batch rule in both orders [eq:dispatch]
// (ops::deployed).
//
// Everything is timed in one process run, so the ratios share the machine's load at that
// moment: on a shared machine read the ratios, not the absolute rates.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/sim/backend.hpp"

namespace akm::bench {

/// Options of `akm bench` (the CLI flags of the same names).
struct Options {
  std::string workload = "all";  ///< W1 | W2 | W3 | W4 | all
  std::string precision = "both";  ///< double | float | both
  Backend backend = Backend::cpu;  ///< cpu or cuda (the CLI accepts these two)
  int threads = 0;  ///< worker threads (0: all)
  std::uint64_t seed = 1;  ///< seed of the counter streams
  bool vs_numpy = false;  ///< also time the NumPy reference (W1–W3)
  bool vs_jax = false;  ///< also time the JAX reference at the full size (W1–W3, float)
  bool quick = false;  ///< small sizes (seconds, for CI)
  std::string python = "/usr/bin/python3";  ///< interpreter for the NumPy and JAX references
  /// The folder of the reference scripts numpy_ref.py and jax_ref.py (the program passes its
  /// source tree's tests/bench).
  std::string scripts;
  bool progress = false;  ///< draw "[i/N] stage · elapsed · ETA" lines on stderr
};

/// The one validation of the options, before any work: refuses (InputError naming the flag,
/// the value and the valid choices) an unknown workload or precision, negative threads, a
/// cuda backend without a usable device or with double precision, a missing --python with
/// --vs-numpy or --vs-jax, and double precision with --vs-jax (JAX runs float32).
void validate(const Options& o);

/// What one run measured.
struct Result {
  nlohmann::json machine;  ///< the ceilings (bench_machine.hpp), judged (bench_ceilings.hpp)
  nlohmann::json rows = nlohmann::json::array();  ///< one row per workload, precision (and GEMM)
  bool quick = false;  ///< run with --quick sizes
  /// A reference (NumPy or JAX) disagreed statistically with the engine: the run fails.
  bool failed = false;
  /// `akm bench --json`: {"machine", "quick", "results"}.
  nlohmann::json to_json() const;
};

/// Measures the machine's ceilings, then runs the chosen workloads and their references and
/// judges the ceilings against them (app::judge_ceilings). Assumes validate(o) passed.
Result run(const Options& o);

}  // namespace akm::bench
