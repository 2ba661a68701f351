// deployed/emulated — the op on the emulated CUDA backend: plan.hpp's BLAS calls on a plain host
// float GEMM (sums in k order; cuBLAS's order is its own, docs/cuda.md).
#include <algorithm>
#include <vector>

#include "backends.hpp"
#include "plan.hpp"

namespace akm::ops::detail {
namespace {

// plan.hpp's Blas on host vectors, column-major as cuBLAS.
struct HostBlas {
  using Buf = std::vector<float>;
  Buf alloc(std::size_t count) { return Buf(count); }
  void upload(Buf& d, const std::vector<float>& h) { std::copy(h.begin(), h.end(), d.begin()); }
  std::vector<float> download(const Buf& d, std::size_t count) { return Buf(d.begin(), d.begin() + long(count)); }
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
