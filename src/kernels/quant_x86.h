/*
 * nn_requantize (kernels/quant.h) on x86 vector lanes, bit for bit: 8 lanes
 * with AVX2, 16 with AVX-512. The one lane implementation of the
 * requantization, for the kernels compiled with those instruction sets (the
 * *_avx2.c / *_avx512.c files) to fuse into their output stages; each lane
 * takes its own multiplier in [0, 2^31) and shift in [-31, 31].
 *
 * A kernel prepares the per-lane constants once per tile (nn_rq_avx2_init /
 * nn_rq_avx512_init) and applies them to every row. The two roundings of
 * TFLite collapse into one: with P = (x << left) * mult (64 bits, the left
 * shift wrapping in 32 bits as TFLite's int32 arithmetic does) and r the
 * right shift,
 *   floor((floor((P + 2^30) / 2^31) + 2^(r-1) - t) / 2^r)
 *     = floor((P + 2^30 + 2^(30+r) - 2^31 t) / 2^(31+r))   (r > 0)
 * because floor(floor(y) / 2^r) = floor(y / 2^r); t is 1 for ties away
 * from zero and a negative high half, else 0. The high half is negative
 * exactly when P < -2^30, and for -2^30 <= P < 0 both choices of t give 0
 * (r >= 1), so P's sign bit decides t. r = 0 is the high half alone. So a
 * lane costs one 64-bit multiply, an add and one 64-bit shift: AVX-512
 * shifts arithmetically; AVX2 has only logical 64-bit shifts, so it adds
 * 2^62 (the sum is then in [0, 2^64)), which adds 2^(31-r) to the quotient,
 * taken off again with the output zero point (fix).
 */
#ifndef NN_KERNELS_QUANT_X86_H
#define NN_KERNELS_QUANT_X86_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/quant.h"

#if defined(__AVX2__)
typedef struct nn_rq_avx2 {
    __m256i left;              /* 32-bit lanes */
    __m256i mult_even, mult_odd;
    __m256i off_even, off_odd; /* 64-bit lanes: the rounding terms plus 2^62 */
    __m256i neg_even, neg_odd; /* the same for negative products (ties away) */
    __m256i cut_even, cut_odd; /* 64-bit lanes: 31 + right */
    __m256i fix;               /* 32-bit lanes: -2^(31 - right), the bias's quotient */
    bool away;
} nn_rq_avx2;

/* The per-lane constants of the 64-bit lanes holding columns half + 2i. */
static inline __attribute__((always_inline)) void
nn_rq_avx2_terms(__m256i right64, bool away, __m256i *off, __m256i *neg, __m256i *cut)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i q30 = _mm256_set1_epi64x((int64_t)1 << 30);
    const __m256i bias = _mm256_set1_epi64x((int64_t)1 << 62);
    __m256i shifted = _mm256_cmpgt_epi64(right64, zero);
    __m256i second = _mm256_and_si256(_mm256_sllv_epi64(q30, right64), shifted);
    *off = _mm256_add_epi64(_mm256_add_epi64(q30, second), bias);
    __m256i tie = away ? _mm256_and_si256(_mm256_set1_epi64x((int64_t)1 << 31), shifted) : zero;
    *neg = _mm256_sub_epi64(*off, tie);
    *cut = _mm256_add_epi64(right64, _mm256_set1_epi64x(31));
}

static inline __attribute__((always_inline)) nn_rq_avx2
nn_rq_avx2_init(__m256i mult, __m256i shift, nn_rounding rounding)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i low = _mm256_set1_epi64x(0xffffffff);
    nn_rq_avx2 p;
    p.away = rounding == NN_ROUND_AWAY;
    p.left = _mm256_max_epi32(shift, zero);
    __m256i right = _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero);
    p.mult_even = mult;
    p.mult_odd = _mm256_srli_epi64(mult, 32);
    nn_rq_avx2_terms(_mm256_and_si256(right, low), p.away, &p.off_even, &p.neg_even, &p.cut_even);
    nn_rq_avx2_terms(_mm256_srli_epi64(right, 32), p.away, &p.off_odd, &p.neg_odd, &p.cut_odd);
    p.fix = _mm256_sub_epi32(zero, _mm256_sllv_epi32(one, _mm256_sub_epi32(_mm256_set1_epi32(31), right)));
    return p;
}

/* floor((product + offset) / 2^cut) + 2^(31 - right) in the low half of a
 * 64-bit lane: the bias makes the sum non-negative for the logical shift. */
static inline __attribute__((always_inline)) __m256i
nn_rq_avx2_lane64(__m256i x, __m256i mult, __m256i off, __m256i neg, __m256i cut, bool away)
{
    __m256i prod = _mm256_mul_epi32(x, mult);
    __m256i o = away ? _mm256_castpd_si256(_mm256_blendv_pd(
                           _mm256_castsi256_pd(off), _mm256_castsi256_pd(neg), _mm256_castsi256_pd(prod)))
                     : off;
    return _mm256_srlv_epi64(_mm256_add_epi64(prod, o), cut);
}

