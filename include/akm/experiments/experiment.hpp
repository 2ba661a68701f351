// experiment — experiments registered by theorem ID, each producing checks, CSVs, figures
// and summary.json = {id, title, paper_labels, seed, version, quick, params, checks, pass}.
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
#include "akm/sim/sim.hpp"

namespace akm {

struct RunOptions {
  bool quick = false;
  std::uint64_t seed = 20261122;
  int threads = 0;
  std::filesystem::path out_root = "results";
  bool progress = false;          ///< show progress on stderr
  double family_alpha = 1e-6;     ///< declared family-wise false-alarm rate per run
};

struct ExperimentInfo {
  std::string id;                         ///< "T1"
  std::string slug;                       ///< "fixed-point"
  std::string title;
  std::vector<std::string> paper_labels;  ///< e.g. {"thm:fixedpoint", ...}
  std::string claim;                      ///< one line, formula in plain text
};

/// What an experiment body sees: options, the output folder, its checks and params.
struct ExperimentContext {
  ExperimentContext(const RunOptions& o, ResultDir& dir)
      : opts(o), out(dir), checks(o.family_alpha) {}
  const RunOptions& opts;
  ResultDir& out;
  Checks checks;
  nlohmann::json params = nlohmann::json::object();  ///< everything needed to recompute
                                                     ///< every prediction without akm
  ClaimKind kind = ClaimKind::Theorem;    ///< set by the body before its checks (status.hpp)
  std::vector<std::string> findings;      ///< measured results, with numbers (summary.json
                                          ///< "findings"; a Finding's status reason)
  nlohmann::json gated = nlohmann::json::array();  ///< checks a pre-registered gate removed
  /// Records that a gate (README "Check rules") removed the check `name`, and why.
  void gate(const std::string& name, const std::string& reason);
  /// Monte-Carlo options with the run's threads and a progress line labelled `what`.
  McOptions mc(long long trials, const std::string& what, int groups = 0) const;
};

using ExperimentBody = std::function<void(ExperimentContext&)>;

struct ExperimentEntry {
  ExperimentInfo info;
  ExperimentBody body;
};

class Registry {
 public:
  static Registry& instance();
  void add(ExperimentEntry e);
  const std::vector<ExperimentEntry>& all() const { return entries_; }  ///< sorted by ID
  /// Finds by ID ("T1") or slug ("fixed-point"), case-insensitive; nullptr if unknown.
  const ExperimentEntry* find(const std::string& id_or_slug) const;
  /// Same, but an unknown ID is an InputError naming ID and listing the known ones.
  const ExperimentEntry& require(const std::string& id_or_slug) const;

 private:
  std::vector<ExperimentEntry> entries_;
};

/// Registers one experiment at static initialization. Each experiments/<id>_<slug>.cpp defines
/// its body as an ordinary function and registers it once, after the body:
///   static void t01_fixed_point(ExperimentContext& ctx) { ... }
///   const Registrar registration{"T1", "fixed-point", "title", "thm:fixedpoint eq:dm-eigen",
///                                "claim", t01_fixed_point};
/// tests/CMakeLists.txt reads the IDs from `Registrar registration{"ID"` (keep that spelling).
struct Registrar {
  /// `labels` is a space-separated list of paper labels.
  Registrar(const char* id, const char* slug, const char* title, const char* labels,
            const char* claim, ExperimentBody body);
};

struct ExperimentOutcome {
  std::string id;
  bool pass = false;
  ClaimVerdict verdict;
  std::size_t n_checks = 0, n_failed = 0;
  std::filesystem::path dir;
};

/// Runs one experiment end to end: body, finalize checks, summary.json, atomic commit.
ExperimentOutcome run_experiment(const ExperimentEntry& e, const RunOptions& opts);


}  // namespace akm
