/* nn_requant_row on AVX-512 lanes (kernels/quant_x86.h). */
#include "kernels/quant_x86.h"

void nn_requant_row_avx512(size_t n, const int32_t *acc, const int32_t *mult,
                           const int32_t *shift, nn_rounding rounding, int32_t zero, int32_t lo,
                           int32_t hi, bool out_signed, void *out)
{
    const __m512i vzero = _mm512_set1_epi32(zero), vlo = _mm512_set1_epi32(lo);
    const __m512i vhi = _mm512_set1_epi32(hi);
    uint8_t *dst = out;
    for (size_t j = 0; j < n; j += 16) {
        __mmask16 k = n - j >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - j)) - 1u);
        nn_rq_avx512 p = nn_rq_avx512_init(_mm512_maskz_loadu_epi32(k, mult + j),
                                           _mm512_maskz_loadu_epi32(k, shift + j), rounding);
        __m512i v = nn_rq_avx512_output(&p, _mm512_maskz_loadu_epi32(k, acc + j), vzero, vlo, vhi);
        if (out_signed)
            _mm512_mask_cvtsepi32_storeu_epi8(dst + j, k, v);
        else
            _mm512_mask_cvtusepi32_storeu_epi8(dst + j, k, v);
    }
}
