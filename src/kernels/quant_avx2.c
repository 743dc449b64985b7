/* nn_requant_row on AVX2 lanes (kernels/quant_x86.h). */
#include <string.h>

#include "kernels/quant_x86.h"

void nn_requant_row_avx2(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                         nn_rounding rounding, int32_t zero, int32_t lo, int32_t hi,
                         bool out_signed, void *out)
{
    /* Dword 0 of each 128-bit half holds four bytes after the packs. */
    const __m256i gather = _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
    const __m256i vzero = _mm256_set1_epi32(zero), vlo = _mm256_set1_epi32(lo);
    const __m256i vhi = _mm256_set1_epi32(hi);
    uint8_t *dst = out;
    for (size_t j = 0; j < n; j += 8) {
        size_t len = n - j < 8 ? n - j : 8;
        int32_t a[8] = {0}, m[8] = {0}, s[8] = {0};
        memcpy(a, acc + j, len * sizeof(int32_t));
        memcpy(m, mult + j, len * sizeof(int32_t));
        memcpy(s, shift + j, len * sizeof(int32_t));
        nn_rq_avx2 p = nn_rq_avx2_init(_mm256_loadu_si256((const __m256i *)m),
                                       _mm256_loadu_si256((const __m256i *)s), rounding);
        __m256i v = nn_rq_avx2_output(&p, _mm256_loadu_si256((const __m256i *)a), vzero, vlo, vhi);
        __m256i w = _mm256_packs_epi32(v, v);
        w = out_signed ? _mm256_packs_epi16(w, w) : _mm256_packus_epi16(w, w);
        w = _mm256_permutevar8x32_epi32(w, gather);
        uint8_t bytes[8];
        _mm_storel_epi64((__m128i *)bytes, _mm256_castsi256_si128(w));
        memcpy(dst + j, bytes, len);
    }
}
