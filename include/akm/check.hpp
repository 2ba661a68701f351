// check — predicted vs measured with a tolerance fixed before the result is seen.
//
// A Monte-Carlo check passes when |measured − predicted| ≤ z·sqrt(se² + se_pred²) + bias,
// z from the declared family-wise false-alarm rate with Bonferroni over the run's
// Monte-Carlo comparisons (THEOREMS.md "How a check passes"). Algebraic identities pass at
// relative floating-point tolerance.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace akm {

struct CheckRecord {
  std::string name;
  std::string kind;          ///< "mc" | "family" | "exact" | "bound"
  double predicted = 0, measured = 0;
  double stderr_measured = 0, stderr_predicted = 0, bias_bound = 0;
  double tolerance = 0;      ///< set by finalize()
  long long comparisons = 1; ///< how many comparisons the record stands for (Bonferroni)
  double rel = 0, abs = 0;   ///< exact checks only
  bool pass = false;
};

/// Two-sided standard-normal quantile: z with P(|Z| > z) = p.
double z_two_sided(double p);

class Checks {
 public:
  explicit Checks(double family_alpha = 1e-6);

  /// Monte-Carlo comparison of a mean against its prediction.
  void mc(const std::string& name, double predicted, double measured, double se,
          double se_pred = 0.0, double bias_bound = 0.0);
  /// `comparisons` simultaneous Monte-Carlo comparisons summarized by the worst one
  /// (largest |m−p|/se); each counts toward Bonferroni.
  void mc_family(const std::string& name, double predicted, double measured, double se,
                 long long comparisons, double se_pred = 0.0, double bias_bound = 0.0);
  /// Algebraic identity: |m − p| ≤ rel·max(|p|, |m|) + abs.
  void exact(const std::string& name, double predicted, double measured, double rel = 1e-10,
             double abs = 0.0);
  /// Deterministic inequality claim: measured ≤ bound·(1 + rel) (e.g. a ceiling, a bracket).
  void at_most(const std::string& name, double bound, double measured, double rel = 1e-12);

  /// Computes z and every tolerance and verdict. Call once, after the last check.
  void finalize();
  double z() const { return z_; }
  double family_alpha() const { return alpha_; }
  bool all_pass() const;
  std::size_t size() const { return records_.size(); }
  const std::vector<CheckRecord>& records() const { return records_; }
  /// [{name, kind, predicted, measured, stderr, tolerance, pass, ...}]
  nlohmann::json to_json() const;

 private:
  double alpha_;
  double z_ = 0.0;
  bool finalized_ = false;
  std::vector<CheckRecord> records_;
};

}  // namespace akm
