// deployed/plan — the deployed batch rule M ← βM + η(ΔᵀX̂/N − MΣ̂_B) [eq:deployed], as the
// sequence of BLAS calls the CUDA backend makes, written once: cuda.cu and cuda_cached.cu run
// it on cuBLAS, emulated.cpp on a host float GEMM (docs/cuda.md), so the transposes, leading
// dimensions and scalars of every call are exercised without a device.
//
// `Blas` provides (column-major, float, as cuBLAS): begin(in, out): the doubles this call
// moves in and out (a cached context sizes its staging once, before any copy is in flight);
// Buf alloc(count); upload(Buf&, const Mat&) (double to float); copy(dst, src, count);
// scal(count, α, x); gemm(ta, tb, m, n, k, α, A, lda, B, ldb, β, C, ldc): C ← α·op(A)·op(B) +
// β·C, C not read when β = 0; gemms_begin() / gemms_end() around each order's products (the
// device times them with CUDA events: the kernels alone, no copies); download(const Buf&, Mat&)
// (float to double; it may complete only in finish()); double finish(): every download done,
// the seconds between the gemms_begin / gemms_end pairs.
#pragma once
#include <cstddef>

#include "akm/sim/ops/deployed.hpp"

namespace akm::cuda::deployed_detail {

template <class Blas>
ops::DeployedResult run(Blas& b, const ops::Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  const int m = int(M0.rows()), n = int(M0.cols()), N = int(Xhat.rows());
  const std::size_t mn = std::size_t(m) * n;
  b.begin(mn + std::size_t(N) * m + std::size_t(N) * n, 2 * mn);
  auto dM = b.alloc(mn), dD = b.alloc(std::size_t(N) * m), dX = b.alloc(std::size_t(N) * n),
       dR = b.alloc(mn), dS = b.alloc(std::size_t(n) * n), dT = b.alloc(std::size_t(m) * N);
  b.upload(dM, M0);
  b.upload(dD, Delta);
  b.upload(dX, Xhat);
  ops::DeployedResult res{Mat(m, n), Mat(m, n)};
  const float beta = float(w.beta), eta = float(w.eta), inv_n = 1.f / float(N);
  const float a_g = eta * inv_n, one = 1.f, zero = 0.f, minus_eta = -eta, mi = -eta * inv_n;
  for (int gram = 1; gram >= 0; --gram) {
    // R = βM;  R += (η/N) ΔᵀX̂  [G];  then R −= η M Σ̂_B in the chosen order [eq:dispatch].
    b.copy(dR, dM, mn);
    b.scal(m * n, beta, dR);
    b.gemms_begin();
    b.gemm(true, false, m, n, N, a_g, dD, N, dX, N, one, dR, m);
    if (gram) {
      b.gemm(true, false, n, n, N, inv_n, dX, N, dX, N, zero, dS, n);        // Σ̂ = X̂ᵀX̂/N
      b.gemm(false, false, m, n, n, minus_eta, dM, m, dS, n, one, dR, m);    // R −= η M Σ̂
    } else {
      b.gemm(false, true, m, N, n, one, dM, m, dX, N, zero, dT, m);          // T = M X̂ᵀ
      b.gemm(false, false, m, n, N, mi, dT, m, dX, N, one, dR, m);           // R −= (η/N) T X̂
    }
    b.gemms_end();
    b.download(dR, gram ? res.gram : res.through_n);
  }
  res.kernel_seconds = b.finish();
  return res;
}

}  // namespace akm::cuda::deployed_detail
