// ak_sgd_ema/trial — one trial of the op as a CUDA block runs it (float), written once: cuda.cu
// runs it with a block of n threads (thread j owns column j), emulated.cpp with one host
// thread standing for the whole block (docs/cuda.md). AK-SGD [eq:dm-norm-update] and SGD-EMA
// [eq:ema-update] on the same keys and noise.
//
// `Block` is the one thing that differs: each(f) runs f(j, lane) for the lane(s) this
// execution owns (the device: its own thread; the host: every j in order), sum(f) is the
// block-wide float sum of f(lane) in the device's reduction order (cuda::block_sum_order),
// sync() a barrier; sums<V>(s, f) the V block-wide sums of f(lane, v) (v: V floats), each
// in block_sum's order, through one reduction. Lanes never read another lane's state, only
// the shared z and eps.
#pragma once
#include <cstddef>
#include <cstdint>

#include "akm/base/hd.hpp"
#include "akm/random/stream_hd.hpp"

namespace akm::cuda::ak_sgd_ema_detail {

constexpr int kM = 8;  ///< rows of E and M (the kernel keeps them in registers)
constexpr int kSums = 1 + 3 * kM;  ///< a step's block sums: |x|², then per row E_a·x, M_a·x, E_e·x

struct Args {
  int n, steps;
  float alpha, beta, eta, sigma;
  std::uint64_t seed;
};

/// Thread j's state: column j of E and M for both optimizers, and key entries x_j, k_j.
struct Lane {
  float Ea[kM], Ma[kM], Ee[kM], Me[kM];
  float x, k;
};

/// Trial `t`; z (n floats) and eps (kM floats) are the block's shared key and noise draws.
/// Output: E_AK then E_EMA, column-major m×n each, at e_out + t·2·kM·n. Fused: the step's
/// kSums sums in one reduction (Block::sums), Σ M_a·k as (Σ M_a·x)/|x| since k = x/|x|;
/// otherwise one block sum each, in the earlier kernel's order.
template <bool Fused, class Block>
AKM_HD inline void trial(Block& blk, const float* sl, const Args& a, long long t, float* z, float* eps,
                         float* e_out) {
  const int n = a.n;
  const std::uint64_t tu = std::uint64_t(t);
  blk.each([&](int j, Lane& l) {
    // W* column j: normals j·m … j·m + m − 1 of the init stream (pairs never straddle, m even)
    hd::Stream<float> si(a.seed, tu, hd::kInit);
    si.seek(std::uint32_t(j * kM / 2));
    AKM_UNROLL
    for (int r = 0; r < kM; ++r) {
      l.Ea[r] = l.Ee[r] = -si.normal();
      l.Ma[r] = l.Me[r] = 0.f;
    }
  });
  hd::Stream<float> sk(a.seed, tu, hd::kKeys), sn(a.seed, tu, hd::kNoise);
  const float omb = 1.f - a.beta;
  for (int step = 0; step < a.steps; ++step) {
    // Key normals j, j+1 are Philox block step·n/2 + j/2 (every step consumes n/2 blocks);
    // noise normals 2j, 2j+1 are block step·kM/2 + j: the numbers akm::Stream draws in turn.
    blk.each([&](int j, Lane&) {
      if ((j & 1) == 0) {
        sk.seek(std::uint32_t(step * (n / 2) + j / 2));
        z[j] = sk.normal();
        z[j + 1] = sk.normal();
      }
      if (j < kM / 2) {
        sn.seek(std::uint32_t(step * (kM / 2) + j));
        eps[2 * j] = a.sigma * sn.normal();
        eps[2 * j + 1] = a.sigma * sn.normal();
      }
    });
    blk.sync();
    blk.each([&](int j, Lane& l) { l.x = sl[j] * z[j]; });
    float ua[kM], ue[kM];
    if constexpr (Fused) {
      float s[kSums];
      blk.template sums<kSums>(s, [](const Lane& l, float* v) {
        v[0] = l.x * l.x;
        AKM_UNROLL
        for (int r = 0; r < kM; ++r) {
          v[1 + 3 * r] = l.Ea[r] * l.x;
          v[2 + 3 * r] = l.Ma[r] * l.x;
          v[3 + 3 * r] = l.Ee[r] * l.x;
        }
      });
      const float nrm = hd::sqrt_(s[0]);
      blk.each([&](int, Lane& l) { l.k = l.x / nrm; });
      AKM_UNROLL
      for (int r = 0; r < kM; ++r) {
        ua[r] = a.eta * ((s[1 + 3 * r] + eps[r]) - s[2 + 3 * r] / nrm);
        ue[r] = omb * (s[3 + 3 * r] + eps[r]);
      }
    } else {
      const float nrm = hd::sqrt_(blk.sum([](const Lane& l) { return l.x * l.x; }));
      blk.each([&](int, Lane& l) { l.k = l.x / nrm; });
      AKM_UNROLL
      for (int r = 0; r < kM; ++r) {
        const float d = blk.sum([&](const Lane& l) { return l.Ea[r] * l.x; }) + eps[r];
        const float p = blk.sum([&](const Lane& l) { return l.Ma[r] * l.k; });
        ua[r] = a.eta * (d - p);
        ue[r] = omb * (blk.sum([&](const Lane& l) { return l.Ee[r] * l.x; }) + eps[r]);
      }
    }
    blk.each([&](int, Lane& l) {
      AKM_UNROLL
      for (int r = 0; r < kM; ++r) {
        // [eq:dm-norm-update], [eq:ema-update]: M ← βM + u·kᵀ, E ← E − αM, each a·b + c
        // rounded once (hd::fma_: the same on the device and in the emulation).
        l.Ma[r] = hd::fma_(ua[r], l.k, a.beta * l.Ma[r]);
        l.Ea[r] = hd::fma_(-a.alpha, l.Ma[r], l.Ea[r]);
        l.Me[r] = hd::fma_(ue[r], l.x, a.beta * l.Me[r]);
        l.Ee[r] = hd::fma_(-a.alpha, l.Me[r], l.Ee[r]);
      }
    });
    blk.sync();
  }
  const std::size_t base = std::size_t(t) * 2 * kM * n;
  blk.each([&](int j, Lane& l) {
    AKM_UNROLL
    for (int r = 0; r < kM; ++r) {
      e_out[base + std::size_t(j) * kM + r] = l.Ea[r];
      e_out[base + std::size_t(kM) * n + std::size_t(j) * kM + r] = l.Ee[r];
    }
  });
}

}  // namespace akm::cuda::ak_sgd_ema_detail
