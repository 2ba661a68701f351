// deployed/entry — ops::deployed: the backend chosen, the path beside this file run. The cpu
// path's Eigen (double) interface is here: cpu.cpp works on plain arrays, compiled for the
// native ISA, so no Eigen instantiation of this file meets its own (ODR).
#include "akm/sim/ops/deployed.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../cuda/host.hpp"
#include "backends.hpp"
#include "blocks.hpp"

// The build's host GEMM (CMake AKM_HOST_GEMM sets it on this file); a build that compiles the
// library's sources itself (tests/fuzz) leaves it to automatic.
#ifndef AKM_HOST_GEMM
#define AKM_HOST_GEMM "auto"
#endif

namespace akm::ops {
namespace {

// One order of the rule in precision T on `gemm` (never automatic here).
template <class T>
void one_order(HostGemm gemm, int m, int n, int N, const T* M0, const T* D, const T* X, T beta, T eta, bool gram,
               T* out, int nt) {
  if (gemm == HostGemm::eigen) detail::deployed_cpu<T>(m, n, N, M0, D, X, beta, eta, gram, out, nt);
  else detail::deployed_cblas<T>(gemm, m, n, N, M0, D, X, beta, eta, gram, out, nt);
}

DeployedResult cpu(const Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat, int threads,
                   engine::Precision p, HostGemm gemm) {
  if (gemm == HostGemm::automatic) gemm = host_gemm_default();
  std::string why;
  if (!host_gemm_available(gemm, &why))
    throw std::invalid_argument("ops::deployed: gemm " + to_string(gemm) + " is not available: " + why);
  const int m = int(M0.rows()), n = int(M0.cols()), N = int(Xhat.rows());
  const int nt = resolve_threads(threads);
  DeployedResult r{Mat(m, n), Mat(m, n)};
  if (p == engine::Precision::f64) {
    for (int gram = 1; gram >= 0; --gram)
      one_order<double>(gemm, m, n, N, M0.data(), Delta.data(), Xhat.data(), w.beta, w.eta, gram == 1,
                        (gram ? r.gram : r.through_n).data(), nt);
    return r;
  }
  auto to_f = [](const Mat& a) { return std::vector<float>(a.data(), a.data() + a.size()); };
  const auto mf = to_f(M0), df = to_f(Delta), xf = to_f(Xhat);
  std::vector<float> out(std::size_t(m) * n);
  for (int gram = 1; gram >= 0; --gram) {
    one_order<float>(gemm, m, n, N, mf.data(), df.data(), xf.data(), float(w.beta), float(w.eta), gram == 1,
                     out.data(), nt);
    Mat& dst = gram ? r.gram : r.through_n;
    std::copy(out.begin(), out.end(), dst.data());
  }
  return r;
}

}  // namespace

std::string to_string(HostGemm g) {
  switch (g) {
    case HostGemm::automatic: return "automatic";
    case HostGemm::eigen: return "eigen";
    case HostGemm::openblas: return "openblas";
    case HostGemm::blis: return "blis";
  }
  return "?";
}

bool host_gemm_available(HostGemm g, std::string* why) {
  if (g == HostGemm::automatic || g == HostGemm::eigen) {
    if (why) why->clear();
    return true;
  }
  return detail::cblas_available(g, why);
}

int host_gemm_row_blocks() { return detail::kBlocks; }

HostGemm host_gemm_default() {
  // The build's choice (CMake AKM_HOST_GEMM) when it names a library that loads here; else
  // Eigen: on the machine `akm bench` measured (docs/performance.md), Eigen's own products ran
  // W4 as fast as OpenBLAS and faster than BLIS in both precisions, so nothing is gained by
  // making a run's numbers depend on which library is installed.
  static const HostGemm chosen = [] {
    const std::string built = AKM_HOST_GEMM;
    for (HostGemm g : {HostGemm::openblas, HostGemm::blis})
      if (built == to_string(g) && host_gemm_available(g)) return g;
    return HostGemm::eigen;
  }();
  return chosen;
}

DeployedResult deployed(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat,
                        Backend backend, const Exec& exec, HostGemm gemm) {
  switch (backend) {
    case Backend::reference: return detail::deployed_reference(op, M0, Delta, Xhat);
    case Backend::cpu: return cpu(op, M0, Delta, Xhat, exec.threads, exec.precision, gemm);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::deployed_cuda(op, M0, Delta, Xhat);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::deployed_cuda_emulated(op, M0, Delta, Xhat);
  }
  throw std::invalid_argument("ops::deployed: unknown backend");
}

}  // namespace akm::ops
