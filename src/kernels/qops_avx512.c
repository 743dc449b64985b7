/* AVX-512 quantized lookup and pooling kernels (qops.h), 64 bytes at a time. */
#include <immintrin.h>

#include "kernels/qops.h"

/* 256 entries in four registers: two vpermi2b (VBMI, which AVX-512 CPUs
 * with VNNI mostly have) look up each half by the low 7 bits, bit 7
 * chooses between them. */
__attribute__((target("avx512vbmi"))) static void lookup_vbmi(const uint8_t table[256],
                                                              const uint8_t *in, uint8_t *out,
                                                              size_t n)
{
    const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
    const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
    for (size_t i = 0; i < n; i += 64) {
        __mmask64 k = n - i >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (n - i)) - 1);
        __m512i x = _mm512_maskz_loadu_epi8(k, in + i);
        __m512i lo = _mm512_permutex2var_epi8(t0, x, t1);
        __m512i hi = _mm512_permutex2var_epi8(t2, x, t3);
        _mm512_mask_storeu_epi8(out + i, k, _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi));
    }
}

void nn_q8_lookup_avx512(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n)
{
    if (__builtin_cpu_supports("avx512vbmi"))
        lookup_vbmi(table, in, out, n);
    else
        nn_q8_lookup_avx2(table, in, out, n);
}

static inline __mmask64 lanes64(size_t n)
{
    return n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1);
}

void nn_q8_pool_max_avx512(const nn_q8_window *w, uint8_t *out)
{
    const bool sgn = w->is_signed;
    const bool empty = w->rows == 0 || w->cols == 0;
    /* Bytes compare in their own order: signed for int8, unsigned for uint8. */
    const __m512i lo = _mm512_set1_epi8((char)w->lo), hi = _mm512_set1_epi8((char)w->hi);
    for (size_t c = 0; c < w->nc; c += 64) {
        const __mmask64 k = lanes64(w->nc - c);
        __m512i m = _mm512_setzero_si512();
        for (size_t y = 0; y < w->rows; y++)
            for (size_t x = 0; x < w->cols; x++) {
                __m512i v = _mm512_maskz_loadu_epi8(k, w->in + y * w->row_step + x * w->col_step + c);
                m = (y | x) == 0 ? v : (sgn ? _mm512_max_epi8(m, v) : _mm512_max_epu8(m, v));
            }
        if (empty)
            m = _mm512_setzero_si512();
        m = sgn ? _mm512_min_epi8(_mm512_max_epi8(m, lo), hi)
                : _mm512_min_epu8(_mm512_max_epu8(m, lo), hi);
        _mm512_mask_storeu_epi8(out + c, k, m);
    }
}

void nn_q8_pool_avg_avx512(const nn_q8_window *w, uint8_t *out)
{
    const bool sgn = w->is_signed;
    const int32_t count = (int32_t)(w->rows * w->cols);
    const __m512i half = _mm512_set1_epi32(count / 2);
    const __m512 cnt = _mm512_set1_ps((float)(count ? count : 1));
    const __m512i lo = _mm512_set1_epi32(w->lo), hi = _mm512_set1_epi32(w->hi);
    const __m512i zero = _mm512_setzero_si512();
    for (size_t c = 0; c < w->nc; c += 64) {
        const __mmask64 k = lanes64(w->nc - c);
        __m512i s[4] = {zero, zero, zero, zero};
        for (size_t y = 0; y < w->rows; y++)
            for (size_t x = 0; x < w->cols; x++) {
                __m512i v = _mm512_maskz_loadu_epi8(k, w->in + y * w->row_step + x * w->col_step + c);
                __m128i q[4] = {_mm512_castsi512_si128(v), _mm512_extracti32x4_epi32(v, 1),
                                _mm512_extracti32x4_epi32(v, 2), _mm512_extracti32x4_epi32(v, 3)};
#pragma GCC unroll 4
                for (int j = 0; j < 4; j++)
                    s[j] = _mm512_add_epi32(s[j], sgn ? _mm512_cvtepi8_epi32(q[j]) : _mm512_cvtepu8_epi32(q[j]));
            }
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) {
            __m512i q = zero;
            if (count) {
                /* round-half-away(sum / count) by a float division that is
                 * exact here (qops.h), the sign put back after. */
                __m512i mag = _mm512_add_epi32(_mm512_abs_epi32(s[j]), half);
                q = _mm512_cvttps_epi32(_mm512_div_ps(_mm512_cvtepi32_ps(mag), cnt));
                q = _mm512_mask_sub_epi32(q, _mm512_cmplt_epi32_mask(s[j], zero), zero, q);
            }
            q = _mm512_min_epi32(_mm512_max_epi32(q, lo), hi);
            _mm_mask_storeu_epi8(out + c + 16 * (size_t)j, (__mmask16)(k >> (16 * j)),
                                 _mm512_cvtepi32_epi8(q));
        }
    }
}

static inline __attribute__((always_inline)) __m512 values16(const uint8_t *p, __mmask16 k,
                                                             bool sgn)
{
    __m128i b = _mm_maskz_loadu_epi8(k, p);
    return _mm512_cvtepi32_ps(sgn ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b));
}

/* 16 channels at a time; separate multiplies and adds in the portable
 * loop's order (the file is built without contraction). */
