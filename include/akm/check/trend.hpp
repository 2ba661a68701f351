// trend — the trend of a loss over a hyperparameter grid, per seed, and the design quantities
// of a sign check on it (a flat claim's monotone alternative, app:eta-sweep).
//
// A flat claim ("the loss moves by at most a margin across the basin") has a natural rival
// that a pairwise equivalence test spends its power on poorly: a loss that rises (or falls)
// steadily across the basin. Each seed's trend is summarized by its rise: the least-squares
// slope of its losses on the grid times the grid's span, i.e. the change across the basin
// that the straight-line fit implies. Seeds are compared through the sign of (rise − margin),
// so the test is the exact sign test of check/paired.hpp, which survives diverged runs:
//  - a diverged run is +∞ (or NaN); as that loss grows without bound the slope tends to
//    +∞ · Σ_diverged (x_i − x̄), so a seed whose diverged points lie at the high end of the
//    grid rises by +∞, at the low end by −∞, and by 0 when they balance (all diverged: 0).
//  - The design: when the seeds' rises are normal with mean μ and sd σ, a seed exceeds a
//    threshold t with probability Φ((μ − t)/σ), which is what the sign test's power
//    (sign_test_power) and a sign check's p_design need.
#pragma once
#include <vector>

namespace akm {

/// The rise of y across the grid x: the least-squares slope of y on x times (max x − min x),
/// with the divergence rule of the header for y = +∞ or NaN. x and y of equal length ≥ 2, x
/// finite and not all equal, y never −∞, else InputError.
double least_squares_rise(const std::vector<double>& x, const std::vector<double>& y);

/// P(a seed's rise exceeds `threshold`) when rises are N(mean, sd²): Φ((mean − threshold)/sd);
/// sd = 0 gives 1, ½ or 0 (above, at, below), sd = +∞ gives ½. sd ≥ 0 and mean, threshold
/// finite, else InputError.
double exceed_probability(double mean, double sd, double threshold);

}  // namespace akm
