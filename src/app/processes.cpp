// processes — the run's processes through sim's MPI interface (see the header).
#include "akm/app/processes.hpp"

#include "akm/sim/dist.hpp"

namespace akm::app {

void start_processes(int* argc, char*** argv) { dist::init(argc, argv); }
void end_processes() { dist::finalize(); }
void abort_processes(int code) { dist::abort(code); }
bool writes() { return dist::root(); }
int rank() { return dist::rank(); }
int ranks() { return dist::size(); }
bool agree(bool value) { return dist::agree(value); }

}  // namespace akm::app