/* requant(x) + 2^(31 - right) per lane (wrapping): the caller adds p->fix. */
static inline __attribute__((always_inline)) __m256i nn_rq_avx2_biased(const nn_rq_avx2 *p,
                                                                       __m256i x)
{
    x = _mm256_sllv_epi32(x, p->left);
    __m256i even = nn_rq_avx2_lane64(x, p->mult_even, p->off_even, p->neg_even, p->cut_even, p->away);
    __m256i odd = nn_rq_avx2_lane64(_mm256_srli_epi64(x, 32), p->mult_odd, p->off_odd, p->neg_odd,
                                    p->cut_odd, p->away);
    return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

static inline __attribute__((always_inline)) __m256i nn_rq_avx2_apply(const nn_rq_avx2 *p,
                                                                      __m256i x)
{
    return _mm256_add_epi32(nn_rq_avx2_biased(p, x), p->fix);
}

/* clamp(zero + requant(acc), lo, hi) per lane, the zero point wrapping. */
static inline __attribute__((always_inline)) __m256i
nn_rq_avx2_output(const nn_rq_avx2 *p, __m256i acc, __m256i zero, __m256i lo, __m256i hi)
{
    __m256i v = _mm256_add_epi32(nn_rq_avx2_biased(p, acc), _mm256_add_epi32(p->fix, zero));
    return _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
}

/* The output zero point can join p->fix: nn_rq_avx2_folded is then
 * zero + requant(acc) per lane, unclamped (for kernels that narrow with
 * saturation and clamp the bytes), without the left shift when LEFT is
 * false (every lane's shift <= 0). */
static inline __attribute__((always_inline)) void nn_rq_avx2_fold(nn_rq_avx2 *p, int32_t zero)
{
    p->fix = _mm256_add_epi32(p->fix, _mm256_set1_epi32(zero));
}

static inline __attribute__((always_inline)) __m256i
nn_rq_avx2_folded(const nn_rq_avx2 *p, const bool LEFT, __m256i acc)
{
    if (LEFT)
        acc = _mm256_sllv_epi32(acc, p->left);
    __m256i even = nn_rq_avx2_lane64(acc, p->mult_even, p->off_even, p->neg_even, p->cut_even, p->away);
    __m256i odd = nn_rq_avx2_lane64(_mm256_srli_epi64(acc, 32), p->mult_odd, p->off_odd, p->neg_odd,
                                    p->cut_odd, p->away);
    return _mm256_add_epi32(_mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA), p->fix);
}

/* 16 int32 lanes to 16 bytes, saturating: the clamp to the output type. */
static inline __m128i nn_pack16_avx2(__m256i lo, __m256i hi, bool out_signed)
{
    __m256i w = _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0xd8);
    __m128i a = _mm256_castsi256_si128(w), b = _mm256_extracti128_si256(w, 1);
    return out_signed ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b);
}
#endif

#if defined(__AVX512F__)
typedef struct nn_rq_avx512 {
    __m512i left;              /* 32-bit lanes */
    __m512i mult_even, mult_odd;
    __m512i off_even, off_odd; /* 64-bit lanes: the rounding terms */
    __m512i tie_even, tie_odd; /* 64-bit lanes: added for negative products (ties away) */
    __m512i cut_even, cut_odd; /* 64-bit lanes: 31 + right */
    bool away;
} nn_rq_avx512;

static inline __attribute__((always_inline)) void
nn_rq_avx512_terms(__m512i right64, bool away, __m512i *off, __m512i *tie, __m512i *cut)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i q30 = _mm512_set1_epi64((int64_t)1 << 30);
    __mmask8 shifted = _mm512_cmpgt_epi64_mask(right64, zero);
    *off = _mm512_mask_add_epi64(q30, shifted, q30, _mm512_sllv_epi64(q30, right64));
    *tie = _mm512_maskz_mov_epi64(away ? shifted : 0, _mm512_set1_epi64(-((int64_t)1 << 31)));
    *cut = _mm512_add_epi64(right64, _mm512_set1_epi64(31));
}

static inline __attribute__((always_inline)) nn_rq_avx512
nn_rq_avx512_init(__m512i mult, __m512i shift, nn_rounding rounding)
{
    const __m512i zero = _mm512_setzero_si512();
    nn_rq_avx512 p;
    p.away = rounding == NN_ROUND_AWAY;
    p.left = _mm512_max_epi32(shift, zero);
    __m512i right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
    p.mult_even = mult;
    p.mult_odd = _mm512_srli_epi64(mult, 32);
    nn_rq_avx512_terms(_mm512_and_si512(right, _mm512_set1_epi64(0xffffffff)), p.away, &p.off_even,
                       &p.tie_even, &p.cut_even);
    nn_rq_avx512_terms(_mm512_srli_epi64(right, 32), p.away, &p.off_odd, &p.tie_odd, &p.cut_odd);
    return p;
}

