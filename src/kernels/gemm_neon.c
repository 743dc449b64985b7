/*
 * aarch64 Advanced SIMD kernels behind gemm.c.
 *   float: MR = 5 rows x 16 columns = 20 accumulators of 4 lanes; each k
 *     step loads the 16 panel floats once and one A value per row, which
 *     fmla multiplies by element (6 rows would need 34 registers of 32).
 *   int8 without the dot product: vld4 splits a panel group (16 columns x 4
 *     k-steps) into the 4 k-steps' column vectors, widened to int16; smlal by
 *     element multiplies them by the row's 4 A values (uint8 widened to
 *     int16) into 32-bit lanes, exact products whose sums wrap as the
 *     portable kernel's do.
 *   requantization: the scalar steps of quant.h lane by lane.
 */
#include <arm_neon.h>
#include <string.h>

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

/* The 4 k-steps of one group as int16 column vectors: cols[t][h] holds
 * columns 8h..8h+7 of k-step t. */
static inline __attribute__((always_inline)) void load_group_s16(const int32_t *bg,
                                                                 int16x8_t cols[4][2])
{
    const int8x16x4_t v = vld4q_s8((const int8_t *)bg);
    for (int t = 0; t < 4; t++) {
        cols[t][0] = vmovl_s8(vget_low_s8(v.val[t]));
        cols[t][1] = vmovl_high_s8(v.val[t]);
    }
}

/* acc[0..3] (columns 0-15) += cols[t] * lane L of a16 for the 4 k-steps of
 * the row whose A values sit in lanes 4R..4R+3 of a16. */
#define Q_ROW(accr, a16, R)                                                         \
    do {                                                                           \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(cols[0][0]), a16, 4 * R + 0); \
        accr[1] = vmlal_high_laneq_s16(accr[1], cols[0][0], a16, 4 * R + 0);         \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(cols[0][1]), a16, 4 * R + 0); \
        accr[3] = vmlal_high_laneq_s16(accr[3], cols[0][1], a16, 4 * R + 0);         \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(cols[1][0]), a16, 4 * R + 1); \
        accr[1] = vmlal_high_laneq_s16(accr[1], cols[1][0], a16, 4 * R + 1);         \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(cols[1][1]), a16, 4 * R + 1); \
        accr[3] = vmlal_high_laneq_s16(accr[3], cols[1][1], a16, 4 * R + 1);         \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(cols[2][0]), a16, 4 * R + 2); \
        accr[1] = vmlal_high_laneq_s16(accr[1], cols[2][0], a16, 4 * R + 2);         \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(cols[2][1]), a16, 4 * R + 2); \
        accr[3] = vmlal_high_laneq_s16(accr[3], cols[2][1], a16, 4 * R + 2);         \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(cols[3][0]), a16, 4 * R + 3); \
        accr[1] = vmlal_high_laneq_s16(accr[1], cols[3][0], a16, 4 * R + 3);         \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(cols[3][1]), a16, 4 * R + 3); \
        accr[3] = vmlal_high_laneq_s16(accr[3], cols[3][1], a16, 4 * R + 3);         \
    } while (0)

/* Up to 4 rows: A words of rows 0-1 widen into one int16 vector, rows 2-3
 * into another. */
static inline __attribute__((always_inline)) void
qkern(const size_t MR, size_t kq, const uint32_t *apack, size_t mr_stride, const int32_t *b,
      int32_t *acc_out, bool init)
{
    int32x4_t acc[NN_QGEMM_MR_NEON][4];
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = init ? vdupq_n_s32(0) : vld1q_s32(acc_out + i * NN_GEMM_NR + 4 * q);
    for (size_t g = 0; g < kq; g++) {
        int16x8_t cols[4][2];
        load_group_s16(b + g * NN_GEMM_NR, cols);
        const uint32_t *ag = apack + g * mr_stride;
        uint8x16_t a8;
        if (MR == 4) {
            a8 = vreinterpretq_u8_u32(vld1q_u32(ag));
        } else {
            uint32_t words[4] = {0, 0, 0, 0};
#pragma GCC unroll 6
            for (size_t i = 0; i < MR; i++)
                words[i] = ag[i];
            a8 = vreinterpretq_u8_u32(vld1q_u32(words));
        }
        const int16x8_t a01 = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(a8)));
        Q_ROW(acc[0], a01, 0);
        if (MR > 1)
            Q_ROW(acc[1], a01, 1);
        if (MR > 2) {
            const int16x8_t a23 = vreinterpretq_s16_u16(vmovl_high_u8(a8));
            Q_ROW(acc[2], a23, 0);
            if (MR > 3)
                Q_ROW(acc[3], a23, 1);
        }
    }
