// deployed/backends — the op's four paths, in the files beside this one; entry.cpp picks
// one. Private to src/sim/ops/deployed.
#pragma once
#include <string>

#include "akm/sim/ops/deployed.hpp"

namespace akm::ops::detail {

/// reference.cpp: rules::deployed in both orders (Eigen, double).
DeployedResult deployed_reference(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// cpu.cpp: the native GEMM of one order on column-major arrays in precision T, rows of M
/// in a fixed number of blocks on `threads` threads.
template <class T>
void deployed_cpu(int m, int n, int N, const T* M0, const T* Delta, const T* Xhat, T beta, T eta,
                  bool gram, T* out, int threads);
/// cblas.cpp: whether the library of `gemm` (openblas or blis) loads with its CBLAS GEMMs; why not.
bool cblas_available(HostGemm gemm, std::string* why);
/// cblas.cpp: the same blocks as deployed_cpu, each block's products one single-threaded
/// cblas_?gemm call of the library `gemm` (openblas or blis; refused when it does not load).
template <class T>
void deployed_cblas(HostGemm gemm, int m, int n, int N, const T* M0, const T* Delta, const T* Xhat, T beta,
                    T eta, bool gram, T* out, int threads);
/// C = AᵀB (A k×m, B k×n, C m×n, column-major) in one call on the calling thread: Eigen's
/// product compiled for the native ISA (cpu.cpp), or the library's cblas_?gemm (cblas.cpp).
template <class T>
void gemm_tn_eigen(int m, int n, int k, const T* A, const T* B, T* C);
template <class T>
void gemm_tn_cblas(HostGemm gemm, int m, int n, int k, const T* A, const T* B, T* C);
/// cuda.cu: plan.hpp's BLAS calls on cuBLAS (float): the cached context when op.cached, else
/// the per-call path.
DeployedResult deployed_cuda(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// cuda_cached.cu: the same calls on the calling thread's context for the current device
/// (handle, buffers and pinned staging kept across calls; conversions on the device).
DeployedResult deployed_cuda_cached(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// emulated.cpp: plan.hpp's BLAS calls on a host float GEMM.
DeployedResult deployed_cuda_emulated(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat);

}  // namespace akm::ops::detail
