// E1 mean-square — an extension of [lem:transport]: the second-moment map of the transport row.
//
// The expectation results [lem:transport] say nothing about the variance. For Gaussian keys
// s_i = E[(v u_i)²] of a row pushed through βI − ηkkᵀ evolves linearly, s' = S s, with S in
// closed form (raw key) or through Q_ij = E[x̂_i²x̂_j²] (normalized key); akm/theory/phase.hpp.
// This experiment
//   A. writes the closed-form phase maps of `akm reproduce` (stable and ms_stable for both
//      keys, rho_ratio at tuned α for the top and bottom directions, counterexample);
//   B. overlays the predicted mean-square boundary ρ(S) = 1 on the measured divergence of
//      simulated buffers in the (η, β) plane;
//   C. checks S^k against the measured second moments of the T3 transport setting and gives
//      the predicted standard errors of T3's means beside the observed spread. For the raw
//      key the check's standard error is exact, from the fourth-moment map
//      (akm/spectrum/fourth_moment.hpp): P_ii² is lognormal-like at long lags, and a sample that
//      misses its rare large trials underestimates both the mean and its own error.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/spectrum/fourth_moment.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/theory/phase.hpp"
#include "akm/sim/measured_map.hpp"
#include "akm/report/phase_report.hpp"
#include "common.hpp"
#include "e01_mean_square.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

using phase::Metric;

// ---- A. closed-form maps --------------------------------------------------------------

struct MapSpec {
  std::string name, title;
  Metric metric;
  Key key;
  std::string x, y;
  std::optional<double> alpha;
  int direction;
};

// One closed-form map: its axes and metric, and the computed grid.
struct ClosedMap {
  phase::Options o;
  phase::Map map;
};

ClosedMap closed_map(ExperimentContext& ctx, const MapSpec& m, const phase::Model& model) {
  ClosedMap c;
  phase::Options& o = c.o;
  o.x = phase::parse_axis(m.x, "x");
  o.y = phase::parse_axis(m.y, "y");
  o.metric = m.metric;
  o.key = m.key;
  o.alpha = m.alpha;
  o.direction = m.direction;
  c.map = phase::compute(o, model, resolve_threads(ctx.opts.threads));
  return c;
}

void write_map(ExperimentContext& ctx, const MapSpec& m, const ClosedMap& c, const phase::Model& model) {
  ctx.out.write_csv("map_" + m.name + ".csv", phase::to_table(c.map));
  phase::Heatmap h;
  h.name = "map-" + m.name;
  h.csv = "map_" + m.name + ".csv";
  h.column = c.map.names[0];
  h.x = c.o.x;
  h.y = c.o.y;
  h.title = m.title;
  if (m.metric == Metric::stable || m.metric == Metric::ms_stable || m.metric == Metric::rho_ratio) {
    h.threshold_palette = true;
    h.cbrange = std::pair{0.0, 2.0};
  }
  if (m.metric == Metric::stable || m.metric == Metric::ms_stable)
    h.stability_lines_lambda_max = model.spectrum.lambda.maxCoeff();
  phase::write_heatmap(ctx.out, h);
}

// C's figure: the predicted against the observed standard deviation of the shown directions.
void t3_figure(ExperimentContext& ctx, const std::string& k, const std::string& csv, int n) {
  Figure f;
  f.name = "t3-sd-" + k;
  f.title = fmt::format("E1: SD of u_iᵀP_k u_i over trials, T3 setting ({} key): predicted from S^k vs observed", k);
  f.xlabel = "lag k";
  f.ylabel = "standard deviation";
  f.logy = true;
  for (int i : shown_directions(n)) {
    const std::string w = dir_name(i);
    f.series.push_back({csv, "lag", "observed_sd", "", "observed " + w, "points", "direction=" + w});
    f.series.push_back({csv, "lag", "predicted_sd", "", "predicted " + w, "lines", "direction=" + w});
  }
  ctx.out.figure(f);
}

}  // namespace