#pragma GCC unroll 6
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            vst1q_s32(acc_out + i * NN_GEMM_NR + 4 * q, acc[i][q]);
}

void nn_qgemm_kernel_neon(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                          const int32_t *b, int32_t *acc, bool init)
{
    switch (mr) {
#define CASE(n) \
    case n: qkern(n, kq, apack, mr_stride, b, acc, init); break;
        CASE(1) CASE(2) CASE(3) CASE(4)
#undef CASE
    default: break;
    }
}

/* nn_mul_by_quant_mult for right shifts e in [0, 31], 4 lanes: vqrdmulh is
 * exactly nn_srdhm (round half up, INT32_MIN^2 saturating), then the
 * rounding right shift with ties away from zero as quant.h spells it. */
static inline int32x4_t requant4(int32x4_t v, int32x4_t mult, int32x4_t e)
{
    v = vqrdmulhq_s32(v, mult);
    const int32x4_t one = vdupq_n_s32(1);
    const int32x4_t mask = vsubq_s32(vshlq_s32(one, e), one);
    const int32x4_t rem = vandq_s32(v, mask);
    /* x < 0 gives all ones: subtracting it adds one to the threshold. */
    const int32x4_t neg = vreinterpretq_s32_u32(vcltzq_s32(v));
    const int32x4_t thr = vsubq_s32(vshrq_n_s32(mask, 1), neg);
    const int32x4_t up = vreinterpretq_s32_u32(vcgtq_s32(rem, thr));
    return vsubq_s32(vshlq_s32(v, vnegq_s32(e)), up);
}

void nn_qgemm_requant_neon(size_t cols, const int32_t *acc, int32_t row_term,
                           const int32_t *col_term, const int32_t *mult, const int32_t *rshift,
                           int32_t out_zero, int32_t lo, int32_t hi, bool out_signed, void *out)
{
    /* A partial row goes through zero-padded copies. */
    int32_t pad[4][NN_GEMM_NR];
    if (cols < NN_GEMM_NR) {
        memset(pad, 0, sizeof pad);
        memcpy(pad[0], acc, cols * sizeof *acc);
        memcpy(pad[1], col_term, cols * sizeof *col_term);
        memcpy(pad[2], mult, cols * sizeof *mult);
        memcpy(pad[3], rshift, cols * sizeof *rshift);
        acc = pad[0];
        col_term = pad[1];
        mult = pad[2];
        rshift = pad[3];
    }
    const int32x4_t rt = vdupq_n_s32(row_term), zo = vdupq_n_s32(out_zero);
    const int32x4_t vlo = vdupq_n_s32(lo), vhi = vdupq_n_s32(hi);
    int16x8_t h[2];
    for (int q = 0; q < 2; q++) {
        int32x4_t r[2];
        for (int s = 0; s < 2; s++) {
            size_t o = 8 * q + 4 * s;
            int32x4_t v = vaddq_s32(vaddq_s32(vld1q_s32(acc + o), rt), vld1q_s32(col_term + o));
            v = vaddq_s32(requant4(v, vld1q_s32(mult + o), vld1q_s32(rshift + o)), zo);
            r[s] = vminq_s32(vhi, vmaxq_s32(vlo, v));
        }
        h[q] = vcombine_s16(vqmovn_s32(r[0]), vqmovn_s32(r[1]));
    }
    uint8_t bytes[NN_GEMM_NR];
    if (out_signed)
        vst1q_s8((int8_t *)bytes, vcombine_s8(vqmovn_s16(h[0]), vqmovn_s16(h[1])));
    else
        vst1q_u8(bytes, vcombine_u8(vqmovun_s16(h[0]), vqmovun_s16(h[1])));
    memcpy(out, bytes, cols);
}
