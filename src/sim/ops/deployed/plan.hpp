// deployed/plan — the deployed batch rule M ← βM + η(ΔᵀX̂/N − MΣ̂_B) [eq:deployed], as the
// sequence of BLAS calls the CUDA backend makes, written once: cuda.cu runs it on cuBLAS,
// emulated.cpp on a host float GEMM (docs/cuda.md), so the transposes, leading dimensions
// and scalars of every call are exercised without a device.
//
// `Blas` provides (column-major, float, as cuBLAS): Buf alloc(count); upload(Buf&, vector);
// std::vector<float> download(const Buf&, count); copy(dst, src, count); scal(count, α, x);
// gemm(ta, tb, m, n, k, α, A, lda, B, ldb, β, C, ldc): C ← α·op(A)·op(B) + β·C, C not read
// when β = 0.
#pragma once
#include <cstddef>
#include <vector>

#include "akm/sim/ops/deployed.hpp"

namespace akm::cuda::deployed_detail {

template <class Blas>
ops::DeployedResult run(Blas& b, const ops::Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  const int m = int(M0.rows()), n = int(M0.cols()), N = int(Xhat.rows());
  auto to_f = [](const Mat& a) { return std::vector<float>(a.data(), a.data() + a.size()); };
  auto dM = b.alloc(std::size_t(m) * n), dD = b.alloc(std::size_t(N) * m), dX = b.alloc(std::size_t(N) * n),
       dR = b.alloc(std::size_t(m) * n), dS = b.alloc(std::size_t(n) * n), dT = b.alloc(std::size_t(m) * N);
  b.upload(dM, to_f(M0));
  b.upload(dD, to_f(Delta));
  b.upload(dX, to_f(Xhat));
  ops::DeployedResult res{Mat(m, n), Mat(m, n)};
  const float beta = float(w.beta), eta = float(w.eta), inv_n = 1.f / float(N);
  const float a_g = eta * inv_n, one = 1.f, zero = 0.f, minus_eta = -eta, mi = -eta * inv_n;
  for (int gram = 1; gram >= 0; --gram) {
    // R = βM;  R += (η/N) ΔᵀX̂  [G];  then R −= η M Σ̂_B in the chosen order [eq:dispatch].
    b.copy(dR, dM, std::size_t(m) * n);
    b.scal(m * n, beta, dR);
    b.gemm(true, false, m, n, N, a_g, dD, N, dX, N, one, dR, m);
    if (gram) {
      b.gemm(true, false, n, n, N, inv_n, dX, N, dX, N, zero, dS, n);        // Σ̂ = X̂ᵀX̂/N
      b.gemm(false, false, m, n, n, minus_eta, dM, m, dS, n, one, dR, m);    // R −= η M Σ̂
    } else {
      b.gemm(false, true, m, N, n, one, dM, m, dX, N, zero, dT, m);          // T = M X̂ᵀ
      b.gemm(false, false, m, n, N, mi, dT, m, dX, N, one, dR, m);           // R −= (η/N) T X̂
    }
    const auto r = b.download(dR, std::size_t(m) * n);
    Mat& dst = gram ? res.gram : res.through_n;
    for (std::size_t i = 0; i < r.size(); ++i) dst.data()[i] = r[i];
  }
  return res;
}

}  // namespace akm::cuda::deployed_detail
