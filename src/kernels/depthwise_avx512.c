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

void nn_dw_pixel_q8_avx512(size_t taps, const uint8_t *const *inp, const int32_t *const *fp, size_t ch,
                           const nn_dw_q8_pixel *q, void *out)
{
    const __m512i zin = _mm512_set1_epi32(q->in_zero);
    for (size_t c = 0; c < ch; c += 16) {
        size_t n = ch - c < 16 ? ch - c : 16;
        __mmask16 k = (__mmask16)((1u << n) - 1u);
        __m512i a = _mm512_setzero_si512();
        for (size_t t = 0; t < taps; t++) {
            __m128i raw = _mm_maskz_loadu_epi8(k, inp[t] + c);
            __m512i x = q->in_signed ? _mm512_cvtepi8_epi32(raw) : _mm512_cvtepu8_epi32(raw);
            x = _mm512_sub_epi32(x, zin);
            a = _mm512_add_epi32(a, _mm512_mullo_epi32(x, _mm512_maskz_loadu_epi32(k, fp[t] + c)));
        }
        int32_t acc[16];
        _mm512_storeu_si512(acc, a);
        nn_qgemm_requant_avx512(n, acc, 0, q->bias + c, q->mult + c, q->rshift + c, q->out_zero,
                                q->lo, q->hi, q->out_signed, (int8_t *)out + c);
    }
}