void nn_q8_resize_bilinear_avx512(const nn_q8_bilinear *b, uint8_t *out)
{
    const bool sgn = b->is_signed;
    const __m512 w00 = _mm512_set1_ps(b->w00), w01 = _mm512_set1_ps(b->w01);
    const __m512 w10 = _mm512_set1_ps(b->w10), w11 = _mm512_set1_ps(b->w11);
    const __m512 lo = _mm512_set1_ps(sgn ? -128.0f : 0.0f), hi = _mm512_set1_ps(sgn ? 127.0f : 255.0f);
    for (size_t c = 0; c < b->nc; c += 16) {
        const __mmask16 k = b->nc - c >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (b->nc - c)) - 1u);
        __m512 v = _mm512_add_ps(_mm512_mul_ps(values16(b->p00 + c, k, sgn), w00),
                                 _mm512_mul_ps(values16(b->p10 + c, k, sgn), w10));
        v = _mm512_add_ps(v, _mm512_mul_ps(values16(b->p01 + c, k, sgn), w01));
        v = _mm512_add_ps(v, _mm512_mul_ps(values16(b->p11 + c, k, sgn), w11));
        v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
        _mm_mask_storeu_epi8(out + c, k, _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(v)));
    }
}

void nn_q8_accumulate_avx512(const uint8_t *in, bool is_signed, int32_t *acc, size_t n)
{
    for (size_t i = 0; i < n; i += 16) {
        const __mmask16 k = n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1u);
        __m128i b = _mm_maskz_loadu_epi8(k, in + i);
        __m512i v = is_signed ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
        _mm512_mask_storeu_epi32(acc + i, k, _mm512_add_epi32(_mm512_maskz_loadu_epi32(k, acc + i), v));
    }
}

/* Sums of absolute differences from zero add the bytes in 64-bit lanes;
 * int8 bytes are first made uint8 (x ^ 0x80 = x + 128). */
int64_t nn_q8_sum_avx512(const uint8_t *in, bool is_signed, size_t n)
{
    const __m512i flip = _mm512_set1_epi8(is_signed ? (char)0x80 : 0);
    __m512i s = _mm512_setzero_si512();
    for (size_t i = 0; i < n; i += 64) {
        const __mmask64 k = lanes64(n - i);
        /* Only the loaded bytes are flipped: the masked-off ones stay 0. */
        __m512i b = _mm512_maskz_mov_epi8(k, _mm512_xor_si512(_mm512_maskz_loadu_epi8(k, in + i), flip));
        s = _mm512_add_epi64(s, _mm512_sad_epu8(b, _mm512_setzero_si512()));
    }
    return _mm512_reduce_add_epi64(s) - (is_signed ? 128 * (int64_t)n : 0);
}

int32_t nn_q8_max_avx512(const uint8_t *in, bool is_signed, size_t n)
{
    /* int8 bytes made uint8 (x ^ 0x80 = x + 128) keep their order; the
     * masked-off bytes load as 0, the smallest. */
    const __m512i flip = _mm512_set1_epi8(is_signed ? (char)0x80 : 0);
    __m512i m = _mm512_setzero_si512();
    for (size_t i = 0; i < n; i += 64) {
        const __mmask64 k = lanes64(n - i);
        m = _mm512_max_epu8(m, _mm512_maskz_mov_epi8(k, _mm512_xor_si512(_mm512_maskz_loadu_epi8(k, in + i), flip)));
    }
    uint8_t b[64];
    _mm512_storeu_si512(b, m);
    int32_t best = 0;
    for (int i = 0; i < 64; i++)
        best = b[i] > best ? b[i] : best;
    return is_signed ? best - 128 : best;
}

/* round(p) for p >= 0 (ties away from zero, as roundf): the truncation plus
 * one where the fraction, exact in float32, is at least one half. */
static inline __m512i round_away_nonneg(__m512 p)
{
    __m512 t = _mm512_roundscale_ps(p, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __mmask16 up = _mm512_cmp_ps_mask(_mm512_sub_ps(p, t), _mm512_set1_ps(0.5f), _CMP_GE_OQ);
    __m512i q = _mm512_cvttps_epi32(t);
    return _mm512_mask_add_epi32(q, up, q, _mm512_set1_epi32(1));
}

void nn_q8_softmax_out_avx512(const float *e, float inv, const uint8_t *in, bool is_signed,
                              int32_t out_zero, uint8_t *out, size_t n)
{
    const __m512 vinv = _mm512_set1_ps(inv), most = _mm512_set1_ps(512.0f);
    const __m512 half = _mm512_set1_ps(0.5f);
    const __m512i zero = _mm512_set1_epi32(out_zero);
    for (size_t i = 0; i < n; i += 16) {
        const __mmask16 k = n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1u);
        __m128i raw = _mm_maskz_loadu_epi8(k, in + i);
        __m512i x = is_signed ? _mm512_cvtepi8_epi32(raw) : _mm512_cvtepu8_epi32(raw);
        __m512 p = _mm512_mul_ps(_mm512_mask_i32gather_ps(_mm512_setzero_ps(), k, x, e, 4), vinv);
        p = _mm512_min_ps(p, most);
        /* The saturating narrowings are the clamps to the type's range
         * (p >= 0, so the uint8 values are never negative). */
        if (is_signed)
            _mm_mask_storeu_epi8(out + i, k, _mm512_cvtsepi32_epi8(_mm512_add_epi32(round_away_nonneg(p), zero)));
        else
            _mm_mask_storeu_epi8(out + i, k, _mm512_cvtusepi32_epi8(_mm512_cvttps_epi32(_mm512_add_ps(p, half))));
    }
}
