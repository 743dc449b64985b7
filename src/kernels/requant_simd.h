/*
 * nn_mul_by_quant_mult (kernels/quant.h) on vector lanes, bit for bit, for
 * the kernels compiled for AVX2 (8 lanes) or AVX-512 (16 lanes): each lane
 * has its own multiplier (Q31, >= 0) and exponent, given split as
 * left = max(shift, 0) and right = max(-shift, 0).
 *  - Left shifts saturate: a lane whose shift loses bits becomes INT32_MIN
 *    or INT32_MAX by its sign, as the 64-bit scalar product clamps.
 *  - The rounded high half: floor((x * m + 2^30) / 2^31) is what the scalar
 *    nudge-and-truncate gives for either sign, and it is bits 31..62 of the
 *    64-bit sum, so logical shifts extract it (AVX2 has no 64-bit
 *    arithmetic shift).
 *  - The right shift rounds ties away from zero: the remainder against half
 *    the divisor, plus one for negative values.
 */
#ifndef NN_KERNELS_REQUANT_SIMD_H
#define NN_KERNELS_REQUANT_SIMD_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__AVX512F__)
static inline __m512i nn_requant_avx512(__m512i x, __m512i mult, __m512i left, __m512i right,
                                        bool any_left)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    const __m512i half = _mm512_set1_epi64((int64_t)1 << 30);
    if (any_left) {
        __m512i sh = _mm512_sllv_epi32(x, left);
        __mmask16 lost = _mm512_cmpneq_epi32_mask(_mm512_srav_epi32(sh, left), x);
        __m512i sat = _mm512_xor_si512(_mm512_srai_epi32(x, 31), _mm512_set1_epi32(INT32_MAX));
        x = _mm512_mask_mov_epi32(sh, lost, sat);
    }
    __m512i even = _mm512_add_epi64(_mm512_mul_epi32(x, mult), half);
    __m512i odd = _mm512_add_epi64(
        _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(mult, 32)), half);
    __m512i high = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 31),
                                           _mm512_slli_epi64(odd, 1));
    __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
    __m512i rem = _mm512_and_si512(high, mask);
    __m512i thr = _mm512_srai_epi32(mask, 1);
    thr = _mm512_mask_add_epi32(thr, _mm512_cmplt_epi32_mask(high, zero), thr, one);
    __m512i q = _mm512_srav_epi32(high, right);
    return _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(rem, thr), q, one);
}
#endif

#if defined(__AVX2__)
static inline __m256i nn_requant_avx2(__m256i x, __m256i mult, __m256i left, __m256i right,
                                      bool any_left)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i half = _mm256_set1_epi64x((int64_t)1 << 30);
    if (any_left) {
        __m256i sh = _mm256_sllv_epi32(x, left);
        __m256i kept = _mm256_cmpeq_epi32(_mm256_srav_epi32(sh, left), x);
        __m256i sat = _mm256_xor_si256(_mm256_srai_epi32(x, 31), _mm256_set1_epi32(INT32_MAX));
        x = _mm256_blendv_epi8(sat, sh, kept);
    }
    __m256i even = _mm256_add_epi64(_mm256_mul_epi32(x, mult), half);
    __m256i odd = _mm256_add_epi64(
        _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(mult, 32)), half);
    __m256i high = _mm256_blend_epi32(_mm256_srli_epi64(even, 31), _mm256_slli_epi64(odd, 1), 0xAA);
    __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, right), one);
    __m256i rem = _mm256_and_si256(high, mask);
    /* cmpgt gives -1 for true: subtracting it adds one. */
    __m256i thr = _mm256_sub_epi32(_mm256_srai_epi32(mask, 1), _mm256_cmpgt_epi32(zero, high));
    __m256i q = _mm256_srav_epi32(high, right);
    return _mm256_sub_epi32(q, _mm256_cmpgt_epi32(rem, thr));
}

/* 16 clamped int32 lanes (already within the 8-bit range) to 16 bytes. */
static inline __m128i nn_pack16_avx2(__m256i lo, __m256i hi, bool out_signed)
{
    __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xd8);
    __m128i a = _mm256_castsi256_si128(w), b = _mm256_extracti128_si256(w, 1);
    return out_signed ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b);
}
#endif

#endif
