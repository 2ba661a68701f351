// T19 eta — the studies: the η sweeps, the pilot's design quantities and the evaluation
// outcome of each (optimizer, task) [app:eta-sweep, tab:eta-sweep].
#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/students_t.hpp>

#include "akm/check/equivalence.hpp"
#include "akm/check/trend.hpp"
#include "t19_eta.hpp"

namespace akm::exp::t19 {

namespace {

std::vector<double> in_margins(std::vector<double> d, double margin) {
  for (double& x : d) x /= margin;
  return d;
}

std::vector<double> rises(const std::vector<std::vector<double>>& L, double margin) {
  std::vector<double> r(L[0].size());
  for (std::size_t s = 0; s < r.size(); ++s) {
    std::vector<double> y;
    for (std::size_t e = kBasin; e < kEtas.size(); ++e) y.push_back(L[e][s]);
    r[s] = least_squares_rise(basin_etas(), y) / margin;
  }
  return r;
}

}  // namespace

double t_quantile(int dof, double upper_tail) {
  boost::math::students_t t(dof);
  return boost::math::quantile(boost::math::complement(t, upper_tail));
}

std::vector<double> basin_etas() { return {kEtas.begin() + kBasin, kEtas.end()}; }

std::pair<double, double> finite_mean_sd(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  return training::mean_sd(v);
}

std::vector<std::vector<double>> sweep(const Study& st, int steps, const std::vector<std::uint64_t>& seeds, int threads) {
  const std::size_t n = seeds.size();
  const auto finals = training::parallel_units<double>(kEtas.size() * n, threads, [&](std::size_t u) {
    TrainConfig c = training::config(st.opt, st.lr, steps, seeds[u % n]);
    c.eta = kEtas[u / n];
    const auto r = training::run(*st.task, c);
    return r.diverged ? std::numeric_limits<double>::infinity() : r.final_loss();
  });
  std::vector<std::vector<double>> L(kEtas.size(), std::vector<double>(n));
  for (std::size_t e = 0; e < kEtas.size(); ++e)
    for (std::size_t s = 0; s < n; ++s) L[e][s] = finals[e * n + s];
  return L;
}

double basin_mean(const std::vector<std::vector<double>>& L, std::size_t s) {
  double b = 0;
  for (std::size_t e = kBasin; e < kEtas.size(); ++e) b += L[e][s];
  return b / static_cast<double>(kEtas.size() - kBasin);
}

void design(Study& st, double tuned_loss, int tuning_seeds) {
  const auto& P = st.pilot;
  std::vector<double> excess(P[0].size());
  for (std::size_t k = 0; k < excess.size(); ++k) excess[k] = P[0][k] - basin_mean(P, k);
  st.degradation = median_of(excess);
  const std::size_t nt = std::min<std::size_t>(tuning_seeds, excess.size());
  st.degradation_tuning = median_of({excess.begin(), excess.begin() + static_cast<std::ptrdiff_t>(nt)});
  st.margin_derived = std::isfinite(st.degradation) && st.degradation > 0;
  const double fallback = std::isfinite(st.degradation) && st.degradation != 0 ? std::abs(st.degradation) : tuned_loss;
  st.margin = kMarginRatio * (st.margin_derived ? st.degradation : fallback);
  // Robust scales (base/median.hpp): a pilot seed that blows up is an outlier kept where it
  // fell, not an infinite sd that would make every design hopeless.
  for (std::size_t a = kBasin; a < kEtas.size(); ++a)
    for (std::size_t b = a + 1; b < kEtas.size(); ++b)
      st.pair_outside.push_back(flat_outside_probability(in_margins(paired_differences(P[a], P[b]), st.margin), 1.0));
  const std::vector<double> rise = rises(P, st.margin);
  const RobustScale r = robust_scale(rise);
  st.rise_sd = r.sigma, st.rise_outliers = r.outliers;
  // The flat claim puts the rises' core at 0, the monotone alternative at 1/ρ margins (the
  // basin rises by the whole degradation); a seed is favourable below / above 1 margin.
  // Outliers keep their place relative to the centre, moved with the core.
  const double f = r.outliers, share = 1.0 / static_cast<double>(rise.size());
  st.p_flat = (1.0 - f) * (1.0 - exceed_probability(0.0, st.rise_sd, 1.0));
  st.p_monotone = (1.0 - f) * exceed_probability(1.0 / kMarginRatio, st.rise_sd, 1.0);
  for (double x : rise) {
    if (!r.is_outlier(x)) continue;
    const double d = x - r.centre;
    st.p_flat += d < 1.0 ? share : 0.0;
    st.p_monotone += d + 1.0 / kMarginRatio > 1.0 ? share : 0.0;
  }
}

double assurance_at(const std::vector<Study*>& studies, int n) {
  std::vector<SideProbabilities> p;
  for (const Study* st : studies) p.insert(p.end(), st->pair_outside.begin(), st->pair_outside.end());
  return median_equivalence_assurance(p, n, kAlphaEquiv);
}

double power_at(const std::vector<Study*>& studies, int n, double level) {
  double p = 1.0;
  for (const Study* st : studies) p = std::min(p, sign_test_power(n, level, st->p_monotone));
  return p;
}

Outcome evaluate(const Study& st, const OptDesign& dz, std::uint64_t seed) {
  const auto& L = st.L;
  const int n = dz.seeds;
  Outcome o;
  o.exc_m.resize(kEtas.size());
  o.exc_se.resize(kEtas.size());
  for (std::size_t e = 0; e < kEtas.size(); ++e) {
    std::vector<double> d(n);
    for (int s = 0; s < n; ++s) d[s] = L[e][s] - basin_mean(L, s);
    const auto [dm, dsd] = finite_mean_sd(d);
    o.exc_m[e] = dm, o.exc_se[e] = dsd / std::sqrt(double(n));
  }
  for (std::size_t a = kBasin; a < kEtas.size(); ++a)
    for (std::size_t b = a + 1; b < kEtas.size(); ++b) {
      std::vector<double> d(n);
      for (int s = 0; s < n; ++s) d[s] = L[a][s] - L[b][s];
      auto [dm, dsd] = finite_mean_sd(d);
      double dse = dsd / std::sqrt(double(n));
      if (!std::isfinite(dm) || !std::isfinite(dse)) dm = kDivergedDiff * st.margin, dse = 0;
      o.pair_d.push_back(in_margins(paired_differences(L[a], L[b]), st.margin));
      o.pairs.push_back({a, b, dm, dse, median_interval(o.pair_d.back(), 2 * kAlphaEquiv)});
      o.worst_upper_mean = std::max(o.worst_upper_mean, (std::abs(dm) + dz.q_equiv * dse) / st.margin);
    }
  o.worst_upper = median_equivalence_limits(o.pair_d, dz.alpha_refute, kAlphaEquiv).upper;
  std::vector<double> basin_losses;  // every basin η and seed: the mean and the median (heavy tails)
  for (std::size_t e = kBasin; e < kEtas.size(); ++e) basin_losses.insert(basin_losses.end(), L[e].begin(), L[e].end());
  o.basin_loss_mean = finite_mean_sd(basin_losses).first;
  o.basin_loss_median = median_of(basin_losses);
  // The trend: each seed's rise across the basin, against +1 margin (a sign check).
  o.rise = rises(L, st.margin);
  for (int s = 0; s < n; ++s) o.below += o.rise[s] < 1.0, o.above += o.rise[s] > 1.0;
  // The median rise and its interval, as the paired difference r⁺ − r⁻ (a rise of ±∞ from a
  // diverged run is a divergence on one side, which paired_compare orders correctly).
  std::vector<double> up(n), down(n);
  for (int s = 0; s < n; ++s) up[s] = std::max(o.rise[s], 0.0), down[s] = std::max(-o.rise[s], 0.0);
  o.med = paired_compare(up, down, 2 * kAlphaEquiv, 1000, seed);
  return o;
}

double max_outside(const std::vector<SideProbabilities>& p) {
  double m = 0;
  for (const SideProbabilities& q : p) m = std::max(m, q.below + q.above);
  return m;
}

}  // namespace akm::exp::t19
