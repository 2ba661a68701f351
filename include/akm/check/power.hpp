// power — what a check can detect, computed from its own tolerance and standard error
// (docs/statistics.md, "Claim statuses"; rules fixed before any run).
//
// A Monte-Carlo check passes when −tol_below ≤ m − p ≤ tol_above (check.hpp). If the truth
// is p + Δ instead of p, m − p is ≈ N(Δ, s²) with s the combined standard error, so the
// check fails with probability
//   power(Δ) = Φ((−tol_below − Δ)/s) + Φ((Δ − tol_above)/s).
// The minimum detectable effect (mde) is the smallest |Δ| failed with probability ≥ 0.9 for
// either sign: max(tol_above, tol_below) + z₀.₉·s (the far tail is ignored, so this errs
// large). A check *discriminates* when it has power ≥ 0.9 against its named alternative
// (for AK claims usually the EMA prediction), or, without one, when its mde is at most the
// declared effect (default kDeclaredEffect = 10% of the prediction). A check whose
// prediction is 0 and that names no alternative makes no power claim. An equivalence check
// (check/equivalence.hpp) has power 1 − α_e against "difference = margin" by construction
// and is evidence only when its interval lies inside the margin. Exact and
// deterministic bound checks detect any violation beyond their floating-point slack.
#pragma once
#include "akm/check/check.hpp"

namespace akm {

inline constexpr double kPowerTarget = 0.9;     ///< power a check needs to count as evidence
inline constexpr double kDeclaredEffect = 0.10; ///< relative error a check must detect by default

/// P(the check fails | truth = predicted + delta) (header). Call after its tolerances are set.
double power_at(const CheckRecord& r, double delta);

/// Smallest |Δ| failed with probability ≥ kPowerTarget (header).
double minimum_detectable_effect(const CheckRecord& r);

/// Sets r.power (against the alternative; NaN without one), r.mde and r.discriminates.
void judge_power(CheckRecord& r);

}  // namespace akm
