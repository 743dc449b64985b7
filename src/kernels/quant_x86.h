/*
 * nn_requantize (kernels/quant.h) on x86 vector lanes, bit for bit: 8 lanes with
 * AVX2, 16 with AVX-512. For kernels compiled with those instruction sets
 * (the *_avx2.c / *_avx512.c files) to fuse into their output stages; each
 * lane takes its own multiplier in [0, 2^31) and shift in [-31, 31].
 *
 * Both use the same two observations:
 *  - the rounded high half floor((x * m + 2^30) / 2^31) is bits 31..62 of
 *    the 64-bit sum, so a logical shift gives it (no 64-bit arithmetic shift
 *    is needed, which AVX2 lacks);
 *  - ties up: x / 2^e + bit (e - 1) of x; ties away from zero: the
 *    remainder against half the divisor, plus one for negative x.
 */
#ifndef NN_KERNELS_QUANT_X86_H
#define NN_KERNELS_QUANT_X86_H

#include <immintrin.h>

#include "kernels/quant.h"

#if defined(__AVX2__)
static inline __m256i nn_requant_epi32_avx2(__m256i x, __m256i mult, __m256i shift,
                                            nn_rounding rounding)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i half = _mm256_set1_epi64x((int64_t)1 << 30);
    __m256i left = _mm256_max_epi32(shift, zero);
    __m256i right = _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero);
    x = _mm256_sllv_epi32(x, left);
    __m256i even = _mm256_add_epi64(_mm256_mul_epi32(x, mult), half);
    __m256i odd = _mm256_add_epi64(
        _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(mult, 32)), half);
    /* Even lanes: the low half of sum >> 31; odd lanes: the high half of
     * sum << 1. */
    __m256i high = _mm256_blend_epi32(_mm256_srli_epi64(even, 31), _mm256_slli_epi64(odd, 1), 0xAA);
    __m256i q = _mm256_srav_epi32(high, right);
    if (rounding == NN_ROUND_UP) {
        __m256i below = _mm256_srav_epi32(high, _mm256_sub_epi32(right, one));
        __m256i bit = _mm256_and_si256(_mm256_and_si256(below, one), _mm256_cmpgt_epi32(right, zero));
        return _mm256_add_epi32(q, bit);
    }
    __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, right), one);
    __m256i rem = _mm256_and_si256(high, mask);
    __m256i thr = _mm256_sub_epi32(_mm256_srai_epi32(mask, 1), _mm256_cmpgt_epi32(zero, high));
    return _mm256_sub_epi32(q, _mm256_cmpgt_epi32(rem, thr));
}

/* clamp(zero + requant(acc), lo, hi) per lane. */
static inline __m256i nn_requant_output_avx2(__m256i acc, __m256i mult, __m256i shift,
                                             nn_rounding rounding, int32_t zero, int32_t lo,
                                             int32_t hi)
{
    __m256i v = _mm256_add_epi32(nn_requant_epi32_avx2(acc, mult, shift, rounding),
                                 _mm256_set1_epi32(zero));
    return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(lo)), _mm256_set1_epi32(hi));
}
#endif

#if defined(__AVX512F__)
static inline __m512i nn_requant_epi32_avx512(__m512i x, __m512i mult, __m512i shift,
                                              nn_rounding rounding)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    const __m512i half = _mm512_set1_epi64((int64_t)1 << 30);
    __m512i left = _mm512_max_epi32(shift, zero);
    __m512i right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
    x = _mm512_sllv_epi32(x, left);
    __m512i even = _mm512_add_epi64(_mm512_mul_epi32(x, mult), half);
    __m512i odd = _mm512_add_epi64(
        _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(mult, 32)), half);
    __m512i high = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 31),
                                           _mm512_slli_epi64(odd, 1));
    __m512i q = _mm512_srav_epi32(high, right);
    if (rounding == NN_ROUND_UP) {
        __mmask16 shifted = _mm512_cmpgt_epi32_mask(right, zero);
        __m512i below = _mm512_srav_epi32(high, _mm512_sub_epi32(right, one));
        return _mm512_mask_add_epi32(q, shifted, q, _mm512_and_si512(below, one));
    }
    __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
    __m512i rem = _mm512_and_si512(high, mask);
    __m512i thr = _mm512_mask_add_epi32(_mm512_srai_epi32(mask, 1),
                                        _mm512_cmplt_epi32_mask(high, zero),
                                        _mm512_srai_epi32(mask, 1), one);
    return _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(rem, thr), q, one);
}

static inline __m512i nn_requant_output_avx512(__m512i acc, __m512i mult, __m512i shift,
                                               nn_rounding rounding, int32_t zero, int32_t lo,
                                               int32_t hi)
{
    __m512i v = _mm512_add_epi32(nn_requant_epi32_avx512(acc, mult, shift, rounding),
                                 _mm512_set1_epi32(zero));
    return _mm512_min_epi32(_mm512_max_epi32(v, _mm512_set1_epi32(lo)), _mm512_set1_epi32(hi));
}
#endif

#endif