static inline __attribute__((always_inline)) __m512i
nn_rq_avx512_lane64(__m512i x, __m512i mult, __m512i off, __m512i tie, __m512i cut, bool away)
{
    __m512i prod = _mm512_mul_epi32(x, mult);
    __m512i sum = _mm512_add_epi64(prod, off);
    if (away)
        sum = _mm512_mask_add_epi64(sum, _mm512_movepi64_mask(prod), sum, tie);
    return _mm512_srav_epi64(sum, cut);
}

static inline __attribute__((always_inline)) __m512i nn_rq_avx512_apply(const nn_rq_avx512 *p,
                                                                        __m512i x)
{
    x = _mm512_sllv_epi32(x, p->left);
    __m512i even = nn_rq_avx512_lane64(x, p->mult_even, p->off_even, p->tie_even, p->cut_even, p->away);
    __m512i odd = nn_rq_avx512_lane64(_mm512_srli_epi64(x, 32), p->mult_odd, p->off_odd, p->tie_odd,
                                      p->cut_odd, p->away);
    /* The odd quotients' low halves move up into the odd 32-bit lanes. */
    return _mm512_mask_shuffle_epi32(even, (__mmask16)0xAAAA, odd, _MM_PERM_CDAB);
}

static inline __attribute__((always_inline)) __m512i
nn_rq_avx512_output(const nn_rq_avx512 *p, __m512i acc, __m512i zero, __m512i lo, __m512i hi)
{
    __m512i v = _mm512_add_epi32(nn_rq_avx512_apply(p, acc), zero);
    return _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
}

/* Lanes with a right shift of at most NN_RQ_FOLD_MAX_RIGHT can take the
 * output zero point z into the rounding terms: floor(y / 2^c) + z =
 * floor((y + z * 2^c) / 2^c), and |y + z * 2^c| < 2^62 + 2^61 + 2^61 while
 * |z| <= 2^8 and c <= 53, so nothing overflows. nn_rq_avx512_output_folded
 * is then nn_rq_avx512_output without the zero point's add, and without
 * the left shift when LEFT is false (every lane's shift <= 0). */
#define NN_RQ_FOLD_MAX_RIGHT 22

static inline __attribute__((always_inline)) void nn_rq_avx512_fold(nn_rq_avx512 *p, int32_t zero)
{
    const __m512i z = _mm512_set1_epi64(zero);
    p->off_even = _mm512_add_epi64(p->off_even, _mm512_sllv_epi64(z, p->cut_even));
    p->off_odd = _mm512_add_epi64(p->off_odd, _mm512_sllv_epi64(z, p->cut_odd));
}

/* zero + requant(acc) per lane, unclamped (the kernels that narrow with
 * saturation clamp the bytes instead). */
static inline __attribute__((always_inline)) __m512i
nn_rq_avx512_folded(const nn_rq_avx512 *p, const bool LEFT, __m512i acc)
{
    if (LEFT)
        acc = _mm512_sllv_epi32(acc, p->left);
    __m512i even = nn_rq_avx512_lane64(acc, p->mult_even, p->off_even, p->tie_even, p->cut_even, p->away);
    __m512i odd = nn_rq_avx512_lane64(_mm512_srli_epi64(acc, 32), p->mult_odd, p->off_odd, p->tie_odd,
                                      p->cut_odd, p->away);
    return _mm512_mask_shuffle_epi32(even, (__mmask16)0xAAAA, odd, _MM_PERM_CDAB);
}

static inline __attribute__((always_inline)) __m512i
nn_rq_avx512_output_folded(const nn_rq_avx512 *p, const bool LEFT, __m512i acc, __m512i lo,
                           __m512i hi)
{
    __m512i v = nn_rq_avx512_folded(p, LEFT, acc);
    return _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
}

/* Four rows of 16 int32 lanes to bytes, saturating to int8 (out_signed) or
 * uint8, which is the clamp to the output type's range: 128-bit lane r of
 * the result holds row r's 16 bytes. Three operations where one
 * down-converting move per row cost two. */
static inline __attribute__((always_inline)) __m512i nn_narrow4_avx512(__m512i r0, __m512i r1,
                                                                       __m512i r2, __m512i r3,
                                                                       bool out_signed)
{
    __m512i w01 = _mm512_packs_epi32(r0, r1), w23 = _mm512_packs_epi32(r2, r3);
    /* Lane l's dwords: columns 4l..4l+3 of rows 0, 1, 2, 3. */
    __m512i b = out_signed ? _mm512_packs_epi16(w01, w23) : _mm512_packus_epi16(w01, w23);
    const __m512i rows = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_permutexvar_epi32(rows, b);
}
#endif

#endif
