/* AVX-512 depthwise convolution of one output pixel (multiplier 1): the
 * caller lists the filter taps that fall inside the input. */
#include <immintrin.h>

#include "kernels/depthwise_internal.h"
#include "kernels/gemm_internal.h"

void nn_dw_pixel_f32_avx512(size_t taps, const float *const *inp, const float *const *fp, size_t ch,
                            const float *bias, float lo, float hi, float *out)
{
    const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
    size_t c = 0;
    for (; c + 64 <= ch; c += 64) {
        __m512 a0 = _mm512_loadu_ps(bias + c), a1 = _mm512_loadu_ps(bias + c + 16);
        __m512 a2 = _mm512_loadu_ps(bias + c + 32), a3 = _mm512_loadu_ps(bias + c + 48);
        for (size_t t = 0; t < taps; t++) {
            const float *ip = inp[t] + c, *f = fp[t] + c;
            a0 = _mm512_fmadd_ps(_mm512_loadu_ps(ip), _mm512_loadu_ps(f), a0);
            a1 = _mm512_fmadd_ps(_mm512_loadu_ps(ip + 16), _mm512_loadu_ps(f + 16), a1);
            a2 = _mm512_fmadd_ps(_mm512_loadu_ps(ip + 32), _mm512_loadu_ps(f + 32), a2);
            a3 = _mm512_fmadd_ps(_mm512_loadu_ps(ip + 48), _mm512_loadu_ps(f + 48), a3);
        }
        _mm512_storeu_ps(out + c, _mm512_min_ps(vhi, _mm512_max_ps(vlo, a0)));
        _mm512_storeu_ps(out + c + 16, _mm512_min_ps(vhi, _mm512_max_ps(vlo, a1)));
        _mm512_storeu_ps(out + c + 32, _mm512_min_ps(vhi, _mm512_max_ps(vlo, a2)));
        _mm512_storeu_ps(out + c + 48, _mm512_min_ps(vhi, _mm512_max_ps(vlo, a3)));
    }
    for (; c < ch; c += 16) {
        __mmask16 k = ch - c >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (ch - c)) - 1u);
        __m512 a = _mm512_maskz_loadu_ps(k, bias + c);
        for (size_t t = 0; t < taps; t++)
            a = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(k, inp[t] + c), _mm512_maskz_loadu_ps(k, fp[t] + c), a);
        _mm512_mask_storeu_ps(out + c, k, _mm512_min_ps(vhi, _mm512_max_ps(vlo, a)));
    }
}

void nn_dw_pixel_q8_avx512(size_t taps, const uint8_t *const *inp, const float *const *fp, size_t ch,
                           const nn_dw_q8_pixel *q, void *out)
{
    /* Products of 9-bit operands summed over at most 256 taps stay below
     * 2^24, so float accumulation is exact. */
    const __m512i zin = _mm512_set1_epi32(q->in_zero);
    for (size_t c = 0; c < ch; c += 16) {
        size_t n = ch - c < 16 ? ch - c : 16;
        __mmask16 k = (__mmask16)((1u << n) - 1u);
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
        size_t t = 0;
        for (; t + 2 <= taps; t += 2) {
            __m128i r0 = _mm_maskz_loadu_epi8(k, inp[t] + c), r1 = _mm_maskz_loadu_epi8(k, inp[t + 1] + c);
            __m512i x0 = q->in_signed ? _mm512_cvtepi8_epi32(r0) : _mm512_cvtepu8_epi32(r0);
            __m512i x1 = q->in_signed ? _mm512_cvtepi8_epi32(r1) : _mm512_cvtepu8_epi32(r1);
            a0 = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(x0, zin)),
                                 _mm512_maskz_loadu_ps(k, fp[t] + c), a0);
            a1 = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(x1, zin)),
                                 _mm512_maskz_loadu_ps(k, fp[t + 1] + c), a1);
        }
        if (t < taps) {
            __m128i r0 = _mm_maskz_loadu_epi8(k, inp[t] + c);
            __m512i x0 = q->in_signed ? _mm512_cvtepi8_epi32(r0) : _mm512_cvtepu8_epi32(r0);
            a0 = _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32(x0, zin)),
                                 _mm512_maskz_loadu_ps(k, fp[t] + c), a0);
        }
        int32_t acc[16];
        _mm512_storeu_si512(acc, _mm512_cvtps_epi32(_mm512_add_ps(a0, a1)));
        nn_qgemm_requant_avx512(n, acc, 0, q->bias + c, q->mult + c, q->rshift + c, q->out_zero,
                                q->lo, q->hi, q->out_signed, (int8_t *)out + c);
    }
}

/* A whole output row (multiplier 1), 16 channels at a time with the filter
 * taps of those channels held in registers across the row. */
