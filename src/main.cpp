// akm — the command-line program. Each subcommand lives in src/cli/<name>.cpp and registers
// itself (src/cli/command.hpp); run_main parses, validates, dispatches and maps errors to
// exit codes.
//
// Exit codes: 0 every check passed; 1 a check failed (the report says which); 2 bad input
// (refused before any work); 3 an internal error.
#include "cli/command.hpp"

int main(int argc, char** argv) { return akm::cli::run_main(argc, argv); }
