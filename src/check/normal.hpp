// normal — what the check layer's sources share about the normal law (private to
// src/check/*.cpp): the standard normal CDF, by which power (power.cpp, ledger_group.cpp) and
// equivalence assurance (equivalence.cpp) are computed, and the NaN that marks a quantity a
// record does not hold (status.cpp, ledger_group.cpp). One definition, so a unity build of the
// folder sees each name once.
#pragma once
#include <cmath>
#include <limits>

namespace akm::check_detail {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Φ(x), the standard normal CDF, written through erfc so that the far lower tail keeps its
/// relative precision (1 − Φ(−x) would round to 0 there).
inline double phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

}  // namespace akm::check_detail
