// figure_styles — shared gnuplot line styles.
#include "akm/report/figure_styles.hpp"

#include <fmt/format.h>

namespace akm {

std::string linetype(int lt, std::string_view colour, int dt) {
  return dt > 0 ? fmt::format("set linetype {} lc rgb '{}' dt {}", lt, colour, dt)
                : fmt::format("set linetype {} lc rgb '{}'", lt, colour);
}

std::vector<std::string> paired_linetypes(int pairs) {
  std::vector<std::string> out;
  for (int k = 0; k < pairs; ++k)
    for (int j = 1; j <= 2; ++j) out.push_back(linetype(2 * k + j, kDark2[k % kDark2.size()]));
  return out;
}

}  // namespace akm
