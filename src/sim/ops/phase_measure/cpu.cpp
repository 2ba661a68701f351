// phase_measure/cpu — the fast inner loop of `akm phase --measure`: phase_trial_reference (the plain
// reference, reference.cpp beside it) with the keys drawn by NormalStream in batches of n and
// the per-step loops vectorized. Same stream (Stream(point seed, trial, keys)), same
// operations in the same order per element; sums are reordered (SIMD partial sums) and
// log/sin/cos come from libmvec, so it agrees with the reference to rounding
// (tests/ops/test_phase_measure.cpp). Double only, like the reference. No Eigen code here (ODR).
#include <cmath>
#include <limits>
#include <vector>

#include "akm/sim/engine/engine.hpp"
#include "akm/sim/ops/phase_measure.hpp"
#include "key_step.hpp"

namespace akm::ops {

using engine::NormalStream;

PhaseTrial phase_trial_cpu(const double* lam_sqrt, int n, const PhaseMeasure& o, double beta,
                           double eta, int direction, int lag, std::uint64_t seed, std::uint64_t trial) {
  thread_local std::vector<double> vbuf, xbuf, zbuf, kbuf;
  vbuf.assign(std::size_t(n), 1.0 / std::sqrt(double(n)));
  xbuf.resize(std::size_t(n));
  zbuf.resize(std::size_t(n));
  kbuf.resize(std::size_t(n));
  double* __restrict v = vbuf.data();
  double* __restrict x = xbuf.data();
  double* __restrict z = zbuf.data();
  double* __restrict k = kbuf.data();
  NormalStream keys(seed, trial, Purpose::keys);
  const double v0d = v[direction];
  const double ar = o.ar_rho, innov = std::sqrt(1.0 - ar * ar);
  const double log_thr = std::log(o.threshold);
  const bool normalized = o.key == Key::normalized;
  double log_scale = 0.0;
  PhaseTrial r;
  keys.fill(z, n);
  key_start(lam_sqrt, z, x, n);  // x_0 stationary
  for (int t = 1; t <= o.steps; ++t) {
    if (t > 1) {
      keys.fill(z, n);
      key_advance(lam_sqrt, z, x, n, ar, innov);
    }
    const double* kk = x;
    if (normalized) {
      key_normalize(x, k, n);
      kk = k;
    }
    double dot = 0.0;
#pragma omp simd reduction(+ : dot)
    for (int i = 0; i < n; ++i) dot += v[i] * kk[i];
    double nrm2 = 0.0;
    const double c = eta * dot;
#pragma omp simd reduction(+ : nrm2)
    for (int i = 0; i < n; ++i) {  // v ← v(βI − ηkkᵀ)
      v[i] = beta * v[i] - c * kk[i];
      nrm2 += v[i] * v[i];
    }
    if (t == lag) r.projection = v[direction] * std::exp(log_scale) / v0d;
    const double log_n2 = std::log(nrm2) + 2.0 * log_scale;
    if (log_n2 > log_thr) r.diverged = true;
    if (nrm2 == 0.0) {
      r.log_growth = -std::numeric_limits<double>::infinity();
      break;
    }
    if (nrm2 > 1e100 || nrm2 < 1e-100) {
      const double s = std::sqrt(nrm2);
#pragma omp simd
      for (int i = 0; i < n; ++i) v[i] /= s;
      log_scale += std::log(s);
    }
    if (t == o.steps) r.log_growth = log_n2;
  }
  return r;
}

}  // namespace akm::ops
