// status — claim statuses from checks (rules in the header).
#include "akm/check/status.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "normal.hpp"

namespace akm {

namespace {

using check_detail::kNaN;

// Resolutions come from Monte-Carlo checks only: an exact identity's "mde" is its
// floating-point slack, which says nothing about what the simulation can resolve.
bool statistical(const CheckRecord& r) {
  return is_monte_carlo(r) || r.z_one_sided > 0.0;
}

// The relative error in θ that the claim detects with power 0.9: the pooled recovery's
// (check/pooled.hpp) when the run has one for θ, since it reads every observable at once;
// otherwise the best single check's, min over evidence checks of mde / |derivative|.
double resolution(const Checks& checks, double CheckRecord::*derivative, const char* param) {
  bool pooled = false;
  for (const auto& r : checks.records()) pooled = pooled || r.recovers == param;
  double best = kNaN;
  for (const auto& r : checks.records()) {
    const double d = r.*derivative;
    if (pooled && r.recovers != param) continue;
    if (r.design || !statistical(r) || !std::isfinite(d) || d == 0.0 || !std::isfinite(r.mde)) continue;
    const double res = r.mde / std::abs(d);
    if (!(res >= best)) best = res;
  }
  return best;
}

std::string names_of_failed(const Checks& checks, bool design) {
  std::string out;
  int n = 0;
  for (const auto& r : checks.records()) {
    if (r.pass || r.design != design) continue;
    if (++n <= 3) out += (out.empty() ? "" : "; ") + r.name;
  }
  if (n > 3) out += fmt::format("; and {} more", n - 3);
  return out;
}

}  // namespace

std::string to_string(ClaimStatus s) {
  switch (s) {
    case ClaimStatus::Supported: return "SUPPORTED";
    case ClaimStatus::Corrected: return "CORRECTED";
    case ClaimStatus::Contradicted: return "CONTRADICTED";
    case ClaimStatus::NotReproducedAtScale: return "NOT REPRODUCED AT THIS SCALE";
    case ClaimStatus::Inconclusive: return "INCONCLUSIVE";
    case ClaimStatus::Reported: return "REPORTED";
    case ClaimStatus::NotTestableHere: return "NOT TESTABLE HERE";
    case ClaimStatus::NotTestedYet: return "NOT TESTED YET";
  }
  return "?";
}

ClaimStatus parse_claim_status(const std::string& text, const std::string& what) {
  std::string t = text;
  std::replace(t.begin(), t.end(), '_', ' ');
  std::replace(t.begin(), t.end(), '-', ' ');
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::toupper(c); });
  for (auto s : {ClaimStatus::Supported, ClaimStatus::Corrected, ClaimStatus::Contradicted,
                 ClaimStatus::NotReproducedAtScale, ClaimStatus::Inconclusive,
                 ClaimStatus::Reported})
    if (to_string(s) == t) return s;
  throw InputError(what, text,
                   "must be SUPPORTED, CORRECTED, CONTRADICTED, NOT_REPRODUCED_AT_THIS_SCALE, "
                   "INCONCLUSIVE or REPORTED");
}

nlohmann::json ClaimVerdict::to_json() const {
  nlohmann::json j = {{"status", to_string(status)},
          {"reason", reason},
          {"evidence_checks", n_evidence},
          {"discriminating_checks", n_discriminating},
          {"design_checks", n_design},
          {"failed_checks", n_failed},
          {"resolution",
           {{"prediction", number_or_null(resolution_prediction)},
            {"eta", number_or_null(resolution_eta)},
            {"beta", number_or_null(resolution_beta)},
            {"lambda", number_or_null(resolution_lambda)}}},
          {"basis", basis}};
  if (!checks_status.empty()) j["checks_status"] = checks_status;
  if (resolution_pooled) j["resolution"]["pooled"] = true;
  return j;
}

