// akm list | run ID... | reproduce — the experiment commands.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "akm/app/ledger.hpp"
#include "akm/app/processes.hpp"
#include "akm/base/errors.hpp"
#include "akm/report/report.hpp"
#include "akm/experiments/expectations.hpp"
#include "akm/experiments/result_hash.hpp"
#include "command.hpp"
#include "notebooks_step.hpp"
#include "akm/base/progress.hpp"

namespace akm::cli {
namespace {

// --resume: the previous result stands when its summary.json carries the current hash
// (same code version, seed, quick flag, false-alarm rate and trials scale); its verdict is read back.
bool up_to_date(const ExperimentEntry& e, const RunOptions& opts, bool& pass, std::string& status,
                nlohmann::json& statements) {
  const auto path = opts.out_root / e.info.id / "summary.json";
  std::ifstream in(path);
  if (!in) return false;
  const auto j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("hash") || !j["hash"].is_string() || !j.contains("pass") ||
      !j["pass"].is_boolean() || j["hash"].get<std::string>() != result_hash(e.info, opts) ||
      !j.contains("status") || !j["status"].is_object() || !j["status"].contains("status") ||
      !j["status"]["status"].is_string())
    return false;
  pass = j["pass"].get<bool>();
  status = j["status"]["status"].get<std::string>();
  statements = j.value("ledger", nlohmann::json::array());
  return true;
}

// One line per ledger statement the experiment tests (summary.json's "ledger"): label, verdict
// from this run, short reason (with the other experiments a statement also needs).
std::string statement_lines(const nlohmann::json& statements) {
  std::string out;
  for (const auto& s : statements)
    out += fmt::format("     {:<44} {:<28} {}\n", s.value("label", ""), s.value("verdict", ""),
                       s.value("short_reason", ""));
  return out;
}

// The expectation of claim `id`, compared with its status: "" when it matches (or nothing is
// expected), else the line that says what differs.
std::string expectation_mismatch(const std::map<std::string, Expectation>* expect, const std::string& id,
                                 const std::string& status, bool quick, int trials_scale) {
  if (!expect) return "";
  const auto it = expect->find(id);
  if (it == expect->end()) return fmt::format("{}: no expected status registered (got {})", id, status);
  const std::string want = to_string(quick ? it->second.quick : it->second.full);
  if (want == status) return "";
  // Statuses are registered at --trials-scale 1: more trials may resolve what 1 cannot.
  return fmt::format("{}: status {} but {} expected in {} mode ({}){}", id, status, want,
                     quick ? "quick" : "full", it->second.why,
                     trials_scale == 1 ? ""
                                       : fmt::format("; registered at --trials-scale 1, run at {}", trials_scale));
}

int run_many(const std::vector<const ExperimentEntry*>& list, const RunOptions& opts,
             bool resume = false, const std::map<std::string, Expectation>* expect = nullptr) {
  bool all = true;
  std::vector<std::string> mismatches;
  RunProgress progress(list.size(), opts.progress);
  std::vector<std::string> on_backend, partly, on_cpu;  // claims run (not kept), by where they ran
  // (Under mpirun stdout is the launcher's pseudo-terminal whatever it forwards to: no colour.)
  const bool tty = isatty(STDOUT_FILENO) && app::ranks() == 1;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const auto& e = *list[k];
    bool kept_pass = false;
    std::string status;
    nlohmann::json statements;
    // Under MPI, rank 0's files decide for every rank (the ranks must run the same experiments).
    const bool keep = resume && app::agree(up_to_date(e, opts, kept_pass, status, statements));
    if (resume) kept_pass = app::agree(kept_pass);
    if (keep) {
      std::cout << fmt::format("{:<4} {}  kept: summary.json matches this version, seed and flags  {}  [{}]\n",
                               e.info.id, kept_pass ? "PASS" : "FAIL",
                               (opts.out_root / e.info.id).string(), status)
                << statement_lines(statements);
      all = all && kept_pass;
    } else {
      progress.begin(k, e.info.id, e.info.title);
      const auto t0 = std::chrono::steady_clock::now();
      const auto r = run_experiment(e, opts);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const char* on = tty ? (r.pass ? "\033[32m" : "\033[1;31m") : "";
      const char* off = tty ? "\033[0m" : "";
      status = to_string(r.verdict.status);
      const std::string resolution = resolution_text(r.verdict.to_json()["resolution"]);
      std::cout << fmt::format("{:<4} {}{}{}  {}/{} checks passed  {:6.1f} s  {}\n     {}: {}\n", r.id,
                               on, r.pass ? "PASS" : "FAIL", off, r.n_checks - r.n_failed,
                               r.n_checks, secs, r.dir.string(), status, r.verdict.reason)
                << (resolution.empty() ? "" : "     resolution (power 0.9): " + resolution + "\n")
                << (opts.trials_scale == 1 ? ""
                    : r.trials_scaled ? fmt::format("     trials ×{} (--trials-scale)\n", opts.trials_scale)
                                      : "     no Monte-Carlo trials to scale: run as at --trials-scale 1\n")
                << (opts.backend == Backend::cpu ? ""
                    : r.ran_on == "cpu" ? fmt::format("     ran on the cpu, not {0}: no Monte Carlo on ops, or ops with no {0} path\n",
                                                      to_string(opts.backend))
                    : r.ran_on == to_string(opts.backend)
                        ? fmt::format("     ran on {} (its ops)\n", r.ran_on)
                        : fmt::format("     partly on {0}: its ops with a {0} path ran there, the rest on the cpu\n",
                                      to_string(opts.backend)))
                << statement_lines(r.statements) << std::flush;
      (r.ran_on == "cpu" ? on_cpu : r.ran_on == to_string(opts.backend) ? on_backend : partly).push_back(r.id);
      all = all && r.pass;
    }
    if (auto m = expectation_mismatch(expect, e.info.id, status, opts.quick, opts.trials_scale); !m.empty())
      mismatches.push_back(std::move(m));
  }
  if (opts.backend != Backend::cpu && !(on_backend.empty() && partly.empty() && on_cpu.empty()))
    std::cout << fmt::format("backend {}: {}; {}on the cpu (not on ops, or no path there): {}\n", to_string(opts.backend),
                             on_backend.empty() ? "no claim" : fmt::format("{}", fmt::join(on_backend, " ")),
                             partly.empty() ? "" : fmt::format("partly (the rest on the cpu): {}; ", fmt::join(partly, " ")),
                             on_cpu.empty() ? "none" : fmt::format("{}", fmt::join(on_cpu, " ")));
  if (app::writes()) write_report(opts.out_root);
  std::cout << fmt::format("report: {}\n", (opts.out_root / "index.html").string());
  if (!expect) return all ? 0 : 1;
  // With --expect the exit code says whether every claim has its registered status: a FAIL
  // that is expected (a contradicted claim) is 0, any change of status is 1.
  for (const auto& m : mismatches) std::cout << "unexpected: " << m << "\n";
  if (mismatches.empty())
    std::cout << fmt::format("every claim has its expected status ({} {} mode)\n", list.size(),
                             opts.quick ? "quick" : "full");
  return mismatches.empty() ? 0 : 1;
}