static void e01_mean_square(ExperimentContext& ctx) {
  using namespace e01;
  // ---- Set-up: A's maps on the core spiked spectrum (n = 32), B's grids, C's T3 setting ----
  const bool q = ctx.opts.quick;
  const int G = q ? 60 : 100;  // 100×100 keeps results/ small; `akm phase` draws any size
  const Spectrum sp = parse_spectrum(kSpiked, ctx.opts.seed);
  const phase::Model model = phase::make_model(sp, true);
  const int n = sp.n();
  const std::string eta_raw = fmt::format("eta:1e-4:2:{}:log", G), eta_norm = fmt::format("eta:0.01:4:{}", G);
  const std::string beta_ax = fmt::format("beta:0.5:0.999:{}", G), beta_full = fmt::format("beta:0:0.999:{}", G);
  const std::vector<MapSpec> maps{
      {"stable-raw", "expectation stability max_i|β̃_i| (raw key, spiked n=32)", Metric::stable, Key::raw, eta_raw, beta_full, {}, -1},
      {"stable-normalized", "expectation stability max_i|β̃_i| (normalized key, spiked n=32)", Metric::stable, Key::normalized, eta_norm, beta_full, {}, -1},
      {"ms-raw", "mean-square radius ρ(S) (raw key, spiked n=32)", Metric::ms_stable, Key::raw, eta_raw, beta_full, {}, -1},
      {"ms-normalized", "mean-square radius ρ(S) (normalized key, spiked n=32)", Metric::ms_stable, Key::normalized, eta_norm, beta_full, {}, -1},
      {"rho-ratio-top", "ρ^{AK}/ρ^{EMA} at tuned α, top direction u_1 (normalized key)", Metric::rho_ratio, Key::normalized,
       fmt::format("eta:0.01:2:{}", G), beta_ax, {}, 0},
      {"rho-ratio-bottom", fmt::format("ρ^{{AK}}/ρ^{{EMA}} at tuned α, bottom direction u_{{{}}} (normalized key)", n),
       Metric::rho_ratio, Key::normalized, fmt::format("eta:0.01:2:{}", G), beta_ax, {}, n - 1},
      {"counterexample", "fraction of directions with ρ^{AK} > ρ^{EMA} at α = 0.05 (normalized key)", Metric::counterexample,
       Key::normalized, fmt::format("eta:0.01:2:{}", G), beta_ax, 0.05, -1}};
  // B. Predicted boundary against measured divergence (n = 8 spiked, both keys).
  const int Gm = q ? 8 : 24;
  const int steps = q ? 200 : 1000;
  const long long Rm = q ? 32 : 256;
  // C. T3's second moments and predicted standard errors.
  const Setting s = make_setting("spiked", kSpiked, ctx.opts.seed, true);
  const long long R3 = trials(ctx, 20000, 6000);

  // ---- Simulate: A the closed-form maps, B the measured divergence, C T3's second moments ----
  std::vector<ClosedMap> closed;
  for (const auto& m : maps) closed.push_back(closed_map(ctx, m, model));
  const std::vector<Divergence> divergence{
      measure_divergence(ctx, Key::normalized, fmt::format("eta:0.05:4:{}", Gm), fmt::format("beta:0:0.99:{}", Gm), steps, Rm),
      measure_divergence(ctx, Key::raw, fmt::format("eta:1e-3:0.5:{}:log", Gm), fmt::format("beta:0:0.99:{}", Gm), steps, Rm)};
  const std::vector<T3Variances> t3{measure_t3(ctx, Key::raw, s, R3), measure_t3(ctx, Key::normalized, s, R3)};

  // ---- Check: A Jensen on the mean-square maps, B the divergence bounds, C the second moments ----
  for (std::size_t j = 0; j < maps.size(); ++j) {
    const MapSpec& m = maps[j];
    if (m.metric != Metric::ms_stable) continue;
    // Jensen per direction: s_i(1) ≥ (E v_1u_i)², so ρ(S) ≥ max_i β̃_i²; and ms-stable ⊂ stable.
    double worst = 0;
    long long outside = 0;
    for (const auto& p : closed[j].map.points) {
      worst = std::max(worst, p.cols[2] * p.cols[2] / p.cols[0]);
      outside += (p.cols[0] < 1.0 && !(p.cols[2] < 1.0)) ? 1 : 0;
    }
    ctx.checks.at_most(m.name + "/max_i β̃_i² / ρ(S) ≤ 1 at every grid point", 1.0, worst);
    ctx.checks.at_most(m.name + "/ms-stable points that are not expectation-stable", 0.0, static_cast<double>(outside));
  }
  for (const Divergence& d : divergence) check_divergence(ctx, d);
  for (const T3Variances& v : t3) check_t3(ctx, s, v);
  // Pooled recovery of η, β and the λ scale from T3's transport moments (check/pooled.hpp): the
  // claim's resolution. The divergence checks above read a z of their own grid, not the count.
  PooledRecovery pooled;
  for (const T3Variances& v : t3) add_pooled(pooled, s, v);
  pooled.record(ctx.checks);

  // ---- Record: the maps and their summaries, the divergence maps, T3's tables and figures, params ----
  nlohmann::json findings;
  nlohmann::json map_summaries = nlohmann::json::object();
  for (std::size_t j = 0; j < maps.size(); ++j) {
    write_map(ctx, maps[j], closed[j], model);
    map_summaries[maps[j].name] = phase::summarize(closed[j].map);
    // The map's wall time is a property of the machine, not of the result: summary.json
    // must be the same bytes for the same seed (test_determinism, mpi_exact).
    map_summaries[maps[j].name].erase("seconds");
  }
  ctx.params["maps"] = {{"spectrum", sp.spec}, {"grid", G}, {"lambda", to_std(sp.lambda)}};
  findings["maps"] = map_summaries;
  for (const Divergence& d : divergence) record_divergence(ctx, d, findings["divergence"]);
  ctx.params["t3"] = {{"beta", kT3Beta}, {"eta_normalized", kT3EtaNorm}, {"eta_raw", raw_eta(s, 0.4)},
                      {"lags", kLags}, {"trials", R3}, {"T3_trials", kT3Trials}, {"spectrum", s.spectrum.spec}};
  nlohmann::json not_checked = nlohmann::json::array();
  for (const T3Variances& v : t3) {
    const std::string k = to_string(v.key);
    const std::string csv = "t3_variances_" + k + ".csv";
    ctx.out.write_csv(csv, record_t3(v, not_checked));
    t3_figure(ctx, k, csv, n);
  }
  ctx.params["second_moments_not_checked_no_power"] = not_checked;
  ctx.params["max_exact_relative_se"] = kMaxExactRelativeSe;
  ctx.params["measured"] = findings;  // the numbers behind ctx.findings (structured)
}

const Registrar registration{{
    .id = "E1",
    .slug = "mean-square",
    .title = "Mean-square stability: second-moment map s' = S s, phase maps",
    .labels = "lem:transport thm:unconditional-stability rem:underdamped-typicality lem:loss-free-det",
    .claim = "E[(v u_i)²] evolves by S = diag((β−ηλ_i)²+η²λ_i²)+η²λλᵀ (raw), β²I−2βη diag(λ̂)+η²Q "
             "(normalized); ms-stable iff ρ(S) < 1",
    .body = e01_mean_square,
}};

}  // namespace akm::exp
