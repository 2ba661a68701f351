// status — a claim's verdict from its checks, by rules fixed before any run (README "Claim
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

enum class ClaimStatus { Supported, Contradicted, NotReproducedAtScale, Inconclusive, Reported };

std::string to_string(ClaimStatus s);  ///< "SUPPORTED", "NOT REPRODUCED AT THIS SCALE", …
/// Inverse of to_string, also accepting '_' or '-' for spaces; InputError names `what`.
ClaimStatus parse_claim_status(const std::string& text, const std::string& what);

struct ClaimVerdict {
  ClaimStatus status = ClaimStatus::Inconclusive;
  std::string reason;
  int n_evidence = 0, n_discriminating = 0, n_design = 0, n_failed = 0;
  /// Smallest relative error of a prediction, and of η, β, λ̂, that some evidence check
  /// detects with power 0.9 (NaN where no check informs it).
  double resolution_prediction, resolution_eta, resolution_beta, resolution_lambda;
  nlohmann::json to_json() const;
};

/// Applies the rules of the header to finalized checks; `findings` are the measured
/// results a Finding reports (its reason), ignored otherwise.
ClaimVerdict claim_verdict(const Checks& checks, ClaimKind kind,
                           const std::vector<std::string>& findings = {});

}  // namespace akm
