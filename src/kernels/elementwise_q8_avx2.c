/*
 * Quant8 ADD, SUB and MUL rows on AVX2, 8 elements per step, equal bit for
 * bit to the portable rows (kernels/elementwise.c): the same three (ADD,
 * SUB) or one (MUL) requantizations of TFLite, on the lanes of
 * kernels/quant_x86.h.
 */
#include <immintrin.h>
#include <string.h>

#include "kernels/elementwise.h"
#include "kernels/quant_x86.h"

typedef struct q8_lanes {
    nn_rq_avx2 a, b, o;
    __m256i za, zb, zo, lo, hi;
} q8_lanes;

static inline __attribute__((always_inline)) nn_rq_avx2 lanes_of(int32_t mult, int shift)
{
    return nn_rq_avx2_init(_mm256_set1_epi32(mult), _mm256_set1_epi32(shift), NN_ROUND_AWAY);
}

static inline __attribute__((always_inline)) __m256i splat(int32_t x)
{
    return _mm256_set1_epi32(x);
}

/* m (<= 8) bytes from p + i as int32 lanes. */
static inline __attribute__((always_inline)) __m256i widen(const void *p, size_t i, size_t m,
                                                           bool sgn)
{
    __m128i b;
    if (m == 8) {
        b = _mm_loadl_epi64((const __m128i *)(const void *)((const uint8_t *)p + i));
    } else {
        uint8_t buf[8] = {0};
        memcpy(buf, (const uint8_t *)p + i, m);
        b = _mm_loadl_epi64((const __m128i *)(const void *)buf);
    }
    return sgn ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
}

static inline __attribute__((always_inline)) __m256i term(const nn_rq_avx2 *rq, __m256i x,
                                                          __m256i zero)
{
    return nn_rq_avx2_apply(rq, _mm256_slli_epi32(_mm256_sub_epi32(x, zero), NN_EW_QADD_LEFT_SHIFT));
}

static inline __attribute__((always_inline)) void row(const nn_ew_arith OP, const bool SGN,
                                                      const bool SA, const bool SB,
                                                      const q8_lanes *L, const void *a,
                                                      const void *b, uint8_t *o, size_t n)
{
    const bool add = OP != NN_EW_MUL;
    int32_t va = SGN ? (int32_t)*(const int8_t *)a : (int32_t)*(const uint8_t *)a;
    int32_t vb = SGN ? (int32_t)*(const int8_t *)b : (int32_t)*(const uint8_t *)b;
    /* A broadcast operand's lanes are the same every step. */
    __m256i ca = _mm256_sub_epi32(_mm256_set1_epi32(va), L->za);
    __m256i cb = _mm256_sub_epi32(_mm256_set1_epi32(vb), L->zb);
    if (add) {
        ca = nn_rq_avx2_apply(&L->a, _mm256_slli_epi32(ca, NN_EW_QADD_LEFT_SHIFT));
        cb = nn_rq_avx2_apply(&L->b, _mm256_slli_epi32(cb, NN_EW_QADD_LEFT_SHIFT));
    }
    for (size_t i = 0; i < n; i += 8) {
        const size_t m = n - i < 8 ? n - i : 8;
        __m256i s;
        if (add) {
            __m256i ta = SA ? term(&L->a, widen(a, i, m, SGN), L->za) : ca;
            __m256i tb = SB ? term(&L->b, widen(b, i, m, SGN), L->zb) : cb;
            s = OP == NN_EW_ADD ? _mm256_add_epi32(ta, tb) : _mm256_sub_epi32(ta, tb);
        } else {
            __m256i x = SA ? _mm256_sub_epi32(widen(a, i, m, SGN), L->za) : ca;
            __m256i y = SB ? _mm256_sub_epi32(widen(b, i, m, SGN), L->zb) : cb;
            s = _mm256_mullo_epi32(x, y);
        }
        __m256i r = nn_rq_avx2_output(&L->o, s, L->zo, L->lo, L->hi);
        /* Clamped into the type's range: the saturating packs keep the values. */
        __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
        w = SGN ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
        if (m == 8) {
            _mm_storel_epi64((__m128i *)(void *)(o + i), w);
        } else {
            uint8_t buf[16];
            _mm_storeu_si128((__m128i *)(void *)buf, w);
            memcpy(o + i, buf, m);
        }
    }
}

#define Q8_ROW_TABLE nn_ew_q8_row_avx2
#include "kernels/elementwise_q8_rows.h"
