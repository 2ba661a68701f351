// deployed/cuda_cached — the op's default device path (Deployed::cached): plan.hpp's BLAS calls
// on a context kept per thread and device across calls. Why: at `akm bench` W4's size the
// GEMMs of the deployed rule [eq:deployed] in both orders [eq:dispatch] take milliseconds, and
// the per-call path (cuda.cu) adds to them a cuBLAS handle, six cudaMallocs, copies from
// pageable memory (which the driver stages through its own buffer) and a host conversion of
// every element. Here the handle, the buffers and a page-locked staging area are made once
// (buffers grow by cache.hpp's policy when a call needs more), copies go by DMA on one stream,
// the host's copy of each input into the staging overlapping the previous input's transfer, and
// double↔float is a kernel on the device. A handle is used by one thread only and is bound to
// the device current at its creation, hence one context per (thread, device).
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>

#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "cache.hpp"
#include "plan.hpp"

namespace akm::cuda::deployed_detail {
namespace {

using namespace cuda::detail;

// Round to nearest, as the host's conversion of the per-call path: both paths multiply the
// same floats.
__global__ void to_float_kernel(const double* __restrict__ in, float* __restrict__ out, std::size_t count) {
  const std::size_t step = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) out[i] = float(in[i]);
}
__global__ void to_double_kernel(const float* __restrict__ in, double* __restrict__ out, std::size_t count) {
  const std::size_t step = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) out[i] = in[i];
}

struct DeviceAlloc {
  void* acquire(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
  }
  void release(void* p) { cudaFree(p); }
};
struct PinnedAlloc {
  void* acquire(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMallocHost(&p, bytes), "cudaMallocHost");
    return p;
  }
  void release(void* p) { cudaFreeHost(p); }
};

// What one thread keeps on one device. Errors in the destructor are ignored: it may run at
// thread or process exit, after a failed call.
struct Context {
  cublasHandle_t handle = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev[4] = {};  // a begin/end pair for each of plan.hpp's two orders
  std::vector<std::unique_ptr<Growing<float, DeviceAlloc>>> slots;  // plan.hpp's alloc calls, in order
  Growing<double, DeviceAlloc> staged;  // doubles on the device: inputs as copied, outputs to copy back
  Growing<double, PinnedAlloc> pinned;  // the same layout on the host, page-locked
  void init() {  // not the constructor: a throw here still runs the destructor (unique_ptr)
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cublasCreate(&handle), "cublasCreate");
    check(cublasSetStream(handle, stream), "cublasSetStream");
    for (auto& e : ev) check(cudaEventCreate(&e), "cudaEventCreate");
  }
  ~Context() {
    if (stream) cudaStreamSynchronize(stream);
    for (auto& e : ev)
      if (e) cudaEventDestroy(e);
    if (handle) cublasDestroy(handle);
    if (stream) cudaStreamDestroy(stream);
  }
};

// The calling thread's context on the current device, made on first use.
Context& context() {
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  thread_local std::map<int, std::unique_ptr<Context>> kept;
  auto& c = kept[dev];
  if (!c) {
    auto fresh = std::make_unique<Context>();
    fresh->init();
    c = std::move(fresh);
  }
  return *c;
}

