// T9 high-dim, the pooled recovery of η, β and the λ̂ scale from one shape: the projections
// M_t u_k of both buffers at every recorded step of the grid and averaged over the window,
// with the sensitivities of the same closed forms the checks use (projection_mean). The EMA
// buffer's projections read β alone. Projections the design-skewness gate leaves unchecked are
// left out here too: their sampling distribution is far from normal, and a seed that rarely
// draws their few carrying keys gives them a tiny error and so an outsized weight.
#include <algorithm>
#include <cmath>

#include "pooled.hpp"
#include "t09_high_dim.hpp"

namespace akm::exp::t09 {

void ShapeRun::add_pooled(PooledRecovery& pooled) const {
  std::vector<PooledTerm> terms;
  // slot g < G: step grid[g], factor 1 − b^t; slot G: the window average.
  for (std::size_t g = 0; g <= G; ++g) {
    const bool window = g == G;
    const int t = window ? kWindow : grid[g];
    const std::function<double(double)> f = window ? std::function<double(double)>(window_factor)
                                                   : [t](double b) { return 1.0 - std::pow(b, t); };
    for (int rule = 0; rule < 2; ++rule)
      for (std::size_t j = 0; j < D; ++j)
        for (int r = 0; r < kM; ++r) {
          const double t_eff = window ? kWindow : std::min<double>(t, memory(rule, j));
          if (design_skew(rule, j, r, t_eff) > kMaxDesignSkew) continue;
          terms.push_back({obs(g, rule, j, r),
                           [this, rule, j, r, f](double e, double b, double sc) {
                             return projection_mean(rule, j, r, e, b, sc, f);
                           },
                           kEta});
        }
  }
  akm::exp::add_pooled(pooled, res, terms, kBeta);
}

}  // namespace akm::exp::t09
