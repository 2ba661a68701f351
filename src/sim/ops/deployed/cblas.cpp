// deployed/cblas — the deployed batch rule [eq:deployed] on a tuned BLAS (OpenBLAS or BLIS)
// loaded at run time: the same row blocks as cpu.cpp (blocks.hpp), each block's products one
// cblas_?gemm call with the library held to one thread, so akm's threads do the splitting and
// the numbers do not depend on their count.
//
// Loaded with dlopen rather than linked: both libraries export cblas_sgemm, so only one of them
// could be linked, and `akm bench` times both (and Eigen) in one run. The CBLAS interface is
// declared here (its enum values are those of every cblas.h), so no header is needed to build.
#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends.hpp"
#include "blocks.hpp"

namespace akm::ops::detail {
namespace {

// CBLAS_ORDER and CBLAS_TRANSPOSE values.
constexpr int kColMajor = 102, kNoTrans = 111, kTrans = 112;

template <class T>
using GemmFn = void (*)(int order, int ta, int tb, int m, int n, int k, T alpha, const T* A, int lda,
                        const T* B, int ldb, T beta, T* C, int ldc);

struct Library {
  GemmFn<float> sgemm = nullptr;
  GemmFn<double> dgemm = nullptr;
  std::string why;  ///< empty when loaded
};

// Loads `soname` and its CBLAS GEMMs, and sets the library's own threads to 1 through
// `set_threads` (a serial build has none to set): OpenBLAS takes an int, BLIS (dim_t_arg) a
// 64-bit dim_t. akm's threads call it concurrently, one block each: Debian's serial builds are
// built for that (OpenBLAS with USE_LOCKING), and the thread-count test of
// tests/ops/test_deployed.cpp holds 1, 2 and 3 threads to the same bits.
Library load(const char* soname, const char* set_threads, bool dim_t_arg) {
  Library lib;
  void* h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    lib.why = std::string(soname) + " does not load (" + (e ? e : "?") + ")";
    return lib;
  }
  lib.sgemm = reinterpret_cast<GemmFn<float>>(dlsym(h, "cblas_sgemm"));
  lib.dgemm = reinterpret_cast<GemmFn<double>>(dlsym(h, "cblas_dgemm"));
  if (!lib.sgemm || !lib.dgemm) {
    lib.why = std::string(soname) + " has no cblas_sgemm / cblas_dgemm";
    return lib;
  }
  if (void* f = dlsym(h, set_threads)) {
    if (dim_t_arg) reinterpret_cast<void (*)(long)>(f)(1);
    else reinterpret_cast<void (*)(int)>(f)(1);
  }
  return lib;  // never unloaded: its functions are held for the process's life
}

const Library& library(HostGemm g) {
  static const Library openblas = load("libopenblas.so.0", "openblas_set_num_threads", false);
  static const Library blis = load("libblis.so.4", "bli_thread_set_num_threads", true);
  static const Library none{nullptr, nullptr, "not a BLAS library"};
  return g == HostGemm::openblas ? openblas : g == HostGemm::blis ? blis : none;
}

template <class T>
GemmFn<T> gemm_of(const Library& lib) {
  if constexpr (sizeof(T) == sizeof(float)) return lib.sgemm;
  else return lib.dgemm;
}

}  // namespace

bool cblas_available(HostGemm g, std::string* why) {
  const Library& lib = library(g);
  if (why) *why = lib.why;
  return lib.why.empty();
}

template <class T>
void deployed_cblas(HostGemm g, int m, int n, int N, const T* M0, const T* Delta, const T* Xhat, T beta, T eta,
                    bool gram, T* out, int threads) {
  const Library& lib = library(g);
  if (!lib.why.empty()) throw std::invalid_argument("ops::deployed: gemm " + to_string(g) + ": " + lib.why);
  const GemmFn<T> gemm = gemm_of<T>(lib);
  const T inv_n = T(1) / T(N);
  std::vector<T> sigma;
  if (gram) {  // Σ̂_B = X̂ᵀX̂/N, column blocks
    sigma.resize(std::size_t(n) * n);
    parallel_blocks(threads, [&](int b) {
      const int c0 = n * b / kBlocks, c1 = n * (b + 1) / kBlocks;
      if (c1 > c0)
        gemm(kColMajor, kTrans, kNoTrans, n, c1 - c0, N, inv_n, Xhat, N, Xhat + std::size_t(c0) * N, N, T(0),
             sigma.data() + std::size_t(c0) * n, n);
    });
  }
  parallel_blocks(threads, [&](int b) {
    const int r0 = m * b / kBlocks, r1 = m * (b + 1) / kBlocks, rows = r1 - r0;
    if (rows <= 0) return;
    T* R = out + r0;  // rows r0..r1 of the column-major m×n result, leading dimension m
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < rows; ++i) R[std::size_t(j) * m + i] = beta * M0[std::size_t(j) * m + r0 + i];
    // R += (η/N) Δ[:, rows]ᵀ X̂   (the G term)
    gemm(kColMajor, kTrans, kNoTrans, rows, n, N, eta * inv_n, Delta + std::size_t(r0) * N, N, Xhat, N, T(1), R, m);
    if (gram) {  // R −= η M[rows, :] Σ̂_B
      gemm(kColMajor, kNoTrans, kNoTrans, rows, n, n, -eta, M0 + r0, m, sigma.data(), n, T(1), R, m);
    } else {  // T = M[rows, :] X̂ᵀ (rows×N), then R −= (η/N) T X̂
      std::vector<T> t(std::size_t(rows) * N);
      gemm(kColMajor, kNoTrans, kTrans, rows, N, n, T(1), M0 + r0, m, Xhat, N, T(0), t.data(), rows);
      gemm(kColMajor, kNoTrans, kNoTrans, rows, n, N, -eta * inv_n, t.data(), rows, Xhat, N, T(1), R, m);
    }
  });
}

template <class T>
void gemm_tn_cblas(HostGemm g, int m, int n, int k, const T* A, const T* B, T* C) {
  const Library& lib = library(g);
  if (!lib.why.empty()) throw std::invalid_argument("ops::deployed: gemm " + to_string(g) + ": " + lib.why);
  gemm_of<T>(lib)(kColMajor, kTrans, kNoTrans, m, n, k, T(1), A, k, B, k, T(0), C, m);
}

template void gemm_tn_cblas<double>(HostGemm, int, int, int, const double*, const double*, double*);
template void gemm_tn_cblas<float>(HostGemm, int, int, int, const float*, const float*, float*);
template void deployed_cblas<double>(HostGemm, int, int, int, const double*, const double*, const double*, double,
                                     double, bool, double*, int);
template void deployed_cblas<float>(HostGemm, int, int, int, const float*, const float*, const float*, float, float,
                                    bool, float*, int);

}  // namespace akm::ops::detail
