// normal_lanes — the portable batch of the engine's normal stream (normal_batch.hpp), built
// where the AVX-512 one (normal_batch.cpp) is not: Philox on kLanes counters in a lane loop
// (auto-vectorized where the compiler manages), Box–Muller with libmvec's AVX2 or AVX-512
// functions where they are built, std::log/sin/cos elsewhere.
#include "normal_batch.hpp"

#include <cmath>

#if !(defined(AKM_MVEC512) && defined(__AVX512DQ__))
#include "philox_avx512.hpp"

namespace akm::engine {
namespace {

using normal_batch::kLanes;
using normal_batch::kTwoPi;
using normal_batch::kUlp53;

// Philox4x32-10 on kLanes consecutive counters (ctr0 + lane), the rest of the counter and
// the key shared. AVX-512: philox10 (philox_avx512.hpp). Elsewhere a lane loop (auto-vectorized where the
// compiler manages). Both are tested bit-for-bit against Random123.
[[maybe_unused]] void philox_lanes(std::uint32_t ctr0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3,
                  std::uint32_t k0, std::uint32_t k1, std::uint64_t* w01, std::uint64_t* w23) {
  alignas(64) std::uint32_t x0[kLanes], x1[kLanes], x2[kLanes], x3[kLanes];
#if defined(__AVX512F__)
  __m512i v0 = _mm512_add_epi32(_mm512_set1_epi32(int(ctr0)),
                                _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  __m512i v1 = _mm512_set1_epi32(int(c1)), v2 = _mm512_set1_epi32(int(c2)),
          v3 = _mm512_set1_epi32(int(c3));
  philox10(v0, v1, v2, v3, k0, k1);
  _mm512_store_si512(x0, v0);
  _mm512_store_si512(x1, v1);
  _mm512_store_si512(x2, v2);
  _mm512_store_si512(x3, v3);
#else
  for (int l = 0; l < kLanes; ++l) {
    x0[l] = ctr0 + std::uint32_t(l);
    x1[l] = c1;
    x2[l] = c2;
    x3[l] = c3;
  }
  for (int round = 0; round < 10; ++round) {
    for (int l = 0; l < kLanes; ++l) {
      const std::uint64_t p0 = std::uint64_t(0xD2511F53u) * x0[l];
      const std::uint64_t p1 = std::uint64_t(0xCD9E8D57u) * x2[l];
      const std::uint32_t y0 = std::uint32_t(p1 >> 32) ^ x1[l] ^ k0;
      const std::uint32_t y1 = std::uint32_t(p1);
      const std::uint32_t y2 = std::uint32_t(p0 >> 32) ^ x3[l] ^ k1;
      const std::uint32_t y3 = std::uint32_t(p0);
      x0[l] = y0;
      x1[l] = y1;
      x2[l] = y2;
      x3[l] = y3;
    }
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
#endif
  for (int l = 0; l < kLanes; ++l) {
    w01[l] = ((std::uint64_t(x0[l]) << 32) | x1[l]) >> 11;
    w23[l] = ((std::uint64_t(x2[l]) << 32) | x3[l]) >> 11;
  }
}

// r = √(−2 log u₁), θ = 2πu₂; out[2i] = r cos θ, out[2i+1] = r sin θ, for kLanes pairs.
[[maybe_unused]] void box_muller(const double* u1, const double* u2, double* out) {
  alignas(64) double c[kLanes], s[kLanes], r[kLanes];
#if defined(AKM_MVEC512)
  for (int l = 0; l < kLanes; l += 8) {
    const __m512d lg = _ZGVeN8v_log(_mm512_loadu_pd(u1 + l));
    _mm512_store_pd(r + l, _mm512_sqrt_pd(_mm512_mul_pd(_mm512_set1_pd(-2.0), lg)));
    const __m512d th = _mm512_mul_pd(_mm512_set1_pd(kTwoPi), _mm512_loadu_pd(u2 + l));
    _mm512_store_pd(c + l, _ZGVeN8v_cos(th));
    _mm512_store_pd(s + l, _ZGVeN8v_sin(th));
  }
#elif defined(AKM_MVEC256)
  for (int l = 0; l < kLanes; l += 4) {
    const __m256d lg = _ZGVdN4v_log(_mm256_loadu_pd(u1 + l));
    _mm256_store_pd(r + l, _mm256_sqrt_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), lg)));
    const __m256d th = _mm256_mul_pd(_mm256_set1_pd(kTwoPi), _mm256_loadu_pd(u2 + l));
    _mm256_store_pd(c + l, _ZGVdN4v_cos(th));
    _mm256_store_pd(s + l, _ZGVdN4v_sin(th));
  }
#else
  for (int l = 0; l < kLanes; ++l) {
    r[l] = std::sqrt(-2.0 * std::log(u1[l]));
    const double th = kTwoPi * u2[l];
    c[l] = std::cos(th);
    s[l] = std::sin(th);
  }
#endif
  for (int l = 0; l < kLanes; ++l) {
    out[2 * l] = r[l] * c[l];
    out[2 * l + 1] = r[l] * s[l];
  }
}

// Float transform of the same uniforms, rounded to float first.
[[maybe_unused]] void box_muller(const double* u1, const double* u2, float* out) {
  alignas(64) float a[kLanes], b[kLanes], c[kLanes], s[kLanes], r[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    a[l] = float(u1[l]);
    b[l] = float(u2[l]);
  }
#if defined(AKM_MVEC512)
  const __m512 lg = _ZGVeN16v_logf(_mm512_load_ps(a));
  _mm512_store_ps(r, _mm512_sqrt_ps(_mm512_mul_ps(_mm512_set1_ps(-2.0f), lg)));
  const __m512 th = _mm512_mul_ps(_mm512_set1_ps(float(kTwoPi)), _mm512_load_ps(b));
  _mm512_store_ps(c, _ZGVeN16v_cosf(th));
  _mm512_store_ps(s, _ZGVeN16v_sinf(th));
#elif defined(AKM_MVEC256)
  for (int l = 0; l < kLanes; l += 8) {
    const __m256 lg = _ZGVdN8v_logf(_mm256_load_ps(a + l));
    _mm256_store_ps(r + l, _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), lg)));
    const __m256 th = _mm256_mul_ps(_mm256_set1_ps(float(kTwoPi)), _mm256_load_ps(b + l));
    _mm256_store_ps(c + l, _ZGVdN8v_cosf(th));
    _mm256_store_ps(s + l, _ZGVdN8v_sinf(th));
  }
