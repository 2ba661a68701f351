// ziggurat — Marsaglia & Tsang's 256-layer ziggurat on Philox4x32-10 words, scalar and
// AVX-512 (akm/sim/engine/ziggurat.hpp gives the stream's layout). The vector path does the
// common case for 32 normals at once — Philox, layer gathers, x = u·xᵢ, the test x < xᵢ₊₁ —
// and hands the rare lanes that fail it to the scalar finish(), so both paths round alike
// and agree bit for bit (tests/test_ziggurat.cpp).
#include "akm/sim/engine/ziggurat.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include <Random123/philox.h>

#include "engine_util.hpp"
#include "philox_avx512.hpp"

namespace akm::engine {

namespace {

bool g_force_scalar = false;
constexpr double kUlp53 = 1.0 / 9007199254740992.0;  // 2⁻⁵³

// The layer recursion from R: returns the closing residual x₂₅₅(1 − f(x₂₅₅)) − V of the top
// layer, or −1 when a layer overshoots the mode. Negative: R too small (V too big for 256
// layers to fit); positive: R too large.
long double closing(long double R, long double* xs) {
  auto f = [](long double x) { return std::exp(-x * x / 2); };
  const long double V = R * f(R) + std::sqrt(std::numbers::pi_v<long double> / 2) * std::erfc(R / std::sqrt(2.0L));
  long double x = R;
  if (xs) xs[1] = R;
  for (int i = 1; i < 255; ++i) {
    const long double y = f(x) + V / x;
    if (y >= 1) return -1;
    x = std::sqrt(-2 * std::log(y));
    if (xs) xs[i + 1] = x;
  }
  return x * (1 - f(x)) - V;
}

ZigguratTable make_table() {
  // Bisect closing(R) = 0 to long double precision.
  long double lo = 3.0L, hi = 4.5L;
  for (int it = 0; it < 200; ++it) {
    const long double mid = (lo + hi) / 2;
    (closing(mid, nullptr) < 0 ? lo : hi) = mid;
  }
  long double xs[257];
  closing(hi, xs);
  ZigguratTable t;
  const long double R = hi;
  const long double fR = std::exp(-R * R / 2);
  const long double V = R * fR + std::sqrt(std::numbers::pi_v<long double> / 2) * std::erfc(R / std::sqrt(2.0L));
  t.R = double(R);
  t.V = double(V);
  t.x[0] = double(V / fR);
  for (int i = 1; i < 256; ++i) t.x[i] = double(xs[i]);
  t.x[256] = 0.0;
  for (int i = 0; i <= 256; ++i) t.f[i] = std::exp(-0.5 * t.x[i] * t.x[i]);
  return t;
}

// Philox block of counter c as akm::Stream::bits forms its two 64-bit words.
inline void block_words(const std::uint32_t* c, const std::uint32_t* key, std::uint64_t& w0, std::uint64_t& w1) {
  const r123::Philox4x32::ctr_type ctr = {{c[0], c[1], c[2], c[3]}};
  const r123::Philox4x32::key_type k = {{key[0], key[1]}};
  const auto o = r123::Philox4x32{}(ctr, k);
  w0 = (std::uint64_t(o[0]) << 32) | o[1];
  w1 = (std::uint64_t(o[2]) << 32) | o[3];
}

// The side stream of normal (block b, half h): its words in order; counter word 1 carries
// the purpose (low 8 bits), the side block s and h (ziggurat.hpp).
struct Side {
  std::uint32_t c[4];
  std::uint32_t hb;  // h<<30 | 2³¹
  const std::uint32_t* key;
  std::uint64_t w[2] = {0, 0};
  int next = 2;
  std::uint32_t s = 0;
  Side(std::uint32_t b, int h, const std::uint32_t* ctr, const std::uint32_t* k)
      : c{b, ctr[1], ctr[2], ctr[3]}, hb((std::uint32_t(h) << 30) | 0x80000000u), key(k) {}
  std::uint64_t word() {
    if (next == 2) {
      if (s >= (1u << 22)) throw std::logic_error("ziggurat: side stream exhausted");  // p < 0.02^(2²²)
      c[1] = (c[1] & 0xFFu) | (s << 8) | hb;
      block_words(c, key, w[0], w[1]);
      ++s;
      next = 0;
    }
    return w[next++];
  }
  // Uniform on (0, 1): (k + ½)·2⁻⁵², k = the top 52 bits (exact; log finite).
  double open() { return (double(word() >> 12) + 0.5) * (2.0 * kUlp53); }
};

// The candidate of word w: x = u·xᵢ with its sign; accepted when x < xᵢ₊₁.
inline bool fast(const ZigguratTable& t, std::uint64_t w, double& z) {
  const int i = int(w & 0xFF);
  const double x = double(w >> 11) * kUlp53 * t.x[i];
  z = (w >> 8) & 1 ? -x : x;
  return x < t.x[i + 1];
}

// Normal (b, h) from its first word w: the fast test, then the wedge or tail test, a fresh
// candidate from the side stream after each rejection.
double finish(const ZigguratTable& t, std::uint64_t w, std::uint32_t b, int h, const std::uint32_t* ctr,
              const std::uint32_t* key) {
  Side side(b, h, ctr, key);
  for (;;) {
    double z;
    if (fast(t, w, z)) return z;
    const int i = int(w & 0xFF);
    const bool neg = (w >> 8) & 1;
    if (i == 0) {  // the tail beyond R (Marsaglia 1964): x = −log U₁/R, accept when −2 log U₂ > x²
      for (;;) {
        const double x = -std::log(side.open()) / t.R;
        const double y = -std::log(side.open());
        if (2 * y > x * x) return neg ? -(t.R + x) : t.R + x;
      }
    }
    const double x = std::abs(z);  // the wedge of layer i: a uniform height in [f(xᵢ), f(xᵢ₊₁)]
    const double y = t.f[i] + double(side.word() >> 11) * kUlp53 * (t.f[i + 1] - t.f[i]);
    if (y < std::exp(-0.5 * x * x)) return z;
    w = side.word();
  }
}

#if defined(__AVX512F__) && defined(__AVX512DQ__)
// The fast test on 8 words: z (signed candidates) and the mask of accepted lanes.
inline __mmask8 fast8(const ZigguratTable& t, __m512i w, __m512d& z) {
  const __m512i i = _mm512_and_si512(w, _mm512_set1_epi64(0xFF));
  const __m512d xi = _mm512_i64gather_pd(i, t.x.data(), 8);
  const __m512d xi1 = _mm512_i64gather_pd(i, t.x.data() + 1, 8);
  const __m512d u = _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_srli_epi64(w, 11)), _mm512_set1_pd(kUlp53));
  const __m512d x = _mm512_mul_pd(u, xi);
  const __m512i sign = _mm512_and_si512(_mm512_slli_epi64(w, 55), _mm512_set1_epi64(std::int64_t(1) << 63));
  z = _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(x), sign));
  return _mm512_cmp_pd_mask(x, xi1, _CMP_LT_OQ);
}

