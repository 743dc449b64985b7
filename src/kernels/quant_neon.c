/* nn_requant_row on aarch64 Advanced SIMD lanes (kernels/quant_neon.h). */
#include <string.h>

#include "kernels/quant_neon.h"

void nn_requant_row_neon(size_t n, const int32_t *acc, const int32_t *mult, const int32_t *shift,
                         nn_rounding rounding, int32_t zero, int32_t lo, int32_t hi,
                         bool out_signed, void *out)
{
    /* The low byte is the value either way (nn_pack8_neon). */
    (void)out_signed;
    const int32x4_t vzero = vdupq_n_s32(zero), vlo = vdupq_n_s32(lo), vhi = vdupq_n_s32(hi);
    uint8_t *dst = out;
    for (size_t j = 0; j < n; j += 8) {
        size_t len = n - j < 8 ? n - j : 8;
        /* A short last block goes through zero-filled copies. */
        int32_t a[8] = {0}, m[8] = {0}, s[8] = {0};
        memcpy(a, acc + j, len * sizeof(int32_t));
        memcpy(m, mult + j, len * sizeof(int32_t));
        memcpy(s, shift + j, len * sizeof(int32_t));
        int32x4_t v[2];
        for (int h = 0; h < 2; h++) {
            nn_rq_neon p = nn_rq_neon_init(vld1q_s32(m + 4 * h), vld1q_s32(s + 4 * h), rounding);
            v[h] = nn_rq_neon_output(&p, vld1q_s32(a + 4 * h), vzero, vlo, vhi);
        }
        uint8_t bytes[8];
        vst1_u8(bytes, nn_pack8_neon(v[0], v[1]));
        memcpy(dst + j, bytes, len);
    }
}
