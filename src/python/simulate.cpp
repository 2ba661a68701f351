// python/simulate — akm.simulate(): one Monte-Carlo run of AK-SGD and SGD-EMA on a spectrum
// (akm/app/simulate.hpp), per direction and arm the measured contraction, coupling, rate
// and final error beside the closed forms, as equal-length columns (the rows of the CLI's
// rates.csv), so pandas.DataFrame(akm.simulate(...)) is the table.
#include "akm/base/errors.hpp"
#include "akm/app/simulate.hpp"
#include "common.hpp"

namespace akm::py {

namespace {

pyb::object simulate_run(const std::string& spec, double beta, double eta, double alpha, double sigma,
                         const std::string& key, long long trials, long long steps,
                         unsigned long long seed, int threads, const std::string& backend,
                         const std::string& precision, double false_alarm, bool summary,
                         bool progress) {
  simulate::Options o;
  o.beta = beta;
  o.eta = eta;
  o.alpha = alpha;
  o.sigma = sigma;
  o.key = parse_key(key);
  // The CLI's integer ranges, by its parser (same messages); threads = 0 is "all cores".
  parse_integer("--trials", std::to_string(trials), 100, 1000000000LL);
  parse_integer("--steps", std::to_string(steps), 1, 1000000);
  if (threads != 0) parse_integer("--threads", std::to_string(threads), 1, 4096);
  o.trials = trials;
  o.steps = static_cast<int>(steps);
  o.seed = seed;
  o.threads = threads;
  o.backend = parse_backend(backend, "--backend", {Backend::cpu, Backend::cuda});
  o.precision = engine::parse_precision(precision);
  o.false_alarm = false_alarm;
  const Spectrum s = simulate::validate(o, spec);  // read with o.seed = seed

  simulate::Result r;
  run_long("akm.simulate", "trial groups", progress, [&](Progress& bar) {
    o.progress = bar.callback();
    r = simulate::run(o, s);
  });

  // Columns of rates.csv: one row per (arm, direction).
  std::vector<std::string> arm;
  std::vector<double> direction, lambda, lambda_hat, kappa;
  struct Col {
    const char* name;
    simulate::Estimate simulate::ArmRow::*est;
    std::vector<double> pred, meas, se;
  };
  std::vector<Col> cols = {{"contraction", &simulate::ArmRow::contraction, {}, {}, {}},
                           {"coupling", &simulate::ArmRow::coupling, {}, {}, {}},
                           {"rate", &simulate::ArmRow::rate, {}, {}, {}},
                           {"final_error", &simulate::ArmRow::final_error, {}, {}, {}}};
  for (const auto& d : r.rows)
    for (int a = 0; a < 2; ++a) {
      const simulate::ArmRow& x = a == 0 ? d.ak : d.ema;
      arm.emplace_back(a == 0 ? "ak" : "ema");
      direction.push_back(d.index);
      lambda.push_back(d.lambda);
      lambda_hat.push_back(d.lambda_hat);
      kappa.push_back(d.kappa);
      for (auto& c : cols) {
        const simulate::Estimate& e = x.*(c.est);
        c.pred.push_back(e.predicted);
        c.meas.push_back(e.measured);
        c.se.push_back(e.se);
      }
    }
  pyb::dict table;
  table["arm"] = pyb::module_::import("numpy").attr("array")(arm);
  pyb::array_t<long long> dir(static_cast<pyb::ssize_t>(direction.size()));
  for (std::size_t i = 0; i < direction.size(); ++i) dir.mutable_data()[i] = static_cast<long long>(direction[i]);
  table["direction"] = dir;
  table["lambda"] = array(lambda);
  table["lambda_hat"] = array(lambda_hat);
  table["kappa"] = array(kappa);
  for (const auto& c : cols) {
    const std::string n = c.name;
    table[pyb::str(n + "_pred")] = array(c.pred);
    table[pyb::str(n)] = array(c.meas);
    table[pyb::str(n + "_se")] = array(c.se);
  }
  if (!summary) return pyb::object(table);
  return pyb::make_tuple(table, from_json(simulate::to_json(r, s)));
}

}  // namespace

void bind_simulate(pyb::module_& m) {
  using namespace pybind11::literals;
  // The keyword defaults are simulate::Options's, the CLI's: one place for them.
  const simulate::Options kDefaults;
  m.def("simulate", &simulate_run, "spectrum"_a, "beta"_a = kDefaults.beta, "eta"_a = kDefaults.eta,
        "alpha"_a = kDefaults.alpha, "sigma"_a = kDefaults.sigma, "key"_a = to_string(kDefaults.key),
        "trials"_a = kDefaults.trials, "steps"_a = static_cast<long long>(kDefaults.steps),
        "seed"_a = static_cast<unsigned long long>(kDefaults.seed), "threads"_a = kDefaults.threads, "backend"_a = "cpu", "precision"_a = "double",
        "false_alarm"_a = kDefaults.false_alarm, "summary"_a = false, "progress"_a = true,
        R"(One Monte-Carlo run of AK-SGD and SGD-EMA, as `akm simulate` (same seed, same numbers).

Returns a dict of equal-length columns, one row per (arm, direction) — the CLI's rates.csv:
arm, direction, lambda, lambda_hat, kappa and for contraction, coupling, rate, final_error
the closed form (<name>_pred), the measurement and its standard error (<name>_se).
pandas.DataFrame(akm.simulate(...)) is the table. summary=True returns (table, summary) with
the CLI's summary.json (checks, verdict). The GIL is released; Ctrl-C stops the run.)");
}

}  // namespace akm::py
