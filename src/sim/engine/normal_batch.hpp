// normal_batch — the vector batch of the engine's normal stream, as NormalStream (normals.cpp)
// calls it: AVX-512 with libmvec or SLEEF keeps the whole batch in registers
// (normal_batch.cpp); elsewhere a lane loop (normal_lanes.cpp). Also the constants all three
// share with akm::Stream's transform: u = k·2⁻⁵³ (k = bits>>11), θ = 2πu₂. Private to the sim
// layer; no Eigen (the engine files are compiled for the native ISA).
#pragma once
#include <immintrin.h>

#include <cstdint>
#include <numbers>

#include "akm/sim/engine/engine.hpp"

// glibc's vector math (libmvec) at the widest vector the ISA has, and SLEEF's beside it.
#if defined(AKM_HAVE_MVEC) && defined(__AVX512F__)
extern "C" {
__m512d _ZGVeN8v_log(__m512d);
__m512d _ZGVeN8v_sin(__m512d);
__m512d _ZGVeN8v_cos(__m512d);
__m512 _ZGVeN16v_logf(__m512);
__m512 _ZGVeN16v_sinf(__m512);
__m512 _ZGVeN16v_cosf(__m512);
}
#define AKM_MVEC512 1
#elif defined(AKM_HAVE_MVEC) && defined(__AVX2__)
extern "C" {
__m256d _ZGVdN4v_log(__m256d);
__m256d _ZGVdN4v_sin(__m256d);
__m256d _ZGVdN4v_cos(__m256d);
__m256 _ZGVdN8v_logf(__m256);
__m256 _ZGVdN8v_sinf(__m256);
__m256 _ZGVdN8v_cosf(__m256);
}
#define AKM_MVEC256 1
#endif

#if defined(AKM_HAVE_SLEEF) && defined(AKM_MVEC512) && defined(__AVX512DQ__)
#include <sleef.h>
#define AKM_SLEEF512 1
#endif

namespace akm::engine::normal_batch {

inline constexpr int kLanes = 16;  // Philox blocks per vector batch
inline constexpr double kUlp53 = 1.0 / 9007199254740992.0;
inline constexpr double kTwoPi = 2.0 * std::numbers::pi;

/// One vector batch of kLanes normal pairs from blocks ctr0 … ctr0+kLanes−1 (counter words
/// 1–3 from ctr, key words from key) into out[0 … 2·kLanes), interleaved (r cos θ, r sin θ),
/// exactly the pairs akm::Stream draws from those blocks; false when some block draws k = 0
/// (akm::Stream would redraw: the caller goes scalar from there). Kernel k picks the vector
/// math where more than one is built.
bool pairs(NormalKernel k, std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, double* out);
/// The float batch: the same uniforms rounded to float, the transform in float.
bool pairs(NormalKernel k, std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, float* out);

}  // namespace akm::engine::normal_batch
