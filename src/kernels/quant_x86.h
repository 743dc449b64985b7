/*
 * nn_requantize (kernels/quant.h) on x86 vector lanes, bit for bit: 8 lanes
 * with AVX2, 16 with AVX-512. The one lane implementation of the
 * requantization, for the kernels compiled with those instruction sets (the
 * *_avx2.c / *_avx512.c files) to fuse into their output stages; each lane
 * takes its own multiplier in [0, 2^31) and shift in [-31, 31].
 *
 * A kernel prepares the per-lane constants once per tile (nn_rq_avx2_init /
 * nn_rq_avx512_init) and applies them to every row, so a row costs the
 * arithmetic below and nothing that depends only on the shift:
 *  - the left shift wraps (sllv), as TFLite's int32 arithmetic does;
 *  - the rounded high half floor((x * m + 2^30) / 2^31) is bits 31..62 of
 *    the 64-bit sum, so a logical shift gives it (no 64-bit arithmetic shift
 *    is needed, which AVX2 lacks);
 *  - the right shift by e adds one when the remainder exceeds
 *    (2^e - 1) >> 1, plus one more for negative values when ties go away
 *    from zero: ties up and ties away differ only in that term.
 */
#ifndef NN_KERNELS_QUANT_X86_H
#define NN_KERNELS_QUANT_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/quant.h"

#if defined(__AVX2__)
typedef struct nn_rq_avx2 {
    __m256i mult, left, right;
    __m256i mask;     /* 2^right - 1 */
    __m256i half;     /* mask >> 1: the remainder above it rounds up */
    __m256i away;     /* all ones when ties go away from zero */
} nn_rq_avx2;

static inline __attribute__((always_inline)) nn_rq_avx2
nn_rq_avx2_init(__m256i mult, __m256i shift, nn_rounding rounding)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    nn_rq_avx2 p;
    p.mult = mult;
    p.left = _mm256_max_epi32(shift, zero);
    p.right = _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero);
    p.mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, p.right), one);
    p.half = _mm256_srai_epi32(p.mask, 1);
    p.away = _mm256_set1_epi32(rounding == NN_ROUND_AWAY ? -1 : 0);
    return p;
}

static inline __attribute__((always_inline)) __m256i nn_rq_avx2_apply(const nn_rq_avx2 *p,
                                                                      __m256i x)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i half = _mm256_set1_epi64x((int64_t)1 << 30);
    x = _mm256_sllv_epi32(x, p->left);
    __m256i even = _mm256_add_epi64(_mm256_mul_epi32(x, p->mult), half);
    __m256i odd = _mm256_add_epi64(
        _mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(p->mult, 32)), half);
    /* Even lanes: the low half of sum >> 31; odd lanes: the high half of
     * sum << 1. */
    __m256i high = _mm256_blend_epi32(_mm256_srli_epi64(even, 31), _mm256_slli_epi64(odd, 1), 0xAA);
    __m256i rem = _mm256_and_si256(high, p->mask);
    /* cmpgt gives -1 for true: subtracting it adds one. */
    __m256i thr = _mm256_sub_epi32(p->half, _mm256_and_si256(_mm256_cmpgt_epi32(zero, high), p->away));
    __m256i q = _mm256_srav_epi32(high, p->right);
    return _mm256_sub_epi32(q, _mm256_cmpgt_epi32(rem, thr));
}

/* clamp(zero + requant(acc), lo, hi) per lane, the zero point wrapping. */
static inline __attribute__((always_inline)) __m256i
nn_rq_avx2_output(const nn_rq_avx2 *p, __m256i acc, __m256i zero, __m256i lo, __m256i hi)
{
    __m256i v = _mm256_add_epi32(nn_rq_avx2_apply(p, acc), zero);
    return _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
}

/* 16 clamped int32 lanes (already within the 8-bit range) to 16 bytes. */
static inline __m128i nn_pack16_avx2(__m256i lo, __m256i hi, bool out_signed)
{
    __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xd8);
    __m128i a = _mm256_castsi256_si128(w), b = _mm256_extracti128_si256(w, 1);
    return out_signed ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b);
}
#endif

#if defined(__AVX512F__)
typedef struct nn_rq_avx512 {
    __m512i mult, left, right;
    __m512i mask;     /* 2^right - 1 */
    __m512i half;     /* mask >> 1: the remainder above it rounds up */
    __mmask16 away;   /* all lanes when ties go away from zero */
} nn_rq_avx512;

static inline __attribute__((always_inline)) nn_rq_avx512
nn_rq_avx512_init(__m512i mult, __m512i shift, nn_rounding rounding)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    nn_rq_avx512 p;
    p.mult = mult;
    p.left = _mm512_max_epi32(shift, zero);
    p.right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
    p.mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, p.right), one);
    p.half = _mm512_srai_epi32(p.mask, 1);
    p.away = rounding == NN_ROUND_AWAY ? (__mmask16)0xffff : (__mmask16)0;
    return p;
}

static inline __attribute__((always_inline)) __m512i nn_rq_avx512_apply(const nn_rq_avx512 *p,
                                                                        __m512i x)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
    const __m512i half = _mm512_set1_epi64((int64_t)1 << 30);
    x = _mm512_sllv_epi32(x, p->left);
    __m512i even = _mm512_add_epi64(_mm512_mul_epi32(x, p->mult), half);
    __m512i odd = _mm512_add_epi64(
        _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(p->mult, 32)), half);
    __m512i high = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 31),
                                           _mm512_slli_epi64(odd, 1));
    __m512i rem = _mm512_and_si512(high, p->mask);
    __mmask16 neg = (__mmask16)(_mm512_cmplt_epi32_mask(high, zero) & p->away);
    __m512i thr = _mm512_mask_add_epi32(p->half, neg, p->half, one);
    __m512i q = _mm512_srav_epi32(high, p->right);
    return _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(rem, thr), q, one);
}

static inline __attribute__((always_inline)) __m512i
nn_rq_avx512_output(const nn_rq_avx512 *p, __m512i acc, __m512i zero, __m512i lo, __m512i hi)
{
    __m512i v = _mm512_add_epi32(nn_rq_avx512_apply(p, acc), zero);
    return _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
}
#endif

#endif
