// akm theory — the closed forms per direction (text table or the JSON contract).
#include <iostream>

#include <fmt/format.h>

#include "akm/spectrum.hpp"
#include "akm/theory.hpp"
#include "command.hpp"

namespace akm::cli {
namespace {

struct TheoryFlags {
  double beta = 0.9, eta = 0.5, alpha = 0.1;
  std::string spec, key = "normalized";
  unsigned long long seed = 0;
  bool json = false;
};

int cmd_theory(const TheoryFlags& f) {
  const Spectrum s = parse_spectrum(f.spec, f.seed);
  const TheoryReport r = make_theory_report(f.beta, f.eta, f.alpha, parse_key(f.key), s);
  if (f.json) {
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

const RegisterCommand theory_cmd(40, "theory", [](CLI::App& app) -> Action {
  auto f = std::make_shared<TheoryFlags>();
  auto* th = app.add_subcommand("theory", "print the closed forms per direction");
  th->add_option("--beta", f->beta, "EMA decay β ∈ [0, 1)")->required();
  th->add_option("--eta", f->eta, "delta-rule coefficient η > 0")->required();
  th->add_option("--spectrum", f->spec, "covariance spec, e.g. spiked:n=64,spikes=10/5/2,floor=1")->required();
  th->add_option("--key", f->key, "raw | normalized")->capture_default_str();
  th->add_option("--alpha", f->alpha, "step size α > 0 for the rates")->capture_default_str();
  th->add_option("--seed", f->seed, "seed of basis=random")->capture_default_str();
  th->add_flag("--json", f->json, "JSON output (stable contract, see README)");
  return [f] { return cmd_theory(*f); };
});

}  // namespace
}  // namespace akm::cli
