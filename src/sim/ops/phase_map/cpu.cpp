// phase_map/cpu — the op on the fast CPU engine: one (grid point, trial) row per task.
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

// Raw key, v ← βv − η(v·x) x, renormalized every `renorm` steps.
template <class T>
double row_value(const PhaseMap& w, const T* sl, double beta_d, double eta_d, std::uint64_t seed,
                long long row) {
  const int n = w.n;
  std::vector<T> v(n, T(1.0 / std::sqrt(double(n)))), z(n);
  NormalStream s(seed, std::uint64_t(row), Purpose::keys);
  const T beta = T(beta_d), eta = T(eta_d);
  T* __restrict vp = v.data();
  T* __restrict zp = z.data();
  double log_norm = 0.0;
  for (int t = 0; t < w.steps; ++t) {
    s.fill(zp, n);
    T vx = 0;
#pragma omp simd reduction(+ : vx)
    for (int i = 0; i < n; ++i) {
      zp[i] *= sl[i];
      vx += vp[i] * zp[i];
    }
    const T c = eta * vx;
#pragma omp simd
    for (int i = 0; i < n; ++i) vp[i] = beta * vp[i] - c * zp[i];
    if ((t + 1) % w.renorm == 0 || t + 1 == w.steps) {
      T nn = 0;
#pragma omp simd reduction(+ : nn)
      for (int i = 0; i < n; ++i) nn += vp[i] * vp[i];
      const T nv = std::sqrt(nn);
      log_norm += std::log(double(nv));
      const T inv = T(1) / nv;
#pragma omp simd
      for (int i = 0; i < n; ++i) vp[i] *= inv;
    }
  }
  return log_norm / w.steps;
}

}  // namespace

Observations phase_map_cpu(const PhaseMap& w, std::uint64_t seed, int threads, engine::Precision p) {
  const auto sl = engine::sqrt_power(w.n, true);
  const auto slf = engine::cast<float>(sl);
  return run_trials(w.trials * w.points(), 1, threads, [&](long long row, double* out) {
    const int pt = int(row / w.trials);
    const double eta = w.eta(pt / w.n_beta), beta = w.beta(pt % w.n_beta);
    out[0] = p == engine::Precision::f64 ? row_value<double>(w, sl.data(), beta, eta, seed, row)
                                         : row_value<float>(w, slf.data(), beta, eta, seed, row);
  });
}

}  // namespace akm::ops::detail
