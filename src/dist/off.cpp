// dist without MPI (-DAKM_MPI=OFF, or AUTO without OpenMPI): one process, rank 0 of 1.
#include <stdexcept>

#include "akm/dist.hpp"

namespace akm::dist {

bool built() { return false; }
void init(int*, char***) {}
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
