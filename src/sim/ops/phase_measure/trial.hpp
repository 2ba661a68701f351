// phase_measure/trial — one trial of `akm phase --measure` as a CUDA thread runs it (double),
// written once: cuda.cu launches it per thread, emulated.cpp runs it on the host
// (docs/cuda.md). ops::phase_trial_reference line for line: AR(1) keys [E2], the transport
// v ← v(βI − ηkkᵀ) with k = x̂ or x, the lag-k projection and log‖v_T‖² with renormalization.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"

namespace akm::cuda::phase_detail {

/// One grid point (ops::PhasePoint as the device reads it).
struct Point {
  double beta, eta;
  int direction, lag;
  std::uint64_t seed;
};

struct Args {
  int n, steps;
  bool normalized;
  double ar, innov, log_thr;
  long long trials, row0, nb;  ///< trials per point; this batch is rows [row0, row0 + nb)
};

struct Out {
  double projection, log_growth;
  int diverged;
};

/// Row row0 + local = p·trials + r: trial r of point p. v, x, k live in `scratch` at
/// [i·nb + local] (coalesced across the batch's threads).
AKM_HD inline Out trial(const double* lam_sqrt, const Args& a, const Point* points, long long local,
                        double* scratch) {
  const long long row = a.row0 + local;
  const Point& pt = points[row / a.trials];
  const long long r = row % a.trials;
  const int n = a.n;
  double* v = scratch;
  double* x = scratch + std::size_t(n) * a.nb;
  double* k = scratch + 2 * std::size_t(n) * a.nb;
  auto at = [&](int i) { return std::size_t(i) * a.nb + local; };
  hd::Stream<double> keys(pt.seed, std::uint64_t(r), hd::kKeys);
  const double v0 = 1.0 / hd::sqrt_(double(n));
  for (int i = 0; i < n; ++i) {
    v[at(i)] = v0;
    x[at(i)] = lam_sqrt[i] * keys.normal();
  }
  double log_scale = 0.0;
  Out out{0.0, 0.0, 0};
  for (int t = 1; t <= a.steps; ++t) {
    if (t > 1)
      for (int i = 0; i < n; ++i) x[at(i)] = a.ar * x[at(i)] + a.innov * lam_sqrt[i] * keys.normal();
    double inv = 1.0;
    if (a.normalized) {
      double nn = 0.0;
      for (int i = 0; i < n; ++i) nn += x[at(i)] * x[at(i)];
      inv = 1.0 / hd::sqrt_(nn);
    }
    double dot = 0.0;
    for (int i = 0; i < n; ++i) {
      k[at(i)] = a.normalized ? x[at(i)] * inv : x[at(i)];
      dot += v[at(i)] * k[at(i)];
    }
    double nrm2 = 0.0;
    const double c = pt.eta * dot;
    for (int i = 0; i < n; ++i) {
      // βv − (η v·k)k as one FMA (hd::fma_: rounded once on the device and in the emulation)
      const double vi = hd::fma_(-c, k[at(i)], pt.beta * v[at(i)]);
      v[at(i)] = vi;
      nrm2 += vi * vi;
    }
    if (t == pt.lag) out.projection = v[at(pt.direction)] * hd::exp_(log_scale) / v0;
    const double log_n2 = hd::log_(nrm2) + 2.0 * log_scale;
    if (log_n2 > a.log_thr) out.diverged = 1;
    if (nrm2 == 0.0) {  // exactly zero: stays zero
      out.log_growth = -HUGE_VAL;
      break;
    }
    if (nrm2 > 1e100 || nrm2 < 1e-100) {
      const double s = hd::sqrt_(nrm2);
      for (int i = 0; i < n; ++i) v[at(i)] /= s;
      log_scale += hd::log_(s);
    }
    if (t == a.steps) out.log_growth = log_n2;
  }
  return out;
}

/// What a device thread does with its item (row row0 + local): the kernel and the emulator
/// both run it.
struct Item {
  const double* lam_sqrt;
  Args a;
  const Point* points;
  double* scratch;  ///< 3·n·nb
  Out* out;         ///< nb
  AKM_HD void operator()(long long local) const { out[local] = trial(lam_sqrt, a, points, local, scratch); }
};

}  // namespace akm::cuda::phase_detail