#else
  for (int l = 0; l < kLanes; ++l) {
    r[l] = std::sqrt(-2.0f * std::log(a[l]));
    const float th = float(kTwoPi) * b[l];
    c[l] = std::cos(th);
    s[l] = std::sin(th);
  }
#endif
  for (int l = 0; l < kLanes; ++l) {
    out[2 * l] = r[l] * c[l];
    out[2 * l + 1] = r[l] * s[l];
  }
}

// One vector batch of kLanes pairs from blocks ctr0..ctr0+kLanes−1; false if some k = 0.
template <class T>
bool fast_pairs(NormalKernel, std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, T* out) {
  alignas(64) std::uint64_t k1[kLanes], k2[kLanes];
  philox_lanes(ctr0, ctr[1], ctr[2], ctr[3], key[0], key[1], k1, k2);
  alignas(64) double u1[kLanes], u2[kLanes];
  bool zero = false;
  for (int l = 0; l < kLanes; ++l) {
    zero |= (k1[l] == 0) | (k2[l] == 0);
    u1[l] = double(k1[l]) * kUlp53;
    u2[l] = double(k2[l]) * kUlp53;
  }
  if (zero) return false;
  box_muller(u1, u2, out);
  return true;
}

}  // namespace

bool normal_batch::pairs(NormalKernel k, std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key,
                         double* out) {
  return fast_pairs(k, ctr0, ctr, key, out);
}
bool normal_batch::pairs(NormalKernel k, std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key,
                         float* out) {
  return fast_pairs(k, ctr0, ctr, key, out);
}

}  // namespace akm::engine
#endif
