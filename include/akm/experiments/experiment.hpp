// experiment — experiments registered by theorem ID, each producing checks, CSVs, figures
// and summary.json = {id, title, paper_labels, seed, version, quick, params, checks, pass,
// status, ledger}.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/base/version.hpp"
#include "akm/check/check.hpp"
#include "akm/check/status.hpp"
#include "akm/report/report.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/sim.hpp"

namespace akm {

/// Options of one run of experiments (the CLI flags of `akm run`).
struct RunOptions {
  bool quick = false;  ///< fewer trials, the same checks
  std::uint64_t seed = 20261122;  ///< seed of every counter stream
  int threads = 0;  ///< worker threads (0: all)
  std::filesystem::path out_root = "results";  ///< results folder: each experiment writes out_root/\<ID\>/
  bool progress = false;          ///< show progress on stderr
  double family_alpha = 1e-6;     ///< declared family-wise false-alarm rate per run
  /// Multiplies every Monte-Carlo claim's trials (experiments/common.hpp trials()); the
  /// tolerances and powers follow from the standard errors as at 1. In [1, kMaxTrialsScale].
  int trials_scale = 1;
  /// Who runs the Monte Carlo of the claims that run on ops (akm/sim/ops/); ops with no path
  /// there, and claims without Monte Carlo on ops, run on the CPU (summary.json "backend").
  Backend backend = Backend::cpu;
};

/// Largest --trials-scale: a thousand times the full run's trials is days of CPU already.
inline constexpr int kMaxTrialsScale = 1000;

/// What the registry knows about an experiment (`akm list`).
struct ExperimentInfo {
  std::string id;                         ///< "T1"
  std::string slug;                       ///< "fixed-point"
  std::string title;  ///< one-line title
  std::vector<std::string> paper_labels;  ///< e.g. {"thm:fixedpoint", ...}
  std::string claim;                      ///< one line, formula in plain text
};

/// What an experiment body sees: options, the output folder, its checks and params.
struct ExperimentContext {
  /// A context writing into `dir`, checking at the run's declared rate.
  ExperimentContext(const RunOptions& o, ResultDir& dir)
      : opts(o), out(dir), checks(o.family_alpha) {}
  const RunOptions& opts;  ///< the run's options
  ResultDir& out;  ///< the experiment's staged output folder
  Checks checks;  ///< the checks; finalized by run_experiment
  nlohmann::json params = nlohmann::json::object();  ///< everything needed to recompute
                                                     ///< every prediction without akm
  ClaimKind kind = ClaimKind::Theorem;    ///< set by the body before its checks (status.hpp)
  std::vector<std::string> findings;      ///< measured results, with numbers (summary.json
                                          ///< "findings"; a Finding's status reason)
  nlohmann::json gated = nlohmann::json::array();  ///< checks a pre-registered gate removed
  /// Set by trials() when the body draws Monte-Carlo trials that --trials-scale multiplies
  /// (summary.json "trials_scaled"; claims without such trials run as at scale 1).
  mutable bool trials_scaled = false;
  /// Set by backend() when the body runs its Monte Carlo on ops, on opts.backend.
  mutable bool on_ops = false;
  /// The backend for the body's ops (opts.backend), noting that the claim runs on ops.
  Backend backend() const {
    on_ops = true;
    return opts.backend;
  }
  /// The backend for ops that have a path on some backends only (`has`, e.g.
  /// ops::row_buffers_has): opts.backend where they have one (noted as backend() does), the
  /// cpu otherwise (noted in partly_own), so the claim runs and summary.json "ran_on"
  /// says "cpu", or "<backend> and cpu" when another of its ops ran on the backend.
  Backend backend_for(bool (*has)(Backend)) const { return backend_for(has(opts.backend)); }
  /// The same for an op whose paths depend on its settings too: `has` says whether opts.backend
  /// runs it (e.g. ops::transport_product_has(opts.backend, op)).
  Backend backend_for(bool has) const {
    if (has) return backend();
    partly_own = true;
    return Backend::cpu;
  }
  /// Set when a part of the body's Monte Carlo runs on the CPU whatever the backend (ops with
  /// no path there, backend_for): summary.json "ran_on" names both where another part ran on
  /// the backend.
  mutable bool partly_own = false;
  /// Records that a gate (docs/statistics.md, "Check rules") removed the check `name`, and why.
  void gate(const std::string& name, const std::string& reason);
  /// Monte-Carlo options with the run's threads and a progress line labelled `what`.
  McOptions mc(long long trials, const std::string& what, int groups = 0) const;
};

/// The body of an experiment: measures, checks and writes through the context.
using ExperimentBody = std::function<void(ExperimentContext&)>;

/// A registered experiment: its description and its body.
struct ExperimentEntry {
  ExperimentInfo info;  ///< ID, slug, title, labels, claim
  ExperimentBody body;  ///< the function that runs it
};

/// The registry of experiments, filled at static initialization by Registrar.
class Registry {
 public:
  /// The process-wide registry.
  static Registry& instance();
  /// Adds an experiment, keeping the entries sorted by ID.
  void add(ExperimentEntry e);
  const std::vector<ExperimentEntry>& all() const { return entries_; }  ///< sorted by ID
  /// Finds by ID ("T1") or slug ("fixed-point"), case-insensitive; nullptr if unknown.
  const ExperimentEntry* find(const std::string& id_or_slug) const;
  /// Same, but an unknown ID is an InputError naming ID and listing the known ones.
  const ExperimentEntry& require(const std::string& id_or_slug) const;

