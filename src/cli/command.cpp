#include "command.hpp"

#include <unistd.h>

#include "akm/errors.hpp"
#include "akm/report.hpp"

namespace akm::cli {

std::vector<Command>& commands() {
  static std::vector<Command> all;
  return all;
}

RegisterCommand::RegisterCommand(int order, std::string name, Setup setup) {
  commands().push_back({order, std::move(name), std::move(setup)});
}

void add_run_flags(CLI::App* cmd, CommonRunFlags& f) {
  cmd->add_flag("--quick", f.quick, "fewer trials, same checks (tolerances follow the standard errors)");
  cmd->add_option("--seed", f.seed, "master seed; same seed → same numbers")->capture_default_str();
  cmd->add_option("--threads", f.threads, "worker threads (default: all cores); results do not depend on it");
  cmd->add_option("--out", f.out, "results folder")->capture_default_str();
  cmd->add_flag("--quiet", f.quiet, "no progress output");
  cmd->add_option("--false-alarm", f.false_alarm,
                  "declared family-wise false-alarm rate of each experiment's checks")->capture_default_str();
}

bool show_progress(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

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
  o.progress = show_progress(f.quiet);
  require_writable_dir(o.out_root, "--out");
  return o;
}

}  // namespace akm::cli