// `akm list --ids` prints one ID per line and nothing else: ctest takes its quick_<ID> tests
// from it (tests/quick_tests.cmake), so the registry is the only list of experiments.
const RegisterCommand list_cmd(10, "list", [](CLI::App& app) -> Action {
  auto* list = app.add_subcommand("list", "list experiments: ID, title, paper labels");
  auto ids_only = std::make_shared<bool>(false);
  list->add_flag("--ids", *ids_only, "print the experiment IDs only, one per line");
  return [ids_only] {
    for (const auto& e : Registry::instance().all()) {
      if (*ids_only) {
        std::cout << e.info.id << "\n";
        continue;
      }
      std::string labels;
      for (const auto& l : e.info.paper_labels) labels += (labels.empty() ? "" : ", ") + l;
      std::cout << fmt::format("{:<4} {:<14} {}\n     [{}]\n", e.info.id, e.info.slug, e.info.title, labels);
    }
    return 0;
  };
});

// Unknown IDs are refused with the list of known ones (Registry::require).
std::vector<const ExperimentEntry*> find_all(const std::vector<std::string>& ids) {
  std::vector<const ExperimentEntry*> chosen;
  for (const auto& id : ids) chosen.push_back(&Registry::instance().require(id));
  return chosen;
}

struct RunState {
  CommonRunFlags flags;
  std::vector<std::string> ids;
  std::vector<const ExperimentEntry*> chosen;
  RunOptions opts;
  bool resume = false;
  std::string expect_file;
  std::map<std::string, Expectation> expect;
  const std::map<std::string, Expectation>* expected() const {
    return expect_file.empty() ? nullptr : &expect;
  }
};

