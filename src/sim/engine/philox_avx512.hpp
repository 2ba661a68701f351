// philox_avx512 — the ten Philox4x32-10 rounds on 16 blocks at once in AVX-512 registers,
// shared by the engine's batched normal generators (normals.cpp: Box–Muller; ziggurat.cpp).
// Private to the engine; tested bit for bit against Random123 through both generators.
#pragma once
#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>

namespace akm::engine {

// Word w of every block in one zmm; the 32×32→64 products come from vpmuludq on the even
// and odd lanes; the key schedule is Random123's (Weyl increments).
inline void philox10(__m512i& v0, __m512i& v1, __m512i& v2, __m512i& v3, std::uint32_t k0,
                     std::uint32_t k1) {
  const __m512i m0 = _mm512_set1_epi32(int(0xD2511F53u)), m1 = _mm512_set1_epi32(int(0xCD9E8D57u));
  for (int round = 0; round < 10; ++round) {
    // hi/lo of m0·v0 and m1·v2 per 32-bit lane
    const __m512i pe0 = _mm512_mul_epu32(v0, m0);
    const __m512i po0 = _mm512_mul_epu32(_mm512_srli_epi64(v0, 32), m0);
    const __m512i hi0 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe0, 32), po0);
    const __m512i lo0 = _mm512_mullo_epi32(v0, m0);
    const __m512i pe1 = _mm512_mul_epu32(v2, m1);
    const __m512i po1 = _mm512_mul_epu32(_mm512_srli_epi64(v2, 32), m1);
    const __m512i hi1 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe1, 32), po1);
    const __m512i lo1 = _mm512_mullo_epi32(v2, m1);
    v0 = _mm512_xor_si512(_mm512_xor_si512(hi1, v1), _mm512_set1_epi32(int(k0)));
    v1 = lo1;
    v2 = _mm512_xor_si512(_mm512_xor_si512(hi0, v3), _mm512_set1_epi32(int(k1)));
    v3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

// Blocks ctr0 … ctr0+15 (the rest of the counter ctr[1..3], the key shared), lanes permuted
// {0,1,8,9,2,3,10,11,…} so that unpacklo/unpackhi of two words give the 64-bit draws of
// blocks 0–7 and 8–15 in order.
inline void philox_regs(std::uint32_t ctr0, const std::uint32_t* ctr, const std::uint32_t* key, __m512i& v0,
                        __m512i& v1, __m512i& v2, __m512i& v3) {
  v0 = _mm512_add_epi32(_mm512_set1_epi32(int(ctr0)),
                        _mm512_setr_epi32(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15));
  v1 = _mm512_set1_epi32(int(ctr[1]));
  v2 = _mm512_set1_epi32(int(ctr[2]));
  v3 = _mm512_set1_epi32(int(ctr[3]));
  philox10(v0, v1, v2, v3, key[0], key[1]);
}

}  // namespace akm::engine
#endif
