/*
 * aarch64 Advanced SIMD kernels behind gemm.c.
 *   float: MR = 5 rows x 16 columns = 20 accumulators of 4 lanes; each k
 *     step loads the 16 panel floats once and one A value per row, which
 *     fmla multiplies by element (6 rows would need 34 registers of 32).
 * The int8 products take the portable kernels of gemm.c on aarch64.
 */
#include <arm_neon.h>

#include "kernels/gemm_internal.h"

static inline __attribute__((always_inline)) void
skern(const size_t MR, size_t kc, const float *a, size_t lda, const float *b, float *c,
      size_t ldc, const float *bias, unsigned flags, float lo, float hi)
{
    float32x4_t acc[NN_SGEMM_MR_NEON][4];
    float32x4_t init[4];
#pragma GCC unroll 4
    for (int q = 0; q < 4; q++)
        init[q] = bias ? vld1q_f32(bias + 4 * q) : vdupq_n_f32(0.0f);
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = (flags & NN_GEMM_ACCUMULATE) ? vld1q_f32(c + i * ldc + 4 * q) : init[q];
    for (size_t p = 0; p < kc; p++) {
        const float *bp = b + p * NN_GEMM_NR;
        const float32x4_t b0 = vld1q_f32(bp), b1 = vld1q_f32(bp + 4);
        const float32x4_t b2 = vld1q_f32(bp + 8), b3 = vld1q_f32(bp + 12);
#pragma GCC unroll 6
        for (size_t i = 0; i < MR; i++) {
            const float av = a[i * lda + p];
            acc[i][0] = vfmaq_n_f32(acc[i][0], b0, av);
            acc[i][1] = vfmaq_n_f32(acc[i][1], b1, av);
            acc[i][2] = vfmaq_n_f32(acc[i][2], b2, av);
            acc[i][3] = vfmaq_n_f32(acc[i][3], b3, av);
        }
    }
    if (flags & NN_GEMM_CLAMP) {
        const float32x4_t vlo = vdupq_n_f32(lo), vhi = vdupq_n_f32(hi);
#pragma GCC unroll 6
        for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
            for (int q = 0; q < 4; q++)
                acc[i][q] = vminq_f32(vhi, vmaxq_f32(vlo, acc[i][q]));
    }
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            vst1q_f32(c + i * ldc + 4 * q, acc[i][q]);
}

void nn_sgemm_kernel_neon(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                          float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                          float hi)
{
    switch (mr) {
#define CASE(n) \
    case n: skern(n, kc, a, lda, b, c, ldc, bias, flags, lo, hi); break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5)
#undef CASE
    default: break;
    }
}

/* Dot products of a few A rows with rows [j0, j1) of B (unpacked). */
void nn_sgemm_dot_neon(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                       const float *b, size_t ldb, const float *bias, float lo, float hi,
                       bool clamp, float *c, size_t ldc)
{
    for (size_t j = j0; j < j1; j++) {
        const float *bj = b + j * ldb;
        for (size_t i = 0; i < m; i++) {
            const float *ai = a + i * lda;
            /* Independent chains keep several multiply-adds in flight. */
            float32x4_t s0 = vdupq_n_f32(0.0f), s1 = s0, s2 = s0, s3 = s0;
            size_t p = 0;
            for (; p + 16 <= k; p += 16) {
                s0 = vfmaq_f32(s0, vld1q_f32(ai + p), vld1q_f32(bj + p));
                s1 = vfmaq_f32(s1, vld1q_f32(ai + p + 4), vld1q_f32(bj + p + 4));
                s2 = vfmaq_f32(s2, vld1q_f32(ai + p + 8), vld1q_f32(bj + p + 8));
                s3 = vfmaq_f32(s3, vld1q_f32(ai + p + 12), vld1q_f32(bj + p + 12));
            }
            for (; p + 4 <= k; p += 4)
                s0 = vfmaq_f32(s0, vld1q_f32(ai + p), vld1q_f32(bj + p));
            float v = vaddvq_f32(vaddq_f32(vaddq_f32(s0, s1), vaddq_f32(s2, s3)));
            for (; p < k; p++)
                v += ai[p] * bj[p];
            v += bias ? bias[j] : 0.0f;
            if (clamp)
                v = v < lo ? lo : (v > hi ? hi : v);
            c[i * ldc + j] = v;
        }
    }
}