void add_expect_flag(CLI::App* cmd, RunState& st) {
  cmd->add_option("--expect", st.expect_file,
                  "file of expected claim statuses (tests/expected_status.txt): exit 0 exactly "
                  "when every claim run has its expected status");
}

void load_expectations(RunState& st) {
  if (!st.expect_file.empty()) st.expect = read_expectations(st.expect_file);
}

const RegisterCommand run_cmd(20, "run", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<RunState>();
  auto* run = app.add_subcommand("run", "run experiments by ID (T1…) or name (fixed-point…)");
  run->add_option("ID", st->ids, "experiment IDs")->required();
  add_run_flags(run, st->flags);
  run->add_flag("--resume", st->resume,
                "skip experiments whose summary.json matches this code version, seed, --quick, "
                "--false-alarm, --trials-scale and --backend");
  add_expect_flag(run, *st);
  return {[st] {
            st->chosen = find_all(st->ids);
            if (app::writes()) require_gnuplot("akm run");
            load_expectations(*st);  // before to_options, which creates --out
            st->opts = to_options(st->flags);
          },
          [st] { return run_many(st->chosen, st->opts, st->resume, st->expected()); }};
});

struct ReproduceState : RunState {
  std::string notebooks;
  std::filesystem::path nb_dir;
  std::optional<Ledger> ledger;  ///< read before any work: a malformed ledger is refused first
};

const RegisterCommand reproduce_cmd(30, "reproduce", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<ReproduceState>();
  auto* rep = app.add_subcommand("reproduce", "run every experiment, figures, notebooks and the report");
  add_run_flags(rep, st->flags);
  add_notebook_flag(rep, st->notebooks);
  rep->add_flag("--resume", st->resume,
                "skip experiments whose summary.json matches this code version, seed, --quick, "
                "--false-alarm, --trials-scale and --backend (its \"hash\"); rerun the rest");
  add_expect_flag(rep, *st);
  return {[st] {
            for (const auto& e : Registry::instance().all()) st->chosen.push_back(&e);
            if (app::writes()) require_gnuplot("akm reproduce");
            load_expectations(*st);  // before to_options, which creates --out
            st->opts = to_options(st->flags);
            st->nb_dir = notebook_dir(st->opts, st->notebooks);  // validated before any work
            st->ledger = app::shipped_ledger(std::string(AKM_SOURCE_DIR) + "/experiments/paper_claims.tsv");
          },
          [st] {
            const int rc = run_many(st->chosen, st->opts, st->resume, st->expected());
            // A verdict per statement of the paper from the checks just recorded, before the
            // report is written, so that its index shows them (docs/ledger.md).
            app::ledger_step(*st->ledger, st->opts.out_root, std::cout);
            if (app::writes()) export_notebooks_and_report(st->opts, st->nb_dir);
            return rc;
          }};
});

}  // namespace
}  // namespace akm::cli
