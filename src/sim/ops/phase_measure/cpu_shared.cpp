// phase_measure/cpu_shared — `akm phase --measure` with common random numbers: one trial of a
// whole block of grid points on ONE key sequence, Stream(seed, trial, keys), drawn once and
// shared by every point. The points differ only in (η, β) (fixed spectrum and key law), so the
// key — the generator's whole cost in the per-point engine — is paid once per block instead of
// once per point, and the rest is the transport v ← v(βI − ηkkᵀ) [eq:transport-expansion],
// vectorized ACROSS points: the block's states are stored structure-of-arrays in chunks of
// kLanes points (v[i] of the chunk's lanes contiguous) and the loop over lanes is the SIMD loop.
//
// Per lane the arithmetic is the per-point engine's (phase_trial_cpu) with the n-term sums
// accumulated in index order by fused multiply-adds instead of SIMD partial sums, so a lane
// agrees with phase_trial_cpu on the same stream to the summation-order rounding of
// tests/ops/test_phase_measure.cpp (c·n·ε per step), and lanes never interact: a point's numbers
// depend only on (seed, trial, η, β, direction, lag), not on the block it sits in, the block
// size or the thread count. One pass over the state per step: the update of step t also
// accumulates ‖v_t‖² and v_t·k_{t+1} (keys are drawn one step ahead), so the next step's dot
// product costs no second pass; a lane that is renormalized recomputes its dot product.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "akm/sim/engine/engine.hpp"
#include "akm/sim/ops/phase_measure.hpp"
#include "key_step.hpp"

