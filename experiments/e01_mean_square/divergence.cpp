// E1 mean square — B. measured divergence against the predicted mean-square boundary.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/spectrum/fourth_moment.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/theory/phase.hpp"
#include "akm/sim/measured_map.hpp"
#include "akm/report/phase_report.hpp"
#include "e01_mean_square.hpp"
#include "sensitivity.hpp"

namespace akm::exp::e01 {
namespace {

using phase::Metric;

/// log(1ᵀ S^t s_0) for t = 1..T, renormalized each step (S ≥ 0 entrywise, so no
/// cancellation).
std::vector<double> log_second_moment(const Mat& S, const Vec& s0, int T) {
  std::vector<double> out(T);
  Vec s = s0;
  double log_scale = 0;
  for (int t = 0; t < T; ++t) {
    s = S * s;
    const double tot = s.sum();
    log_scale += std::log(tot);
    s /= tot;
    out[t] = log_scale;
  }
  return out;
}
}  // namespace

Divergence measure_divergence(ExperimentContext& ctx, Key key, const std::string& xspec, const std::string& yspec,
                              int steps, long long R) {
  Divergence d;
  d.key = key, d.xspec = xspec, d.yspec = yspec, d.steps = steps, d.R = R;
  const std::string k = to_string(key);
  d.spec = parse_spectrum("spiked:n=8,spikes=10/3,floor=0.5");
  d.model = phase::make_model(d.spec, true);
  const phase::Model& model = d.model;
  phase::Options& o = d.o;
  o.x = phase::parse_axis(xspec, "x");
  o.y = phase::parse_axis(yspec, "y");
  o.metric = Metric::ms_stable;
  o.key = key;
  d.map = phase::compute(o, model, resolve_threads(ctx.opts.threads));
  const phase::Map& map = d.map;
  phase::MeasureOptions mo;
  mo.key = key;
  mo.trials = R;
  mo.steps = steps;
  mo.seed = derive_seed(ctx.opts.seed, "E1/divergence/" + k);
  mo.threads = resolve_threads(ctx.opts.threads);
  d.threshold = mo.threshold;
  std::vector<std::pair<double, double>> eb;
  for (const auto& p : map.points) eb.emplace_back(p.eta, p.beta);
  const Vec lam_key = key == Key::raw ? model.moments.lambda : model.moments.lambda_hat;
  const auto meas = phase::measure(eb, model.moments.lambda, lam_key, -1, mo);

  // Predicted per point: growth bound log(1ᵀS^T s_0)/T (Jensen: E log‖v_T‖² ≤ log E‖v_T‖²)
  // and the union/Markov bound Σ_t E‖v_t‖²/threshold on the divergence probability.
  const int n = d.spec.n();
  const Vec s0 = Vec::Constant(n, 1.0 / n);
  const double z = z_two_sided(ctx.opts.family_alpha / static_cast<double>(map.points.size()));
  d.worst_growth_excess = -1e300, d.markov_sum = 0;
  d.band_hi = std::exp(std::log(mo.threshold) / steps);  // ρ(S) < thr^{1/T}: cannot reach thr in mean
  d.table = phase::to_table(map, &meas);
  d.table.header.push_back("growth_bound");
  for (std::size_t p = 0; p < map.points.size(); ++p) {
    const auto& pt = map.points[p];
    const Mat S = key == Key::raw ? phase::ms_matrix_raw(model.moments.lambda, pt.beta, pt.eta)
                                  : phase::ms_matrix_normalized(model.moments.lambda_hat, model.moments.fourth, pt.beta, pt.eta);
    const auto logm = log_second_moment(S, s0, steps);
    const double gbound = logm.back() / steps;
    d.table.rows[p].emplace_back(gbound);
    if (std::isfinite(meas[p].growth))
      d.worst_growth_excess = std::max(d.worst_growth_excess, meas[p].growth - gbound - z * meas[p].growth_se);
    const double r = pt.cols[0];
    if (r < 1.0) {
      ++d.stable_points;
      double sum = 0;
      for (double l : logm) sum += std::exp(l);
      d.markov_sum += static_cast<double>(R) * std::min(1.0, sum / mo.threshold);
      d.stable_diverged_trials += std::llround(meas[p].diverged_fraction * R);
    } else if (r < d.band_hi) {
      ++d.band_points;
      d.band_div += meas[p].diverged_fraction > 0.5 ? 1 : 0;
    } else {
      ++d.far_points;
      d.far_div += meas[p].diverged_fraction > 0.5 ? 1 : 0;
      d.far_any += meas[p].diverged_fraction > 0 ? 1 : 0;
    }
  }
  return d;
}

void check_divergence(ExperimentContext& ctx, const Divergence& d) {
  const std::string k = to_string(d.key);
  // Markov on the count: P(count ≥ c+1) ≤ E[count]/(c+1) ≤ markov_sum/(c+1) ≤ α.
  const double allowed = std::max(0.0, std::ceil(d.markov_sum / ctx.opts.family_alpha) - 1.0);
  ctx.checks.at_most(fmt::format("{}/diverged trials at ms-stable points (Markov: E ≤ {:.3g})", k, d.markov_sum),
                     allowed, static_cast<double>(d.stable_diverged_trials));
  ctx.checks.at_most(fmt::format("{}/growth (1/T)log‖v_T‖² ≤ log(1ᵀS^T s0)/T + z·se at every point", k), 0.0,
                     std::max(0.0, d.worst_growth_excess));
}

void record_divergence(ExperimentContext& ctx, const Divergence& d, nlohmann::json& findings) {
  const std::string k = to_string(d.key);
  const std::string &xspec = d.xspec, &yspec = d.yspec;
  const int steps = d.steps;
  const long long R = d.R;
  const phase::Map& map = d.map;
  const phase::Options& o = d.o;
  findings[k] = {{"grid", {xspec, yspec}},
                 {"steps", steps},
                 {"trials", R},
                 {"threshold", d.threshold},
                 {"ms_stable_points", d.stable_points},
                 {"diverged_trials_at_ms_stable_points", d.stable_diverged_trials},
                 {"band", fmt::format("1 <= rho(S) < threshold^(1/T) = {:.4f}", d.band_hi)},
                 {"band_points", d.band_points},
                 {"band_points_majority_diverged", d.band_div},
                 {"beyond_band_points", d.far_points},
                 {"beyond_band_points_majority_diverged", d.far_div},
                 {"beyond_band_points_any_diverged", d.far_any},
                 {"worst_growth_excess_over_bound", d.worst_growth_excess}};
  ctx.findings.push_back(fmt::format(
      "{} key, measured divergence (T = {}, R = {}, threshold {:g}): {} trials diverged over {} ms-stable points "
      "(Markov bound on the expected count {:.3g}); {} of {} points in the band 1 <= rho(S) < {:.4f} and {} of {} "
      "points beyond it had a majority of trials diverge ({} beyond it had any)",
      k, steps, R, d.threshold, d.stable_diverged_trials, d.stable_points, d.markov_sum, d.band_div, d.band_points,
      d.band_hi, d.far_div, d.far_points, d.far_any));
  ctx.params["divergence_" + k] = {{"spectrum", d.spec.spec}, {"lambda", to_std(d.spec.lambda)},
                                   {"lambda_hat", to_std(d.model.moments.lambda_hat)}, {"threshold", d.threshold},
                                   {"v0", "ones/sqrt(n)"}, {"steps", steps}, {"trials", R}, {"grid", {xspec, yspec}}};

  // Predicted boundary ρ(S) = 1 per β row (first η crossing, interpolated in ρ).
  CsvTable b{{"x", "y"}, {}};
  for (int iy = 0; iy < o.y.n; ++iy)
    for (int ix = 1; ix < o.x.n; ++ix) {
      const auto& p0 = map.points[static_cast<std::size_t>(iy) * o.x.n + ix - 1];
      const auto& p1 = map.points[static_cast<std::size_t>(iy) * o.x.n + ix];
      if (p0.cols[0] < 1.0 && p1.cols[0] >= 1.0) {
        const double f = (1.0 - p0.cols[0]) / (p1.cols[0] - p0.cols[0]);
        b.add({p0.eta + f * (p1.eta - p0.eta), p0.beta});
        break;
      }
    }
  const std::string csv = "divergence_" + k + ".csv", bcsv = "boundary_" + k + ".csv";
  ctx.out.write_csv(csv, d.table);
  ctx.out.write_csv(bcsv, b);
  const std::string bx = o.x.log ? "(log10($1))" : "1";
  phase::Heatmap h;
  h.csv = csv;
  h.x = o.x;
  h.y = o.y;
  h.name = "divergence-" + k;
  h.column = "diverged_fraction";
  h.cblabel = "diverged fraction";
  h.cbrange = std::pair{0.0, 1.0};
  h.title = fmt::format("E1 {} key: fraction of trials with ‖v_t‖² > 1e12 (T = {}, R = {}); line: predicted ρ(S) = 1",
                        k, steps, R);
  h.items = {fmt::format("'{}' every ::1 using {}:2 with lines lw 3 lc rgb 'red' title 'ρ(S) = 1 (predicted)'", bcsv, bx)};
  phase::write_heatmap(ctx.out, h);
  h.name = "rate-z-" + k;
  h.column = "rate_z";
  h.cblabel = "z";
  h.cbrange = std::pair{-5.0, 5.0};
  h.diverging = true;
  h.title = fmt::format("E1 {} key: (measured − predicted |β̃|) contraction / SE; line: ρ(S) = 1", k);
  phase::write_heatmap(ctx.out, h);
}

}  // namespace akm::exp::e01
