// akm export-notebooks [--results DIR] [--out DIR] — one Jupyter notebook per experiment.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "akm/app/notebooks.hpp"
#include "akm/app/processes.hpp"
#include "command.hpp"

namespace akm::cli {
namespace {

struct ExportFlags {
  std::string results = "results";
  std::string out;  // empty: notebooks_export/ next to the results folder
};

const RegisterCommand export_cmd(38, "export-notebooks", [](CLI::App& app) -> Action {
  auto f = std::make_shared<ExportFlags>();
  auto* cmd = app.add_subcommand(
      "export-notebooks",
      "write one Jupyter notebook per experiment (claim, verdicts, pandas + matplotlib redraw)");
  cmd->add_option("--results", f->results, "results folder to read")->capture_default_str();
  cmd->add_option("--out", f->out, "notebook folder (default: notebooks_export/ next to --results)");
  return [f] {
    if (!app::writes()) return 0;  // under mpirun: rank 0 alone writes
    const std::filesystem::path out = app::notebook_dir(f->results, f->out);
    const auto files = app::export_notebooks_and_report(f->results, out);  // and the report linking them
    for (const auto& p : files) std::cout << p.string() << "\n";
    std::cout << fmt::format("{} notebooks in {}\n", files.size(), out.string());
    return 0;
  };
});

}  // namespace
}  // namespace akm::cli