namespace akm::ops {

using engine::NormalStream;
namespace {

constexpr int kLanes = 16;  // points per chunk: 2 AVX-512 or 4 AVX2 registers per accumulator
// log‖v‖² is computed only within this margin of the divergence threshold (or at t = T): the
// decision `log(‖v‖²) + 2·log_scale > log(threshold)` is then the per-point engine's exactly,
// since its rounding (≲ 1e-9 even at |log_scale| ~ 1e6) is far below the margin.
constexpr double kCutMargin = 1e-6;

double cut_for(double log_thr, double log_scale) {
  return std::exp(log_thr - 2.0 * log_scale - kCutMargin);
}

// ‖v‖² outside [lo, hi] calls for bookkeeping: near the threshold (above cut), due for
// renormalization (above 1e100 or below 1e-100), or exactly zero. A lane that is not live
// never calls (lo = −1 < ‖v‖², hi = ∞), so the per-step test is two compares per lane.
constexpr double kRenormHi = 1e100, kRenormLo = 1e-100;
void set_bounds(bool live, double cut, double& lo, double& hi) {
  lo = live ? kRenormLo : -1.0;
  hi = live ? std::min(cut, kRenormHi) : std::numeric_limits<double>::infinity();
}

}  // namespace

void phase_trials_shared_cpu(const double* lam_sqrt, int n, const PhaseMeasure& o,
                             const PhasePoint* pts, int count, std::uint64_t seed,
                             std::uint64_t trial, PhaseTrial* out) {
  const int chunks = (count + kLanes - 1) / kLanes;
  const int T = o.steps;
  const std::size_t un = std::size_t(n), lanes = std::size_t(chunks) * kLanes;
  // Steps per key segment: the keys of a segment (≤ 64 KiB) stay in cache while every chunk
  // of the block advances through them.
  const int seg = std::max(1, std::min(T, 8192 / std::max(1, n)));
  thread_local std::vector<double> V, beta, eta, dot, ls, cut, lo, hi, live, K, xb, zb, kb;
  // Per chunk, the lags of its points in increasing order and the next one not yet passed.
  thread_local std::vector<std::vector<int>> lags;
  thread_local std::vector<std::size_t> next_lag;
  V.assign(lanes * un, 1.0 / std::sqrt(double(n)));
  beta.assign(lanes, 0.0);  // padding lanes: β = η = 0, never live, never read
  eta.assign(lanes, 0.0);
  dot.assign(lanes, 0.0);
  ls.assign(lanes, 0.0);
  live.assign(lanes, 0.0);
  const double log_thr = std::log(o.threshold);
  cut.assign(lanes, std::numeric_limits<double>::infinity());
  lo.assign(lanes, -1.0);
  hi.assign(lanes, std::numeric_limits<double>::infinity());
  lags.assign(std::size_t(chunks), {});
  next_lag.assign(std::size_t(chunks), 0);
  for (int q = 0; q < count; ++q) {
    beta[q] = pts[q].beta;
    eta[q] = pts[q].eta;
    live[q] = 1.0;
    cut[q] = cut_for(log_thr, 0.0);
    set_bounds(true, cut[q], lo[q], hi[q]);
    lags[std::size_t(q / kLanes)].push_back(pts[q].lag);
    out[q] = PhaseTrial{};
  }
  for (auto& l : lags) std::sort(l.begin(), l.end());
  const double v0d = 1.0 / std::sqrt(double(n));
  K.resize(std::size_t(seg + 1) * un);
  xb.resize(un);
  zb.resize(un);
  kb.resize(un);
  double* __restrict x = xb.data();
  double* __restrict z = zb.data();
  NormalStream keys(seed, trial, Purpose::keys);
  const double ar = o.ar_rho, innov = std::sqrt(1.0 - ar * ar);
  const bool normalized = o.key == Key::normalized;
  // The key of the next step into `row`: phase_trial's key code, operation for operation.
  int drawn = 0;  // steps whose key has been drawn
  auto next_key = [&](double* __restrict row) {
    keys.fill(z, n);
    if (drawn == 0)
      key_start(lam_sqrt, z, x, n);  // x_0 stationary
    else
      key_advance(lam_sqrt, z, x, n, ar, innov);
    ++drawn;
    if (normalized) {
      key_normalize(x, row, n);
    } else {
      std::copy(x, x + n, row);
    }
  };
  next_key(K.data());  // k_1
  // v_0·k_1, accumulated like the fused loop below accumulates v_t·k_{t+1}.
  for (std::size_t c = 0; c < std::size_t(chunks); ++c) {
    double* __restrict d = dot.data() + c * kLanes;
    const double* __restrict Vc = V.data() + c * un * kLanes;
    for (int i = 0; i < n; ++i) {
      const double ki = K[std::size_t(i)];
#pragma omp simd
      for (int j = 0; j < kLanes; ++j) d[j] = std::fma(Vc[std::size_t(i) * kLanes + j], ki, d[j]);
    }
  }
  for (int t0 = 1; t0 <= T; t0 += seg) {
    const int t1 = std::min(T, t0 + seg - 1);
    if (t0 > 1) std::copy(K.begin() + std::ptrdiff_t(seg) * n, K.begin() + std::ptrdiff_t(seg + 1) * n, K.begin());
    for (int t = t0 + 1; t <= t1 + 1; ++t) {
      double* row = K.data() + std::size_t(t - t0) * un;
      if (t <= T)
        next_key(row);
      else
        std::fill(row, row + n, 0.0);  // no step T+1: its dot product is never read
    }
    for (std::size_t c = 0; c < std::size_t(chunks); ++c) {
      double* __restrict Vc = V.data() + c * un * kLanes;
      const std::size_t l0 = c * kLanes;
      for (int t = t0; t <= t1; ++t) {
        const double* __restrict kk = K.data() + std::size_t(t - t0) * un;
        const double* __restrict kn = kk + n;
        double b[kLanes], cc[kLanes], nr[kLanes], dn[kLanes];
#pragma omp simd
        for (int j = 0; j < kLanes; ++j) {
          b[j] = beta[l0 + j];
          cc[j] = eta[l0 + j] * dot[l0 + j];
          nr[j] = 0.0;
          dn[j] = 0.0;
        }
        for (int i = 0; i < n; ++i) {  // v ← v(βI − ηkkᵀ), ‖v‖², v·k_{t+1}
          const double ki = kk[i], ni = kn[i];
          double* __restrict v = Vc + std::size_t(i) * kLanes;
#pragma omp simd
          for (int j = 0; j < kLanes; ++j) {
            const double w = std::fma(-cc[j], ki, b[j] * v[j]);
            v[j] = w;
            nr[j] = std::fma(w, w, nr[j]);
            dn[j] = std::fma(w, ni, dn[j]);
          }
        }
        // Bookkeeping is rare (a lag reached, near the threshold, renormalization, t = T): one
        // vector test per chunk and step (‖v‖² against [lo, hi]; the chunk's next lag), then
        // scalar work on the lanes that need it.
        const std::vector<int>& cl = lags[c];
        std::size_t& nl = next_lag[c];
        while (nl < cl.size() && cl[nl] < t) ++nl;
        int any = int(t == T) | int(nl < cl.size() && cl[nl] == t);
#pragma omp simd reduction(| : any)
        for (int j = 0; j < kLanes; ++j) {
          dot[l0 + j] = dn[j];
          any |= int(nr[j] > hi[l0 + j]) | int(nr[j] < lo[l0 + j]);
        }
        if (!any) continue;
        for (int j = 0; j < kLanes; ++j) {
          const std::size_t q = l0 + j;
          if (live[q] == 0.0) continue;
          PhaseTrial& r = out[q];
          const double nrm2 = nr[j];
          if (t == pts[q].lag)
            r.projection = Vc[std::size_t(pts[q].direction) * kLanes + j] * std::exp(ls[q]) / v0d;
          if (nrm2 == 0.0) {  // exactly zero stays zero (η = β on a 1-d normalized key)
            r.log_growth = -std::numeric_limits<double>::infinity();
            live[q] = 0.0;
            set_bounds(false, cut[q], lo[q], hi[q]);
            continue;
          }
          double log_n2 = 0.0;
          if (t == T || nrm2 > cut[q]) {
            log_n2 = std::log(nrm2) + 2.0 * ls[q];
            if (log_n2 > log_thr) {
              r.diverged = true;
              cut[q] = std::numeric_limits<double>::infinity();
            }
          }
          if (nrm2 > kRenormHi || nrm2 < kRenormLo) {
            const double s = std::sqrt(nrm2);
            double d = 0.0;
            for (int i = 0; i < n; ++i) {
              double& vi = Vc[std::size_t(i) * kLanes + j];
              vi /= s;
              d = std::fma(vi, kn[i], d);
            }
            dot[q] = d;
            ls[q] += std::log(s);
            if (!r.diverged) cut[q] = cut_for(log_thr, ls[q]);
          }
          set_bounds(true, cut[q], lo[q], hi[q]);
          if (t == T) r.log_growth = log_n2;
        }
      }
    }
  }
}

}  // namespace akm::ops
