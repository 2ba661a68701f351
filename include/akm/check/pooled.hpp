// pooled — recovery of η, β and the λ̂ scale from all of a claim's Monte-Carlo observables.
//
// Each check of a claim resolves a percent-level error in η, β or λ̂ only as well as its own
// standard error allows; a claim has hundreds of observables and the evidence is in all of
// them together. Pooled recovery combines them: for a relative error ε = ln θ_sim − ln θ_paper
// in one parameter θ (the others at their values), the prediction of observable i moves by
// d_i ε with d_i = ∂p_i/∂ln θ (the sensitivities the checks already record,
// experiments/sensitivity.hpp), so the weighted least-squares estimate
//   ε̂ = Σ_i w_i d_i (o_i − p_i) / Σ_i w_i d_i²,   w_i = 1/se_i²,
// recovers ε from every observable at once. The weights are a working choice (the marginal
// standard errors); the observables share trials, so ε̂'s error is not the one the weights
// would suggest: it is computed by the delete-one-group jackknife of ε̂ itself over each
// run's trial groups (sim/jackknife.hpp), which carries every correlation between the
// observables of a run. Runs are independent, so their contributions add, and so do their
// variances and third cumulants (docs/statistics.md, "Pooled recovery").
//
// The recovery is a Monte-Carlo check like any other: predicted ε = 0, measured ε̂, in the
// run's Bonferroni family; its minimum detectable effect is the claim's resolution in θ
// (check/status.hpp). One parameter at a time: in many claims η and λ̂ enter only through
// β̃ = β − ηλ̂, so their joint fit is not identified, while each alone is.
#pragma once
#include <limits>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/check/check.hpp"
#include "akm/sim/jackknife.hpp"

namespace akm {

/// The parameter a pooled recovery estimates: η, β or the scale of λ̂ (λ for the raw key).
enum class PooledParam { eta = 0, beta = 1, lambda = 2 };

/// "eta", "beta", "lambda".
const char* to_string(PooledParam p);

/// One observable of a pooled recovery: its prediction at the paper's parameters, its
/// marginal standard error (the weight), its log-sensitivities (NaN or 0: does not depend)
/// and a declared deterministic remainder of the prediction (as a check's bias_bound).
struct PooledObservable {
  double predicted = 0;    ///< the prediction p_i at the paper's parameters
  double se = 0;           ///< marginal standard error of the observable (its weight is 1/se²)
  double d_ln_eta = 0;     ///< ∂p_i/∂ln η (NaN or 0: does not depend)
  double d_ln_beta = 0;    ///< ∂p_i/∂ln β
  double d_ln_lambda = 0;  ///< ∂p_i/∂ln of the λ̂ scale
  double bias_bound = 0;   ///< declared deterministic remainder of p_i (≥ 0)
  /// Per-trial standard deviation of the observable (NaN: unknown); a spread at the rounding
  /// level of unit_roundoff marks an algebraic identity.
  double trial_sd = std::numeric_limits<double>::quiet_NaN();
  double unit_roundoff = 0x1p-53;  ///< of the arithmetic the trials ran in (2⁻⁵³ double, 2⁻²⁴ float)
  double d(PooledParam p) const;  ///< the sensitivity to p (0 where NaN)
};

/// The observables of a claim's runs, pooled into one estimate per parameter.
class PooledRecovery {
 public:
  /// One run's observables: jk over the run's trial groups; observables(v, out) writes the k
  /// = obs.size() observables from v, the pooled means of the run's observables idx (idx
  /// empty: all). jk's group data must outlive the PooledRecovery.
  void add(const Jackknife& jk, std::vector<std::size_t> idx, std::vector<PooledObservable> obs,
           std::function<void(const Vec&, double*)> observables);
  /// The same where observable j is the plain mean of the run's observable idx[j].
  void add_means(const Jackknife& jk, std::vector<std::size_t> idx, std::vector<PooledObservable> obs);

  /// Observables added (all runs).
  std::size_t size() const;
  /// Observables that depend on p (the ones the estimate of p reads).
  std::size_t informative(PooledParam p) const;
  /// ε̂ for p with its jackknife error (the runs' contributions summed; dof by
  /// Welch–Satterthwaite), or nothing when no observable depends on p.
  std::optional<MeanEstimate> estimate(PooledParam p) const;
  /// Σ|w d b| / Σ w d²: the largest shift of ε̂ the observables' declared remainders allow.
  double bias_bound(PooledParam p) const;

  /// Adds one Monte-Carlo check per parameter some observable depends on, named
  /// "<prefix>/ln-<param>": predicted 0, measured ε̂, its sensitivity 1 in that parameter,
  /// against a relative error of `alternative` (e.g. 0.02) so its power is recorded.
  void record(Checks& checks, const std::string& prefix = "pooled", double alternative = 0.02) const;

 private:
  struct Run {
    Jackknife jk;
    std::vector<std::size_t> idx;
    std::vector<PooledObservable> obs;
    std::function<void(const Vec&, double*)> observables;
  };
  std::vector<Run> runs_;
  double denominator(PooledParam p) const;  // Σ_i w_i d_i² over every run
};

}  // namespace akm
