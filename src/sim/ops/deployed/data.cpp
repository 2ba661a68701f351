// deployed/data — the batch of the deployed op from its seed (M₀, Δ, X̂), which every backend
// of the op reads.
#include <cmath>

#include "akm/random/random.hpp"
#include "akm/sim/ops/deployed.hpp"

namespace akm::ops {

void deployed_data(const Deployed& w, std::uint64_t seed, Mat& M0, Mat& Delta, Mat& Xhat) {
  const Vec sl = power_spectrum(w.n, false).cwiseSqrt();
  M0.resize(w.m, w.n);
  Delta.resize(w.batch, w.m);
  Xhat.resize(w.batch, w.n);
  Stream si(seed, 0, Purpose::init);
  for (Eigen::Index j = 0; j < M0.cols(); ++j)
    for (Eigen::Index r = 0; r < M0.rows(); ++r) M0(r, j) = si.normal();
  for (int b = 0; b < w.batch; ++b) {
    Stream sk(seed, std::uint64_t(b), Purpose::keys), sn(seed, std::uint64_t(b), Purpose::noise);
    double nn = 0.0;
    for (int i = 0; i < w.n; ++i) {
      Xhat(b, i) = sl[i] * sk.normal();
      nn += Xhat(b, i) * Xhat(b, i);
    }
    Xhat.row(b) /= std::sqrt(nn);
    for (int i = 0; i < w.m; ++i) Delta(b, i) = sn.normal();
  }
}

}  // namespace akm::ops
