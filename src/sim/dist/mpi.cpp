// dist over MPI (-DAKM_MPI=ON, or AUTO with OpenMPI found). MPI is started only when a
// launcher started this process; otherwise the program is one process exactly as without
// MPI. MPI runs FUNNELED: only the thread that called init enters MPI.
#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

// The C API only: without these, OpenMPI's and MPICH's mpi.h pull in their deprecated C++
// bindings when included from C++ (and need their C++ library at link time).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "akm/sim/dist.hpp"

namespace akm::dist {
namespace {

bool g_running = false;
int g_rank = 0, g_size = 1;
std::thread::id g_main;

// Variables every common launcher sets for its processes: OpenMPI's mpirun, PMIx and PMI-1/2
// (Slurm's srun --mpi=pmix|pmi2, MPICH's hydra). A plain shell sets none of them.
bool started_by_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

}  // namespace

bool built() { return true; }

void init(int* argc, char*** argv) {
  if (g_running || !started_by_launcher()) return;
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  g_running = true;
  g_main = std::this_thread::get_id();
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (g_rank != 0) {
    // Only rank 0 prints: the other ranks' stdout (and that of anything they start) is dropped.
    const int fd = ::open("/dev/null", O_WRONLY);
    if (fd >= 0) {
      ::dup2(fd, STDOUT_FILENO);
      ::close(fd);
    }
  }
}

void finalize() {
  if (!g_running) return;
  MPI_Finalize();
  g_running = false;
}

void abort(int code) {
  if (g_running) MPI_Abort(MPI_COMM_WORLD, code);
}

int rank() { return g_rank; }
int size() { return g_size; }

bool collective_here() { return g_running && g_size > 1 && std::this_thread::get_id() == g_main; }

std::vector<double> allgather(const std::vector<double>& mine, const std::vector<long long>& counts) {
  if (counts.size() != static_cast<std::size_t>(g_size) ||
      counts[static_cast<std::size_t>(g_rank)] != static_cast<long long>(mine.size()))
    throw std::invalid_argument("dist::allgather: counts do not match the ranks");
  if (g_size == 1) return mine;
  if (!collective_here()) throw std::logic_error("dist::allgather: called off the MPI thread");
  std::vector<int> cnt(counts.size()), disp(counts.size());
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] < 0 || total + counts[r] > INT_MAX)
      throw std::length_error("dist::allgather: more than INT_MAX doubles in one exchange");
    cnt[r] = static_cast<int>(counts[r]);
    disp[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<double> all(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(mine.data(), cnt[static_cast<std::size_t>(g_rank)], MPI_DOUBLE, all.data(),
                       cnt.data(), disp.data(), MPI_DOUBLE, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  return all;
}

bool agree(bool value) {
  if (!collective_here()) return value;
  int v = value ? 1 : 0;
  check(MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return v != 0;
}

}  // namespace akm::dist
