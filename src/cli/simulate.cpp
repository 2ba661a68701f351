// akm simulate — one Monte-Carlo run of AK-SGD (the AK buffer) and SGD-EMA on a spectrum:
// per-direction contraction β̃_i, coupling c_i, rate ρ_i and final error measured with
// standard errors beside the closed forms (akm/app/simulate.hpp). Output folder --out:
// rates.csv (one row per arm and direction), contraction.{gp,png,svg}, rate.{gp,png,svg},
// summary.json; staged and renamed into place.
// Exit 0: every check within its tolerance; 1: a check failed or the run diverged.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "akm/base/version.hpp"
#include "akm/base/errors.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/report/report.hpp"
#include "akm/app/simulate.hpp"
#include "akm/app/processes.hpp"
#include "command.hpp"

namespace fs = std::filesystem;

namespace akm::cli {
namespace {

// One options record: CLI11 binds every model and run parameter straight into
// simulate::Options (its defaults are the only ones; β, η, α and the key are its TheoryInputs),
// validated once by simulate::validate in the plan, before any work. The record adds only what
// the command itself needs: the spectrum text, the output and the progress line's lock.
struct SimulateState {
  simulate::Options o;
  std::mutex progress_lock;
  std::string spec;
  std::string out = "results/simulate";
  bool quiet = false;
  std::optional<Spectrum> spectrum;
  fs::path root;
  std::string id;
};

CsvTable rates_table(const simulate::Result& r) {
  CsvTable t{{"arm", "direction", "lambda", "lambda_hat", "kappa", "contraction_pred",
              "contraction", "contraction_se", "coupling_pred", "coupling", "coupling_se",
              "rate_pred", "rate", "rate_se", "final_error_pred", "final_error",
              "final_error_se"},
             {}};
  for (const auto& d : r.rows)
    for (int a = 0; a < 2; ++a) {
      const simulate::ArmRow& x = a == 0 ? d.ak : d.ema;
      t.add({std::string(a == 0 ? "ak" : "ema"), d.index, d.lambda,
             d.lambda_hat, d.kappa, x.contraction.predicted, x.contraction.measured,
             x.contraction.se, x.coupling.predicted, x.coupling.measured, x.coupling.se,
             x.rate.predicted, x.rate.measured, x.rate.se, x.final_error.predicted,
             x.final_error.measured, x.final_error.se});
    }
  return t;
}

void print_table(const simulate::Result& r, const Spectrum& s) {
  const auto& o = r.opts;
  std::cout << fmt::format(
      "akm simulate: {} key, β = {}, η = {}, α = {}, σ = {}, {} trials × {} steps, {} {} — {}\n",
      to_string(o.key), o.beta, o.eta, o.alpha, o.sigma, o.trials, o.steps,
      to_string(o.backend), engine::to_string(o.precision), s.spec);
  std::cout << fmt::format("{:>4} {:>10} {:>10} | {:>9} {:>20} | {:>9} {:>20} | {:>8} {:>8} {:>8} {:>8}\n",
                           "i", "lambda", "lam_key", "β̃ pred", "β̃ measured ± se", "c pred",
                           "c measured ± se", "ρ_ak", "ρ̂_ak", "ρ_ema", "ρ̂_ema");
  for (const auto& d : r.rows) {
    const double lk = o.key == Key::normalized ? d.lambda_hat : d.lambda;
    std::cout << fmt::format(
        "{:>4} {:>10.4g} {:>10.4g} | {:>9.5f} {:>9.5f} ± {:<8.2g} | {:>9.4g} {:>9.4g} ± {:<8.2g} | "
        "{:>8.5f} {:>8.5f} {:>8.5f} {:>8.5f}\n",
        d.index, d.lambda, lk, d.ak.contraction.predicted, d.ak.contraction.measured,
        d.ak.contraction.se, d.ak.coupling.predicted, d.ak.coupling.measured, d.ak.coupling.se,
        d.ak.rate.predicted, d.ak.rate.measured, d.ema.rate.predicted, d.ema.rate.measured);
  }
  long long failed = 0;
  double worst = 0;
  std::string worst_name;
  for (const auto& c : r.checks.records()) {
    failed += c.pass ? 0 : 1;
    const double se = c.stderr_measured;
    const double z = se > 0 ? std::abs(c.measured - c.predicted) / se : 0.0;
    if (z > worst) worst = z, worst_name = c.name;
  }
  std::cout << fmt::format("checks: {}/{} within z·se + rounding (z = {:.2f} for family false alarm {}); "
                           "worst |z| = {:.2f} ({}); {:.2f} s\n",
                           r.checks.size() - failed, r.checks.size(), r.checks.z(), o.false_alarm,
                           worst, worst_name, r.seconds);
  for (const auto& w : r.warnings) std::cout << "warning: " << w << "\n";
  if (!r.finite)
    std::cout << "the run diverged (non-finite statistics): the stochastic iteration is not "
                 "mean-square stable at this α; lower --alpha\n";
  std::cout << (r.finite && r.checks.all_pass() ? "PASS" : "FAIL") << "\n";
}

int cmd_simulate(SimulateState& st) {
  simulate::Options& o = st.o;
  if (show_progress(st.quiet))
    o.progress = [&mu = st.progress_lock](long long done, long long total) {
      std::lock_guard<std::mutex> lock(mu);
      std::fprintf(stderr, "\rakm simulate: %lld/%lld trial groups", done, total);
      if (done == total) std::fprintf(stderr, "\n");
    };
  const simulate::Result r = simulate::run(o, *st.spectrum);
  ResultDir dir(st.root, st.id, app::writes());  // under mpirun rank 0 alone writes
  dir.write_csv("rates.csv", rates_table(r));
  // Two figures from rates.csv: the buffer contraction β̃_i and the rate ρ_i per direction,
  // measured (± standard error) over the closed form, AK beside EMA.
  for (const auto& [stat, label] : {std::pair<std::string, std::string>{"contraction", "buffer contraction (β̃_i; EMA: β)"},
                                    std::pair<std::string, std::string>{"rate", "rate ρ(A_i)"}}) {
    Figure fig;
    fig.name = stat;
    fig.title = fmt::format("akm simulate, {} key, β = {}, η = {}, α = {}: {}", to_string(o.key),
                            show(o.beta), show(o.eta), show(o.alpha), label);
    fig.xlabel = "direction i (eigenvalues descending)";
    fig.ylabel = label;
    for (const char* arm : {"ak", "ema"}) {
      const std::string name = std::string(arm) == "ak" ? "AK-SGD" : "SGD-EMA";
      fig.series.push_back({"rates.csv", "direction", stat, stat + "_se", name + " measured",
                            "errorbars", std::string("arm=") + arm});
      fig.series.push_back({"rates.csv", "direction", stat + "_pred", "", name + " closed form",
                            "lines", std::string("arm=") + arm});
    }
    dir.figure(fig);
  }
  nlohmann::json j = simulate::to_json(r, *st.spectrum);
  j["version"] = version();
  j["threads"] = resolve_threads(o.threads);
  dir.write_json("summary.json", j);
  dir.commit();
  if (!st.quiet) {
    print_table(r, *st.spectrum);
    std::cout << fmt::format("written: {}\n", dir.final_path().string());
  }
  return r.finite && r.checks.all_pass() ? 0 : 1;
}

const RegisterCommand simulate_cmd(42, "simulate", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<SimulateState>();
  simulate::Options& o = st->o;
  auto* c = app.add_subcommand(
      "simulate", "simulate AK-SGD and SGD-EMA on a spectrum: per-direction rates vs theory");
  // Numbers are parsed by akm so every refusal names the flag, the text and the range;
  // the ranges themselves are checked once, by simulate::validate, before any work.
  const auto real = [c](const char* flag, const char* name, double& into, const char* range,
                        const char* help) {
    c->add_option_function<std::string>(
         flag, [name, range, &into](const std::string& s) { into = parse_real(name, s, range); },
         help)->type_name("FLOAT")->default_str(show(into));
  };
  c->add_option("--spectrum", st->spec, "covariance spec, e.g. power:n=64,exp=1 (as akm theory)")->required();
  real("--beta", "beta", o.beta, "in [0, 1)", "EMA decay β ∈ [0, 1)");
  real("--eta", "eta", o.eta, "> 0", "delta-rule coefficient η > 0");
  real("--alpha", "alpha", o.alpha, "> 0", "step size α > 0");
  real("--sigma", "sigma", o.sigma, ">= 0", "label noise σ ≥ 0");
  c->add_option_function<std::string>(
       "--key", [&o](const std::string& s) { o.key = parse_key(s); }, "raw | normalized")
      ->default_str(to_string(o.key));
  c->add_option_function<std::string>(
       "--trials", [&o](const std::string& s) { o.trials = parse_integer("--trials", s, 100, 1000000000LL); },
       "trials in [100, 1e9]")->type_name("INT")->default_str(std::to_string(o.trials));
  c->add_option_function<std::string>(
       "--steps", [&o](const std::string& s) { o.steps = int(parse_integer("--steps", s, 1, 1000000)); },
       "steps per trial in [1, 1e6]")->type_name("INT")->default_str(std::to_string(o.steps));
  c->add_option_function<std::string>(
       "--seed", [&o](const std::string& s) { o.seed = parse_u64("--seed", s); },
       "seed (streams and basis=random); same seed → same numbers")->type_name("UINT")->default_str(std::to_string(o.seed));
  c->add_option_function<std::string>(
       "--threads", [&o](const std::string& s) { o.threads = int(parse_integer("--threads", s, 1, 4096)); },
       "worker threads in [1, 4096] (default: all cores); results do not depend on it")->type_name("INT");
  c->add_option_function<std::string>(
       "--backend", [&o](const std::string& s) { o.backend = parse_backend(s, "--backend", {Backend::cpu, Backend::cuda}); },
       "cpu | cuda")->default_str(to_string(o.backend));
  c->add_option_function<std::string>(
       "--precision", [&o](const std::string& s) { o.precision = engine::parse_precision(s); },
       "double | float (cuda: float)")->default_str(engine::to_string(o.precision));
  c->add_option_function<std::string>(
       "--false-alarm", [&o](const std::string& s) { o.false_alarm = parse_real("--false-alarm", s, "in (0, 1)"); },
       "declared family-wise false-alarm rate of the checks")->type_name("FLOAT")->default_str(show(o.false_alarm));
  c->add_option("--out", st->out, "output folder (replaced atomically)")->capture_default_str();
  c->add_flag("--quiet", st->quiet, "no progress, table or summary lines");
  return {[st] {
            st->spectrum = simulate::validate(st->o, st->spec);
            const std::string& out = st->out;
            if (out.empty()) throw InputError("--out", "''", "must be a writable folder path");
            const fs::path out_path = fs::absolute(out).lexically_normal();
            st->root = out_path.parent_path();
            st->id = out_path.filename().string();
            if (st->id.empty() || st->id == "." || st->id == "..")
              throw InputError("--out", out, "must name a writable folder");
            // Rank 0 alone draws the figures and writes (under mpirun); before --out is created.
            if (app::writes()) require_gnuplot("akm simulate");
            if (app::writes()) require_writable_dir(st->root, "--out");
          },
          [st] { return cmd_simulate(*st); }};
});

}  // namespace
}  // namespace akm::cli
