// dist without MPI (-DAKM_MPI=OFF, or AUTO without OpenMPI): one process, rank 0 of 1.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "akm/sim/dist.hpp"

namespace akm::dist {

bool built() { return false; }
// Started by mpirun / srun anyway: every process runs the whole job on its own, as it
// always did; rank 0 (by the launcher's numbering) says so once.
void init(int*, char***) {
  for (const char* size_var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* n = std::getenv(size_var);
    if (!n || std::atoi(n) <= 1) continue;
    const char* r = std::getenv("OMPI_COMM_WORLD_RANK");
    if (!r) r = std::getenv("PMI_RANK");
    if (!r || std::atoi(r) == 0)
      std::fprintf(stderr,
                   "akm: warning: %s processes were started, but this akm was built without MPI "
                   "(AKM_MPI=OFF or no OpenMPI at build time): each runs the whole job alone\n", n);
    return;
  }
}
void finalize() {}
void abort(int) {}
int rank() { return 0; }
int size() { return 1; }
bool collective_here() { return false; }

std::vector<double> allgather(const std::vector<double>& mine, const std::vector<long long>& counts) {
  if (counts.size() != 1 || counts[0] != static_cast<long long>(mine.size()))
    throw std::invalid_argument("dist::allgather: counts do not match one rank");
  return mine;
}

bool agree(bool value) { return value; }

}  // namespace akm::dist
