/*
 * Quant8 ADD, SUB and MUL rows on AVX-512, 16 elements per step, equal bit
 * for bit to the portable rows (kernels/elementwise.c): the same three (ADD,
 * SUB) or one (MUL) requantizations of TFLite, on the lanes of
 * kernels/quant_x86.h.
 */
#include <immintrin.h>

#include "kernels/elementwise.h"
#include "kernels/quant_x86.h"

typedef struct q8_lanes {
    nn_rq_avx512 a, b, o;
    __m512i za, zb, zo, lo, hi;
} q8_lanes;

static inline __attribute__((always_inline)) nn_rq_avx512 lanes_of(int32_t mult, int shift)
{
    return nn_rq_avx512_init(_mm512_set1_epi32(mult), _mm512_set1_epi32(shift), NN_ROUND_AWAY);
}

static inline __attribute__((always_inline)) __m512i splat(int32_t x)
{
    return _mm512_set1_epi32(x);
}

static inline __attribute__((always_inline)) __m512i widen(const void *p, size_t i, __mmask16 k,
                                                           bool sgn)
{
    __m128i b = _mm_maskz_loadu_epi8(k, (const uint8_t *)p + i);
    return sgn ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
}

/* An ADD/SUB input's term: requant((x - zero) * 2^20). */
static inline __attribute__((always_inline)) __m512i term(const nn_rq_avx512 *rq, __m512i x,
                                                          __m512i zero)
{
    return nn_rq_avx512_apply(rq, _mm512_slli_epi32(_mm512_sub_epi32(x, zero), NN_EW_QADD_LEFT_SHIFT));
}

/* OP: ADD, SUB or MUL; SA, SB: whether a and b advance (else broadcast). */
static inline __attribute__((always_inline)) void row(const nn_ew_arith OP, const bool SGN,
                                                      const bool SA, const bool SB,
                                                      const q8_lanes *L, const void *a,
                                                      const void *b, uint8_t *o, size_t n)
{
    const bool add = OP != NN_EW_MUL;
    int32_t va = SGN ? (int32_t)*(const int8_t *)a : (int32_t)*(const uint8_t *)a;
    int32_t vb = SGN ? (int32_t)*(const int8_t *)b : (int32_t)*(const uint8_t *)b;
    /* A broadcast operand's lanes are the same every step. */
    __m512i ca = _mm512_sub_epi32(_mm512_set1_epi32(va), L->za);
    __m512i cb = _mm512_sub_epi32(_mm512_set1_epi32(vb), L->zb);
    if (add) {
        ca = nn_rq_avx512_apply(&L->a, _mm512_slli_epi32(ca, NN_EW_QADD_LEFT_SHIFT));
        cb = nn_rq_avx512_apply(&L->b, _mm512_slli_epi32(cb, NN_EW_QADD_LEFT_SHIFT));
    }
    for (size_t i = 0; i < n; i += 16) {
        const __mmask16 k = n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1u);
        __m512i s;
        if (add) {
            __m512i ta = SA ? term(&L->a, widen(a, i, k, SGN), L->za) : ca;
            __m512i tb = SB ? term(&L->b, widen(b, i, k, SGN), L->zb) : cb;
            s = OP == NN_EW_ADD ? _mm512_add_epi32(ta, tb) : _mm512_sub_epi32(ta, tb);
        } else {
            __m512i x = SA ? _mm512_sub_epi32(widen(a, i, k, SGN), L->za) : ca;
            __m512i y = SB ? _mm512_sub_epi32(widen(b, i, k, SGN), L->zb) : cb;
            s = _mm512_mullo_epi32(x, y);
        }
        __m512i r = nn_rq_avx512_output(&L->o, s, L->zo, L->lo, L->hi);
        _mm_mask_storeu_epi8(o + i, k, _mm512_cvtepi32_epi8(r));
    }
}

#define Q8_ROW_TABLE nn_ew_q8_row_avx512
#include "kernels/elementwise_q8_rows.h"
