// akm — the command-line program. Each subcommand lives in src/cli/<name>.cpp and registers
// itself (src/cli/command.hpp); main parses, dispatches and maps errors to exit codes.
//
// Exit codes: 0 every check passed; 1 a check failed (the report says which); 2 bad input
// (refused before any work); 3 an internal error.
#include <algorithm>
#include <iostream>
#include <map>

#include <CLI/CLI.hpp>

#include "akm/errors.hpp"
#include "akm/experiment.hpp"
#include "cli/command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"akm — checks the AK-Momentum paper's theorems against simulation"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(akm::version()));

  auto cmds = akm::cli::commands();
  std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  std::map<std::string, akm::cli::Action> actions;
  for (const auto& c : cmds) actions[c.name] = c.setup(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    for (auto* sub : app.get_subcommands()) return actions.at(sub->get_name())();
  } catch (const akm::InputError& e) {
    std::cerr << "akm: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "akm: internal error: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
