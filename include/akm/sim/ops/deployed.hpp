// ops/deployed — one update of the deployed batch rule in both contraction orders (bench
// label W4, docs/performance.md); its backends in src/sim/ops/deployed/.
#pragma once
#include <cstdint>

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
};

/// The op's batch (M₀, Δ, X̂) from the seed.
void deployed_data(const Deployed& op, std::uint64_t seed, Mat& M0, Mat& Delta, Mat& Xhat);

/// The update of M0 by the batch (Delta, Xhat) in both orders on `backend` (cuda: cuBLAS;
/// cpu: a native GEMM, rows of M in a fixed number of blocks, independent of the threads).
DeployedResult deployed(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat,
                        Backend backend, const Exec& exec = {});

}  // namespace akm::ops
