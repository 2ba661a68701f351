// check — predicted vs measured with a tolerance fixed before the result is seen.
//
// A Monte-Carlo check passes when |measured − predicted| ≤ z·sqrt(se² + se_pred²) + bias,
// z from the declared family-wise false-alarm rate with Bonferroni over the run's
// Monte-Carlo comparisons (docs/statistics.md, "How a check passes"). Algebraic identities pass at
// relative floating-point tolerance.
//
// Skewed means. When a check knows more about its estimate (MeanEstimate: the skewness g of
// the mean's sampling distribution and the degrees of freedom of its error), the normal
// quantile z becomes the Student-t quantile q and the interval is corrected for skewness by
// Hall's (1992) monotone cubic transformation of the standardized deviation T = (m − p)/s,
//   f(T) = ((1 + cT)³ − 1)/(3c) + g/6,
// with c = g/3 for a studentized mean (sample error: the Edgeworth term (g/6)(2T²+1)) and
// c = −g/6 when s is an exact error (term −(g/6)(T²−1)); the check passes when |f(T)| ≤ q,
// i.e. T in [f⁻¹(−q), f⁻¹(q)], an interval that is asymmetric about 0. Why: the false-alarm
// audit (tests/audit) found that with a few hundred trials of a skewed observable (χ²-like
// projections, products of key entries) the plain z interval fails 5–100× more often than
// declared at Bonferroni z ≈ 4–6; with the correction the rate is the declared one (test
// Check.SkewCorrectedIntervalHoldsItsRate).
#pragma once
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/sim/mean_estimate.hpp"

namespace akm {

/// The skew-corrected standardized deviation f(T) of measured − predicted (header): for a
/// family, the worst comparison is the one with the largest |f(T)|.
double corrected_deviation(double measured_minus_predicted, double se_total, const MeanEstimate& e);

/// One check as summary.json records it: prediction, measurement, errors, tolerance, verdict and power.
struct CheckRecord {
  std::string name;  ///< check name (unique within the run)
  std::string kind;          ///< "mc" | "family" | "exact" | "bound" | "sign"
  double predicted = 0;  ///< the prediction
  double measured = 0;  ///< the measurement
  double stderr_measured = 0;  ///< standard error of the measurement
  double stderr_predicted = 0;  ///< standard error of the prediction (0 when exact)
  double bias_bound = 0;  ///< declared deterministic remainder added to the tolerance
  double skew = 0;           ///< skewness of the measured mean (0: normal)
  double dof = std::numeric_limits<double>::infinity();  ///< degrees of freedom of the error (∞: normal quantile)
  bool se_exact = false;  ///< the standard error is exact, not estimated
  double tolerance = 0;      ///< set by finalize(): max of the two sides below
  double tol_below = 0;  ///< pass iff −tol_below ≤ measured − predicted
  double tol_above = 0;  ///< pass iff measured − predicted ≤ tol_above
  long long comparisons = 1; ///< how many comparisons the record stands for (Bonferroni)
  double rel = 0;  ///< relative slack (exact checks only)
  double abs = 0;  ///< absolute slack (exact checks only)
  double z_one_sided = 0;    ///< mc_at_most only: z of the lower limit m − z·se
  bool pass = false;  ///< the verdict

  // What the check can tell (check/power.hpp, docs/statistics.md, "Claim statuses"); set by finalize().
  bool design = false;       ///< checks the run's set-up, never evidence for the claim
  /// Can refute the claim when it fails, but is never evidence for it when it passes (a
  /// one-sided check of a two-sided claim, e.g. T19's trend check of a flat basin).
  bool refute_only = false;
  double alternative = std::numeric_limits<double>::quiet_NaN();  ///< named alternative value
  std::string alternative_label;                                  ///< e.g. "EMA"
  double effect = std::numeric_limits<double>::quiet_NaN();  ///< declared relative effect
  double d_ln_eta = std::numeric_limits<double>::quiet_NaN();     ///< ∂predicted/∂ln η
  double d_ln_beta = std::numeric_limits<double>::quiet_NaN();    ///< ∂predicted/∂ln β
  double d_ln_lambda = std::numeric_limits<double>::quiet_NaN();  ///< ∂predicted/∂ln λ̂ (or κ)
  /// A pooled recovery (check/pooled.hpp): the parameter it estimates ("eta", "beta",
  /// "lambda"); empty for every other check. The claim's resolution comes from these.
  std::string recovers;
  double power = std::numeric_limits<double>::quiet_NaN();  ///< P(fail | alternative true)
  double mde = std::numeric_limits<double>::quiet_NaN();    ///< |Δ| failed with power 0.9
  bool discriminates = false;  ///< evidence with power ≥ 0.9 against its alternative
  /// Equivalence checks only (check/equivalence.hpp): the largest upper limit of |d| and the
  /// TOST level α_e; the check is evidence only when upper_limit ≤ the bound (the margin).
  double upper_limit = std::numeric_limits<double>::quiet_NaN();
  double equivalence_alpha = std::numeric_limits<double>::quiet_NaN();  ///< TOST level α_e of an equivalence check
  /// Sign checks only (Checks::sign): seeds that went the claimed way and the other way
  /// (ties dropped), the design's per-seed probability of a favourable seed, the exact
  /// two-sided sign-test p-value and the per-comparison level it is judged at.
  int favourable = 0;
  int unfavourable = 0;            ///< (see favourable)
  double p_design = std::numeric_limits<double>::quiet_NaN();  ///< (see favourable)
  double sign_p = std::numeric_limits<double>::quiet_NaN();    ///< (see favourable)
  double level = std::numeric_limits<double>::quiet_NaN();     ///< (see favourable)
};

/// A Monte-Carlo comparison ("mc" or "family"), as opposed to "exact" and "bound".
bool is_monte_carlo(const CheckRecord& r);
/// A comparison that shares the run's family-wise rate (Bonferroni): the Monte-Carlo ones
/// and the sign checks.
bool in_family(const CheckRecord& r);
/// A sign check established its direction: significant at its level, the claimed way.
bool sign_established(const CheckRecord& r);
/// √(se_measured² + se_predicted²): the standard error of measured − predicted, the one
/// scale that both the tolerance (check_judge.cpp) and the power of a check (power.cpp) use.
double combined_se(const CheckRecord& r);
/// A number for summary.json, null when it is NaN or infinite.
nlohmann::json number_or_null(double v);

/// Two-sided standard-normal quantile: z with P(|Z| > z) = p.
double z_two_sided(double p);

/// The checks of one run: added as the experiment measures, finalized once (z, tolerances, verdicts, power).
class Checks {
 public:
  /// Checks at the declared family-wise false-alarm rate `family_alpha` (Bonferroni over the Monte-Carlo comparisons).
  explicit Checks(double family_alpha = 1e-6);

