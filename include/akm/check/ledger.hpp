// ledger — the claim ledger (experiments/ledger.toml): one entry per testable statement of the
// paper, keyed by its label (a sub-key names a part: "cor:mup-base-lr/ak-adamw"), written
// before the runs. An entry names the experiment checks that test it (check-name patterns and
// the rival each check must rule out), the statement's kind, the rival, the effect or margin
// and why, the decision rule and the regime covered; a corrected statement also carries the
// corrected text and the checks that reject the text as written. The verdict rules are in
// check/ledger_verdict.hpp; the floors they use are the ledger's [rules] header.
#pragma once
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace akm {

/// The decision floors of the ledger's [rules] header.
struct LedgerRules {
  double power_floor = 0.9;         ///< a check discriminates at power ≥ this against the rival
  double design_power_floor = 0.8;  ///< below this best power, INCONCLUSIVE by design
  double assurance_floor = 0.8;     ///< an equivalence design below this: INCONCLUSIVE by design
};

/// What kind of statement an entry is; it decides which checks are evidence for it.
enum class StatementKind {
  Algebraic,  ///< an identity or inequality: exact and deterministic checks are evidence
  Theorem,    ///< a predicted quantity: only statistical checks with power are evidence
  Empirical,  ///< a training-time claim on a small proxy (a failure: NOT REPRODUCED AT THIS SCALE)
  Finding,    ///< a measurement with no pass rule (REPORTED)
};

/// One part or regime of a statement and the checks that cover it.
struct LedgerGroup {
  std::string part;        ///< which part / regime of the statement
  std::string experiment;  ///< experiment ID (T1 … R2)
  std::vector<std::string> checks;  ///< check-name patterns ('*' any run, '?' one character)
  std::string rival;       ///< the recorded alternative_label the checks must rule out
  double rival_value = std::numeric_limits<double>::quiet_NaN();  ///< or a declared rival value
  double effect = std::numeric_limits<double>::quiet_NaN();       ///< or a declared relative effect
  std::string reason;      ///< why that rival value or effect (required with either)
  double predicted_min = -std::numeric_limits<double>::infinity();  ///< keep checks whose
  double predicted_max = std::numeric_limits<double>::infinity();   ///< prediction is in range
  std::string assurance;   ///< JSON pointer into params: the equivalence design's assurance
  // A refutation from recorded departures (params) instead of checks: the objects of the
  // array at `param` whose `param_filter` ("field=value") holds, compared by |param_z|
  // against the experiment's family z.
  /// \var param
  /// JSON pointer into params: the array of recorded departures (instead of `checks`).
  /// \var param_filter
  /// "field=value": only the departures whose field has that value ("": all of them).
  /// \var param_z
  /// The field of each departure holding its z, compared by |z| with the family z.
  std::string param, param_filter, param_z;
};

/// One testable statement of the paper: what it says, the rival it must rule out, the decision
/// rule, and the groups of checks that decide it (or why it is not tested).
struct LedgerEntry {
  std::string label;  ///< paper label, optionally "/part"
  StatementKind kind = StatementKind::Theorem;  ///< which checks count as evidence
  /// \var statement
  /// The statement as the paper words it (required).
  /// \var regime
  /// The regime the checks cover, in words (spectra, η, β, sizes).
  /// \var rival
  /// The rival prediction the statement must rule out (required unless a finding or untested).
  /// \var margin
  /// The effect or margin that separates statement and rival, and why.
  /// \var decision
  /// The decision rule in words (required unless a finding or untested).
  std::string statement, regime, rival, margin, decision;
  std::string corrected;     ///< the corrected statement (its evidence: `evidence`)
  std::string not_testable;  ///< why it cannot be tested here (verdict NOT TESTABLE HERE)
  std::string not_tested;    ///< why no experiment tests it yet (verdict NOT TESTED YET)
  std::string note;          ///< a remark, such as a change made after a run and its reason
  std::vector<LedgerGroup> evidence;  ///< supports the statement (or its corrected text)
  std::vector<LedgerGroup> refute;    ///< rejects the statement as written (corrected entries)
  std::vector<std::string> findings;  ///< patterns of the experiments' findings to report
  /// The base label (before any '/').
  std::string base_label() const;
  /// Every experiment ID the entry names, in order of first mention.
  std::vector<std::string> experiments() const;
};

/// The parsed ledger: its decision floors and its entries.
struct Ledger {
  LedgerRules rules;                 ///< the [rules] header
  std::vector<LedgerEntry> entries;  ///< the [[statement]] entries, in file order (labels unique)
};

/// "algebraic", "theorem", "empirical" or "finding" (the ledger's `kind` values).
std::string to_string(StatementKind k);

/// Parses ledger TOML; InputError names the offending key, its value and the valid range.
Ledger parse_ledger(const std::string& text, const std::string& source = "ledger");
/// Reads and parses a ledger file (InputError when it cannot be read).
Ledger read_ledger(const std::filesystem::path& file);

/// The text of experiments/ledger.toml as it was when akm was built (cmake/ledger_text.cmake).
std::string_view compiled_ledger_text();
/// The ledger compiled into akm, parsed once: the one `akm run`, `akm reproduce` and akm.run
/// judge the statements by (InputError, at first use, for a malformed ledger).
const Ledger& compiled_ledger();

/// Shell-style match of a whole name: '*' any run (also empty), '?' one character (UTF-8 aware).
bool glob_match(const std::string& pattern, const std::string& name);

}  // namespace akm
