// akm CLI — a registry of subcommands so that each lives in its own file (src/cli/*.cpp).
//
// A command's setup adds its CLI11 subcommand and options, and returns the action that runs
// when the user chose it. Actions throw akm::InputError for bad input (main maps it to exit 2
// before any work is done) and return 0 (all checks passed) or 1 (a check failed).
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "akm/experiments/experiment.hpp"

namespace akm::cli {

using Action = std::function<int()>;
using Setup = std::function<Action(CLI::App& app)>;

/// A command split in two: `validate` refuses bad input (throws InputError) and does no
/// work; `run` does the work. The driver calls validate first, so `akm` can check a command
/// line without running it (the CLI fuzzer, tests). Commands registered with a plain Setup
/// validate inside their Action.
struct Plan {
  std::function<void()> validate;
  Action run;
};
using PlannedSetup = std::function<Plan(CLI::App& app)>;

struct Command {
  int order;  // position in `akm --help`
  std::string name;
  PlannedSetup setup;
  bool validates = false;  // true when registered with a PlannedSetup
};

std::vector<Command>& commands();

struct RegisterCommand {
  RegisterCommand(int order, std::string name, Setup setup);
  RegisterCommand(int order, std::string name, PlannedSetup setup);
};

/// The whole program: parse argv, validate, and (when `execute`) run the chosen command.
/// Returns the exit code (0 pass, 1 a check failed, 2 bad input, 3 internal error).
/// With execute = false nothing but validation happens (commands without a validate step
/// are only parsed), which is what the CLI fuzzer drives.
int run_main(int argc, const char* const* argv, bool execute = true);

// Flags shared by every command that runs experiments (run, reproduce, …).
struct CommonRunFlags {
  bool quick = false;
  unsigned long long seed = RunOptions{}.seed;
  int threads = 0;  // 0: all cores (the flag itself must be in [1, 4096])
  std::string out = "results";
  bool quiet = false;
  double false_alarm = RunOptions{}.family_alpha;
  int trials_scale = 1;  // --trials-scale K in [1, kMaxTrialsScale]
  std::string backend = "cpu";  // --backend: who runs the Monte Carlo of the claims on ops (app::run_backend)
};

void add_run_flags(CLI::App* cmd, CommonRunFlags& f);

// Validates the flags (exit 2 on bad values) and checks that --out is writable.
RunOptions to_options(const CommonRunFlags& f);

// Refuses (InputError naming PATH, exit 2) unless gnuplot is on PATH (akm::gnuplot_available,
// the check render_figure makes): a command that draws figures calls it in its validate step,
// so a machine without gnuplot is told before the run instead of after it. `command` names
// the command in the message ("akm simulate").
void require_gnuplot(const std::string& command);

// True when progress lines should be drawn: not --quiet, MPI rank 0 (or the only process),
// and stderr is a terminal or the environment sets AKM_PROGRESS=1.
bool show_progress(bool quiet);

}  // namespace akm::cli