  /// Monte-Carlo comparison of a mean against its prediction.
  Checks& mc(const std::string& name, double predicted, double measured, double se,
          double se_pred = 0.0, double bias_bound = 0.0);
  /// `comparisons` simultaneous Monte-Carlo comparisons summarized by the worst one
  /// (largest |m−p|/se); each counts toward Bonferroni.
  Checks& mc_family(const std::string& name, double predicted, double measured, double se,
                 long long comparisons, double se_pred = 0.0, double bias_bound = 0.0);
  /// The same with the estimate's skewness and degrees of freedom (header).
  Checks& mc(const std::string& name, double predicted, const MeanEstimate& measured,
          double se_pred = 0.0, double bias_bound = 0.0);
  /// mc_family() with the estimate's skewness and degrees of freedom.
  Checks& mc_family(const std::string& name, double predicted, const MeanEstimate& measured,
                 long long comparisons, double se_pred = 0.0, double bias_bound = 0.0);
  /// A directional claim over paired seeds, judged by the exact two-sided sign test
  /// (check/paired.hpp) at the run's per-comparison level (it counts once toward
  /// Bonferroni): it fails when the seeds go significantly against the claim and is evidence
  /// only when they go significantly its way. Its power is the design's: the probability of
  /// establishing the direction when each seed is favourable with probability p_design
  /// (declared before the run). favourable, unfavourable ≥ 0, p_design ∈ (½, 1].
  Checks& sign(const std::string& name, int favourable, int unfavourable, double p_design);
  /// Algebraic identity: |m − p| ≤ rel·max(|p|, |m|) + abs.
  Checks& exact(const std::string& name, double predicted, double measured, double rel = 1e-10,
             double abs = 0.0);
  /// Deterministic inequality claim: measured ≤ bound·(1 + rel) (e.g. a ceiling, a bracket).
  Checks& at_most(const std::string& name, double bound, double measured, double rel = 1e-12);

  // Power annotations of the check added last (check/power.hpp). Call before finalize().
  /// The alternative the check must rule out (for AK claims usually the EMA prediction).
  Checks& against(double alternative, const std::string& label);
  /// Without an alternative: the relative error of the prediction the check must detect
  /// (default kDeclaredEffect, declared before the run).
  Checks& effect(double relative);
  /// Derivatives of the prediction in ln η, ln β, ln λ̂ (NaN where it does not depend): the
  /// claim's resolution in each parameter is mde / |derivative|.
  Checks& sensitivity(double d_ln_eta, double d_ln_beta, double d_ln_lambda);
  /// The check added last is the pooled recovery of parameter `param` (CheckRecord::recovers).
  Checks& recovers(const std::string& param);
  /// The bound check added last compares a Monte-Carlo lower limit m − z·se (one_sided.hpp).
  Checks& lower_limit_of(double se, double z);
  /// The bound check added last is an equivalence test (check/equivalence.hpp): the largest
  /// upper limit of |d| and the TOST level α_e ∈ (0, 0.5).
  Checks& equivalence(double upper_limit, double alpha);
  /// The check tests the run's design (a generator, a set-up identity), not the claim.
  Checks& design();
  /// The check can refute the claim but never supports it (CheckRecord::refute_only).
  Checks& refute_only();

  /// Computes z and every tolerance and verdict. Call once, after the last check.
  void finalize();
  /// The Bonferroni z of the run (after finalize()).
  double z() const { return z_; }
  /// The declared family-wise false-alarm rate.
  double family_alpha() const { return alpha_; }
  /// Every check passed (after finalize()).
  bool all_pass() const;
  /// Number of checks.
  std::size_t size() const { return records_.size(); }
  /// Every check, in the order added.
  const std::vector<CheckRecord>& records() const { return records_; }
  /// [{name, kind, predicted, measured, stderr, tolerance, pass, ...}]
  nlohmann::json to_json() const;

 private:
  double alpha_;
  double z_ = 0.0;
  bool finalized_ = false;
  std::vector<CheckRecord> records_;
  /// A new record of `kind` named `name` (one comparison), refused after finalize().
  CheckRecord& add(const std::string& name, const char* kind);
  /// The record added last, for the annotations; refused after finalize().
  CheckRecord& last(const char* what);
};

}  // namespace akm
