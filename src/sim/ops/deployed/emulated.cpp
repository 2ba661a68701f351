// deployed/emulated — the op on the emulated CUDA backend: plan.hpp's BLAS calls on a plain host
// float GEMM (sums in k order; cuBLAS's order is its own, docs/cuda.md).
#include <algorithm>
#include <chrono>
#include <vector>

#include "backends.hpp"
#include "plan.hpp"

namespace akm::ops::detail {
namespace {

// plan.hpp's Blas on host vectors, column-major as cuBLAS.
// Its GEMMs are timed on the host clock (the device's CUDA events have no host counterpart).
struct HostBlas {
  using Buf = std::vector<float>;
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0{};
  double gemm_seconds = 0.0;
  void begin(std::size_t, std::size_t) {}
  Buf alloc(std::size_t count) { return Buf(count); }
  void upload(Buf& d, const Mat& h) { std::copy(h.data(), h.data() + h.size(), d.begin()); }
  void download(const Buf& d, Mat& h) { std::copy(d.begin(), d.begin() + h.size(), h.data()); }
  void gemms_begin() { t0 = Clock::now(); }
  void gemms_end() { gemm_seconds += std::chrono::duration<double>(Clock::now() - t0).count(); }
  double finish() const { return gemm_seconds; }
  void copy(Buf& dst, const Buf& src, std::size_t count) { std::copy_n(src.begin(), count, dst.begin()); }
  void scal(int count, float alpha, Buf& x) {
    for (int i = 0; i < count; ++i) x[std::size_t(i)] *= alpha;
  }
  void gemm(bool ta, bool tb, int m, int n, int k, float alpha, const Buf& A, int lda, const Buf& B,
            int ldb, float beta, Buf& C, int ldc) {
    auto a = [&](int i, int l) { return ta ? A[std::size_t(i) * lda + l] : A[std::size_t(l) * lda + i]; };
    auto b = [&](int l, int j) { return tb ? B[std::size_t(l) * ldb + j] : B[std::size_t(j) * ldb + l]; };
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        float s = 0.f;
        for (int l = 0; l < k; ++l) s += a(i, l) * b(l, j);
        float& c = C[std::size_t(j) * ldc + i];
        c = beta == 0.f ? alpha * s : alpha * s + beta * c;
      }
  }
};

}  // namespace

DeployedResult deployed_cuda_emulated(const Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  HostBlas b;
  return cuda::deployed_detail::run(b, w, M0, Delta, Xhat);
}

}  // namespace akm::ops::detail
