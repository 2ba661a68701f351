// stream_hd — akm::Stream (akm/random/random.hpp) written once for the host and the CUDA
// device: Philox4x32-10 keyed by the seed, counter {block, purpose, trial low, trial high},
// two 64-bit words per block; u = k·2⁻⁵³ with k = bits>>11 (k = 0 redrawn); Box–Muller
// pairs, cos first, the sin one cached. akm::Stream (src/random/random.cpp) draws its words,
// uniforms and normals through the same functions: the host and device streams are one code.
// Stream::normal() has an aligned fast path (a fresh block's words at compile-time indices)
// beside that general path, with the same numbers (tests/test_cuda_single_source.cpp).
//
// Stream<double> is akm::Stream bit for bit on the host. Stream<float> is the float transform
// of the CUDA kernels: the uniform k·2⁻⁵³ rounded to float (float(k) is round-to-nearest
// on both sides and the power-of-two scale is exact), then float log/sqrt/sincos.
#pragma once
#include <cstdint>

#include <Random123/philox.h>

#include "akm/base/hd.hpp"

namespace akm::hd {

using PhiloxCtr = r123::Philox4x32::ctr_type;  ///< a Philox4x32 counter (or output block): 4 × 32 bits
using PhiloxKey = r123::Philox4x32::key_type;  ///< a Philox4x32 key: the seed's two 32-bit halves

/// The counter and key of stream (seed, trial, purpose), at block 0.
AKM_HD inline void philox_start(PhiloxCtr& ctr, PhiloxKey& key, std::uint64_t seed,
                                std::uint64_t trial, std::uint32_t purpose) {
  key[0] = static_cast<std::uint32_t>(seed);
  key[1] = static_cast<std::uint32_t>(seed >> 32);
  ctr[0] = 0;
  ctr[1] = purpose;
  ctr[2] = static_cast<std::uint32_t>(trial);
  ctr[3] = static_cast<std::uint32_t>(trial >> 32);
}

/// The next 64 random bits: words {0,1} then {2,3} of a block, then the next block
/// (2³² blocks per stream before the index wraps).
AKM_HD inline std::uint64_t philox_next(const r123::Philox4x32& gen, PhiloxCtr& ctr, const PhiloxKey& key,
                                        PhiloxCtr& out, int& next_word) {
  if (next_word > 2) {
    out = gen(ctr, key);
    ++ctr[0];
    next_word = 0;
  }
  const std::uint64_t hi = out[next_word], lo = out[next_word + 1];
  next_word += 2;
  return (hi << 32) | lo;
}

/// k·2⁻⁵³ in T for a nonzero 53-bit k: exact in double, float(k) rounds to nearest (the
/// power-of-two scale is exact).
template <class T>
AKM_HD inline T uniform_of(std::uint64_t k) {
  return static_cast<T>(k) * static_cast<T>(1.1102230246251565e-16);  // 2⁻⁵³
}
/// Uniform on (0, 1): uniform_of(k) for k = bits>>11, k = 0 redrawn (probability 2⁻⁵³) so
/// log u is finite.
template <class T, class Bits>
AKM_HD inline T uniform_open(Bits&& bits) {
  for (;;) {
    const std::uint64_t k = bits() >> 11;
    if (k != 0) return uniform_of<T>(k);
  }
}

/// The angle 2π·u of a float Box–Muller pair brought into (−π, π), where __sincosf's documented
/// error bound holds: t = u − 1 for u ≥ ½ (exact, Sterbenz), then t·c with c the float just
/// below 2π, so |θ| ≤ c/2 < π (rounding is monotone). Off from 2π·t by ≤ (2π − c)/2 + 2⁻²³
/// (tests/test_cuda_fast_sincos.cpp).
AKM_HD inline float reduced_angle(float u) {
  const float t = u >= 0.5f ? u - 1.f : u;
  return t * 6.2831850051879883f;
}

/// Whether the device's float Box–Muller takes its angle's sine and cosine from __sincosf
/// (CMake -DAKM_CUDA_FAST_SINCOS=ON; default off, an A/B). The host, and so the emulated
/// backend, always uses the precise functions; the device-vs-emulation tests widen by the
/// bound tests/test_cuda_fast_sincos.cpp derives (≤ 1.2e-5 per normal, docs/cuda.md).
#if defined(AKM_CUDA_FAST_SINCOS)
constexpr bool kFastSincos = true;
#else
constexpr bool kFastSincos = false;
#endif
/// |fast − precise| per float normal when kFastSincos (the derivation's 1.10e-5, rounded up).
constexpr double kFastSincosBound = 1.2e-5;

/// s = sin 2πu, c = cos 2πu for a Box–Muller pair: sincos_ of the product (every backend), or
/// on the device with kFastSincos, float: __sincosf of reduced_angle(u).
template <class T>
AKM_HD inline void box_muller_angle(T u, T* s, T* c) {
#if defined(__CUDA_ARCH__) && defined(AKM_CUDA_FAST_SINCOS)
  if constexpr (sizeof(T) == sizeof(float)) {
    __sincosf(reduced_angle(u), s, c);
    return;
  }
#endif
  sincos_(static_cast<T>(6.283185307179586476925) * u, s, c);
}

/// The exact Box–Muller transform of u1 (radius) and u2 (angle): r·cos θ returned, r·sin θ
/// cached in `spare`.
template <class T>
AKM_HD inline T box_muller_pair(T u1, T u2, bool& has_spare, T& spare) {
  const T r = sqrt_(T(-2) * log_(u1));
  T s, c;
  box_muller_angle(u2, &s, &c);
  spare = r * s;
  has_spare = true;
  return r * c;
}

/// Standard normal by the exact Box–Muller transform: r·cos θ now, r·sin θ cached in `spare`.
template <class T, class Uniform>
AKM_HD inline T box_muller(Uniform&& uniform, bool& has_spare, T& spare) {
  if (has_spare) {
    has_spare = false;
    return spare;
  }
  const T u1 = uniform();  // the radius's uniform is drawn first
  const T u2 = uniform();
  return box_muller_pair(u1, u2, has_spare, spare);
}

/// Words {w, w+1} of a Philox block as one 64-bit draw (philox_next's order: hi then lo).
AKM_HD inline std::uint64_t block_word(const PhiloxCtr& out, int w) {
  return (std::uint64_t(out[w]) << 32) | out[w + 1];
}

/// The counter stream of (seed, trial, purpose) for host and device code: T = double is
/// akm::Stream bit for bit, T = float the CUDA kernels' float transform.
template <class T>
struct Stream {
  PhiloxCtr ctr;       ///< the next block's counter {block, purpose, trial low, trial high}
  PhiloxKey key;       ///< the key {seed low, seed high}
  PhiloxCtr out;       ///< the current block's four output words
  int next_word = 4;   ///< the next unused word of `out` (> 2: draw a new block)
  bool has_spare = false;  ///< a Box–Muller sin value is cached in `spare`
  T spare = T(0);          ///< the cached normal (valid when has_spare)

