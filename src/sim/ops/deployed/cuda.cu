// deployed/cuda — the op on the device: plan.hpp's BLAS calls on cuBLAS (float).
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "plan.hpp"

namespace akm::cuda::deployed_detail {
namespace {

using namespace cuda::detail;

// plan.hpp's Blas on cuBLAS and device memory.
class Cublas {
 public:
  using Buf = DevBuf<float>;
  Cublas() { check(cublasCreate(&h_), "cublasCreate"); }
  ~Cublas() { cublasDestroy(h_); }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  Buf alloc(std::size_t count) { return Buf(count); }
  void upload(Buf& d, const std::vector<float>& h) { cuda::detail::upload(d, h); }
  std::vector<float> download(const Buf& d, std::size_t count) { return cuda::detail::download(d, count); }
  void copy(Buf& dst, const Buf& src, std::size_t count) {
    check(cudaMemcpy(dst.p, src.p, sizeof(float) * count, cudaMemcpyDeviceToDevice), "copy");
  }
  void scal(int count, float alpha, Buf& x) { check(cublasSscal(h_, count, &alpha, x.p, 1), "sscal"); }
  void gemm(bool ta, bool tb, int m, int n, int k, float alpha, const Buf& A, int lda, const Buf& B,
            int ldb, float beta, Buf& C, int ldc) {
    check(cublasSgemm(h_, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k,
                      &alpha, A.p, lda, B.p, ldb, &beta, C.p, ldc),
          "sgemm");
  }

 private:
  cublasHandle_t h_;
};

}  // namespace
}  // namespace akm::cuda::deployed_detail

namespace akm::ops::detail {

DeployedResult deployed_cuda(const Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  cuda::detail::require_device();
  cuda::deployed_detail::Cublas b;
  return cuda::deployed_detail::run(b, w, M0, Delta, Xhat);
}

}  // namespace akm::ops::detail
