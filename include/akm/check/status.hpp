// status — a claim's verdict from its checks, by rules fixed before any run (docs/statistics.md, "Claim
// statuses"). Checks keep pass/fail; the status says what the run supports:
//   SUPPORTED      every check passed and at least one evidence check discriminates
//                  (power ≥ 0.9 against its alternative, check/power.hpp);
//   CONTRADICTED   an evidence check failed (a theorem's prediction is off beyond its
//                  tolerance, whatever the alternative);
//   NOT REPRODUCED AT THIS SCALE  an evidence check of an empirical training claim failed
//                  on the simulation-scale proxy (the paper's setting is larger);
//   INCONCLUSIVE   every check passed but none discriminates, or a design check failed;
//   REPORTED       a measured finding with no pass rule (its numbers are in the reason);
//                  its design checks still pass or fail the run.
// These are the rules of an experiment's own checks. The status an experiment reports is the
// roll-up of the claim ledger's verdicts on the statements it tests (check/ledger_verdict.hpp,
// experiment_status); the rules above decide it only for an experiment the ledger names
// nowhere. One enumeration serves both: a ledger verdict is a ClaimStatus (LedgerStatus).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/check.hpp"

namespace akm {

/// What kind of claim an experiment tests (fixed by the experiment, before its run).
enum class ClaimKind {
  Theorem,    ///< a closed form or bound of the paper (or an extension's derivation)
  Empirical,  ///< a training-time observation of the paper, tested on a small proxy
  Finding,    ///< a measurement with no pass rule (e.g. an optimizer gap)
};

/// The status of a claim or a paper statement (docs/statistics.md, Claim statuses; docs/ledger.md).
/// CORRECTED comes from the ledger alone (the statement as written fails, its corrected text is
/// supported); NOT TESTABLE HERE and NOT TESTED YET are declared in a ledger entry and are never
/// an experiment's status.
enum class ClaimStatus {
  Supported, Corrected, Contradicted, NotReproducedAtScale, Inconclusive, Reported, NotTestableHere, NotTestedYet
};

std::string to_string(ClaimStatus s);  ///< "SUPPORTED", "NOT REPRODUCED AT THIS SCALE", …
/// Inverse of to_string for an experiment's status (every status but the two declared ones),
/// also accepting '_' or '-' for spaces; InputError names `what`.
ClaimStatus parse_claim_status(const std::string& text, const std::string& what);

/// A claim's status, its reason and the counts it was decided from.
struct ClaimVerdict {
  ClaimStatus status = ClaimStatus::Inconclusive;  ///< the status
  std::string reason;  ///< why, in one sentence with numbers
  int n_evidence = 0;  ///< evidence checks
  int n_discriminating = 0;  ///< evidence checks that discriminate
  int n_design = 0;  ///< design checks
  int n_failed = 0;  ///< failed checks
  /// Smallest relative error of a prediction, and of η, β, λ̂, that some evidence check
  /// detects with power 0.9 (NaN where no check informs it).
  double resolution_prediction;  ///< smallest detectable relative error of a prediction
  double resolution_eta;  ///< of η
  double resolution_beta;  ///< of β
  double resolution_lambda;  ///< of λ̂
  bool resolution_pooled = false;  ///< the resolutions come from pooled recoveries (check/pooled.hpp)
  /// What decided `status`: "checks" (the rules of this header) or "ledger" (the roll-up of
  /// the ledger statements the experiment tests, check/ledger_verdict.hpp).
  std::string basis = "checks";
  /// With basis "ledger": the status its own checks give by the rules of this header.
  std::string checks_status;
  /// The verdict as summary.json's `status` object.
  nlohmann::json to_json() const;
};

/// Applies the rules of the header to finalized checks; `findings` are the measured
/// results a Finding reports (its reason), ignored otherwise.
ClaimVerdict claim_verdict(const Checks& checks, ClaimKind kind,
                           const std::vector<std::string>& findings = {});

/// A claim's resolution for people: "η 0.40% · β 0.0012% · λ̂ 0.40% (pooled)" from the
/// `resolution` object of ClaimVerdict::to_json() (the parameters with a finite value;
/// "(pooled)" when they come from pooled recoveries, "(best single check)" otherwise); empty
/// when no parameter has one. The terminal line of `akm run`, the report's index and claim
/// pages all print this one text.
std::string resolution_text(const nlohmann::json& resolution);

}  // namespace akm
