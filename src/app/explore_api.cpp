// explore_api — `akm explore`'s requests, answered by akm phase's and akm theory's C++
// (see the header).
#include "akm/app/explore_api.hpp"

#include <atomic>
#include <cmath>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "akm/base/errors.hpp"
#include "akm/base/interrupt.hpp"
#include "akm/base/key.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/app/explore_guard.hpp"
#include "akm/app/phase.hpp"
#include "akm/report/files.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/direction_table.hpp"

namespace akm::explore {

namespace {

constexpr const char* kDefaultSeed = "20261122";  // akm phase's default seed

Response json_response(int status, const nlohmann::json& j) {
  return {status, "application/json", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

Response error_response(int status, const std::string& message, const std::string& parameter) {
  return json_response(status, {{"error", message}, {"parameter", parameter}});
}

// Every request names only parameters of its route: an unknown one is refused (a typo must
// not silently fall back to a default).
void require_known(const Query& q, const std::set<std::string>& known) {
  for (const auto& [k, v] : q)
    if (!known.count(k)) {
      std::string list;
      for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
      throw InputError(k, v, "is not a parameter of this request (known: " + list + ")");
    }
}

const std::string& required(const Query& q, const std::string& name) {
  const auto it = q.find(name);
  if (it == q.end()) throw InputError("--" + name, "(missing)", "is required");
  return it->second;
}

std::string get(const Query& q, const std::string& name, const std::string& fallback) {
  const auto it = q.find(name);
  return it == q.end() ? fallback : it->second;
}

// The closed-form model (moments by quadrature) is the slow part of a map: one is kept per
// (spectrum, seed, key, fourth moments), so moving a slider recomputes only the grid.
std::shared_ptr<const phase::Model> model_for(const Spectrum& s, std::uint64_t seed, bool fourth) {
  static std::mutex mu;
  static std::map<std::tuple<std::string, std::uint64_t, bool>, std::shared_ptr<const phase::Model>> cache;
  const auto key = std::make_tuple(s.spec, seed, fourth);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto m = std::make_shared<const phase::Model>(phase::make_model(s, fourth));
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= 16) cache.clear();  // bounded memory: a few spectra at a time
  return cache.emplace(key, m).first->second;
}

// A word of the printed command: bare when the shell reads it as is, else quoted by the
// report layer's shell_quote (which also escapes embedded quotes).
std::string shell_word(const std::string& s) {
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string(":=,./_-").find(c) != std::string::npos))
      return files::shell_quote(s);
  return s;
}

Response phase_map(const Query& q, const Settings& settings) {
  const Limits& limits = settings.limits;
  require_known(q, {"x", "y", "metric", "spectrum", "key", "alpha", "direction", "eta", "beta", "seed"});
  // The query binds to akm phase's request (akm/app/phase.hpp), validated by its one validation;
  // the server adds its work bound, the confined spectrum reader and text for η, β and the seed.
  phase::Request r;
  r.x = required(q, "x");
  r.y = required(q, "y");
  r.max_points = limits.max_points;
  r.metric = required(q, "metric");
  r.key = get(q, "key", "normalized");
  r.eta = parse_real("--eta", get(q, "eta", "0.5"), "> 0");
  r.beta = parse_real("--beta", get(q, "beta", "0.9"), "in [0, 1)");
  // Refused even when the parameter is an axis (and so unused): a NaN is never a setting.
  require_finite("--eta", r.eta);
  require_finite("--beta", r.beta);
  r.alpha = get(q, "alpha", "tuned");
  r.seed = parse_u64("--seed", get(q, "seed", kDefaultSeed));
  r.spectrum = required(q, "spectrum");
  r.read_spectrum = [&settings](const std::string& text, std::uint64_t seed) {
    return request_spectrum(text, seed, settings.data_dir);
  };
  const std::string direction = get(q, "direction", "all");
  r.direction = direction;
  const phase::Plan plan = phase::validate(r);
  const phase::Options& o = plan.opts;
  const Spectrum& s = plan.spectrum;
  const std::uint64_t seed = plan.seed;
  const auto model = model_for(s, seed, phase::needs_fourth(o));
  const phase::Map map = phase::run(plan, *model).map;

  nlohmann::json columns = nlohmann::json::object();
  for (std::size_t c = 0; c < map.names.size(); ++c) {
    auto col = nlohmann::json::array();
    for (const auto& p : map.points) col.push_back(std::isfinite(p.cols[c]) ? nlohmann::json(p.cols[c]) : nlohmann::json(nullptr));
    columns[map.names[c]] = std::move(col);
  }
  auto xs = nlohmann::json::array(), ys = nlohmann::json::array();
  for (int k = 0; k < o.x.n; ++k) xs.push_back(o.x.value(k));
  for (int k = 0; k < o.y.n; ++k) ys.push_back(o.y.value(k));
  // The fixed values that are not axes, as `akm phase` reads them.
  auto is_axis = [&](phase::Param p) { return o.x.param == p || o.y.param == p; };
  std::string fixed;
  if (!is_axis(phase::Param::alpha)) fixed += " --alpha " + shell_word(get(q, "alpha", "tuned"));
  if (!is_axis(phase::Param::eta)) fixed += " --eta " + show(o.eta);
  if (!is_axis(phase::Param::beta)) fixed += " --beta " + show(o.beta);
  const std::string command = fmt::format(
      "akm phase --x {} --y {} --metric {} --spectrum {} --key {} --direction {}{} --seed {} "
      "--out results/phase",
      shell_word(o.x.spec), shell_word(o.y.spec), phase::to_string(o.metric), shell_word(s.spec),
      to_string(o.key), shell_word(direction), fixed, seed);
  return json_response(200, {{"nx", o.x.n},
                             {"ny", o.y.n},
                             {"x_param", phase::to_string(o.x.param)},
                             {"y_param", phase::to_string(o.y.param)},
                             {"x", xs},
                             {"y", ys},
                             {"names", map.names},
                             {"columns", columns},
                             {"spectrum", s.spec},
                             {"seconds", map.seconds},
                             {"command", command}});
}

Response theory_point(const Query& q, const Settings& settings) {
  require_known(q, {"beta", "eta", "spectrum", "key", "alpha", "seed"});
  const double beta = parse_real("beta", required(q, "beta"), "in [0, 1)");
  const double eta = parse_real("eta", required(q, "eta"), "> 0");
  const double alpha = parse_real("alpha", get(q, "alpha", show(TheoryInputs{}.alpha)), "> 0");
  require_beta(beta);
  require_eta(eta);
  require_alpha(alpha);
  const Key key = parse_key(get(q, "key", "normalized"));
  const Spectrum s = request_spectrum(required(q, "spectrum"), parse_u64("--seed", get(q, "seed", "0")), settings.data_dir);
  require_contraction(beta, eta, key, s);
  return json_response(200, to_json(make_theory_report({beta, eta, alpha, key}, s)));
}

std::atomic<bool> measuring{false};

Response measure_point(const Query& q, const Settings& settings) {
  const Limits& limits = settings.limits;
  require_known(q, {"eta", "beta", "spectrum", "key", "direction", "trials", "steps", "seed"});
  const double eta = parse_real("--eta", required(q, "eta"), "> 0");
  const double beta = parse_real("--beta", required(q, "beta"), "in [0, 1)");
  require_eta(eta);
  require_beta(beta);
  const Key key = parse_key(get(q, "key", "normalized"));
  const std::uint64_t seed = parse_u64("--seed", get(q, "seed", kDefaultSeed));
  const Spectrum s = request_spectrum(required(q, "spectrum"), seed, settings.data_dir);
  const int direction = phase::parse_direction(get(q, "direction", "all"), s.n());
  const long long trials = parse_integer("--trials", get(q, "trials", "256"), 2, limits.max_trials);
  const long long steps = parse_integer("--steps", get(q, "steps", "1000"), 1, limits.max_steps);
  if (trials * steps > limits.max_trial_steps)
    throw InputError("--trials", std::to_string(trials),
                     fmt::format("trials × steps must be ≤ {} per request (steps = {})",
                                 limits.max_trial_steps, steps));
  // One measurement at a time (the server is a single user's, bound to loopback).
  static std::mutex running;
  std::unique_lock<std::mutex> lock(running, std::try_to_lock);
  if (!lock.owns_lock())
    return error_response(429, "a measurement is already running: wait for it or cancel it (/api/cancel)", "");
  interrupt::clear_stop();
  measuring = true;
  struct Done {
    ~Done() { measuring = false; }
  } done;
  const auto model = model_for(s, seed, false);
  phase::MeasureOptions mo;
  mo.key = key;
  mo.backend = Backend::cpu;
  mo.keys = phase::Keys::per_point;
  mo.trials = trials;
  mo.steps = static_cast<int>(steps);
  mo.seed = seed;
  mo.threads = resolve_threads(0);
  try {
    const auto m = phase::measure({{eta, beta}}, *model, direction, mo);
    const auto& p = m.front();
    return json_response(200, {{"eta", p.eta},
                               {"beta", p.beta},
                               {"direction", p.direction + 1},
                               {"lag", p.lag},
                               {"predicted_rate", p.predicted_rate},
                               {"measured_rate", p.measured_rate},
                               {"rate_se", p.rate_se},
                               {"rate_z", p.rate_z},
                               {"diverged_fraction", p.diverged_fraction},
                               {"growth", p.growth},
                               {"growth_se", p.growth_se},
                               {"trials", trials},
                               {"steps", steps}});
  } catch (const interrupt::Stopped&) {
    interrupt::clear_stop();
    return error_response(409, "cancelled", "");
  }
}

}  // namespace

void cancel_measurement() {
  if (measuring) interrupt::request_stop();
}

Response handle(const std::string& path, const Query& query, const Settings& settings) {
  try {
    if (path == "/api/phase") return phase_map(query, settings);
    if (path == "/api/theory") return theory_point(query, settings);
    if (path == "/api/measure") return measure_point(query, settings);
    if (path == "/api/cancel") {
      const bool was = measuring;
      cancel_measurement();
      return json_response(200, {{"cancelled", was}});
    }
    if (path == "/" || path == "/index.html") return {200, "text/html; charset=utf-8", page_html()};
    return error_response(404, "no such page: " + quoted(path), "");
  } catch (const InputError& e) {
    return error_response(400, e.what(), e.param());
  } catch (const std::exception& e) {  // a bug, not the request: say so, keep serving
    return error_response(500, std::string("internal error: ") + e.what(), "");
  }
}

}  // namespace akm::explore
