// python/phase — akm.phase(): the closed-form map of `akm phase` over two of (η, β, α) as
// arrays, and with measure=True the Monte-Carlo contraction and divergence at every point
// by the driver the CLI calls (phase::validate and phase::run, akm/app/phase.hpp): this file
// binds the arguments to its Request and turns what the run returns into arrays.
#include <fmt/format.h>

#include "akm/app/phase.hpp"
#include "akm/base/errors.hpp"
#include "akm/experiments/experiment.hpp"
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
  phase::Request r;
  r.x = x;
  r.y = y;
  r.metric = metric;
  r.spectrum = spec;
  r.key = key;
  r.alpha = alpha_text(alpha);
  r.direction = direction_text(direction);
  r.eta = eta;
  r.beta = beta;
  r.seed = seed;
  r.threads = threads;
  r.measure = measure;
  r.trials = trials;
  r.steps = steps;
  // The module measures on the CPU engine with every point's own streams (the reference).
  r.backend = "cpu";
  r.keys = "per-point";
  const phase::Plan plan = phase::validate(r);
  const phase::Options& o = plan.opts;

  phase::Result res;
  run_long("akm.phase" + std::string(measure ? " measure" : ""), "points", progress,
           [&](Progress& bar) { res = phase::run(plan, bar.callback()); });
  const phase::Map& map = res.map;
  const std::vector<phase::MeasurePoint>& measured = res.measured;

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
  out["spectrum"] = plan.spectrum.spec;
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
        "eta"_a = 0.5, "beta"_a = 0.9, "measure"_a = false, "trials"_a = phase::Request{}.trials, "steps"_a = phase::Request{}.steps,
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
