// python/phase — akm.phase(): the closed-form map of `akm phase` over two of (η, β, α) as
// arrays, and with measure=True the Monte-Carlo contraction and divergence at every point
// (akm/sim/phase_measure.hpp), by the same C++ the CLI calls.
#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/sim/phase_measure.hpp"
#include "akm/sim/sim.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/phase.hpp"
#include "common.hpp"

namespace akm::py {

namespace {

// α and direction arrive as Python values; the CLI parses text, so they are turned into the
// text the CLI would see and parsed by the same functions (same refusals).
std::string alpha_text(const pyb::object& a) {
  if (a.is_none()) return "tuned";
  if (pyb::isinstance<pyb::str>(a)) return a.cast<std::string>();
  return show(a.cast<double>());
}

std::string direction_text(const pyb::object& d) {
  if (pyb::isinstance<pyb::str>(d)) return d.cast<std::string>();
  return std::to_string(d.cast<long long>());
}

pyb::dict phase_map(const std::string& x, const std::string& y, const std::string& metric,
                    const std::string& spec, const std::string& key, const pyb::object& alpha,
                    const pyb::object& direction, double eta, double beta, bool measure,
                    long long trials, long long steps, unsigned long long seed, int threads,
                    bool progress) {
  phase::Options o;
  o.x = phase::parse_axis(x, "--x");
  o.y = phase::parse_axis(y, "--y");
  o.metric = phase::parse_metric(metric);
  o.key = parse_key(key);
  o.eta = eta;
  o.beta = beta;
  o.alpha = phase::parse_alpha(alpha_text(alpha));
  const Spectrum s = parse_spectrum(spec, seed);
  o.direction = phase::parse_direction(direction_text(direction), s.n());
  phase::validate(o, s.n());
  if (threads < 0) throw InputError("--threads", std::to_string(threads), "must be >= 1 (or omitted for all cores)");
  if (measure) phase::validate_measure(o, trials, steps);
  const int nt = resolve_threads(threads);

  phase::Map map;
  std::vector<phase::MeasurePoint> measured;
  run_long("akm.phase" + std::string(measure ? " measure" : ""), "points", progress, [&](Progress& bar) {
    const bool fourth = o.metric == phase::Metric::ms_stable && o.key == Key::normalized;
    const phase::Model model = phase::make_model(s, fourth);
    map = phase::compute(o, model, nt);
    if (!measure) return;
    phase::MeasureOptions mo;
    mo.key = o.key;
    mo.backend = Backend::cpu;
    mo.trials = trials;
    mo.steps = static_cast<int>(steps);
    mo.seed = seed;
    mo.threads = nt;
    mo.progress = bar.callback();
    std::vector<std::pair<double, double>> eb;
    for (const auto& p : map.points) eb.emplace_back(p.eta, p.beta);
    const Vec lam_key = o.key == Key::raw ? model.moments.lambda : model.moments.lambda_hat;
    measured = phase::measure(eb, model.moments.lambda, lam_key, o.direction, mo);
  });

  const auto nx = static_cast<std::size_t>(o.x.n), ny = static_cast<std::size_t>(o.y.n);
  std::vector<double> xs(nx), ys(ny);
  for (std::size_t k = 0; k < nx; ++k) xs[k] = o.x.value(static_cast<int>(k));
  for (std::size_t k = 0; k < ny; ++k) ys[k] = o.y.value(static_cast<int>(k));
  pyb::dict out;
  out["x_name"] = phase::to_string(o.x.param);
  out["y_name"] = phase::to_string(o.y.param);
  out["x"] = array(xs);
  out["y"] = array(ys);
  out["metric"] = phase::to_string(o.metric);
  out["spectrum"] = s.spec;
  out["names"] = map.names;
  // Points run x fastest, then y: column c is a (len(y), len(x)) array, row = y index.
  auto grid = [&](auto&& get) {
    std::vector<double> v(map.points.size());
    for (std::size_t p = 0; p < v.size(); ++p) v[p] = get(p);
    return array2d(v, ny, nx);
  };
  pyb::dict values;
  for (std::size_t c = 0; c < map.names.size(); ++c)
    values[pyb::str(map.names[c])] = grid([&](std::size_t p) { return map.points[p].cols[c]; });
  out["values"] = values;
  out["value"] = values[pyb::str(map.names[0])];
  out["seconds"] = map.seconds;
  if (measure) {
    pyb::dict mv;
    using MP = phase::MeasurePoint;
    const std::vector<std::pair<const char*, double MP::*>> fields = {
        {"predicted_rate", &MP::predicted_rate}, {"measured_rate", &MP::measured_rate},
        {"rate_se", &MP::rate_se}, {"rate_z", &MP::rate_z},
        {"mean_projection", &MP::mean_projection}, {"projection_se", &MP::projection_se},
        {"diverged_fraction", &MP::diverged_fraction}, {"growth", &MP::growth},
        {"growth_se", &MP::growth_se}};
    for (const auto& [name, field] : fields)
      mv[name] = grid([&](std::size_t p) { return measured[p].*field; });
    mv["direction"] = grid([&](std::size_t p) { return double(measured[p].direction + 1); });
    mv["lag"] = grid([&](std::size_t p) { return double(measured[p].lag); });
    mv["trials"] = trials;
    mv["steps"] = steps;
    out["measured"] = mv;
  }
  return out;
}

}  // namespace

void bind_phase(pyb::module_& m) {
  using namespace pybind11::literals;
  m.def("phase", &phase_map, "x"_a = "eta:0.01:1.9:64", "y"_a = "beta:0:0.99:64", "metric"_a = "stable",
        "spectrum"_a, "key"_a = "normalized", "alpha"_a = pyb::none(), "direction"_a = "all",
        "eta"_a = 0.5, "beta"_a = 0.9, "measure"_a = false, "trials"_a = 256LL, "steps"_a = 1000LL,
        "seed"_a = RunOptions{}.seed, "threads"_a = 0, "progress"_a = true,
        R"(A phase diagram over two of eta, beta, alpha, as `akm phase` computes it.

x, y: axis specs NAME:LO:HI:N[:log]; metric: stable | ms_stable | rho_ratio | underdamped |
speedup | counterexample; alpha: None (tuned per point), a number, or "tuned"; direction:
"all" or a 1-based index. Returns x and y values, the metric's columns in "values" (each a
(len(y), len(x)) array, row = y index) and "value" (the plotted column). measure=True adds
"measured": the Monte-Carlo contraction rate with its standard error and z, and the fraction
of diverged trials at every point (trials × steps per point; Ctrl-C stops it).)");
}

}  // namespace akm::py
