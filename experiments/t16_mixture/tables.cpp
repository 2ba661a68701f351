// T16 mixture — the tables: per-step rates along the eigenvectors, each component's one-step
// contraction share, the remaining tracking gap on the shown directions (normalized key),
// and the mixture's components.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "t16_mixture.hpp"

namespace akm::exp::t16 {

std::vector<int> shown_directions(const Vec& Mv) {
  const int n = static_cast<int>(Mv.size());
  std::vector<int> shown;
  for (int q = 0; q < 4; ++q) {
    int best = q * n / 4;
    for (int j = q * n / 4; j < (q + 1) * n / 4; ++j)
      if (std::abs(Mv[j]) > std::abs(Mv[best])) best = j;
    shown.push_back(best);
  }
  return shown;
}

void write_tables(ExperimentContext& ctx, const KeySampler& law, const std::vector<VariantRun>& runs, const Mat& B1) {
  const int C = law.components();
  const auto& w = law.law().weights;
  const auto& sc = law.law().scales;
  CsvTable rates{{"variant", "rank", "eigenvalue", "predicted_rate", "measured_rate", "stderr_rate"}, {}};
  CsvTable comps{{"variant", "component", "x", "scale", "basis", "predicted_share", "measured_share", "stderr_share",
                  "predicted_factor", "measured_factor", "stderr_factor"}, {}};
  for (const VariantRun& run : runs) {
    const Variant* v = run.v;
    const int n = static_cast<int>(v->ev.size());
    const std::string k = to_string(v->key);
    const TLayout L{n, C};
    const Vec mean = run.transport.total.mean(), se = run.transport.total.stderr_mean();
    // Per-step rate from lag 5 (delta method): r̂_j = m^{1/5}, se(r̂) = r̂·se/(5m).
    const int lag = kLags[1];
    for (int j = 0; j < n; ++j) {
      const double m = mean[L.diag(1, j)], e = se[L.diag(1, j)];
      const double r = m > 0 ? std::pow(m, 1.0 / lag) : std::nan("");
      rates.add({k, j + 1, v->ev[j], v->beta_tilde(j), r, r * e / (lag * m)});
    }
    // One-step contraction share relative to the strongest direction: b_cᵀSb_c / λ_top(S).
    const double top = v->ev[0];
    Mat F1 = Mat::Identity(n, n);
    F1 = F1 * v->mean_factor();  // as check_variant builds (βI − ηS)^k, k = 1
    for (int c = 0; c < C; ++c) {
      const double p = B1.col(c).dot(F1 * B1.col(c));
      const double m = mean[L.comp(0, c)], e = se[L.comp(0, c)];
      comps.add({k, c + 1, c + (v->key == Key::raw ? 0.1 : -0.1), sc[static_cast<std::size_t>(c)],
                 law.law().bases[static_cast<std::size_t>(c)], B1.col(c).dot(v->S * B1.col(c)) / top,
                 (kBeta - m) / (v->eta * top), e / (v->eta * top), p, m, e});
    }
    if (v->key == Key::normalized) {
      // Figure data: the remaining gap (M* − E[M_t])v_j / M*v_j = β̃_j^t on the shown directions.
      const Vec tm = run.tracking.total.mean(), ts = run.tracking.total.stderr_mean();
      CsvTable gap{{"direction", "t", "predicted", "measured", "stderr"}, {}};
      for (int best : shown_directions(run.Mv))
        for (int t = 1; t <= kSteps; ++t) {
          const std::size_t o = static_cast<std::size_t>(t - 1) * n + best;
          gap.add({fmt::format("v{}", best + 1), t, std::pow(v->beta_tilde(best), t),
                   (run.Mv[best] - tm[o]) / run.Mv[best], ts[o] / std::abs(run.Mv[best])});
        }
      ctx.out.write_csv("data_tracking_normalized.csv", gap);
    }
  }
  ctx.out.write_csv("data_rates.csv", rates);
  ctx.out.write_csv("data_components.csv", comps);
  double energy = 0;
  for (int c = 0; c < C; ++c) energy += w[static_cast<std::size_t>(c)] * sc[static_cast<std::size_t>(c)] * sc[static_cast<std::size_t>(c)];
  CsvTable mom{{"component", "weight", "scale", "basis", "raw_trace_share"}, {}};
  for (int c = 0; c < C; ++c) {
    const auto u = static_cast<std::size_t>(c);
    mom.add({c + 1, w[u], sc[u], law.law().bases[u], w[u] * sc[u] * sc[u] / energy});
  }
  ctx.out.write_csv("data_mixture.csv", mom);
}

}  // namespace akm::exp::t16
