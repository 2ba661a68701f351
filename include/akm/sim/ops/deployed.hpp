// ops/deployed — one update of the deployed batch rule in both contraction orders (bench
// label W4, docs/performance.md); its backends in src/sim/ops/deployed/.
#pragma once
#include <cstdint>
#include <string>

#include "akm/base/linalg.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/ops/common.hpp"

namespace akm::ops {

/// The deployed batch rule M ← βM + η(ΔᵀX̂/N − MΣ̂_B) [eq:deployed] in both contraction
/// orders [eq:dispatch]; X̂ rows are normalized Gaussian keys, Δ and M₀ are N(0,1).
struct Deployed {
  int m = 1024;  ///< outputs m (rows of M)
  int n = 1024;  ///< inputs n (columns of M)
  int batch = 8192;  ///< batch size N
  double beta = 0.9;  ///< decay β
  double eta = 0.5;  ///< AK step η
  /// cuda: the cached device context (true: one cuBLAS handle, device buffers and pinned
  /// staging kept per thread and device across calls, the double↔float conversions done on
  /// the device), or the earlier per-call path (false: handle and buffers made each call,
  /// pageable copies, conversions on the host), kept for an A/B in the same run. The two
  /// make the same BLAS calls; other backends ignore it.
  bool cached = true;
  /// Floating-point operations of one update: Gram order (true) or through-N order (false).
  double flops(bool gram) const {
    const double N = batch;
    return gram ? 2.0 * N * m * n + 2.0 * N * n * n + 2.0 * m * n * n + 3.0 * m * n
                : 4.0 * N * m * n + 2.0 * N * m * n + 3.0 * m * n;
  }
};

/// Result of one deployed update in each order.
struct DeployedResult {
  Mat gram;  ///< M after the update in the Gram order (Σ̂_B formed first)
  Mat through_n;  ///< M after the update through the batch (N-sized products)
  /// The GEMMs of both orders alone, without copies, conversions or allocations: cuda, CUDA
  /// events around each order's products; cuda_emulated, the host clock; 0 on the others.
  double kernel_seconds = 0.0;
};

/// The GEMM under the cpu backend: Eigen's own kernels (compiled for the native ISA), or a
/// tuned BLAS loaded at run time through its CBLAS interface (Debian's libopenblas0-serial,
/// libblis4-serial; optional, see .ci/deps.sh). Either way the rows of M go in the same fixed
/// blocks to akm's threads, each block one single-threaded call, so the numbers do not depend
/// on the thread count; they do depend on the library (its summation order).
enum class HostGemm {
  automatic,  ///< the build's choice (CMake AKM_HOST_GEMM): host_gemm_default()
  eigen,  ///< Eigen's products (always available)
  openblas,  ///< OpenBLAS's cblas_?gemm (libopenblas.so.0)
  blis,  ///< BLIS's cblas_?gemm (libblis.so.4)
};
/// "automatic", "eigen", "openblas" or "blis".
std::string to_string(HostGemm g);
/// Whether `g` runs here (a BLAS: its library loads and has cblas_sgemm and cblas_dgemm); when
/// it does not and `why` is given, *why says what failed.
bool host_gemm_available(HostGemm g, std::string* why = nullptr);
/// What automatic runs: the build's AKM_HOST_GEMM when it names a library that loads here,
/// else eigen (the fastest where `akm bench` measured the three, docs/performance.md).
HostGemm host_gemm_default();

/// How many row blocks the cpu path splits M into (whatever the thread count): one block's
/// product is what one GEMM call computes.
int host_gemm_row_blocks();

/// GFLOP/s of one product C = AᵀB (A k×m, B k×n; 2mnk flops) on the calling thread with `gemm`
/// in precision `p`, the fastest of `repeats` timings after one untimed call: the ceiling one
/// block of the cpu path can reach (`akm bench` W4 reports it beside one core's FMA rate).
/// A `gemm` not available here is refused (std::invalid_argument).
double host_gemm_gflops(HostGemm gemm, engine::Precision p, int m, int n, int k, int repeats = 3);

/// The op's batch (M₀, Δ, X̂) from the seed.
void deployed_data(const Deployed& op, std::uint64_t seed, Mat& M0, Mat& Delta, Mat& Xhat);

/// The update of M0 by the batch (Delta, Xhat) in both orders on `backend` (cuda: cuBLAS;
/// cpu: `gemm`, rows of M in a fixed number of blocks, independent of the threads). A `gemm`
/// that is not available here is refused (std::invalid_argument naming it and why).
DeployedResult deployed(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat,
                        Backend backend, const Exec& exec = {}, HostGemm gemm = HostGemm::automatic);

}  // namespace akm::ops