 private:
  std::vector<ExperimentEntry> entries_;
};

/// What a claim registers, by name (designated initializers), all fields required.
struct Registration {
  const char* id;      ///< "T1"
  const char* slug;    ///< "fixed-point"
  const char* title;   ///< one-line title
  const char* labels;  ///< the paper labels, space-separated: "thm:fixedpoint eq:dm-eigen"
  const char* claim;   ///< one line, formula in plain text
  ExperimentBody body;  ///< the function that runs it
};

/// Registers one experiment at static initialization. Each claim defines its body as an
/// ordinary function and registers it once, after the body:
///   static void t01_fixed_point(ExperimentContext& ctx) { ... }
///   const Registrar registration{{
///       .id = "T1",
///       .slug = "fixed-point",
///       .title = "title",
///       .labels = "thm:fixedpoint eq:dm-eigen",
///       .claim = "claim",
///       .body = t01_fixed_point,
///   }};
/// ctest and the docs read the IDs from `akm list --ids`, not from the sources.
struct Registrar {
  /// Adds the experiment to Registry::instance(); std::logic_error when a field is missing,
  /// the ID or slug is empty, or either is already registered.
  explicit Registrar(const Registration& r);
};

/// The outcome of run_experiment.
struct ExperimentOutcome {
  std::string id;  ///< experiment ID
  bool pass = false;  ///< every check passed
  ClaimVerdict verdict;  ///< the claim's status and its reason
  std::size_t n_checks = 0;  ///< number of checks
  std::size_t n_failed = 0;  ///< number of failed checks
  std::filesystem::path dir;  ///< the committed result folder
  /// The ledger statements it tests, each with its verdict from this run (summary.json's
  /// "ledger" array: StatementPart::to_json).
  nlohmann::json statements = nlohmann::json::array();
  bool trials_scaled = false;  ///< its Monte-Carlo trials were multiplied by --trials-scale
  /// Where its Monte Carlo ran: opts.backend when it runs on ops, else "cpu" (no Monte Carlo on ops).
  std::string ran_on = "cpu";
};

/// Runs one experiment end to end: body, finalize checks, summary.json, atomic commit.
ExperimentOutcome run_experiment(const ExperimentEntry& e, const RunOptions& opts);


}  // namespace akm
