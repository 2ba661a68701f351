// phase_measure/reference — one trial of `akm phase --measure`, the plain reference: the AK
// buffer row v ← v(βI − ηkkᵀ) on akm::Stream keys (AR(1) when ρ > 0), its projection at the
// lag and its growth. cpu.cpp (per-point), cpu_shared.cpp (keys shared across the grid) and
// cuda.cu beside it are held to it by tests/ops/test_phase_measure.cpp; the driver that plans
// points is src/sim/phase_measure.cpp.
#include <cmath>
#include <limits>

#include "akm/sim/ops/phase_measure.hpp"

namespace akm::ops {

PhaseTrial phase_trial_reference(const Vec& lam_sqrt, const PhaseMeasure& o, double beta, double eta,
                                 int direction, int lag, Stream& keys) {
  const Eigen::Index n = lam_sqrt.size();
  // Small fixed-size work: plain loops, no allocation inside the step loop.
  thread_local Vec v, x, k;
  v.setConstant(n, 1.0 / std::sqrt(static_cast<double>(n)));
  x.resize(n);
  k.resize(n);
  const double v0d = v[direction];
  const double ar = o.ar_rho, innov = std::sqrt(1.0 - ar * ar);
  const double log_thr = std::log(o.threshold);
  double log_scale = 0.0;  // ‖v_t‖ = exp(log_scale)·‖v‖ (renormalized to avoid over/underflow)
  PhaseTrial r;
  for (Eigen::Index i = 0; i < n; ++i) x[i] = lam_sqrt[i] * keys.normal();  // x_0 stationary
  for (int t = 1; t <= o.steps; ++t) {
    if (t > 1)
      for (Eigen::Index i = 0; i < n; ++i) x[i] = ar * x[i] + innov * lam_sqrt[i] * keys.normal();
    double dot = 0.0;
    if (o.key == Key::normalized) {
      const double inv = 1.0 / x.norm();
      for (Eigen::Index i = 0; i < n; ++i) k[i] = x[i] * inv;
    } else {
      k = x;
    }
    for (Eigen::Index i = 0; i < n; ++i) dot += v[i] * k[i];
    double nrm2 = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {  // v ← v(βI − ηkkᵀ)
      v[i] = beta * v[i] - eta * dot * k[i];
      nrm2 += v[i] * v[i];
    }
    if (t == lag) r.projection = v[direction] * std::exp(log_scale) / v0d;
    const double log_n2 = std::log(nrm2) + 2.0 * log_scale;
    if (log_n2 > log_thr) r.diverged = true;
    if (nrm2 == 0.0) {  // exactly zero (η = β on a 1-d normalized key): stays zero
      r.log_growth = -std::numeric_limits<double>::infinity();
      break;
    }
    if (nrm2 > 1e100 || nrm2 < 1e-100) {
      const double s = std::sqrt(nrm2);
      v /= s;
      log_scale += std::log(s);
    }
    if (t == o.steps) r.log_growth = log_n2;  // ‖v_0‖ = 1
  }
  return r;
}

}  // namespace akm::ops
