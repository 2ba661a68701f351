// akm theory — the closed forms per direction (text table or the JSON contract).
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "akm/app/theory.hpp"
#include "akm/base/errors.hpp"
#include "command.hpp"

namespace akm::cli {
namespace {

// One options record: CLI11 binds β, η, α into TheoryInputs (theory/direction_table.hpp), whose
// defaults are the only ones; the key and spectrum texts are parsed once by app::run_theory.
struct TheoryFlags {
  TheoryInputs in;
  std::string spec, key = to_string(TheoryInputs{}.key);
  unsigned long long seed = 0;
  bool json = false;
};

int print_theory(const TheoryReport& r, bool json) {
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

struct TheoryState {
  TheoryFlags flags;
  std::optional<TheoryReport> report;
};

const RegisterCommand theory_cmd(40, "theory", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<TheoryState>();
  TheoryFlags& f = st->flags;
  auto* th = app.add_subcommand("theory", "print the closed forms per direction");
  // Numbers are parsed by akm so every refusal names the flag, the text and the range.
  th->add_option_function<std::string>(
        "--beta", [&f](const std::string& s) { f.in.beta = parse_real("beta", s, "in [0, 1)"); },
        "EMA decay β ∈ [0, 1)")->type_name("FLOAT")->required();
  th->add_option_function<std::string>(
        "--eta", [&f](const std::string& s) { f.in.eta = parse_real("eta", s, "> 0"); },
        "delta-rule coefficient η > 0 (η < 1+β: normalized key contracts)")->type_name("FLOAT")->required();
  th->add_option("--spectrum", f.spec, "covariance spec, e.g. spiked:n=64,spikes=10/5/2,floor=1")->required();
  th->add_option("--key", f.key, "raw | normalized")->capture_default_str();
  th->add_option_function<std::string>(
        "--alpha", [&f](const std::string& s) { f.in.alpha = parse_real("alpha", s, "> 0"); },
        "step size α > 0 for the rates")->type_name("FLOAT")->default_str(show(f.in.alpha));
  th->add_option_function<std::string>(
        "--seed", [&f](const std::string& s) { f.seed = parse_u64("--seed", s); },
        "seed of basis=random")->type_name("UINT")->default_str("0");
  th->add_flag("--json", f.json, "JSON output (stable contract, see docs/cli.md)");
  return {[st] {
            const TheoryFlags& f = st->flags;
            st->report = app::run_theory(f.in, f.key, f.spec, f.seed).report;
          },
          [st] { return print_theory(*st->report, st->flags.json); }};
});

}  // namespace
}  // namespace akm::cli
