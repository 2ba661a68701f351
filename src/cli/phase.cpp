// akm phase — (η, β, α) phase diagrams from the closed forms, optionally beside a Monte-Carlo
// measurement at every grid point. Output folder --out: phase.csv (one row per point),
// phase.{gp,png,svg} heatmap, summary.json; [--measure] measured.{gp,png,svg} (difference
// in standard errors) and diverged.{gp,png,svg}. Staged and renamed into place.
// Under mpirun the --measure points are split across ranks (akm/sim/dist.hpp); rank 0 writes.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "akm/base/version.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/dist.hpp"
#include "akm/base/errors.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/theory/phase.hpp"
#include "akm/sim/phase_measure.hpp"
#include "akm/report/phase_report.hpp"
#include "akm/base/progress.hpp"
#include "akm/sim/sim.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "command.hpp"

namespace fs = std::filesystem;

namespace akm::cli {
namespace {

// One options record: CLI11 binds the fixed values straight into phase::Options (η, β) and
// phase::MeasureOptions (trials, steps, seed), whose defaults are the only ones; the texts
// that need the spectrum or a parser (axes, metric, key, α, direction, backend, keys) are kept
// as typed and parsed once by validate(), before any work.
struct PhaseState {
  phase::Options o;
  phase::MeasureOptions mo;
  std::string x, y, metric, spec, key = "normalized", alpha = "tuned", direction = "all";
  std::string backend = "cpu", keys = "shared";
  bool measure = false, quiet = false;
  std::string out = "results/phase";
  int threads = 0;
  // Set by validate():
  std::optional<Spectrum> spectrum;
  fs::path root;
  std::string id;
  PhaseState() { mo.seed = RunOptions{}.seed; }  // akm's one default seed
};

// What shared keys mean for the reader of a measured map (printed and in summary.json).
constexpr const char* kSharedNote =
    "keys shared across the grid (common random numbers): each point is unbiased with its own "
    "standard error, but points are positively correlated (smoother map, sharper differences; "
    "errors do not average out across points). --keys per-point for independent points.";

void validate(PhaseState& f) {
  // Every input is validated before anything is written.
  phase::Options& o = f.o;
  o.x = phase::parse_axis(f.x, "--x");
  o.y = phase::parse_axis(f.y, "--y");
  o.metric = phase::parse_metric(f.metric);
  o.key = parse_key(f.key);
  o.alpha = phase::parse_alpha(f.alpha);
  f.spectrum = parse_spectrum(f.spec, f.mo.seed);
  o.direction = phase::parse_direction(f.direction, f.spectrum->n());
  phase::validate(o, f.spectrum->n());
  if (f.threads < 0) throw InputError("--threads", std::to_string(f.threads), "must be >= 1 (or omitted for all cores)");
  if (f.measure) phase::validate_measure(o, f.mo.trials, f.mo.steps);
  // --backend: who runs the --measure trials (cpu: the fast engine, src/sim/ops/phase_measure/cpu.cpp).
  f.mo.backend = parse_backend(f.backend, "--backend", {Backend::cpu, Backend::cuda});
  // --keys: common random numbers across the grid (shared, ops::phase_trials_shared_cpu) or the
  // per-point reference streams (akm/sim/phase_measure.hpp).
  f.mo.keys = phase::parse_keys(f.keys, "--keys");
  if (f.mo.backend == Backend::cuda) {
    if (!f.measure)
      throw InputError("--backend", "cuda", "applies to --measure only (the closed-form map runs no simulation)");
    cuda::require_usable();
  }
  if (f.out.empty()) throw InputError("--out", "''", "must be a folder path");
  const fs::path out_path = fs::absolute(f.out).lexically_normal();
  f.root = out_path.parent_path();
  f.id = out_path.filename().string();
  if (f.id.empty() || f.id == "." || f.id == "..") throw InputError("--out", f.out, "must name a folder");
  // Every map is drawn (phase.png; --measure adds two): gnuplot is required before any work.
  if (dist::root()) require_gnuplot("akm phase");
  if (dist::root()) require_writable_dir(f.root, "--out");  // under mpirun rank 0 alone writes
}

int cmd_phase(PhaseState& f) {
  const phase::Options& o = f.o;
  const Spectrum& s = *f.spectrum;
  const phase::Keys keys = f.mo.keys;
  const fs::path& root = f.root;
  const std::string& id = f.id;
  const bool alpha_axis = o.x.param == phase::Param::alpha || o.y.param == phase::Param::alpha;
  const int threads = resolve_threads(f.threads);

  const bool fourth = o.metric == phase::Metric::ms_stable && o.key == Key::normalized;
  const phase::Model model = phase::make_model(s, fourth);
  const phase::Map map = phase::compute(o, model, threads);

  std::vector<phase::MeasurePoint> measured;
  double measure_seconds = 0;
  if (f.measure) {
    phase::MeasureOptions mo = f.mo;
    mo.key = o.key;
    mo.threads = threads;
    auto bar = std::make_shared<CountProgress>("akm phase --measure", "points", show_progress(f.quiet));
    mo.progress = [bar](long long done, long long total) { bar->update(done, total); };
    std::vector<std::pair<double, double>> eb;
    for (const auto& p : map.points) eb.emplace_back(p.eta, p.beta);
    const Vec lam_key = o.key == Key::raw ? model.moments.lambda : model.moments.lambda_hat;
    const auto t0 = std::chrono::steady_clock::now();
    measured = phase::measure(eb, model.moments.lambda, lam_key, o.direction, mo);
    measure_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  // Under mpirun every rank holds the gathered measurement; rank 0 alone writes it.
  if (!dist::root()) return 0;

  ResultDir dir(root, id);
  dir.write_csv("phase.csv", phase::to_table(map, f.measure ? &measured : nullptr));
  phase::Heatmap h;
  h.name = "phase";
  h.csv = "phase.csv";
  h.column = map.names[0];
  h.x = o.x;
  h.y = o.y;
  const bool uses_alpha = o.metric != phase::Metric::stable && o.metric != phase::Metric::ms_stable;
  const std::string alpha_txt = alpha_axis || !uses_alpha ? "" : o.alpha ? fmt::format(", α = {}", *o.alpha) : ", tuned α";
  const std::string dir_txt = o.direction < 0 ? "all directions" : fmt::format("direction u{}", o.direction + 1);
  h.title = fmt::format("{} ({} key, {}{}) — {}", map.names[0], to_string(o.key), dir_txt, alpha_txt, s.spec);
  if (o.metric == phase::Metric::stable || o.metric == phase::Metric::ms_stable) {
    h.threshold_palette = true;
    h.cbrange = std::pair{0.0, 2.0};
    h.stability_lines_lambda_max = s.lambda.maxCoeff();
  }
  phase::write_heatmap(dir, h);
  nlohmann::json summary = phase::summarize(map);
  summary["command"] = "akm phase";
  summary["spectrum"] = s.spec;
  summary["alpha"] = alpha_axis ? nlohmann::json("axis") : o.alpha ? nlohmann::json(*o.alpha) : nlohmann::json("tuned");
  summary["direction"] = f.direction;
  summary["fixed"] = {{"eta", o.eta}, {"beta", o.beta}};
  summary["threads"] = threads;
  summary["ranks"] = dist::size();
  summary["seed"] = f.mo.seed;
  summary["version"] = version();
  if (f.measure) {
    summary["measure"] = phase::summarize(measured);
    summary["measure"]["trials"] = f.mo.trials;
    summary["measure"]["steps"] = f.mo.steps;
    summary["measure"]["seconds"] = measure_seconds;
    summary["measure"]["backend"] = f.backend;
    summary["measure"]["keys"] = phase::to_string(keys);
    if (keys == phase::Keys::shared)
      summary["measure"]["keys_note"] = kSharedNote;
    phase::Heatmap z = h;
    z.name = "measured";
    z.column = "rate_z";
    z.title = "(measured − predicted) contraction rate / SE";
    z.cblabel = "z";
    z.cbrange = std::pair{-5.0, 5.0};
    z.threshold_palette = false;
    z.diverging = true;
    z.stability_lines_lambda_max.reset();
    phase::write_heatmap(dir, z);
    phase::Heatmap d = h;
    d.name = "diverged";
    d.column = "diverged_fraction";
    d.title = fmt::format("fraction of trials with ‖v_t‖² > 1e12 (T = {}, R = {})", f.mo.steps, f.mo.trials);
    d.cblabel = "fraction";
    d.cbrange = std::pair{0.0, 1.0};
    d.threshold_palette = false;
    phase::write_heatmap(dir, d);
  }
  dir.write_json("summary.json", summary);
  dir.commit();
  if (!f.quiet) {
    std::cout << fmt::format("{} map {}×{} in {:.3f} s{}\n", map.names[0], o.x.n, o.y.n, map.seconds,
                             f.measure ? fmt::format("; measured in {:.1f} s", measure_seconds) : "");
    if (f.measure && keys == phase::Keys::shared) std::cout << kSharedNote << "\n";
    std::cout << fmt::format("written: {}\n", dir.final_path().string());
  }
  return 0;
}

const RegisterCommand phase_cmd(45, "phase", [](CLI::App& app) -> Plan {
  auto f = std::make_shared<PhaseState>();
  auto* c = app.add_subcommand("phase", "phase diagrams over two of eta, beta, alpha (closed form, --measure)");
  c->add_option("--x", f->x, "x axis NAME:LO:HI:N[:log], NAME in eta|beta|alpha")->required();
  c->add_option("--y", f->y, "y axis NAME:LO:HI:N[:log]")->required();
  c->add_option("--metric", f->metric, "stable | ms_stable | rho_ratio | underdamped | speedup | counterexample")->required();
  c->add_option("--spectrum", f->spec, "covariance spec, e.g. spiked:n=32,spikes=100/30/10/3,floor=0.5")->required();
  c->add_option("--key", f->key, "raw | normalized")->capture_default_str();
  c->add_option("--alpha", f->alpha, "step size α > 0, or tuned (per point min_α ρ)")->capture_default_str();
  c->add_option("--direction", f->direction, "direction i (1-based) or all (worst and mean)")->capture_default_str();
  c->add_option("--eta", f->o.eta, "η when eta is not an axis")->capture_default_str();
  c->add_option("--beta", f->o.beta, "β when beta is not an axis")->capture_default_str();
  c->add_flag("--measure", f->measure, "Monte-Carlo measured contraction and divergence at every point");
  c->add_option("--backend", f->backend, "cpu | cuda: who runs the --measure trials")->capture_default_str();
  c->add_option("--keys", f->keys,
                "shared (one key sequence per trial pushes every point; points correlated) | per-point")
      ->capture_default_str();
  c->add_option("--trials", f->mo.trials, "trials per point (--measure)")->capture_default_str();
  c->add_option("--steps", f->mo.steps, "steps per trial (--measure)")->capture_default_str();
  c->add_option("--out", f->out, "output folder (replaced atomically)")->capture_default_str();
  c->add_option("--seed", f->mo.seed, "seed (spectrum basis and --measure streams)")->capture_default_str();
  c->add_option("--threads", f->threads, "worker threads (default all cores); results do not depend on it");
  c->add_flag("--quiet", f->quiet, "no progress or summary lines");
  return {[f] { validate(*f); }, [f] { return cmd_phase(*f); }};
});

}  // namespace
}  // namespace akm::cli
