// ops/check_steps — the ops' one check of a list of steps or lags (recorded steps, probes,
// checkpoints, grids, lags): each in 1..steps, strictly increasing, so a row's observables
// come in the order the op meets them.
#pragma once
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::ops::detail {

/// Refuses (InputError `field`) the first entry of `s` outside 1..steps or not above the one before it.
inline void check_steps(const std::vector<int>& s, int steps, const char* field) {
  for (std::size_t g = 0; g < s.size(); ++g)
    if (s[g] < 1 || s[g] > steps || (g > 0 && s[g] <= s[g - 1]))
      throw InputError(field, std::to_string(s[g]), fmt::format("must increase strictly within 1..steps = {}", steps));
}

}  // namespace akm::ops::detail
