// ledger_verdict — a verdict per ledger entry from the checks recorded in the experiments'
// summary.json, by the rules of the ledger's [rules] header (experiments/ledger.toml):
//
//   A check is evidence for an entry when it is not a design check and, if it is exact or a
//   deterministic bound (no recorded power), only when the statement is algebraic. Its power is
//   taken against the group's rival: the recorded power when the check's alternative_label is
//   the group's rival, computed from the recorded tolerance and standard error for a declared
//   rival value or relative effect, the design's assurance for an equivalence check (which is
//   evidence only once equivalence is established). A check discriminates when it passes with
//   power ≥ power_floor.
//   A group (one part or regime) SUPPORTS when it selects checks, none fails, its best power
//   is ≥ design_power_floor (and an equivalence design's assurance ≥ assurance_floor), and one
//   check discriminates. A failing evidence check FAILS the group; the verdict reports the model
//   comparison: how many standard errors the measurement lies from the statement's prediction
//   and from the rival's.
//   SUPPORTED      every evidence group supports;
//   CONTRADICTED   an evidence group fails (NOT REPRODUCED AT THIS SCALE for an empirical claim);
//   CORRECTED      every refute group rejects the statement as written (its checks pass with
//                  power against it, or recorded departures exceed the family z) and every
//                  evidence group supports the corrected text;
//   INCONCLUSIVE   otherwise (a design check failed, a part is not covered with power, or the
//                  design's power or assurance is below its floor: "by design");
//   REPORTED       a finding: its design checks pass and its numbers are the findings named;
//   NOT TESTABLE HERE / NOT TESTED YET  declared in the entry, with the reason.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/ledger.hpp"

namespace akm {

enum class LedgerStatus {
  Supported, Corrected, Contradicted, NotReproducedAtScale, Inconclusive, Reported, NotTestableHere, NotTestedYet
};
std::string to_string(LedgerStatus s);  ///< "SUPPORTED", "NOT TESTABLE HERE", …

/// What one group of checks showed.
enum class GroupOutcome { Supports, Fails, DesignFailed, ByDesign, Weak, Empty, NoResults };
std::string to_string(GroupOutcome o);

struct GroupResult {
  std::string part, experiment;
  GroupOutcome outcome = GroupOutcome::Empty;
  int selected = 0, evidence = 0, discriminating = 0, failed = 0, design_failed = 0;
  int exact_not_evidence = 0;  ///< exact / deterministic checks set aside (non-algebraic statement)
  double best_power = 0.0;
  double assurance = std::numeric_limits<double>::quiet_NaN();
  std::string detail;  ///< the numbers behind the outcome, from the recorded checks
  nlohmann::json to_json() const;
};

struct EntryVerdict {
  std::string label;
  LedgerStatus status = LedgerStatus::Inconclusive;
  std::string reason;
  std::vector<GroupResult> evidence, refute;
  std::vector<std::string> findings;
  nlohmann::json to_json() const;
};

/// One group against one experiment's summary.json (null: no results for it).
GroupResult evaluate_group(const LedgerGroup& g, StatementKind kind, const LedgerRules& rules,
                           const nlohmann::json& summary);

/// The verdict of one entry; `summaries` maps experiment ID → its summary.json.
EntryVerdict ledger_verdict(const LedgerEntry& e, const LedgerRules& rules,
                            const std::map<std::string, nlohmann::json>& summaries);

/// The roll-up of an experiment's entries: the most severe verdict, in the order
/// CONTRADICTED, NOT REPRODUCED AT THIS SCALE, INCONCLUSIVE, CORRECTED, SUPPORTED, REPORTED.
LedgerStatus roll_up(const std::vector<LedgerStatus>& verdicts);

}  // namespace akm
