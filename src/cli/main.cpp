// akm — the command-line program. Each subcommand lives in src/cli/<name>.cpp and registers
// itself (src/cli/command.hpp); run_main parses, validates, dispatches and maps errors to
// exit codes.
//
// Exit codes: 0 every check passed; 1 a check failed (the report says which); 2 bad input
// (refused before any work); 3 an internal error.
//
// Under mpirun / srun every rank runs this same program (akm/app/processes.hpp); an internal error on
// one rank ends all of them, since its peers may be waiting for it in a collective.
#include "akm/app/heap.hpp"
#include "akm/app/processes.hpp"
#include "cli/command.hpp"

int main(int argc, char** argv) {
  akm::app::keep_freed_memory();
  akm::app::start_processes(&argc, &argv);
  const int rc = akm::cli::run_main(argc, argv);
  if (rc == 3) akm::app::abort_processes(rc);
  akm::app::end_processes();
  return rc;
}
