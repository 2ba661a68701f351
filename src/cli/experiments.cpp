// akm list | run ID... | reproduce — the experiment commands.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "akm/errors.hpp"
#include "akm/report.hpp"
#include "command.hpp"

namespace akm::cli {
namespace {

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

const RegisterCommand list_cmd(10, "list", [](CLI::App& app) -> Action {
  app.add_subcommand("list", "list experiments: ID, title, paper labels");
  return [] {
    for (const auto& e : Registry::instance().all()) {
      std::string labels;
      for (const auto& l : e.info.paper_labels) labels += (labels.empty() ? "" : ", ") + l;
      std::cout << fmt::format("{:<4} {:<14} {}\n     [{}]\n", e.info.id, e.info.slug, e.info.title, labels);
    }
    return 0;
  };
});

// Unknown IDs are refused with the list of known ones.
std::vector<const ExperimentEntry*> find_all(const std::vector<std::string>& ids) {
  auto& reg = Registry::instance();
  std::vector<const ExperimentEntry*> chosen;
  for (const auto& id : ids) {
    const auto* e = reg.find(id);
    if (!e) {
      std::string known;
      for (const auto& x : reg.all()) known += (known.empty() ? "" : ", ") + x.info.id;
      throw InputError("ID", id, fmt::format("must be one of {} (see `akm list`)", known));
    }
    chosen.push_back(e);
  }
  return chosen;
}

struct RunState {
  CommonRunFlags flags;
  std::vector<std::string> ids;
  std::vector<const ExperimentEntry*> chosen;
  RunOptions opts;
};

const RegisterCommand run_cmd(20, "run", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<RunState>();
  auto* run = app.add_subcommand("run", "run experiments by ID (T1…) or name (fixed-point…)");
  run->add_option("ID", st->ids, "experiment IDs")->required();
  add_run_flags(run, st->flags);
  return {[st] {
            st->chosen = find_all(st->ids);
            st->opts = to_options(st->flags);
          },
          [st] { return run_many(st->chosen, st->opts); }};
});

const RegisterCommand reproduce_cmd(30, "reproduce", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<RunState>();
  auto* rep = app.add_subcommand("reproduce", "run every experiment, figures and the report");
  add_run_flags(rep, st->flags);
  return {[st] {
            for (const auto& e : Registry::instance().all()) st->chosen.push_back(&e);
            st->opts = to_options(st->flags);
          },
          [st] { return run_many(st->chosen, st->opts); }};
});

}  // namespace
}  // namespace akm::cli
