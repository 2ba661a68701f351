// fit/trial — one trial of `akm simulate`'s fitting op as a CUDA thread runs it (float
// state, double moments), written once as the kernel's item: cuda.cu launches it per thread,
// emulated.cpp runs it on the host (docs/cuda.md). AK-SGD [eq:dm-norm-update] (k = x/‖x‖,
// or x raw) and SGD-EMA [eq:ema-update] per eigendirection, δ = e·x + σε, with the moments
// of ops::Fit.
#pragma once
#include <cstddef>
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"
#include "akm/sim/ops/fit.hpp"

namespace akm::cuda::fit_detail {

/// One device thread's work, trial trial0 + b of a batch of B: the kernel (cuda.cu) and the
/// emulator (emulated.cpp) both run it. It holds the op's model as it is (the one copy of β, η,
/// α, σ on the device path; rounded to float below), the run's size and seed, and the batch's
/// arrays: state st (5 arrays of n: e, μ of AK, e, μ of EMA, x) and moments q (16 arrays of n:
/// ops::Fit::index order) at [array·n + i]·B + b, coalesced across the batch's threads.
struct Item {
  ops::FitModel model;  ///< β, η, α, σ and the key, as the op's record holds them
  int n, steps;  ///< directions and steps per trial
  std::uint64_t seed;  ///< the run's seed: trial t reads Stream(seed, t, keys | noise)
  const float* sl;  ///< √λ_i in float
  long long trial0;  ///< the batch's first trial
  int B;  ///< trials in the batch
  float* st;  ///< the batch's state
  double* q;  ///< the batch's moments
  /// The trial of thread `item` of the batch (b = item).
  AKM_HD void operator()(long long item) const;
};

AKM_HD inline void Item::operator()(long long item) const {
  const int b = int(item);
  auto S = [&](int arr, int i) -> float& { return st[(std::size_t(arr) * n + i) * B + b]; };
  auto Q = [&](int arm, int j, int i) -> double& { return q[(std::size_t(8 * arm + j) * n + i) * B + b]; };
  for (int i = 0; i < n; ++i) {
    S(0, i) = S(2, i) = 1.f;  // e (AK), e (EMA)
    S(1, i) = S(3, i) = 0.f;  // μ (AK), μ (EMA)
    for (int arm = 0; arm < 2; ++arm)
      for (int j = 0; j < 8; ++j) Q(arm, j, i) = 0.0;
  }
  const float alpha = float(model.alpha), beta = float(model.beta), eta = float(model.eta),
              sigma = float(model.sigma), omb = float(1.0 - model.beta);
  const bool normalized = model.normalized;
  const std::uint64_t trial = std::uint64_t(trial0 + b);
  hd::Stream<float> keys(seed, trial, hd::kKeys), noise(seed, trial, hd::kNoise);
  for (int step = 0; step < steps; ++step) {
    float nn = 0.f;
    for (int i = 0; i < n; ++i) {
      const float x = sl[i] * keys.normal();
      S(4, i) = x;
      nn += x * x;
    }
    const float nrm = hd::sqrt_(nn);
    const float eps = sigma * noise.normal();
    float dak = 0.f, pak = 0.f, dema = 0.f;
    for (int i = 0; i < n; ++i) {
      const float x = S(4, i), k = normalized ? x / nrm : x;
      dak += S(0, i) * x;
      pak += S(1, i) * k;
      dema += S(2, i) * x;
    }
    const float u[2] = {eta * ((dak + eps) - pak), omb * (dema + eps)};
    for (int i = 0; i < n; ++i) {
      const float x = S(4, i), k = normalized ? x / nrm : x;
      for (int arm = 0; arm < 2; ++arm) {
        float& e = S(2 * arm, i);
        float& mu = S(2 * arm + 1, i);
        const float m1 = beta * mu + u[arm] * (arm == 0 ? k : x);
        const float e1 = e - alpha * m1;
        const double ed = e, md = mu, e1d = e1, m1d = m1;
        Q(arm, 0, i) += ed * ed;
        Q(arm, 1, i) += ed * md;
        Q(arm, 2, i) += md * md;
        Q(arm, 3, i) += e1d * ed;
        Q(arm, 4, i) += e1d * md;
        Q(arm, 5, i) += m1d * ed;
        Q(arm, 6, i) += m1d * md;
        e = e1;
        mu = m1;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    Q(0, 7, i) = S(0, i);
    Q(1, 7, i) = S(2, i);
  }
}

}  // namespace akm::cuda::fit_detail
