// T6 lag, the pooled recovery of η, β and the λ scale: every recorded mean lag e_t of the
// build-up run (check steps and trajectory points) and every steady window mean, of all six
// buffers, with the sensitivities of the same closed forms (theory/drift.hpp) through the
// buffer's contraction (contraction_at: the drift Δ_i is the run's design, held fixed).
#include <algorithm>

#include "akm/theory/drift.hpp"
#include "pooled.hpp"
#include "t06_lag.hpp"

namespace akm::exp::t06 {

void add_pooled(PooledRecovery& pooled, const Run& run) {
  const Setting& s = *run.s;
  const int n = s.n();
  const Layout Lb{kBuildup, n, run.shown.size()};
  const Layout Ls{kSteady, n, run.shown.size()};
  std::vector<PooledTerm> buildup, steady;
  for (int b = 0; b < kBuffers; ++b) {
    const Buffer* B = &run.bufs[static_cast<std::size_t>(b)];
    const double eta = B->rule == kEma ? 1.0 : B->eta;  // EMA's contraction ignores η
    auto mean_error = [&s, B](int i, int t) {
      return [&s, B, i, t](double e, double bb, double sc) {
        return theory::drift_mean_error(contraction_at(s, *B, i, e, bb, sc), B->delta[i], 0.0, t);
      };
    };
    for (std::size_t c = 0; c < Lb.checks(); ++c)
      for (int i = 0; i < n; ++i) buildup.push_back({Lb.at_step(b, c, i), mean_error(i, kBuildup.check_steps[c]), eta});
    for (std::size_t d = 0; d < run.shown.size(); ++d)
      for (int j = 0; j < kBuildup.traj_points(); ++j) {
        const int t = (j + 1) * kBuildup.traj_every;
        const auto& cs = kBuildup.check_steps;
        if (std::find(cs.begin(), cs.end(), t) != cs.end()) continue;  // already a check step
        buildup.push_back({Lb.traj(b, d, j), mean_error(run.shown[d], t), eta});
      }
    for (int i = 0; i < n; ++i)
      steady.push_back({Ls.window(b, i),
                        [&s, B, i](double e, double bb, double sc) {
                          return theory::drift_window_mean(contraction_at(s, *B, i, e, bb, sc), B->delta[i], 0.0,
                                                           kSteady.burn + 1, kSteady.steps);
                        },
                        eta});
  }
  akm::exp::add_pooled(pooled, run.buildup, buildup, kBeta);
  akm::exp::add_pooled(pooled, run.steady, steady, kBeta);
}

}  // namespace akm::exp::t06
