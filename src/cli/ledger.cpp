// akm ledger [--results DIR] [--ledger FILE] [--claims FILE] [--statement LABEL] [--no-index] — a verdict per
// statement of the paper from the claim ledger (experiments/ledger.toml) and the checks
// recorded in DIR/<ID>/summary.json, without running anything: prints them in paper order,
// writes DIR/ledger.json and refreshes DIR/index.html and DIR/summary.json (report/index.hpp).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "akm/app/ledger.hpp"
#include "akm/app/processes.hpp"
#include "akm/report/index.hpp"
#include "command.hpp"

namespace akm::cli {

namespace {

struct LedgerFlags {
  std::string results = "results";
  std::string ledger = std::string(AKM_SOURCE_DIR) + "/experiments/ledger.toml";
  std::string claims = std::string(AKM_SOURCE_DIR) + "/experiments/paper_claims.tsv";
  std::string statement;
  bool no_index = false;
};

struct LedgerState {
  LedgerFlags flags;
  std::optional<Ledger> ledger;
};

void print_statement(const nlohmann::json& s) {
  std::cout << fmt::format("{}  [{}]  {}\n  {}\n", s.at("label").get<std::string>(), s.at("kind").get<std::string>(),
                           s.at("verdict").get<std::string>(), s.at("statement").get<std::string>());
  for (const char* key : {"corrected", "regime", "rival", "margin", "decision", "note"})
    if (s.contains(key)) std::cout << fmt::format("  {}: {}\n", key, s[key].get<std::string>());
  std::cout << fmt::format("  reason: {}\n", s.at("reason").get<std::string>());
  for (const char* key : {"refute", "evidence"})
    for (const auto& g : s.at(key))
      std::cout << fmt::format("  {} [{} {}] {}: {}\n", key, g.at("experiment").get<std::string>(),
                               g.at("part").get<std::string>(), g.at("outcome").get<std::string>(),
                               g.at("detail").get<std::string>());
  for (const auto& f : s.at("findings")) std::cout << "  finding: " << f.get<std::string>() << "\n";
}

const RegisterCommand ledger_cmd(44, "ledger", [](CLI::App& app) -> Plan {
  auto st = std::make_shared<LedgerState>();
  LedgerFlags& f = st->flags;
  auto* cmd = app.add_subcommand("ledger", "a verdict per statement of the paper, from the claim ledger and the "
                                           "recorded checks (runs nothing)");
  cmd->add_option("--results", f.results, "results folder to read (and write ledger.json into)")->capture_default_str();
  cmd->add_option("--ledger", f.ledger, "the claim ledger (TOML)")->capture_default_str();
  cmd->add_option("--claims", f.claims, "the paper's statement list the ledger's labels must belong to")
      ->capture_default_str();
  cmd->add_option("--statement", f.statement, "print one statement's verdict in full (a ledger label)");
  cmd->add_flag("--no-index", f.no_index, "do not refresh index.html and summary.json");
  Plan plan;
  plan.validate = [st] {
    const auto& fl = st->flags;
    st->ledger = app::read_ledger_request(fl.ledger, fl.claims, fl.results, fl.statement);
  };
  plan.run = [st] {
    const auto& fl = st->flags;
    const Ledger& ledger = *st->ledger;
    if (!fl.statement.empty()) {
      const auto json = app::ledger_verdicts_json(ledger, fl.results);
      for (const auto& s : json.at("statements"))
        if (s.at("label") == fl.statement) print_statement(s);
      return 0;
    }
    app::ledger_step(ledger, fl.results, std::cout);
    if (app::writes() && !fl.no_index) write_report(fl.results);  // under mpirun: rank 0 alone writes
    return 0;
  };
  return plan;
});

}  // namespace
}  // namespace akm::cli
