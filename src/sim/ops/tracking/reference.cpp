// tracking/reference — the plain reference: akm::Stream and the per-trial kernels of
// akm/rules/kernels.hpp on whole m×n buffers. cpu.cpp, cuda.cu and emulated.cpp beside it are
// held to it by tests/ops/test_tracking.cpp.
#include <vector>

#include "akm/base/key.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void tracking_reference(const Tracking& op, std::uint64_t seed, long long first, long long count, int threads,
                        double* rows) {
  constexpr int kAkRaw = int(BufferKind::ak_raw), kAkNorm = int(BufferKind::ak_normalized), kEma = int(BufferKind::ema);
  const int n = op.n(), m = op.m();
  const bool rotated = op.Q.size() > 0;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * op.n_obs();
    // All three buffers see the same keys and noise, so a ratio's jackknife sees their correlation.
    Stream keys(seed, std::uint64_t(trial), Purpose::keys), noise(seed, std::uint64_t(trial), Purpose::noise);
    std::vector<Mat> M(3, Mat::Zero(m, n));
    Vec z(n), x(n), xh(n), delta(m), r(m);
    auto step = [&](const Mat& A) {
      delta.noalias() = A * x;
      for (int i = 0; i < m; ++i) delta[i] += op.noise_sigma * noise.normal();
      kern::key_for(Key::normalized, x, xh);
      kern::ak_step(M[kAkRaw], delta, x, op.beta, op.eta_raw, r);          // [eq:dm-update]
      kern::ak_step(M[kAkNorm], delta, xh, op.beta, op.eta_normalized, r);  // [eq:dm-norm-update]
      kern::ema_step(M[kEma], delta, x, op.beta);                           // [eq:ema-update]
    };
    auto record = [&](int k) {
      for (int ru = 0; ru < 3; ++ru)
        for (int i = 0; i < n; ++i) out[op.obs(ru, k, i)] = M[ru](0, i) - op.center(ru, i);
    };
    for (int t = 1; t <= op.t0; ++t) {
      if (rotated) {
        kern::gaussian_key(keys, op.sqrt_lambda0, z);
        x.noalias() = op.Q * z;  // x = Q diag(√λ⁰) z ~ N(0, Σ_0)
      } else {
        kern::gaussian_key(keys, op.sqrt_lambda0, x);
      }
      step(op.A0);
    }
    record(0);
    for (int k = 1; k <= op.post; ++k) {
      kern::gaussian_key(keys, op.sqrt_lambda1, x);
      step(op.A1);
      record(k);
    }
  });
}

}  // namespace akm::ops::detail
