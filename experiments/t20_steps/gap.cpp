// T20 steps — the steps-to-target gap of one comparison.
#include <algorithm>
#include <cmath>
#include <limits>

#include "t20_steps.hpp"

namespace akm::exp::t20 {

Gap steps_gap(const Comparison& c, int steps) {
  using training::mean_sd;
  Gap g;
  // Final losses of the seeds that did not diverge (a diverged seed is counted, and it never
  // reaches the target: censored).
  std::vector<double> fin[2];
  for (int a = 0; a < 2; ++a) {
    for (const auto& r : c.runs[a]) {
      if (r.diverged || !std::isfinite(r.final_loss())) ++g.diverged[a];
      else fin[a].push_back(r.final_loss());
    }
    g.final_mean[a] = fin[a].empty() ? std::numeric_limits<double>::infinity() : mean_sd(fin[a]).first;
  }
  g.target = 1.1 * std::max(g.final_mean[0], g.final_mean[1]);
  const std::size_t seeds = c.runs[0].size();
  for (std::size_t s = 0; s < seeds; ++s) {
    int st[2];
    for (int a = 0; a < 2; ++a) {
      st[a] = std::isfinite(g.target) && !c.runs[a][s].diverged ? c.runs[a][s].steps_to(g.target) : -1;
      g.censored[a].push_back(st[a] < 0);
      if (st[a] < 0) st[a] = steps + 5;
      g.steps[a].push_back(st[a]);
    }
    g.reduction.push_back(double(st[0] - st[1]) / std::max(st[0], 1));
    g.faster += st[1] < st[0];
    g.slower += st[1] > st[0];
    const auto &b = c.runs[0][s], &k = c.runs[1][s];
    if (!b.diverged && !k.diverged && std::isfinite(b.final_loss()) && std::isfinite(k.final_loss()))
      g.final_diff.push_back(k.final_loss() - b.final_loss());
  }
  g.sign_p = sign_test_p(g.faster, g.slower);
  return g;
}

std::string verdict(const Gap& g, int n_tests, double family_alpha) {
  if (g.sign_p * n_tests > family_alpha) return "inconclusive";
  return g.faster > g.slower ? "AK faster" : "AK slower";
}

}  // namespace akm::exp::t20
