// transport/cpu — the op on the fast CPU engine: the keys set the pace (a step costs n normals
// and ~8n flops), so the batched normal generator is the bottleneck.
// One trial per task, its state in contiguous arrays, vectorized within the trial.
// Compiled with -march=native -fopenmp-simd; no Eigen code is instantiated here (it would
// clash with the baseline-ISA copies, ODR).
#include <cmath>
#include <stdexcept>
#include <vector>

#include "akm/sim/engine/engine.hpp"
#include "../../engine/engine_util.hpp"
#include "backends.hpp"

namespace akm::ops::detail {
namespace {

using engine::NormalStream;

// x = √λ∘z, d = v·x/‖x‖, v ← βv − (ηd/‖x‖) x  (= v(βI − ηx̂x̂ᵀ), fused into two passes).
template <class T>
void trial(const Transport& w, const T* sl, std::uint64_t seed, long long trial, double* out) {
  const int n = w.n;
  std::vector<T> v(n, T(1.0 / std::sqrt(double(n)))), z(n);
  NormalStream s(seed, std::uint64_t(trial), Purpose::keys);
  const T beta = T(w.beta), eta = T(w.eta);
  T* __restrict vp = v.data();
  T* __restrict zp = z.data();
  for (int t = 0; t < w.steps; ++t) {
    s.fill(zp, n);
    T nn = 0, vx = 0;
#pragma omp simd reduction(+ : nn, vx)
    for (int i = 0; i < n; ++i) {
      const T x = sl[i] * zp[i];
      zp[i] = x;
      nn += x * x;
      vx += vp[i] * x;
    }
    const T c = eta * vx / nn;  // η (v·x̂) / ‖x‖
#pragma omp simd
    for (int i = 0; i < n; ++i) vp[i] = beta * vp[i] - c * zp[i];
  }
  double sq = 0.0;
  for (int i = 0; i < n; ++i) {
    out[i] = double(vp[i]);
    sq += out[i] * out[i];
  }
  out[n] = sq;
}

}  // namespace

Observations transport_cpu(const Transport& w, std::uint64_t seed, int threads, engine::Precision p) {
  const auto sl = engine::sqrt_power(w.n, false);
  const auto slf = engine::cast<float>(sl);
  return run_trials(w.trials, w.n_obs(), threads, [&](long long t, double* out) {
    if (p == engine::Precision::f64) trial<double>(w, sl.data(), seed, t, out);
    else trial<float>(w, slf.data(), seed, t, out);
  });
}

}  // namespace akm::ops::detail