inline void store(double* p, __m512d v) { _mm512_storeu_pd(p, v); }
inline void store(float* p, __m512d v) { _mm256_storeu_ps(p, _mm512_cvtpd_ps(v)); }

// Normals 2·ctr0 … 2·ctr0 + 31 (blocks ctr0 … ctr0+15): out[2k] from word 0 of block k,
// out[2k+1] from word 1.
template <class T>
void batch32(const ZigguratTable& t, std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, T* out) {
  __m512i v0, v1, v2, v3;
  philox_regs(ctr0, ctr, key, v0, v1, v2, v3);
  const __m512i w[4] = {_mm512_unpacklo_epi32(v1, v0), _mm512_unpacklo_epi32(v3, v2),  // blocks 0–7
                        _mm512_unpackhi_epi32(v1, v0), _mm512_unpackhi_epi32(v3, v2)};  // blocks 8–15
  __m512d z[4];
  __mmask8 ok[4];
  for (int v = 0; v < 4; ++v) ok[v] = fast8(t, w[v], z[v]);
  const __m512i lo_idx = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
  const __m512i hi_idx = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
  for (int half = 0; half < 2; ++half) {
    store(out + 16 * half, _mm512_permutex2var_pd(z[2 * half], lo_idx, z[2 * half + 1]));
    store(out + 16 * half + 8, _mm512_permutex2var_pd(z[2 * half], hi_idx, z[2 * half + 1]));
  }
  if ((ok[0] & ok[1] & ok[2] & ok[3]) == 0xFF) return;
  for (int v = 0; v < 4; ++v) {
    if (ok[v] == 0xFF) continue;
    alignas(64) std::uint64_t ws[8];
    _mm512_store_si512(ws, w[v]);
    const int h = v & 1, base = 8 * (v >> 1);
    for (int l = 0; l < 8; ++l)
      if (!((ok[v] >> l) & 1)) {
        const std::uint32_t b = ctr0 + std::uint32_t(base + l);
        out[2 * (base + l) + h] = T(finish(t, ws[l], b, h, ctr, key));
      }
  }
}
#endif

}  // namespace

const ZigguratTable& ziggurat_table() {
  static const ZigguratTable t = make_table();
  return t;
}

void ZigguratStream::set_force_scalar(bool on) { g_force_scalar = on; }

ZigguratStream::ZigguratStream(std::uint64_t seed, std::uint64_t trial, Purpose purpose) {
  stream_start(key_, ctr_, seed, trial, purpose);
}

double ZigguratStream::at(std::uint64_t j) const {
  const auto b = std::uint32_t(j >> 1);
  const int h = int(j & 1);
  std::uint32_t c[4] = {b, ctr_[1], ctr_[2], ctr_[3]};
  std::uint64_t w[2];
  block_words(c, key_, w[0], w[1]);
  return finish(ziggurat_table(), w[h], b, h, ctr_, key_);
}

double ZigguratStream::normal() { return at(next_++); }

template <class T>
void ZigguratStream::fill_impl(T* out, int count) {
  int done = 0;
#if defined(__AVX512F__) && defined(__AVX512DQ__)
  if (!g_force_scalar) {
    const ZigguratTable& t = ziggurat_table();
    for (; done < count && (next_ & 1); ++done) out[done] = T(at(next_++));
    for (; count - done >= 32; done += 32, next_ += 32)
      batch32(t, std::uint32_t(next_ >> 1), ctr_, key_, out + done);
  }
#endif
  for (; done < count; ++done) out[done] = T(at(next_++));
}

void ZigguratStream::fill(double* out, int count) { fill_impl(out, count); }
void ZigguratStream::fill(float* out, int count) { fill_impl(out, count); }

double ziggurat_throughput(Precision p, double seconds) {
  ZigguratStream s(12345, 0, Purpose::keys);
  return fill_rate(s, p, seconds);
}

}  // namespace akm::engine
