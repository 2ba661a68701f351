// deployed/cpu — the deployed batch rule [eq:deployed] on the native ISA (AVX-512/AVX2 GEMM).
//
// Eigen is renamed to AkmEigenNative in this translation unit: its templates are compiled
// here with -march=native and must not be merged (ODR) with the baseline-ISA instantiations
// the rest of the library (and the reference rules::deployed) uses.
#define Eigen AkmEigenNative
#include <Eigen/Dense>

#include <algorithm>
#include <vector>

#include "blocks.hpp"

namespace akm::ops::detail {
namespace {

template <class T>
using MatT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using CMap = Eigen::Map<const MatT<T>>;

}  // namespace

template <class T>
void deployed_cpu(int m, int n, int N, const T* M0, const T* Delta, const T* Xhat, T beta, T eta,
              bool gram, T* out, int threads) {
  const CMap<T> M(M0, m, n), D(Delta, N, m), X(Xhat, N, n);
  Eigen::Map<MatT<T>> R(out, m, n);
  const T inv_n = T(1) / T(N);
  MatT<T> sigma;
  if (gram) {  // Σ̂_B = X̂ᵀX̂/N, column blocks in parallel
    sigma.resize(n, n);
    parallel_blocks(threads, [&](int b) {
      const int c0 = n * b / kBlocks, c1 = n * (b + 1) / kBlocks;
      if (c1 > c0) sigma.middleCols(c0, c1 - c0).noalias() = (X.transpose() * X.middleCols(c0, c1 - c0)) * inv_n;
    });
  }
  parallel_blocks(threads, [&](int b) {
    const int r0 = m * b / kBlocks, r1 = m * (b + 1) / kBlocks, rows = r1 - r0;
    if (rows <= 0) return;
    const MatT<T> g = (D.middleCols(r0, rows).transpose() * X) * inv_n;  // G rows
    MatT<T> ms;
    if (gram) {
      ms.noalias() = M.middleRows(r0, rows) * sigma;
    } else {
      const MatT<T> mx = M.middleRows(r0, rows) * X.transpose();  // rows×N
      ms.noalias() = (mx * X) * inv_n;
    }
    R.middleRows(r0, rows) = beta * M.middleRows(r0, rows) + eta * (g - ms);
  });
}

template <class T>
void gemm_tn_eigen(int m, int n, int k, const T* A, const T* B, T* C) {
  Eigen::Map<MatT<T>>(C, m, n).noalias() = CMap<T>(A, k, m).transpose() * CMap<T>(B, k, n);
}

template void gemm_tn_eigen<double>(int, int, int, const double*, const double*, double*);
template void gemm_tn_eigen<float>(int, int, int, const float*, const float*, float*);
template void deployed_cpu<double>(int, int, int, const double*, const double*, const double*,
                                   double, double, bool, double*, int);
template void deployed_cpu<float>(int, int, int, const float*, const float*, const float*, float,
                                  float, bool, float*, int);

}  // namespace akm::ops::detail
