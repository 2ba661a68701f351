// one_sided — ceilings checked against Monte-Carlo means (see the header).
#include "akm/check/one_sided.hpp"

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm {

long long mc_comparisons(const Checks& checks) {
  long long k = 0;
  for (const auto& r : checks.records())
    if (in_family(r)) k += r.comparisons;
  return k;
}

double one_sided_z(const Checks& checks, long long k) {
  require_at_least("one-sided claims k", k, 1);
  return z_two_sided(checks.family_alpha() / static_cast<double>(mc_comparisons(checks) + k));
}

void mc_at_most(Checks& checks, const std::string& name, double bound, double measured,
                double se, double z) {
  if (!(se >= 0.0)) throw InputError("se", show(se), "must be >= 0");
  if (!(z > 0.0 && z < 1e3)) throw InputError("z", show(z), "must be in (0, 1000)");
  checks.at_most(fmt::format("{} [lower limit m − z·se; m = {:.6g}, se = {:.3g}, z = {:.3f}]", name,
                             measured, se, z),
                 bound, measured - z * se);
  checks.lower_limit_of(se, z);  // so that power.hpp can say what this ceiling detects
}

}  // namespace akm