ClaimVerdict claim_verdict(const Checks& checks, ClaimKind kind,
                           const std::vector<std::string>& findings) {
  ClaimVerdict v;
  int failed_evidence = 0, failed_design = 0;
  v.resolution_prediction = kNaN;
  for (const auto& r : checks.records()) {
    (r.design ? v.n_design : v.n_evidence) += 1;
    v.n_discriminating += r.discriminates ? 1 : 0;
    if (!r.pass) (r.design ? failed_design : failed_evidence) += 1;
    if (!r.design && statistical(r) && r.predicted != 0.0 && std::isfinite(r.mde)) {
      const double rel = r.mde / std::abs(r.predicted);
      if (!(rel >= v.resolution_prediction)) v.resolution_prediction = rel;
    }
  }
  v.n_failed = failed_evidence + failed_design;
  v.resolution_eta = resolution(checks, &CheckRecord::d_ln_eta, "eta");
  v.resolution_beta = resolution(checks, &CheckRecord::d_ln_beta, "beta");
  v.resolution_lambda = resolution(checks, &CheckRecord::d_ln_lambda, "lambda");
  for (const auto& r : checks.records()) v.resolution_pooled = v.resolution_pooled || !r.recovers.empty();

  const std::string power = fmt::format("{} of {} evidence checks discriminate (power ≥ 0.9)",
                                        v.n_discriminating, v.n_evidence);
  if (kind == ClaimKind::Finding) {
    std::string text;
    for (const auto& f : findings) text += (text.empty() ? "" : "; ") + f;
    if (failed_design > 0) {
      v.status = ClaimStatus::Inconclusive;
      v.reason = "a design check failed, so the finding is not reported: " +
                 names_of_failed(checks, true);
    } else if (failed_evidence > 0) {
      v.status = ClaimStatus::Contradicted;
      v.reason = fmt::format("{} check(s) failed: {}", failed_evidence, names_of_failed(checks, false));
    } else {
      v.status = ClaimStatus::Reported;
      v.reason = text.empty() ? "measured finding (no pass rule)" : text;
    }
    return v;
  }
  if (failed_evidence > 0) {
    v.status = kind == ClaimKind::Empirical ? ClaimStatus::NotReproducedAtScale
                                            : ClaimStatus::Contradicted;
    v.reason = fmt::format("{} of {} evidence checks failed: {}", failed_evidence, v.n_evidence,
                           names_of_failed(checks, false));
  } else if (failed_design > 0) {
    v.status = ClaimStatus::Inconclusive;
    v.reason = "a design check failed, so the run cannot judge the claim: " +
               names_of_failed(checks, true);
  } else if (v.n_discriminating > 0) {
    v.status = ClaimStatus::Supported;
    v.reason = "every check passed; " + power;
  } else {
    v.status = ClaimStatus::Inconclusive;
    // An equivalence claim (check/equivalence.hpp) is undecided when its upper limit of |d|
    // exceeds the margin: nothing refutes it, nothing establishes it. Say that, with the
    // limits, rather than the generic power sentence.
    std::string undecided;
    for (const auto& r : checks.records())
      if (!r.design && std::isfinite(r.upper_limit) && !(r.upper_limit <= r.predicted))
        undecided += fmt::format("{}{:.3g} > {:.3g}", undecided.empty() ? "" : ", ", r.upper_limit,
                                 r.predicted);
    std::string direction;  // sign checks (Checks::sign) that did not establish their direction
    for (const auto& r : checks.records())
      if (!r.design && !r.refute_only && r.kind == "sign" && !sign_established(r))
        direction += fmt::format("{}{}: {} of {} seeds favourable, p = {:.3g} > level {:.3g}", direction.empty() ? "" : "; ",
                                 r.name, r.favourable, r.favourable + r.unfavourable, r.sign_p, r.level);
    if (!undecided.empty())
      v.reason = "no check refutes the claim, but equivalence is not established: the upper limit of |d| exceeds "
                 "the margin (" + undecided + "); " + power;
    else if (!direction.empty())
      v.reason = "no check refutes the claim, but no direction is established (" + direction + "); " + power;
    else
      v.reason = "every check passed but none has power ≥ 0.9 against its alternative; " + power;
  }
  return v;
}

std::string resolution_text(const nlohmann::json& resolution) {
  if (!resolution.is_object()) return "";
  std::string out;
  for (const auto& [key, symbol] : {std::pair{"eta", "η"}, std::pair{"beta", "β"}, std::pair{"lambda", "λ̂"}}) {
    const auto it = resolution.find(key);
    if (it == resolution.end() || !it->is_number()) continue;
    out += fmt::format("{}{} {:.2g}%", out.empty() ? "" : " · ", symbol, 100 * it->get<double>());
  }
  if (out.empty()) return "";
  const bool pooled = resolution.value("pooled", false);
  return out + (pooled ? " (pooled)" : " (best single check)");
}

}  // namespace akm