void nn_dw_row_f32_avx512(const nn_dw_geom *g, size_t n, size_t oy, const float *in,
                          const float *filter, const float *bias, float lo, float hi, float *out)
{
    const size_t ch = g->out_c, fh = g->f_h, fw = g->f_w;
    const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
    int64_t ys[NN_DW_ROW_MAX_TAPS];
    for (size_t i = 0; i < fh; i++)
        ys[i] = (int64_t)oy * g->stride_h + (int64_t)i * g->dil_h - g->pad_t;
    for (size_t c = 0; c < ch; c += 16) {
        __mmask16 k = ch - c >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (ch - c)) - 1u);
        __m512 fr[NN_DW_ROW_MAX_TAPS];
        for (size_t t = 0; t < fh * fw; t++)
            fr[t] = _mm512_maskz_loadu_ps(k, filter + t * ch + c);
        const __m512 b = _mm512_maskz_loadu_ps(k, bias + c);
        for (size_t ox = 0; ox < g->out_w; ox++) {
            __m512 a0 = b, a1 = _mm512_setzero_ps();
            int64_t x0 = (int64_t)ox * g->stride_w - g->pad_l;
            for (size_t i = 0; i < fh; i++) {
                if (ys[i] < 0 || ys[i] >= g->in_h)
                    continue;
                const float *row = in + ((n * g->in_h + (size_t)ys[i]) * g->in_w) * g->in_c + c;
                for (size_t j = 0; j < fw; j++) {
                    int64_t x = x0 + (int64_t)j * g->dil_w;
                    if (x < 0 || x >= g->in_w)
                        continue;
                    __m512 v = _mm512_maskz_loadu_ps(k, row + (size_t)x * g->in_c);
                    if (j & 1)
                        a1 = _mm512_fmadd_ps(v, fr[i * fw + j], a1);
                    else
                        a0 = _mm512_fmadd_ps(v, fr[i * fw + j], a0);
                }
            }
            __m512 r = _mm512_min_ps(vhi, _mm512_max_ps(vlo, _mm512_add_ps(a0, a1)));
            _mm512_mask_storeu_ps(out + ((n * g->out_h + oy) * g->out_w + ox) * ch + c, k, r);
        }
    }
}

void nn_dw_row_q8_avx512(const nn_dw_geom *g, size_t n, size_t oy, const uint8_t *in,
                         const float *filter, const nn_dw_q8_pixel *q, void *out)
{
    const size_t ch = g->out_c, fh = g->f_h, fw = g->f_w;
    const __m512i zin = _mm512_set1_epi32(q->in_zero);
    int64_t ys[NN_DW_ROW_MAX_TAPS];
    for (size_t i = 0; i < fh; i++)
        ys[i] = (int64_t)oy * g->stride_h + (int64_t)i * g->dil_h - g->pad_t;
    for (size_t c = 0; c < ch; c += 16) {
        size_t nc = ch - c < 16 ? ch - c : 16;
        __mmask16 k = (__mmask16)((1u << nc) - 1u);
        __m512 fr[NN_DW_ROW_MAX_TAPS];
        for (size_t t = 0; t < fh * fw; t++)
            fr[t] = _mm512_maskz_loadu_ps(k, filter + t * ch + c);
        for (size_t ox = 0; ox < g->out_w; ox++) {
            /* Exact: integer products below 2^16, at most 32 of them. */
            __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
            int64_t x0 = (int64_t)ox * g->stride_w - g->pad_l;
            for (size_t i = 0; i < fh; i++) {
                if (ys[i] < 0 || ys[i] >= g->in_h)
                    continue;
                const uint8_t *row = in + ((n * g->in_h + (size_t)ys[i]) * g->in_w) * g->in_c + c;
                for (size_t j = 0; j < fw; j++) {
                    int64_t x = x0 + (int64_t)j * g->dil_w;
                    if (x < 0 || x >= g->in_w)
                        continue;
                    __m128i raw = _mm_maskz_loadu_epi8(k, row + (size_t)x * g->in_c);
                    __m512i xi = q->in_signed ? _mm512_cvtepi8_epi32(raw) : _mm512_cvtepu8_epi32(raw);
                    __m512 v = _mm512_cvtepi32_ps(_mm512_sub_epi32(xi, zin));
                    if (j & 1)
                        a1 = _mm512_fmadd_ps(v, fr[i * fw + j], a1);
                    else
                        a0 = _mm512_fmadd_ps(v, fr[i * fw + j], a0);
                }
            }
            int32_t acc[16];
            _mm512_storeu_si512(acc, _mm512_cvtps_epi32(_mm512_add_ps(a0, a1)));
            size_t o = ((n * g->out_h + oy) * g->out_w + ox) * ch + c;
            nn_qgemm_requant_avx512(nc, acc, 0, q->bias + c, q->mult + c, q->rshift + c, q->out_zero,
                                    q->lo, q->hi, q->out_signed, (int8_t *)out + o);
        }
    }
}
