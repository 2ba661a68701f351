// akm phase — (η, β, α) phase diagrams from the closed forms, optionally beside a Monte-Carlo
// measurement at every grid point. Output folder --out: phase.csv (one row per point),
// phase.{gp,png,svg} heatmap, summary.json; [--measure] measured.{gp,png,svg} (difference
// in standard errors) and diverged.{gp,png,svg}. Staged and renamed into place.
// The driver is phase::validate and phase::run (akm/app/phase.hpp): this file binds the flags
// to its Request and writes what the run returns. Under mpirun the --measure points are split
// across ranks; rank 0 writes.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "akm/app/phase.hpp"
#include "akm/base/errors.hpp"
#include "akm/base/progress.hpp"
#include "akm/base/version.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/report/phase_report.hpp"
#include "command.hpp"

namespace fs = std::filesystem;

namespace akm::cli {
namespace {

// One options record: CLI11 binds every flag straight into phase::Request (akm/app/phase.hpp,
// whose defaults are the only ones), validated once by phase::validate in the plan, before any
// work. The record adds what the command itself needs: the output folder and --quiet, and
// --steps as CLI11 reads an int.
struct PhaseState {
  phase::Request r;
  int steps = static_cast<int>(phase::Request{}.steps);
  bool quiet = false;
  std::string out = "results/phase";
  // Set by validate():
  std::optional<phase::Plan> plan;
  fs::path root;
  std::string id;
  PhaseState() { r.seed = RunOptions{}.seed; }  // akm's one default seed
};

// What shared keys mean for the reader of a measured map (printed and in summary.json).
constexpr const char* kSharedNote =
    "keys shared across the grid (common random numbers): each point is unbiased with its own "
    "standard error, but points are positively correlated (smoother map, sharper differences; "
    "errors do not average out across points). --keys per-point for independent points.";

void validate(PhaseState& f) {
  // Every input is validated before anything is written.
  f.r.steps = f.steps;
  f.plan = phase::validate(f.r);
  if (f.out.empty()) throw InputError("--out", "''", "must be a folder path");
  const fs::path out_path = fs::absolute(f.out).lexically_normal();
  f.root = out_path.parent_path();
  f.id = out_path.filename().string();
  if (f.id.empty() || f.id == "." || f.id == "..") throw InputError("--out", f.out, "must name a folder");
  // Every map is drawn (phase.png; --measure adds two): gnuplot is required before any work.
  if (f.plan->writes) require_gnuplot("akm phase");
  if (f.plan->writes) require_writable_dir(f.root, "--out");  // under mpirun rank 0 alone writes
}

int cmd_phase(PhaseState& f) {
  const phase::Plan& plan = *f.plan;
  const phase::Options& o = plan.opts;
  const Spectrum& s = plan.spectrum;
  const phase::Keys keys = plan.measure_opts.keys;
  const fs::path& root = f.root;
  const std::string& id = f.id;
  const bool alpha_axis = o.x.param == phase::Param::alpha || o.y.param == phase::Param::alpha;
  const int threads = plan.threads;

  CountProgress bar("akm phase --measure", "points", f.r.measure && show_progress(f.quiet));
  const phase::Result res = phase::run(plan, [&bar](long long done, long long total) { bar.update(done, total); });
  const phase::Map& map = res.map;
  const std::vector<phase::MeasurePoint>& measured = res.measured;
  const double measure_seconds = res.measure_seconds;
  // Under mpirun every rank holds the gathered measurement; rank 0 alone writes it.
  if (!plan.writes) return 0;

  ResultDir dir(root, id);
  dir.write_csv("phase.csv", phase::to_table(map, f.r.measure ? &measured : nullptr));
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
  summary["direction"] = f.r.direction;
  summary["fixed"] = {{"eta", o.eta}, {"beta", o.beta}};
  summary["threads"] = threads;
  summary["ranks"] = plan.ranks;
  summary["seed"] = plan.seed;
  summary["version"] = version();
  if (f.r.measure) {
    summary["measure"] = phase::summarize(measured);
    summary["measure"]["trials"] = plan.measure_opts.trials;
    summary["measure"]["steps"] = plan.measure_opts.steps;
    summary["measure"]["seconds"] = measure_seconds;
    summary["measure"]["backend"] = f.r.backend;
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
    d.title = fmt::format("fraction of trials with ‖v_t‖² > 1e12 (T = {}, R = {})", plan.measure_opts.steps, plan.measure_opts.trials);
    d.cblabel = "fraction";
    d.cbrange = std::pair{0.0, 1.0};
    d.threshold_palette = false;
    phase::write_heatmap(dir, d);
  }
  dir.write_json("summary.json", summary);
  dir.commit();
  if (!f.quiet) {
    std::cout << fmt::format("{} map {}×{} in {:.3f} s{}\n", map.names[0], o.x.n, o.y.n, map.seconds,
                             f.r.measure ? fmt::format("; measured in {:.1f} s", measure_seconds) : "");
    if (f.r.measure && keys == phase::Keys::shared) std::cout << kSharedNote << "\n";
    std::cout << fmt::format("written: {}\n", dir.final_path().string());
  }
  return 0;
}

const RegisterCommand phase_cmd(45, "phase", [](CLI::App& app) -> Plan {
  auto f = std::make_shared<PhaseState>();
  auto* c = app.add_subcommand("phase", "phase diagrams over two of eta, beta, alpha (closed form, --measure)");
  c->add_option("--x", f->r.x, "x axis NAME:LO:HI:N[:log], NAME in eta|beta|alpha")->required();
  c->add_option("--y", f->r.y, "y axis NAME:LO:HI:N[:log]")->required();
  c->add_option("--metric", f->r.metric, "stable | ms_stable | rho_ratio | underdamped | speedup | counterexample")->required();
  c->add_option("--spectrum", f->r.spectrum, "covariance spec, e.g. spiked:n=32,spikes=100/30/10/3,floor=0.5")->required();
  c->add_option("--key", f->r.key, "raw | normalized")->capture_default_str();
  c->add_option("--alpha", f->r.alpha, "step size α > 0, or tuned (per point min_α ρ)")->capture_default_str();
  c->add_option("--direction", f->r.direction, "direction i (1-based) or all (worst and mean)")->capture_default_str();
  c->add_option("--eta", f->r.eta, "η when eta is not an axis")->capture_default_str();
  c->add_option("--beta", f->r.beta, "β when beta is not an axis")->capture_default_str();
  c->add_flag("--measure", f->r.measure, "Monte-Carlo measured contraction and divergence at every point");
  c->add_option("--backend", f->r.backend, "cpu | cuda: who runs the --measure trials")->capture_default_str();
  c->add_option("--keys", f->r.keys,
                "shared (one key sequence per trial pushes every point; points correlated) | per-point")
      ->capture_default_str();
  c->add_option("--trials", f->r.trials, "trials per point (--measure)")->capture_default_str();
  c->add_option("--steps", f->steps, "steps per trial (--measure)")->capture_default_str();
  c->add_option("--out", f->out, "output folder (replaced atomically)")->capture_default_str();
  c->add_option("--seed", f->r.seed, "seed (spectrum basis and --measure streams)")->capture_default_str();
  c->add_option("--threads", f->r.threads, "worker threads (default all cores); results do not depend on it");
  c->add_flag("--quiet", f->quiet, "no progress or summary lines");
  return {[f] { validate(*f); }, [f] { return cmd_phase(*f); }};
});

}  // namespace
}  // namespace akm::cli
