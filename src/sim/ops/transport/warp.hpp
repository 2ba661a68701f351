// transport/warp — one trial of the op as a CUDA warp runs it (float), written once: cuda.cu
// launches one warp per trial (Transport::warp_per_trial, the default), emulated.cpp runs the
// 32 lanes in lock-step on one host thread (HostWarp below). trial.hpp beside it is the
// thread-per-trial body, kept for an A/B; both draw the same keys and compute the same
// transport v ← v(βI − ηx̂x̂ᵀ) [eq:transport-expansion], rounded in another order.
//
// Lane ℓ owns coordinates ℓ + 32k (k < N/32): their √λ, v and x stay in its registers. The
// step's two sums nn = Σx², vx = Σv·x are the lane's partial sums (k in order from 0.f), then a
// butterfly (__shfl_xor_sync, offsets 16, 8, 4, 2, 1: s ← s + s[ℓ ^ o]); IEEE addition is
// commutative, so every lane ends with the same bits and needs no broadcast.
//
// `Warp` is the one thing that differs: each(f) runs f(ℓ, lane) for the lane(s) this
// execution owns (the device: its own; the host: every ℓ in order), shfl(q, m, src) reads
// field m of lane src (__shfl_sync), sums(a, b, f) the two butterfly sums of f's partials.
#pragma once
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"
#include "trial.hpp"

namespace akm::cuda::transport_detail {

constexpr int kWarp = 32;  ///< lanes per warp (one trial)

/// Lane ℓ's state: coordinates ℓ + 32k of √λ, v and the step's normals z (then x = √λ∘z),
/// and the Box–Muller pair this lane drew for the current round of 64 normals.
template <int N>
struct WarpLane {
  static constexpr int K = N / kWarp;
  float sl[K], v[K], z[K];
  float c, s;
};

/// The step's normals into lane.z, the very numbers trial.hpp's serial stream gives those
/// coordinates: the serial trial draws normal g = step·N + i for coordinate i, and through
/// hd::Stream::normal()'s aligned path normal g is the cos (g even) or the sin (g odd) of
/// Philox block g/2. A round of 64 normals (64/N steps) is 32 blocks: lane ℓ draws block
/// 32·round + ℓ once (the serial trial's generator work, spread over the warp), and
/// coordinate i takes its normal from lane ((step·N + i) mod 64)/2 by a shuffle — the cos
/// when i is even (step·N is even). The one departure: after a zero 53-bit word (probability
/// 2⁻⁵² per block) the serial stream redraws and its later normals shift by a word; the
/// warp's pair at that block is still the serial one (hd::Stream's redraw), the later ones not.
template <int N, class Warp>
AKM_HD inline void warp_keys(Warp& w, hd::Stream<float>& st, int step) {
  constexpr int K = N / kWarp, kStepsPerRound = 64 / N;
  if (step % kStepsPerRound == 0)
    w.each([&](int l, WarpLane<N>& q) {
      st.seek(std::uint32_t(step * (N / 2) + l));
      q.c = st.normal();
      q.s = st.normal();  // the spare: the same block's sin
    });
  const int base = (step % kStepsPerRound) * N;
  w.each([&](int l, WarpLane<N>& q) {
    AKM_UNROLL
    for (int k = 0; k < K; ++k) {
      const int src = ((base + l + kWarp * k) & 63) >> 1;
      const float c = w.shfl(q, &WarpLane<N>::c, src), s = w.shfl(q, &WarpLane<N>::s, src);
      q.z[k] = (l & 1) ? s : c;
    }
  });
}

/// Trial t by one warp: v (N floats, v_out + t·N) after `steps` steps from v₀ = 1/√N, keys
/// x = √λ∘z from stream (seed, t, keys) [lem:transport].
template <int N, class Warp>
AKM_HD inline void warp_trial(Warp& w, const float* sl, const Args& a, long long t, float* v_out) {
  constexpr int K = N / kWarp;
  hd::Stream<float> st(a.seed, std::uint64_t(t), hd::kKeys);
  const float v0 = 1.f / hd::sqrt_(float(N));
  w.each([&](int l, WarpLane<N>& q) {
    AKM_UNROLL
    for (int k = 0; k < K; ++k) {
      q.sl[k] = sl[l + kWarp * k];
      q.v[k] = v0;
    }
  });
  for (int step = 0; step < a.steps; ++step) {
    warp_keys<N>(w, st, step);
    float nn, vx;
    w.sums(nn, vx, [](WarpLane<N>& q, float& p, float& d) {
      p = 0.f;
      d = 0.f;
      AKM_UNROLL
      for (int k = 0; k < K; ++k) {
        const float x = q.sl[k] * q.z[k];
        q.z[k] = x;
        p += x * x;
        d += q.v[k] * x;
      }
    });
    const float c = a.eta * vx / nn;  // η (v·x̂) / ‖x‖, as trial.hpp
    w.each([&](int, WarpLane<N>& q) {
      AKM_UNROLL
      for (int k = 0; k < K; ++k) q.v[k] = hd::fma_(-c, q.z[k], a.beta * q.v[k]);  // as trial.hpp
    });
  }
  w.each([&](int l, WarpLane<N>& q) {
    AKM_UNROLL
    for (int k = 0; k < K; ++k) v_out[t * N + l + kWarp * k] = q.v[k];
  });
}

/// The host's warp: the 32 lanes run in lock-step by loops, each phase to completion before
/// the next (a shuffle reads a field no lane writes in that phase), the butterfly in the
/// device's order, every lane's partial sums kept, so the emulation is the device's arithmetic.
template <int N>
struct HostWarp {
  WarpLane<N> lanes[kWarp];
  template <class F>
  void each(F&& f) {
    for (int l = 0; l < kWarp; ++l) f(l, lanes[l]);
  }
  float shfl(const WarpLane<N>&, float WarpLane<N>::*m, int src) const { return lanes[src].*m; }
  template <class F>
  void sums(float& a, float& b, F&& f) {
    float p[kWarp], d[kWarp], p2[kWarp], d2[kWarp];
    for (int l = 0; l < kWarp; ++l) f(lanes[l], p[l], d[l]);
    for (int o = kWarp / 2; o > 0; o >>= 1) {
      for (int l = 0; l < kWarp; ++l) {
        p2[l] = p[l] + p[l ^ o];
        d2[l] = d[l] + d[l ^ o];
      }
      for (int l = 0; l < kWarp; ++l) {
        p[l] = p2[l];
        d[l] = d2[l];
      }
    }
    a = p[0];
    b = d[0];
  }
};

}  // namespace akm::cuda::transport_detail
