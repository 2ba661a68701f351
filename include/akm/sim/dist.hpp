// dist — the processes of one run (MPI ranks) behind one small interface.
//
// `mpirun -np K akm …` starts K copies of the program. Every copy runs the same
// deterministic code; the work that dominates is split (Monte-Carlo chunks in sim.cpp,
// grid points in measured_map.cpp) and its statistics are exchanged so that every rank
// holds bit-identical results to a single-process run with the same seed. Only rank 0
// writes files and prints.
//
// CMake picks the implementation: src/sim/dist/mpi.cpp (-DAKM_MPI=ON, or AUTO with OpenMPI
// found) or src/sim/dist/off.cpp (no MPI: one process, rank 0 of 1). A binary built with MPI
// but started without a launcher (mpirun, srun) never calls MPI_Init and is one process.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace akm::dist {

/// True when this build can run across MPI ranks.
bool built();

/// Starts MPI when the process was started by an MPI launcher (environment of mpirun /
/// srun); otherwise does nothing. Call once, from main, before any other thread exists.
/// On ranks other than 0, stdout is redirected to /dev/null (only rank 0 prints).
void init(int* argc, char*** argv);
/// Ends MPI (normal exit). Safe when init did nothing.
void finalize();
/// Ends every rank at once (after an internal error on one rank, whose peers may be
/// waiting in a collective). Returns only when MPI is not running.
void abort(int code);

int rank();  ///< 0 … size()−1; 0 without MPI
int size();  ///< number of ranks; 1 without MPI
/// True on rank 0 (the rank that writes files and prints).
inline bool root() { return rank() == 0; }

/// True when a collective may be entered here: more than one rank, and called from the
/// thread that called init (MPI runs FUNNELED). Work started elsewhere (worker threads)
/// stays local, which every rank decides the same way.
bool collective_here();

/// Half-open block [begin, end) of `n` items owned by rank `r` of `k`: contiguous, in rank
/// order, sizes differing by at most one.
inline std::pair<long long, long long> block(long long n, int r, int k) {
  return {n * r / k, n * (r + 1) / k};
}

/// Every rank passes its block (`counts[r]` doubles from rank r, in rank order); returns the
/// concatenation of all blocks on every rank. Collective.
std::vector<double> allgather(const std::vector<double>& mine, const std::vector<long long>& counts);

/// Rank 0's `value` on every rank (a decision only rank 0 can take, e.g. from its files).
/// Collective when collective_here(); otherwise returns `value`.
bool agree(bool value);

}  // namespace akm::dist