  /// The stream of (seed, trial, purpose) at block 0; purpose as akm::Purpose (kKeys, …).
  AKM_HD Stream(std::uint64_t seed, std::uint64_t trial, std::uint32_t purpose) {
    philox_start(ctr, key, seed, trial, purpose);
  }
  /// Jumps to Philox block `block` with no word or normal pending (a thread's share of a draw).
  AKM_HD void seek(std::uint32_t block) {
    ctr[0] = block;
    next_word = 4;
    has_spare = false;
  }
  /// The next 64 random bits (philox_next).
  AKM_HD std::uint64_t bits() { return philox_next(r123::Philox4x32{}, ctr, key, out, next_word); }
  /// Uniform on (0, 1).
  AKM_HD T uniform() {
    return uniform_open<T>([this] { return bits(); });
  }
  /// Standard normal (box_muller: cos first, the sin one cached). The aligned fast path: with
  /// no spare and no word pending, one fresh Philox block is one Box–Muller pair, its words
  /// {0,1} and {2,3} read at indices fixed at compile time. Everything else (a spare, an odd
  /// bits() call before, a k = 0 redraw) is normal_general(), which gives the same numbers.
  AKM_HD T normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    if (next_word > 2) {
      out = r123::Philox4x32{}(ctr, key);
      ++ctr[0];
      return normal_from_block();
    }
    return normal_general();
  }
  /// The pair of the fresh block in `out` (no spare pending): words {0,1} give the radius's
  /// uniform, {2,3} the angle's. A k = 0 among them (probability 2⁻⁵² a block) hands the
  /// block, from word 0, to normal_general(), which redraws as akm::Stream does.
  AKM_HD T normal_from_block() {
    const std::uint64_t k1 = block_word(out, 0) >> 11, k2 = block_word(out, 2) >> 11;
    if (k1 != 0 && k2 != 0) {
      next_word = 4;
      return box_muller_pair(uniform_of<T>(k1), uniform_of<T>(k2), has_spare, spare);
    }
    next_word = 0;
    return normal_general();
  }
  /// Standard normal through the run-time word choice of philox_next (the plain reference of
  /// normal(), and its fallback). Kept out of line on the device so that each call site of
  /// normal() inlines only the aligned path.
  AKM_HD AKM_HD_COLD T normal_general() {
    return box_muller<T>([this] { return uniform(); }, has_spare, spare);
  }
};

// Stream purposes as the kernels name them (akm::Purpose's values).
/// \var kKeys
/// akm::Purpose::keys: the stream of a trial's keys.
/// \var kNoise
/// akm::Purpose::noise: the stream of a trial's value noise.
/// \var kInit
/// akm::Purpose::init: the stream of a trial's initial state.
constexpr std::uint32_t kKeys = 1, kNoise = 2, kInit = 3;

}  // namespace akm::hd
