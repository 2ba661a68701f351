// deployed/cuda — the op on the device: plan.hpp's BLAS calls on cuBLAS (float). This file
// holds the earlier per-call path (Deployed::cached = false, kept for the A/B of `akm bench`
// W4): a cuBLAS handle and device buffers made on every call, copies from pageable memory,
// double↔float on the host. The default path, a context kept across calls, is cuda_cached.cu.
#include <stdexcept>

#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "plan.hpp"

namespace akm::cuda::deployed_detail {
namespace {

using namespace cuda::detail;

// One CUDA event pair per order: the GEMMs alone, as the cached path times them.
struct EventPair {
  cudaEvent_t a = nullptr, b = nullptr;
  EventPair() {
    check(cudaEventCreate(&a), "cudaEventCreate");
    check(cudaEventCreate(&b), "cudaEventCreate");
  }
  ~EventPair() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
};

// plan.hpp's Blas on cuBLAS and device memory made for this call (default stream).
class Cublas {
 public:
  using Buf = DevBuf<float>;
  Cublas() { check(cublasCreate(&h_), "cublasCreate"); }
  ~Cublas() { cublasDestroy(h_); }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  void begin(std::size_t, std::size_t) {}
  Buf alloc(std::size_t count) { return Buf(count); }
  void upload(Buf& d, const Mat& h) { cuda::detail::upload(d, std::vector<float>(h.data(), h.data() + h.size())); }
  void download(const Buf& d, Mat& h) {
    const auto r = cuda::detail::download(d, std::size_t(h.size()));
    std::copy(r.begin(), r.end(), h.data());
  }
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
  void gemms_begin() {
    if (used_ == 2) throw std::logic_error("deployed: more than two timed orders");
    check(cudaEventRecord(ev_[used_].a), "cudaEventRecord");
  }
  void gemms_end() { check(cudaEventRecord(ev_[used_++].b), "cudaEventRecord"); }
  double finish() {
    check(cudaDeviceSynchronize(), "deployed");
    double s = 0.0;
    for (int i = 0; i < used_; ++i) {
      float ms = 0.f;
      check(cudaEventElapsedTime(&ms, ev_[i].a, ev_[i].b), "cudaEventElapsedTime");
      s += 1e-3 * ms;
    }
    return s;
  }

 private:
  cublasHandle_t h_;
  EventPair ev_[2];  // plan.hpp's two orders
  int used_ = 0;
};

}  // namespace
}  // namespace akm::cuda::deployed_detail

namespace akm::ops::detail {

DeployedResult deployed_cuda(const Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  cuda::detail::require_device();
  if (w.cached) return deployed_cuda_cached(w, M0, Delta, Xhat);
  cuda::deployed_detail::Cublas b;
  return cuda::deployed_detail::run(b, w, M0, Delta, Xhat);
}

}  // namespace akm::ops::detail
