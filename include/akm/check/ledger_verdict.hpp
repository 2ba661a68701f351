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
//
// Where an experiment reports (akm run, its summary.json) each statement it tests is judged
// from that experiment's part of the entry alone (statement_parts), naming the other
// experiments the full verdict also needs; its status is the roll-up of those verdicts
// (experiment_status):
//   the most severe verdict, in the order CONTRADICTED, NOT REPRODUCED AT THIS SCALE,
//   INCONCLUSIVE, CORRECTED, SUPPORTED, REPORTED (REPORTED only when every statement is a
//   finding); a failing check that no entry names makes it at least INCONCLUSIVE; an
//   experiment the ledger names nowhere keeps the status of its own checks (check/status.hpp).
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/ledger.hpp"
#include "akm/check/status.hpp"

namespace akm {

/// An entry's verdict (the rules at the top of this header): the claim statuses of
/// check/status.hpp, whose to_string gives the display name ("SUPPORTED", "NOT TESTABLE HERE").
using LedgerStatus = ClaimStatus;

/// What one group of checks showed.
enum class GroupOutcome { Supports, Fails, DesignFailed, ByDesign, Weak, Empty, NoResults };
std::string to_string(GroupOutcome o);  ///< "supports", "design check failed", …

/// One ledger group evaluated against its experiment's recorded checks: the counts behind its
/// outcome.
struct GroupResult {
  /// The group's part / regime (LedgerGroup::part).
  std::string part, experiment;  ///< The group's experiment ID.
  GroupOutcome outcome = GroupOutcome::Empty;  ///< what the group showed
  /// \var selected
  /// Checks the group's patterns select (within its predicted range); with `param`: departures.
  /// \var evidence
  /// Selected checks that are evidence (neither design checks nor set-aside exact checks).
  /// \var discriminating
  /// Evidence checks that pass with power ≥ power_floor against the rival (equivalence: once
  /// established).
  /// \var failed
  /// Evidence checks that fail.
  /// \var design_failed
  /// Design checks (and set-aside exact checks) that fail.
  int selected = 0, evidence = 0, discriminating = 0, failed = 0, design_failed = 0;
  int exact_not_evidence = 0;  ///< exact / deterministic checks set aside (non-algebraic statement)
  double best_power = 0.0;     ///< the largest power of an evidence check against the group's rival
  /// The equivalence design's assurance read from params (NaN: not declared or not recorded).
  double assurance = std::numeric_limits<double>::quiet_NaN();
  std::string detail;  ///< the numbers behind the outcome, from the recorded checks
  /// {part, experiment, outcome, counts, best_power, detail, assurance (null when NaN)}.
  nlohmann::json to_json() const;
};

/// The verdict of one ledger entry, with its groups' results and the reason in words.
struct EntryVerdict {
  std::string label;                                 ///< the entry's label
  LedgerStatus status = LedgerStatus::Inconclusive;  ///< the verdict
  std::string reason;  ///< why: the groups' numbers, the model comparison, or the declared reason
  /// The evidence groups' results, in the entry's order.
  std::vector<GroupResult> evidence, refute;  ///< The refute groups' results (corrected entries).
  std::vector<std::string> findings;  ///< a finding's matching recorded findings, as "ID: text"
  /// {label, verdict, reason, evidence, refute, findings}.
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

/// The short reason of a verdict, for one terminal line: how many parts support, or the first
/// part that does not and what it showed.
std::string short_reason(const EntryVerdict& v);

/// A statement as one experiment reports it: its verdict from that experiment's part of the
/// ledger entry alone, the check patterns that part names, and the other experiments the
/// statement's full verdict (`akm ledger`) also needs.
struct StatementPart {
  EntryVerdict verdict;                 ///< from this experiment's groups only
  std::string experiment;               ///< the reporting experiment
  std::vector<std::string> checks;      ///< the part's check-name patterns ("params<ptr>" for departures)
  std::vector<std::string> also_needs;  ///< the entry's other experiments (empty: the verdict is whole)
  /// The short reason, with "part: T4 only; also needs T10" when `also_needs` is not empty.
  std::string line_reason() const;
  /// {label, verdict, reason, short_reason, checks, also_needs, evidence, refute, findings}.
  nlohmann::json to_json() const;
};

/// The entry restricted to the groups that name experiment `id` (its part tested there).
LedgerEntry part_of(const LedgerEntry& e, const std::string& id);

/// Every ledger statement experiment `id` tests, in ledger (paper) order, each judged from `id`'s
/// summary.json alone with ledger_verdict (the code `akm ledger` uses).
std::vector<StatementPart> statement_parts(const Ledger& ledger, const std::string& id,
                                           const nlohmann::json& summary);

/// The experiment's status: `from_checks` (claim_verdict of its checks) with its status and
/// reason replaced by the roll-up of `parts` (rules at the top of this header); its counts and
/// resolutions are kept. `summary` supplies the recorded checks, for the failing checks no
/// statement names. No parts: `from_checks` unchanged.
ClaimVerdict experiment_status(const ClaimVerdict& from_checks, const std::vector<StatementPart>& parts,
                               const nlohmann::json& summary);

}  // namespace akm
