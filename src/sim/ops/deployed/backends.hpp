// deployed/backends — the op's four paths, one file each beside this one; entry.cpp picks
// one. Private to src/sim/ops/deployed.
#pragma once
#include "akm/sim/ops/deployed.hpp"

namespace akm::ops::detail {

/// reference.cpp: rules::deployed in both orders (Eigen, double).
DeployedResult deployed_reference(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// cpu.cpp: the native GEMM of one order on column-major arrays in precision T, rows of M
/// in a fixed number of blocks on `threads` threads.
template <class T>
void deployed_cpu(int m, int n, int N, const T* M0, const T* Delta, const T* Xhat, T beta, T eta,
                  bool gram, T* out, int threads);
/// cuda.cu: plan.hpp's BLAS calls on cuBLAS (float).
DeployedResult deployed_cuda(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// emulated.cpp: plan.hpp's BLAS calls on a host float GEMM.
DeployedResult deployed_cuda_emulated(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat);

}  // namespace akm::ops::detail
