// akm — the command-line program: list | run | reproduce | theory.
//
// Exit codes: 0 every check passed; 1 a check failed (the report says which); 2 bad input
// (refused before any work); 3 an internal error.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "akm/errors.hpp"
#include "akm/experiment.hpp"
#include "akm/report.hpp"
#include "akm/spectrum.hpp"
#include "akm/theory.hpp"

namespace {

using namespace akm;

struct CommonRunFlags {
  bool quick = false;
  unsigned long long seed = RunOptions{}.seed;
  int threads = 0;
  std::string out = "results";
  bool quiet = false;
  double false_alarm = RunOptions{}.family_alpha;
};

void add_run_flags(CLI::App* cmd, CommonRunFlags& f) {
  cmd->add_flag("--quick", f.quick, "fewer trials, same checks (tolerances follow the standard errors)");
  cmd->add_option("--seed", f.seed, "master seed; same seed → same numbers")->capture_default_str();
  cmd->add_option("--threads", f.threads, "worker threads (default: all cores); results do not depend on it");
  cmd->add_option("--out", f.out, "results folder")->capture_default_str();
  cmd->add_flag("--quiet", f.quiet, "no progress output");
  cmd->add_option("--false-alarm", f.false_alarm,
                  "declared family-wise false-alarm rate of each experiment's checks")->capture_default_str();
}

RunOptions to_options(const CommonRunFlags& f) {
  if (f.threads < 0) throw InputError("--threads", std::to_string(f.threads), "must be ≥ 1 (or omitted for all cores)");
  if (f.threads > 4096) throw InputError("--threads", std::to_string(f.threads), "must be ≤ 4096");
  if (!(f.false_alarm > 0 && f.false_alarm < 1))
    throw InputError("--false-alarm", show(f.false_alarm), "must be in (0, 1)");
  RunOptions o;
  o.family_alpha = f.false_alarm;
  o.quick = f.quick;
  o.seed = f.seed;
  o.threads = f.threads;
  o.out_root = f.out;
  o.progress = !f.quiet && isatty(STDERR_FILENO);
  require_writable_dir(o.out_root, "--out");
  return o;
}

int run_many(const std::vector<const ExperimentEntry*>& list, const RunOptions& opts) {
  bool all = true;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const auto& e = *list[k];
    if (opts.progress) std::fprintf(stderr, "[%zu/%zu] %s %s\n", k + 1, list.size(), e.info.id.c_str(), e.info.title.c_str());
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_experiment(e, opts);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool tty = isatty(STDOUT_FILENO);
    const char* on = tty ? (r.pass ? "\033[32m" : "\033[1;31m") : "";
    const char* off = tty ? "\033[0m" : "";
    std::cout << fmt::format("{:<4} {}{}{}  {}/{} checks passed  {:6.1f} s  {}\n", r.id, on,
                             r.pass ? "PASS" : "FAIL", off, r.n_checks - r.n_failed, r.n_checks, secs,
                             r.dir.string());
    all = all && r.pass;
  }
  write_report(opts.out_root);
  std::cout << fmt::format("report: {}\n", (opts.out_root / "index.html").string());
  return all ? 0 : 1;
}

int cmd_theory(double beta, double eta, double alpha, const std::string& spec, const std::string& key,
               unsigned long long seed, bool json) {
  const Spectrum s = parse_spectrum(spec, seed);
  const TheoryReport r = make_theory_report(beta, eta, alpha, parse_key(key), s);
  if (json) {
    std::cout << to_json(r).dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("key {}  β = {}  η = {}  α = {}  μ = {:.6g}  cond ceiling = {:.6g}\n",
                           to_string(r.key), r.beta, r.eta, r.alpha, r.mu, r.cond_ceiling);
  std::cout << fmt::format("weighted mean contraction Σwβ̃ = {:.6g}   Σw² = {:.6g}\n",
                           r.weighted_mean_contraction, r.frobenius_sq);
  std::cout << fmt::format("{:>4} {:>11} {:>11} {:>11} {:>11} {:>10} {:>11} {:>9} {:>9} {:>5}\n", "i",
                           "lambda", "lambda_hat", "kappa", "beta_tilde", "tau", "phi", "rho_ak",
                           "rho_ema", "under");
  for (std::size_t i = 0; i < r.directions.size(); ++i) {
    const auto& d = r.directions[i];
    std::cout << fmt::format("{:>4} {:>11.5g} {:>11.5g} {:>11.5g} {:>11.5g} {:>10.4g} {:>11.5g} {:>9.5f} {:>9.5f} {:>5}\n",
                             i + 1, d.lambda, d.lambda_hat, d.kappa, d.beta_tilde, d.tau, d.phi,
                             d.rho_ak, d.rho_ema, d.underdamped_ak ? "yes" : "no");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"akm — checks the AK-Momentum paper's theorems against simulation"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(akm::version()));

  auto* list = app.add_subcommand("list", "list experiments: ID, title, paper labels");

  CommonRunFlags run_flags;
  std::vector<std::string> ids;
  auto* run = app.add_subcommand("run", "run experiments by ID (T1…) or name (fixed-point…)");
  run->add_option("ID", ids, "experiment IDs")->required();
  add_run_flags(run, run_flags);

  CommonRunFlags rep_flags;
  auto* reproduce = app.add_subcommand("reproduce", "run every experiment, figures and the report");
  add_run_flags(reproduce, rep_flags);

  double beta = 0.9, eta = 0.5, alpha = 0.1;
  std::string spec, key = "normalized";
  unsigned long long tseed = 0;
  bool json = false;
  auto* th = app.add_subcommand("theory", "print the closed forms per direction");
  th->add_option("--beta", beta, "EMA decay β ∈ [0, 1)")->required();
  th->add_option("--eta", eta, "delta-rule coefficient η > 0")->required();
  th->add_option("--spectrum", spec, "covariance spec, e.g. spiked:n=64,spikes=10/5/2,floor=1")->required();
  th->add_option("--key", key, "raw | normalized")->capture_default_str();
  th->add_option("--alpha", alpha, "step size α > 0 for the rates")->capture_default_str();
  th->add_option("--seed", tseed, "seed of basis=random")->capture_default_str();
  th->add_flag("--json", json, "JSON output (stable contract, see README)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    auto& reg = Registry::instance();
    if (*list) {
      for (const auto& e : reg.all()) {
        std::string labels;
        for (const auto& l : e.info.paper_labels) labels += (labels.empty() ? "" : ", ") + l;
        std::cout << fmt::format("{:<4} {:<14} {}\n     [{}]\n", e.info.id, e.info.slug, e.info.title, labels);
      }
      return 0;
    }
    if (*run) {
      std::vector<const ExperimentEntry*> chosen;
      for (const auto& id : ids) {
        const auto* e = reg.find(id);
        if (!e) {
          std::string known;
          for (const auto& x : reg.all()) known += (known.empty() ? "" : ", ") + x.info.id;
          throw InputError("ID", id, "must be one of " + known + " (see `akm list`)");
        }
        chosen.push_back(e);
      }
      return run_many(chosen, to_options(run_flags));
    }
    if (*reproduce) {
      std::vector<const ExperimentEntry*> all;
      for (const auto& e : reg.all()) all.push_back(&e);
      return run_many(all, to_options(rep_flags));
    }
    if (*th) return cmd_theory(beta, eta, alpha, spec, key, tseed, json);
  } catch (const InputError& e) {
    std::cerr << "akm: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "akm: internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
