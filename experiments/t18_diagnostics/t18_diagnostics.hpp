// T18 diagnostics — the parts beside claim.cpp: the stepping rebound [eq:rebound] (rebound.cpp).
#pragma once
#include <map>
#include <string>

#include "training_common.hpp"

namespace akm::exp {

/// Comparisons the rebound part adds to the run's family (Bonferroni): per arm, one
/// Monte-Carlo identity and one sign check, for T18's four arms.
constexpr int kReboundComparisons = 2 * 4;

/// The directional design shared with T18's sign checks: the per-comparison level the run's
/// family gives, the power floor and the favourable fraction the seed count is sized for.
struct ReboundDesign {
  double level;
  double power;
  double favourable_fraction;
};

/// Trains every arm on the quadratic task at its tuned rate (`rates`: arm → T18's tuned rate on
/// this task), records the rebound decomposition at every step and adds the rebound checks,
/// findings, data_rebound.csv and params["rebound"]. The task must be T18's linear task (depth 1,
/// squared error).
void rebound_checks(ExperimentContext& ctx, const training::TaskSpec& task,
                    const std::map<std::string, double>& rates, int steps, const ReboundDesign& design);

}  // namespace akm::exp
