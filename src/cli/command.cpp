#include "command.hpp"

#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <cstdlib>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "akm/base/version.hpp"
#include "akm/app/processes.hpp"
#include "akm/base/errors.hpp"
#include "akm/report/report.hpp"
#include "akm/app/run.hpp"

namespace akm::cli {

std::vector<Command>& commands() {
  static std::vector<Command> all;
  return all;
}

RegisterCommand::RegisterCommand(int order, std::string name, Setup setup) {
  PlannedSetup planned = [setup = std::move(setup)](CLI::App& app) {
    return Plan{nullptr, setup(app)};
  };
  commands().push_back({order, std::move(name), std::move(planned), false});
}

RegisterCommand::RegisterCommand(int order, std::string name, PlannedSetup setup) {
  commands().push_back({order, std::move(name), std::move(setup), true});
}

void add_run_flags(CLI::App* cmd, CommonRunFlags& f) {
  // Numbers are parsed by akm (not CLI11) so that every refusal names the flag, the text
  // and the valid range in the InputError format.
  cmd->add_flag("--quick", f.quick, "fewer trials, same checks (tolerances follow the standard errors)");
  cmd->add_option_function<std::string>(
         "--seed", [&f](const std::string& s) { f.seed = parse_u64("--seed", s); },
         "master seed; same seed → same numbers")
      ->type_name("UINT")
      ->default_str(std::to_string(f.seed));
  cmd->add_option_function<std::string>(
      "--threads",
      [&f](const std::string& s) { f.threads = static_cast<int>(parse_integer("--threads", s, 1, 4096)); },
      "worker threads in [1, 4096] (default: all cores); results do not depend on it")
      ->type_name("INT");
  cmd->add_option("--out", f.out, "results folder")->capture_default_str();
  cmd->add_flag("--quiet", f.quiet, "no progress output");
  cmd->add_option_function<std::string>(
         "--false-alarm",
         [&f](const std::string& s) { f.false_alarm = parse_real("--false-alarm", s, "in (0, 1)"); },
         "declared family-wise false-alarm rate of each experiment's checks")
      ->type_name("FLOAT")
      ->default_str(show(f.false_alarm));
  cmd->add_option_function<std::string>(
         "--trials-scale",
         [&f](const std::string& s) {
           f.trials_scale = static_cast<int>(parse_integer("--trials-scale", s, 1, kMaxTrialsScale));
         },
         fmt::format("multiply every Monte-Carlo claim's trials by K in [1, {}]: tolerances and "
                     "powers follow the standard errors (√K finer); registered statuses are for 1",
                     kMaxTrialsScale))
      ->type_name("K")
      ->default_str("1");
  cmd->add_option_function<std::string>(
         "--backend",
         [&f](const std::string& s) { f.backend = s; },
         "who runs the Monte Carlo of the claims on ops: reference, cpu, cuda or cuda-emulated; ops "
         "with no path there, and claims without Monte Carlo on ops, run on the CPU (the run says which ran where)")
      ->type_name("NAME")
      ->default_str("cpu");
}

bool show_progress(bool quiet) {
  if (quiet || !app::writes()) return false;
  // Under mpirun rank 0's stderr is a pipe to the launcher even when the launcher's is a
  // terminal, so AKM_PROGRESS=1 (mpirun -x AKM_PROGRESS=1) asks for progress explicitly.
  const char* force = std::getenv("AKM_PROGRESS");
  return isatty(STDERR_FILENO) || (force && std::string(force) == "1");
}

RunOptions to_options(const CommonRunFlags& f) {
  if (f.threads < 0 || f.threads > 4096)
    throw InputError("--threads", std::to_string(f.threads), "must be an integer in [1, 4096]");
  if (!(f.false_alarm > 0 && f.false_alarm < 1))
    throw InputError("--false-alarm", show(f.false_alarm), "must be a number in (0, 1)");
  if (f.trials_scale < 1 || f.trials_scale > kMaxTrialsScale)
    throw InputError("--trials-scale", std::to_string(f.trials_scale),
                     fmt::format("must be an integer in [1, {}]", kMaxTrialsScale));
  RunOptions o;
  o.backend = app::run_backend(f.backend);  // cuda without a device: exit 2 before any work
  o.trials_scale = f.trials_scale;
  o.family_alpha = f.false_alarm;
  o.quick = f.quick;
  o.seed = f.seed;
  o.threads = f.threads;
  o.out_root = f.out;
  o.progress = show_progress(f.quiet);
  if (app::writes()) require_writable_dir(o.out_root, "--out");  // under mpirun rank 0 alone writes
  return o;
}

void require_gnuplot(const std::string& command) {
  if (gnuplot_available()) return;
  const char* path = std::getenv("PATH");
  throw InputError("PATH", path ? (*path ? std::string(path) : "\"\"") : "(unset)",
                   fmt::format("must hold gnuplot: {} draws its figures with it (Debian: gnuplot-nox)",
                               command));
}

int run_main(int argc, const char* const* argv, bool execute) {
  CLI::App app{"akm — checks the AK-Momentum paper's theorems against simulation"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(akm::version()));

  auto cmds = commands();
  std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  // The order is the help's listing order: two commands with one order would list in an
  // unspecified order (std::sort is not stable), so a shared order is a programming error.
  for (std::size_t i = 1; i < cmds.size(); ++i)
    if (cmds[i].order == cmds[i - 1].order)
      throw std::logic_error(fmt::format("commands '{}' and '{}' share the order {}", cmds[i - 1].name,
                                         cmds[i].name, cmds[i].order));
  std::map<std::string, Plan> plans;
  std::string names;
  for (const auto& c : cmds) {
    plans[c.name] = c.setup(app);
    names += (names.empty() ? "" : ", ") + c.name;
  }

  try {
    // CLI11 would only say "A subcommand is required" for a misspelt command.
    if (argc > 1 && argv[1][0] != '-' && !plans.count(argv[1]))
      throw InputError("command", argv[1], "must be one of " + names);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      if (!execute) return e.get_exit_code() == 0 ? 0 : 2;
      // Prints help/version or the error (rank 0 only: every rank parses the same argv).
      std::ostream null(nullptr);
      const int code = app::writes() ? app.exit(e) : app.exit(e, null, null);
      return code == 0 ? 0 : 2;
    }
    for (auto* sub : app.get_subcommands()) {
      const Plan& p = plans.at(sub->get_name());
      if (p.validate) p.validate();
      if (!execute) return 0;
      return p.run();
    }
  } catch (const InputError& e) {
    // Every rank refuses the same input: rank 0 alone says so.
    if (execute && app::writes()) std::cerr << "akm: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    if (execute)
      std::cerr << (app::ranks() > 1 ? fmt::format("akm (rank {}): ", app::rank()) : std::string("akm: "))
                << "internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}

}  // namespace akm::cli
