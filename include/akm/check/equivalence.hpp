// equivalence — Monte-Carlo claims of the form |E[X_k]| ≤ margin for every k (a "flat"
// claim: no difference larger than a margin declared before the run), tested both ways.
//
// Refutation (the check's pass rule, the direction every akm check has): the claim fails
// only when some |E[X_k]| is significantly above the margin, i.e. when the largest lower
// limit max_k(|m_k| − q_r·se_k) exceeds it (one_sided.hpp: q_r from the run's declared
// family rate, so a true claim fails with probability ≤ α/(2K) per difference).
//
// Equivalence (what makes the check evidence): two one-sided tests (TOST) per difference,
// joined as an intersection–union test — the claim is *established* when every
// (1 − 2α_e) interval m_k ± q_e·se_k lies inside [−margin, margin], i.e. when the largest
// upper limit max_k(|m_k| + q_e·se_k) ≤ margin. Under the named alternative (some
// |E[X_k]| = margin) that happens with probability ≤ α_e, so the check's power against it
// is ≥ 1 − α_e; the rule is fixed before the run. A check that passes but does not
// establish equivalence does not discriminate: the claim is then INCONCLUSIVE, never
// SUPPORTED (check/status.hpp), and never CONTRADICTED.
//
// Medians (median_equivalent): the same two tests on the median of each difference over
// paired seeds, with the distribution-free order-statistics intervals of check/paired.hpp in
// place of m ± q·se. A diverged run makes its seed's difference ±∞, which an interval of
// ranks carries as one extreme seed, where a mean and its se are lost to it. The claim then
// reads "for the typical seed, |median d_k| ≤ margin"; the design's assurance comes from the
// pilot's robust scale and its share of outliers (median_equivalence_assurance).
#pragma once
#include <string>
#include <vector>

#include "akm/check/check.hpp"

namespace akm {

/// The limits of an equivalence (TOST) test over several paired differences.
struct EquivalenceLimits {
  double lower = 0;     ///< max_k(|m_k| − q_r·se_k): refutes when > margin
  double upper = 0;     ///< max_k(|m_k| + q_e·se_k): establishes when ≤ margin
  int worst_lower = 0;  ///< index k of the largest lower limit
  int worst_upper = 0;  ///< index k of the largest upper limit
};

/// The two limits of the header; means and ses of equal, non-zero length, ses ≥ 0,
/// q_refute, q_equiv > 0, else InputError.
EquivalenceLimits equivalence_limits(const std::vector<double>& means, const std::vector<double>& ses,
                                     double q_refute, double q_equiv);

/// P(every interval m_k ± q_e·se_k lies in [−margin, margin] | E[X_k] = 0 for all k), the
/// design's chance to establish a truly flat claim, from the standard errors alone (product
/// over k, independence assumed — a design quantity, not a verdict).
double equivalence_assurance(const std::vector<double>& ses, double margin, double q_equiv);

/// Records the claim "|E[X_k]| ≤ margin for every k" as one bound check (header): pass iff
/// the largest lower limit ≤ margin; evidence (discriminates) iff the largest upper limit ≤
/// margin; power against the alternative |E[X_k]| = margin is 1 − alpha_equiv. margin > 0,
/// 0 < alpha_equiv < 0.5, else InputError. Returns the limits.
EquivalenceLimits mc_equivalent(Checks& checks, const std::string& name, double margin,
                                const std::vector<double>& means, const std::vector<double>& ses,
                                double q_refute, double q_equiv, double alpha_equiv);

/// The limits of the median equivalence test over several paired differences, each given as
/// its per-seed values d_k,s (±∞ for a divergence, in any unit): lower = the largest
/// distance from 0 of a (1 − alpha_refute) interval, upper = the largest |end| of a
/// (1 − 2·alpha_equiv) interval (check/paired.hpp's median_interval). diffs non-empty, each
/// non-empty without NaN, levels in (0, 1) and (0, 0.5), else InputError.
EquivalenceLimits median_equivalence_limits(const std::vector<std::vector<double>>& diffs, double alpha_refute,
                                            double alpha_equiv);

/// The chances that one seed's difference lies below −margin and above +margin.
struct SideProbabilities {
  double below = 0;  ///< P(d < −margin)
  double above = 0;  ///< P(d > +margin)
};

/// A pilot's SideProbabilities if the claim is flat (its median moved to 0), from its
/// robust_scale (base/median.hpp): the normal core's Φ(−margin/σ̂) on each side for the share
/// 1 − f of the seeds, and the share f of outliers (divergences, or further than 5σ̂) kept
/// where the pilot put them — a normal law cannot carry them, a 5-seed pilot cannot model
/// them. pilot non-empty without NaN, margin > 0, else InputError.
SideProbabilities flat_outside_probability(const std::vector<double>& pilot, double margin);

/// P(every (1 − 2·alpha_equiv) median interval from n seeds lies inside ±margin) when
/// difference k falls beyond the margin with the chances p[k] (flat_outside_probability),
/// independence over k assumed — a design quantity.
double median_equivalence_assurance(const std::vector<SideProbabilities>& p, int n, double alpha_equiv);

/// Records "|median d_k| ≤ margin for every k" as one bound check, as mc_equivalent does
/// for means: pass iff the largest lower limit ≤ margin; evidence iff the largest upper
/// limit ≤ margin. diffs in the margin's unit. Returns the limits.
EquivalenceLimits median_equivalent(Checks& checks, const std::string& name, double margin,
                                    const std::vector<std::vector<double>>& diffs, double alpha_refute,
                                    double alpha_equiv);

}  // namespace akm
