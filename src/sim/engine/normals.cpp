// normals — batched Philox4x32-10 + Box–Muller with the streams of akm::Stream.
//
// akm::Stream draws a normal pair from one Philox block: uniform u₁ from words {0,1},
// u₂ from words {2,3} (k = bits>>11, u = k·2⁻⁵³), then r = √(−2 log u₁), θ = 2πu₂ and
// returns r cos θ, then r sin θ. So when the stream is "aligned" (no spare cached, no half
// block pending), normal pair i of a batch comes from block ctr+i and the blocks can be
// computed independently — 16 at a time in vector registers. A uniform with k = 0 (prob.
// 2⁻⁵³) makes akm::Stream redraw, shifting all later words; a batch that meets one is
// recomputed on the scalar path, which copies akm::Stream exactly.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include <Random123/philox.h>

#include "akm/sim/engine/engine.hpp"
#include "engine_util.hpp"
#include "philox_avx512.hpp"

#include "akm/base/errors.hpp"

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

namespace akm::engine {

const char* to_string(Precision p) { return p == Precision::f64 ? "double" : "float"; }

Precision parse_precision(const std::string& s) {
  if (s == "double") return Precision::f64;
  if (s == "float") return Precision::f32;
  throw InputError("--precision", s, "must be double or float");
}

namespace {

bool g_force_scalar = false;
constexpr int kLanes = 16;  // Philox blocks per vector batch
constexpr double kUlp53 = 1.0 / 9007199254740992.0;
constexpr double kTwoPi = 2.0 * std::numbers::pi;

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

#if defined(AKM_MVEC512) && defined(__AVX512DQ__)
// The whole batch in registers (AVX-512): Philox words (philox_regs) → 64-bit draws →
// uniforms → Box–Muller → interleaved (cos, sin) pairs, without the lane arrays of the
// portable path.

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
#else
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

#endif

}  // namespace

void NormalStream::set_force_scalar(bool on) { g_force_scalar = on; }

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

NormalKernel engine_kernel(Precision p) {
  return p == Precision::f32 && available(NormalKernel::sleef) ? NormalKernel::sleef : NormalKernel::libmvec;
}

NormalStream::NormalStream(std::uint64_t seed, std::uint64_t trial, Purpose purpose, NormalKernel kernel)
    : kernel_(kernel) {
  stream_start(key_, ctr_, seed, trial, purpose);
}

// The scalar path: line for line akm::Stream (src/random/random.cpp).
std::uint64_t NormalStream::bits() {
  if (next_word_ > 2) {
    r123::Philox4x32 gen;
    const r123::Philox4x32::ctr_type c = {{ctr_[0], ctr_[1], ctr_[2], ctr_[3]}};
    const r123::Philox4x32::key_type k = {{key_[0], key_[1]}};
    const auto o = gen(c, k);
    for (int i = 0; i < 4; ++i) out_[i] = o[i];
    ++ctr_[0];
    next_word_ = 0;
  }
  const std::uint64_t hi = out_[next_word_], lo = out_[next_word_ + 1];
  next_word_ += 2;
  return (hi << 32) | lo;
}

double NormalStream::uniform() {
  for (;;) {
    const std::uint64_t k = bits() >> 11;
    if (k != 0) return double(k) * kUlp53;
  }
}

double NormalStream::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double r = std::sqrt(-2.0 * std::log(uniform()));
  const double theta = kTwoPi * uniform();
  spare_ = r * std::sin(theta);
  has_spare_ = true;
  return r * std::cos(theta);
}

namespace {
template <class T>
void fill_impl(NormalStream& self, NormalKernel k, bool aligned, bool force, std::uint32_t* ctr,
               const std::uint32_t* key, T* out, int count, double (NormalStream::*scalar)()) {
  int done = 0;
  if (aligned && !force) {
    alignas(64) T buf[2 * kLanes];
    while (done < count) {
      const int take = std::min(2 * kLanes, count - done);
      T* dst = take == 2 * kLanes ? out + done : buf;
      if (!fast_pairs(k, ctr[0], ctr, key, dst)) break;  // k = 0 somewhere: scalar from here
      if (dst == buf) std::copy(buf, buf + take, out + done);
      done += take;
      ctr[0] += std::uint32_t(take / 2);  // only the blocks actually consumed
    }
  }
  for (; done < count; ++done) out[done] = T((self.*scalar)());
}
}  // namespace

void NormalStream::fill(double* out, int count) {
  const NormalKernel k = kernel_ == NormalKernel::fastest ? engine_kernel(Precision::f64) : kernel_;
  fill_impl(*this, k, aligned(), g_force_scalar || (count % 2) != 0, ctr_, key_, out, count,
            &NormalStream::normal);
}
void NormalStream::fill(float* out, int count) {
  const NormalKernel k = kernel_ == NormalKernel::fastest ? engine_kernel(Precision::f32) : kernel_;
  fill_impl(*this, k, aligned(), g_force_scalar || (count % 2) != 0, ctr_, key_, out, count,
            &NormalStream::normal);
}

double normal_throughput(Precision p, double seconds, NormalKernel kernel) {
  NormalStream s(12345, 0, Purpose::keys, kernel);
  return fill_rate(s, p, seconds);
}

}  // namespace akm::engine
