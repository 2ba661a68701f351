// sample_minimizers/reference — the plain reference: akm::Stream, the sample (X, D) in Eigen, the
// function-space minimizer by column-pivoted Householder QR [def:fms] and Ḡ_S = DᵀX/S [def:wms].
// cpu.cpp beside it is held to it by tests/ops/test_sample_minimizers.cpp.
#include <Eigen/QR>

#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void sample_minimizers_reference(const SampleMinimizers& op, std::uint64_t seed, long long first, long long count,
                                 int threads, double* rows) {
  const int n = op.n(), m = op.m(), S = op.samples;
  const Mat U = op.basis.size() ? op.basis : Mat(Mat::Identity(n, n));
  const std::size_t k = op.entries();
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const auto trial = std::uint64_t(first + (long long)j);
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Mat X(S, n), D(S, m);
    Vec z(n), x(n);
    for (int s = 0; s < S; ++s) {
      for (int i = 0; i < n; ++i) z[i] = op.sqrt_lambda[i] * keys.normal();
      x.noalias() = U * z;
      X.row(s) = x.transpose();
    }
    D.noalias() = X * op.A.transpose();
    for (int s = 0; s < S; ++s)
      for (int q = 0; q < m; ++q) D(s, q) += op.sigma * noise.normal();
    const Mat mf = X.colPivHouseholderQr().solve(D).transpose();  // XMᵀ ≈ D
    const Mat gs = D.transpose() * X / S;
    double* out = rows + j * op.n_obs();
    std::copy(mf.data(), mf.data() + k, out);
    std::copy(gs.data(), gs.data() + k, out + k);
  });
}

}  // namespace akm::ops::detail
