// normal_batch — the AVX-512 batch of the engine's normal stream (normal_batch.hpp): Philox
// words in registers (philox_regs) → 64-bit draws → uniforms → Box–Muller with libmvec's or
// SLEEF's vector log and sincos → interleaved (cos, sin) pairs, without the lane arrays of the
// portable path (normal_lanes.cpp, built where this one is not). Also which kernels are built.
#include "normal_batch.hpp"

#include "philox_avx512.hpp"

namespace akm::engine {

#if defined(AKM_MVEC512) && defined(__AVX512DQ__)
namespace {

using normal_batch::kLanes;
using normal_batch::kTwoPi;
using normal_batch::kUlp53;

// (hi, lo) 32-bit words → k = (hi<<32 | lo) >> 11 for 8 pairs; mask of k == 0 lanes.
inline __m512i draws(__m512i hi_lo_pairs, __mmask8& zero) {
  const __m512i k = _mm512_srli_epi64(hi_lo_pairs, 11);
  zero |= _mm512_cmpeq_epi64_mask(k, _mm512_setzero_si512());
  return k;
}

// The vector math of one batch: log of the radius uniforms, sine and cosine of the angles.
struct Mvec {
  static __m512d log(__m512d x) { return _ZGVeN8v_log(x); }
  static void sincos(__m512d t, __m512d& s, __m512d& c) { c = _ZGVeN8v_cos(t), s = _ZGVeN8v_sin(t); }
  static __m512 log(__m512 x) { return _ZGVeN16v_logf(x); }
  static void sincos(__m512 t, __m512& s, __m512& c) { c = _ZGVeN16v_cosf(t), s = _ZGVeN16v_sinf(t); }
};
#if defined(AKM_SLEEF512)
// Double: the 1-ulp functions (SLEEF 3.5's 3.5-ulp double log ran at 1/6 of the speed here);
// float: the 3.5-ulp ones (faster than libmvec's 4-ulp float functions here). Measured with
// tests/bench/akm_bench_kernels (BM_NormalKernelFill) on the Zen 5 development machine.
struct Sleef {
  static __m512d log(__m512d x) { return Sleef_logd8_u10avx512f(x); }
  static void sincos(__m512d t, __m512d& s, __m512d& c) {
    const Sleef___m512d_2 r = Sleef_sincosd8_u10avx512f(t);
    s = r.x, c = r.y;
  }
  static __m512 log(__m512 x) { return Sleef_logf16_u35avx512f(x); }
  static void sincos(__m512 t, __m512& s, __m512& c) {
    const Sleef___m512_2 r = Sleef_sincosf16_u35avx512f(t);
    s = r.x, c = r.y;
  }
};
#endif

template <class M>
bool fast_pairs_with(std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, double* out) {
  __m512i v0, v1, v2, v3;
  philox_regs(ctr0, ctr, key, v0, v1, v2, v3);
  __mmask8 zero = 0;
  const __m512d ulp = _mm512_set1_pd(kUlp53);
  const __m512i ka[2] = {draws(_mm512_unpacklo_epi32(v1, v0), zero),
                         draws(_mm512_unpackhi_epi32(v1, v0), zero)};
  const __m512i kb[2] = {draws(_mm512_unpacklo_epi32(v3, v2), zero),
                         draws(_mm512_unpackhi_epi32(v3, v2), zero)};
  if (zero) return false;
  const __m512i lo_idx = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
  const __m512i hi_idx = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
  // All library calls first, the two square roots after them: the calls clobber every
  // vector register, so a square root between them sits on the critical path.
  const __m512d th0 = _mm512_mul_pd(_mm512_set1_pd(kTwoPi), _mm512_mul_pd(_mm512_cvtepi64_pd(kb[0]), ulp));
  const __m512d th1 = _mm512_mul_pd(_mm512_set1_pd(kTwoPi), _mm512_mul_pd(_mm512_cvtepi64_pd(kb[1]), ulp));
  const __m512d lg0 = M::log(_mm512_mul_pd(_mm512_cvtepi64_pd(ka[0]), ulp));
  const __m512d lg1 = M::log(_mm512_mul_pd(_mm512_cvtepi64_pd(ka[1]), ulp));
  __m512d s0, c0, s1, c1;
  M::sincos(th0, s0, c0);
  M::sincos(th1, s1, c1);
  const __m512d r0 = _mm512_sqrt_pd(_mm512_mul_pd(_mm512_set1_pd(-2.0), lg0));
  const __m512d r1 = _mm512_sqrt_pd(_mm512_mul_pd(_mm512_set1_pd(-2.0), lg1));
  const __m512d rc0 = _mm512_mul_pd(r0, c0), rs0 = _mm512_mul_pd(r0, s0);
  const __m512d rc1 = _mm512_mul_pd(r1, c1), rs1 = _mm512_mul_pd(r1, s1);
  _mm512_storeu_pd(out, _mm512_permutex2var_pd(rc0, lo_idx, rs0));
  _mm512_storeu_pd(out + 8, _mm512_permutex2var_pd(rc0, hi_idx, rs0));
  _mm512_storeu_pd(out + 16, _mm512_permutex2var_pd(rc1, lo_idx, rs1));
  _mm512_storeu_pd(out + 24, _mm512_permutex2var_pd(rc1, hi_idx, rs1));
  return true;
}

template <class M>
bool fast_pairs_with(std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, float* out) {
  __m512i v0, v1, v2, v3;
  philox_regs(ctr0, ctr, key, v0, v1, v2, v3);
  __mmask8 zero = 0;
  const __m512d ulp = _mm512_set1_pd(kUlp53);
  auto to_f = [&](__m512i lo, __m512i hi) {  // 16 uniforms, rounded from double to float
    const __m256 a = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtepi64_pd(draws(lo, zero)), ulp));
    const __m256 b = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtepi64_pd(draws(hi, zero)), ulp));
    return _mm512_insertf32x8(_mm512_castps256_ps512(a), b, 1);
  };
  const __m512 u1 = to_f(_mm512_unpacklo_epi32(v1, v0), _mm512_unpackhi_epi32(v1, v0));
  const __m512 u2 = to_f(_mm512_unpacklo_epi32(v3, v2), _mm512_unpackhi_epi32(v3, v2));
  if (zero) return false;
  // The calls first, the square root after them (as in the double path).
  const __m512 th = _mm512_mul_ps(_mm512_set1_ps(float(kTwoPi)), u2);
  const __m512 lg = M::log(u1);
  __m512 sn, cs;
  M::sincos(th, sn, cs);
  const __m512 r = _mm512_sqrt_ps(_mm512_mul_ps(_mm512_set1_ps(-2.0f), lg));
  const __m512 c = _mm512_mul_ps(r, cs);
  const __m512 s = _mm512_mul_ps(r, sn);
  const __m512i lo_idx = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i hi_idx = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  _mm512_storeu_ps(out, _mm512_permutex2var_ps(c, lo_idx, s));
  _mm512_storeu_ps(out + 16, _mm512_permutex2var_ps(c, hi_idx, s));
  return true;
}

template <class T>
bool fast_pairs(NormalKernel k, std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, T* out) {
#if defined(AKM_SLEEF512)
  if (k == NormalKernel::sleef) return fast_pairs_with<Sleef>(ctr0, ctr, key, out);
#endif
  (void)k;
  return fast_pairs_with<Mvec>(ctr0, ctr, key, out);
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
#endif

const char* to_string(NormalKernel k) {
  return k == NormalKernel::sleef ? "sleef" : k == NormalKernel::libmvec ? "libmvec" : "fastest";
}

bool available(NormalKernel k) {
  switch (k) {
    case NormalKernel::fastest: return true;
#if defined(AKM_SLEEF512)
    case NormalKernel::sleef: return true;
#endif
#if defined(AKM_MVEC512) && defined(__AVX512DQ__)
    case NormalKernel::libmvec: return true;
#endif
    default: return false;
  }
}

}  // namespace akm::engine
