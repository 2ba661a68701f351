// deployed/entry — ops::deployed: the backend chosen, the path beside this file run. The cpu
// path's Eigen (double) interface is here: cpu.cpp works on plain arrays, compiled for the
// native ISA, so no Eigen instantiation of this file meets its own (ODR).
#include "akm/sim/ops/deployed.hpp"

#include <algorithm>
#include <vector>

#include "../../cuda/host.hpp"
#include "backends.hpp"

namespace akm::ops {
namespace {

DeployedResult cpu(const Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat, int threads,
                   engine::Precision p) {
  const int m = int(M0.rows()), n = int(M0.cols()), N = int(Xhat.rows());
  const int nt = resolve_threads(threads);
  DeployedResult r{Mat(m, n), Mat(m, n)};
  if (p == engine::Precision::f64) {
    detail::deployed_cpu<double>(m, n, N, M0.data(), Delta.data(), Xhat.data(), w.beta, w.eta, true,
                                 r.gram.data(), nt);
    detail::deployed_cpu<double>(m, n, N, M0.data(), Delta.data(), Xhat.data(), w.beta, w.eta, false,
                                 r.through_n.data(), nt);
    return r;
  }
  auto to_f = [](const Mat& a) { return std::vector<float>(a.data(), a.data() + a.size()); };
  const auto mf = to_f(M0), df = to_f(Delta), xf = to_f(Xhat);
  std::vector<float> out(std::size_t(m) * n);
  for (int gram = 1; gram >= 0; --gram) {
    detail::deployed_cpu<float>(m, n, N, mf.data(), df.data(), xf.data(), float(w.beta),
                                float(w.eta), gram == 1, out.data(), nt);
    Mat& dst = gram ? r.gram : r.through_n;
    std::copy(out.begin(), out.end(), dst.data());
  }
  return r;
}

}  // namespace

DeployedResult deployed(const Deployed& op, const Mat& M0, const Mat& Delta, const Mat& Xhat,
                        Backend backend, const Exec& exec) {
  switch (backend) {
    case Backend::reference: return detail::deployed_reference(op, M0, Delta, Xhat);
    case Backend::cpu: return cpu(op, M0, Delta, Xhat, exec.threads, exec.precision);
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
