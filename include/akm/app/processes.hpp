// processes — the processes of one run as the program and its commands see them: started
// and ended once by main, rank 0 the one that writes files and prints, a decision of rank 0
// taken by every rank. MPI itself stays in sim (akm/sim/dist.hpp); without a launcher, or in
// a build without MPI, the run is one process, rank 0 of 1.
#pragma once

namespace akm::app {

/// Starts the processes of the run (MPI_Init under mpirun / srun; nothing otherwise). On
/// ranks other than 0, stdout goes to /dev/null.
void start_processes(int* argc, char*** argv);
/// Ends them (normal exit).
void end_processes();
/// Ends every rank at once with `code` (an internal error on one rank, whose peers may wait
/// for it in a collective); returns without MPI.
void abort_processes(int code);
/// True on rank 0, the process that writes files and prints.
bool writes();
int rank();  ///< this process's rank, 0 … ranks()−1
int ranks();  ///< the number of processes of the run
/// Rank 0's `value` on every rank (a decision only rank 0 can take, e.g. from its files).
bool agree(bool value);

}  // namespace akm::app
