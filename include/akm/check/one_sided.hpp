// one_sided — Monte-Carlo claims of the form E[X] ≤ bound (a ceiling, not an equality).
//
// Such a claim fails only when the measured mean is significantly above the bound: it is
// recorded as the deterministic check  measured − z·se ≤ bound  (the lower confidence limit
// of E[X] under the bound). z is fixed by counts alone, before any result is seen: the
// declared family rate shared, Bonferroni, by the run's two-sided Monte-Carlo comparisons
// and these k one-sided ones, z = z_two_sided(α/(K_mc + k)). Each one-sided claim then
// has false-alarm probability ≤ α/(2(K_mc + k)) when E[X] ≤ bound holds (docs/statistics.md,
// "How a check passes").
#pragma once
#include <string>

#include "akm/check/check.hpp"

namespace akm {

/// Monte-Carlo comparisons (mc + family, counted by `comparisons`) already in `checks`.
long long mc_comparisons(const Checks& checks);

/// z for `k` one-sided claims added after every two-sided Monte-Carlo check of the run;
/// k ≥ 1 else InputError.
double one_sided_z(const Checks& checks, long long k);

/// Records "E[measured] ≤ bound" as at_most(bound, measured − z·se). The name is suffixed
/// with the measured value, its standard error and z, since the record shows only the limit.
/// se ≥ 0 and z > 0, else InputError.
void mc_at_most(Checks& checks, const std::string& name, double bound, double measured,
                double se, double z);

}  // namespace akm