// plan.hpp's Blas on a kept context: everything on its stream, downloads completed in finish().
class CachedBlas {
 public:
  struct Buf {
    float* p;
  };
  explicit CachedBlas(Context& c) : c_(c) {}
  // After a throw, nothing of this call may still be in flight when the next call reuses the buffers.
  ~CachedBlas() { cudaStreamSynchronize(c_.stream); }
  CachedBlas(const CachedBlas&) = delete;
  CachedBlas& operator=(const CachedBlas&) = delete;
  void begin(std::size_t in, std::size_t out) {
    size_ = in + out;
    c_.staged.reserve(size_);
    c_.pinned.reserve(size_);
  }
  Buf alloc(std::size_t count) {
    if (next_ == c_.slots.size()) c_.slots.push_back(std::make_unique<Growing<float, DeviceAlloc>>());
    return {c_.slots[next_++]->reserve(count)};
  }
  void upload(Buf& d, const Mat& h) {
    const std::size_t n = std::size_t(h.size());
    double *host = take(n), *dev = c_.staged.data() + (host - c_.pinned.data());
    std::memcpy(host, h.data(), n * sizeof(double));  // overlaps the previous input's transfer
    check(cudaMemcpyAsync(dev, host, n * sizeof(double), cudaMemcpyHostToDevice, c_.stream), "upload");
    to_float_kernel<<<convert_blocks(n), 256, 0, c_.stream>>>(dev, d.p, n);
    check(cudaGetLastError(), "to_float_kernel");
  }
  void download(const Buf& d, Mat& h) {
    const std::size_t n = std::size_t(h.size());
    double *host = take(n), *dev = c_.staged.data() + (host - c_.pinned.data());
    to_double_kernel<<<convert_blocks(n), 256, 0, c_.stream>>>(d.p, dev, n);
    check(cudaGetLastError(), "to_double_kernel");
    check(cudaMemcpyAsync(host, dev, n * sizeof(double), cudaMemcpyDeviceToHost, c_.stream), "download");
    pending_.push_back({host, h.data(), n});
  }
  void copy(Buf& dst, const Buf& src, std::size_t count) {
    check(cudaMemcpyAsync(dst.p, src.p, sizeof(float) * count, cudaMemcpyDeviceToDevice, c_.stream), "copy");
  }
  void scal(int count, float alpha, Buf& x) { check(cublasSscal(c_.handle, count, &alpha, x.p, 1), "sscal"); }
  void gemm(bool ta, bool tb, int m, int n, int k, float alpha, const Buf& A, int lda, const Buf& B,
            int ldb, float beta, Buf& C, int ldc) {
    check(cublasSgemm(c_.handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k,
                      &alpha, A.p, lda, B.p, ldb, &beta, C.p, ldc),
          "sgemm");
  }
  void gemms_begin() {
    if (pairs_ == 2) throw std::logic_error("deployed: more than two timed orders");
    check(cudaEventRecord(c_.ev[2 * pairs_], c_.stream), "cudaEventRecord");
  }
  void gemms_end() { check(cudaEventRecord(c_.ev[2 * pairs_++ + 1], c_.stream), "cudaEventRecord"); }
  double finish() {
    check(cudaStreamSynchronize(c_.stream), "deployed");
    for (const auto& p : pending_) std::memcpy(p.dst, p.src, p.count * sizeof(double));
    double s = 0.0;
    for (int i = 0; i < pairs_; ++i) {
      float ms = 0.f;
      check(cudaEventElapsedTime(&ms, c_.ev[2 * i], c_.ev[2 * i + 1]), "cudaEventElapsedTime");
      s += 1e-3 * ms;
    }
    return s;
  }

 private:
  struct Pending {
    const double* src;
    double* dst;
    std::size_t count;
  };
  // The next n doubles of the staging (begin() sized it for the whole call).
  double* take(std::size_t n) {
    if (at_ + n > size_) throw std::logic_error("deployed: staging past what begin() announced");
    double* p = c_.pinned.data() + at_;
    at_ += n;
    return p;
  }
  Context& c_;
  std::size_t size_ = 0, at_ = 0, next_ = 0;
  int pairs_ = 0;
  std::vector<Pending> pending_;
};

}  // namespace
}  // namespace akm::cuda::deployed_detail

namespace akm::ops::detail {

DeployedResult deployed_cuda_cached(const Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  cuda::deployed_detail::CachedBlas b(cuda::deployed_detail::context());
  return cuda::deployed_detail::run(b, w, M0, Delta, Xhat);
}

}  // namespace akm::ops::detail
