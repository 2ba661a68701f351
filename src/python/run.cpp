// python/run — akm.run() and akm.list(): the registered experiments (the experiment
// registry; the module links the experiments library whole so every registration is kept).
#include <fstream>

#include "akm/base/errors.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/app/run.hpp"
#include "common.hpp"

namespace akm::py {

namespace {

using namespace pybind11::literals;

pyb::list list_experiments() {
  pyb::list out;
  for (const auto& e : Registry::instance().all()) {
    pyb::dict d;
    d["id"] = e.info.id;
    d["slug"] = e.info.slug;
    d["title"] = e.info.title;
    d["paper_labels"] = e.info.paper_labels;
    d["claim"] = e.info.claim;
    out.append(d);
  }
  return out;
}

pyb::object run(const std::string& id, bool quick, unsigned long long seed, const pyb::object& out,
                int threads, double false_alarm, bool progress, int trials_scale, const std::string& backend) {
  const ExperimentEntry& e = Registry::instance().require(id);
  // The CLI's refusals (cli/command.cpp to_options); threads = 0 is "all cores".
  if (threads != 0) parse_integer("--threads", std::to_string(threads), 1, 4096);
  if (!(false_alarm > 0 && false_alarm < 1))
    throw InputError("--false-alarm", show(false_alarm), "must be a number in (0, 1)");
  parse_integer("--trials-scale", std::to_string(trials_scale), 1, kMaxTrialsScale);
  const Backend b = app::run_backend(backend);
  RunOptions opts;
  opts.trials_scale = trials_scale;
  opts.backend = b;
  opts.quick = quick;
  opts.seed = seed;
  opts.threads = threads;
  opts.family_alpha = false_alarm;
  opts.progress = false;  // the CLI's lines go to the C stderr; run_long draws on sys.stderr
  // Without `out` the results go to a temporary folder removed afterwards: the summary is
  // what the caller gets.
  pyb::object tmp = pyb::none();
  if (out.is_none()) {
    tmp = pyb::module_::import("tempfile").attr("mkdtemp")("prefix"_s = "akm-run-");
    opts.out_root = tmp.cast<std::string>();
  } else {
    opts.out_root = pyb::str(pyb::module_::import("os").attr("fspath")(out)).cast<std::string>();
    require_writable_dir(opts.out_root, "--out");
  }
  auto cleanup = [&] {
    if (!tmp.is_none()) pyb::module_::import("shutil").attr("rmtree")(tmp, "ignore_errors"_a = true);
  };
  ExperimentOutcome outcome;
  try {
    run_long("akm.run " + e.info.id, "", progress, [&](Progress&) { outcome = run_experiment(e, opts); });
  } catch (...) {
    cleanup();
    throw;
  }
  std::ifstream in(outcome.dir / "summary.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  pyb::object summary = from_json(j);
  if (tmp.is_none()) summary["dir"] = outcome.dir.string();
  cleanup();
  return summary;
}

}  // namespace

void bind_run(pyb::module_& m) {
  using namespace pybind11::literals;
  m.def("list", &list_experiments, "The registered experiments: id, slug, title, paper labels, claim.");
  m.def("run", &run, "id"_a, "quick"_a = true, "seed"_a = RunOptions{}.seed, "out"_a = pyb::none(),
        "threads"_a = 0, "false_alarm"_a = RunOptions{}.family_alpha, "progress"_a = true,
        "trials_scale"_a = 1, "backend"_a = "cpu",
        R"(Runs one experiment as `akm run ID [--quick] --seed S --out OUT` and returns its
summary.json as a dict (pass, checks, params, ...). out=None: a temporary folder, removed
afterwards; otherwise results are written to OUT/<ID>/ and summary["dir"] names it.
trials_scale=K multiplies every Monte-Carlo claim's trials as `akm run --trials-scale K` does;
backend="reference" | "cpu" | "cuda" | "cuda-emulated" runs the claims on ops there, as
`akm run --backend` does (summary["backend"] records it when not "cpu").
Unknown IDs raise ValueError listing the known ones. Ctrl-C stops the Monte-Carlo loops.)");
}

}  // namespace akm::py
