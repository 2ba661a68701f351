// deployed/glue — W4 on the CPU engine: glue between the Eigen (double) interface and the native W4 GEMM path.
#include <algorithm>
#include <vector>

#include "akm/sim/engine/engine.hpp"
#include "akm/sim/sim.hpp"

namespace akm::engine {
namespace native {
template <class T>
void deployed(int m, int n, int N, const T* M0, const T* Delta, const T* Xhat, T beta, T eta,
              bool gram, T* out, int threads);
}

wl::W4Result w4(const wl::W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat, int threads,
                Precision p) {
  const int m = int(M0.rows()), n = int(M0.cols()), N = int(Xhat.rows());
  const int nt = resolve_threads(threads);
  wl::W4Result r{Mat(m, n), Mat(m, n)};
  if (p == Precision::f64) {
    native::deployed<double>(m, n, N, M0.data(), Delta.data(), Xhat.data(), w.beta, w.eta, true,
                             r.gram.data(), nt);
    native::deployed<double>(m, n, N, M0.data(), Delta.data(), Xhat.data(), w.beta, w.eta, false,
                             r.through_n.data(), nt);
    return r;
  }
  auto to_f = [](const Mat& a) { return std::vector<float>(a.data(), a.data() + a.size()); };
  const auto mf = to_f(M0), df = to_f(Delta), xf = to_f(Xhat);
  std::vector<float> out(std::size_t(m) * n);
  for (int gram = 1; gram >= 0; --gram) {
    native::deployed<float>(m, n, N, mf.data(), df.data(), xf.data(), float(w.beta),
                            float(w.eta), gram == 1, out.data(), nt);
    Mat& dst = gram ? r.gram : r.through_n;
    std::copy(out.begin(), out.end(), dst.data());
  }
  return r;
}

}  // namespace akm::engine
