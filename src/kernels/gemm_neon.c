/*
 * aarch64 Advanced SIMD kernels behind gemm.c.
 *   float: MR = 5 rows x 16 columns = 20 accumulators of 4 lanes; each k
 *     step loads the 16 panel floats once and one A value per row, which
 *     fmla multiplies by element (6 rows would need 34 registers of 32).
 *   int8 without the dot product (level neon): B comes widened to int16
 *     (q_wide_b); vld4 splits a group (16 columns x 4 k-steps) into the 4
 *     k-steps' column vectors, and smlal by element multiplies them by the
 *     row's 4 A values (uint8 widened to int16) into 32-bit lanes: exact
 *     products, sums wrapping as the portable kernel's do. 4 rows x 16
 *     columns = 16 accumulators, 8 B vectors, 2 A vectors.
 *   The SDOT kernels (level neondot) are in gemm_neondot.c; both levels
 *     share the output stage below (kernels/quant_neon.h lanes).
 */
#include <arm_neon.h>
#include <string.h>

#include "kernels/gemm_internal.h"
#include "kernels/gemm_neon.h"
#include "kernels/quant_neon.h"

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

/* ---- int8 ---- */

void nn_qgemm_neon_epilogue(size_t mr, const int32x4_t *acc, const nn_qgemm_epilogue *e,
                            uint8_t *c, size_t ldc)
{
    /* Columns past e->cols hold zeros in the packed panel; their parameters
     * come from a full copy so that every lane is defined. */
    int32_t par[3][NN_GEMM_NR] = {{0}};
    const int32_t *pc = e->col_term, *pm = e->mult, *ps = e->shift;
    if (e->cols < NN_GEMM_NR) {
        for (size_t j = 0; j < e->cols; j++) {
            par[0][j] = e->col_term[j];
            par[1][j] = e->mult[j];
            par[2][j] = e->shift[j];
        }
        pc = par[0], pm = par[1], ps = par[2];
    }
    int32x4_t col[4];
    nn_rq_neon rq[4];
    for (int q = 0; q < 4; q++) {
        col[q] = vld1q_s32(pc + 4 * q);
        rq[q] = nn_rq_neon_init(vld1q_s32(pm + 4 * q), vld1q_s32(ps + 4 * q), e->rounding);
    }
    /* A local copy: the byte stores below could alias e->row_term. */
    int32_t rows[NN_GEMM_MAX_MR] = {0};
    if (e->row_term)
        memcpy(rows, e->row_term, mr * sizeof rows[0]);
    const int32x4_t oz = vdupq_n_s32(e->out_zero);
    const int32x4_t vlo = vdupq_n_s32(e->lo), vhi = vdupq_n_s32(e->hi);
    for (size_t i = 0; i < mr; i++) {
        const int32x4_t row = vdupq_n_s32(rows[i]);
        int32x4_t v[4];
        for (int q = 0; q < 4; q++)
            v[q] = nn_rq_neon_output(&rq[q], vaddq_s32(vaddq_s32(acc[4 * i + q], col[q]), row), oz,
                                     vlo, vhi);
        const uint8x16_t bytes = vcombine_u8(nn_pack8_neon(v[0], v[1]), nn_pack8_neon(v[2], v[3]));
        if (e->cols == NN_GEMM_NR) {
            vst1q_u8(c + i * ldc, bytes);
        } else {
            uint8_t tmp[NN_GEMM_NR];
            vst1q_u8(tmp, bytes);
            memcpy(c + i * ldc, tmp, e->cols);
        }
    }
}

/* Row r's 4 k-step values sit in lanes 4 * (r % 2) .. +3 of a16: the 16
 * multiply-adds of one row and one group into its 4 accumulators. */
#define SMLAL_ROW(accr, a16, H)                                                     \
    do {                                                                            \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(lo.val[0]), a16, 4 * H + 0); \
        accr[1] = vmlal_high_laneq_s16(accr[1], lo.val[0], a16, 4 * H + 0);          \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(hi.val[0]), a16, 4 * H + 0); \
        accr[3] = vmlal_high_laneq_s16(accr[3], hi.val[0], a16, 4 * H + 0);          \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(lo.val[1]), a16, 4 * H + 1); \
        accr[1] = vmlal_high_laneq_s16(accr[1], lo.val[1], a16, 4 * H + 1);          \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(hi.val[1]), a16, 4 * H + 1); \
        accr[3] = vmlal_high_laneq_s16(accr[3], hi.val[1], a16, 4 * H + 1);          \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(lo.val[2]), a16, 4 * H + 2); \
        accr[1] = vmlal_high_laneq_s16(accr[1], lo.val[2], a16, 4 * H + 2);          \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(hi.val[2]), a16, 4 * H + 2); \
        accr[3] = vmlal_high_laneq_s16(accr[3], hi.val[2], a16, 4 * H + 2);          \
        accr[0] = vmlal_laneq_s16(accr[0], vget_low_s16(lo.val[3]), a16, 4 * H + 3); \
        accr[1] = vmlal_high_laneq_s16(accr[1], lo.val[3], a16, 4 * H + 3);          \
        accr[2] = vmlal_laneq_s16(accr[2], vget_low_s16(hi.val[3]), a16, 4 * H + 3); \
        accr[3] = vmlal_high_laneq_s16(accr[3], hi.val[3], a16, 4 * H + 3);          \
    } while (0)

/* acc[i][0..3] (columns 0-15) += the products of rows i < MR over kq
 * groups. PACKED: the 4 rows' words of a group are consecutive (row 4),
 * one load; otherwise each is gathered into its lane. */
static inline __attribute__((always_inline)) void
smlal_sums(const size_t MR, const bool PACKED, size_t kq, const nn_q8_rows *a, const int32_t *b,
           int32x4_t acc[NN_QGEMM_MR_NEON][4])
{
    const int16_t *bw = (const int16_t *)(const void *)b;
    const uint8_t *ag = a->base;
    const uint32x4_t flip = vdupq_n_u32(a->flip);
    for (size_t g = 0; g < kq; g++, bw += 4 * NN_GEMM_NR, ag += a->group) {
        const int16x8x4_t lo = vld4q_s16(bw), hi = vld4q_s16(bw + 2 * NN_GEMM_NR);
        uint32x4_t words;
        if (PACKED) {
            words = vreinterpretq_u32_u8(vld1q_u8(ag));
        } else {
            uint32_t w[4] = {0, 0, 0, 0};
#pragma GCC unroll 4
            for (size_t i = 0; i < MR; i++)
                memcpy(&w[i], ag + i * a->row, 4);
            words = vld1q_u32(w);
        }
        const uint8x16_t a8 = vreinterpretq_u8_u32(veorq_u32(words, flip));
        const int16x8_t a01 = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(a8)));
        SMLAL_ROW(acc[0], a01, 0);
        if (MR > 1)
            SMLAL_ROW(acc[1], a01, 1);
        if (MR > 2) {
            const int16x8_t a23 = vreinterpretq_s16_u16(vmovl_high_u8(a8));
            SMLAL_ROW(acc[2], a23, 0);
            if (MR > 3)
                SMLAL_ROW(acc[3], a23, 1);
        }
    }
}
#undef SMLAL_ROW

static inline __attribute__((always_inline)) void
smlal_kern(const size_t MR, const bool PACKED, size_t kq, const nn_q8_rows *a, const int32_t *b,
           int32_t *acc_out, bool init)
{
    int32x4_t acc[NN_QGEMM_MR_NEON][4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = init ? vdupq_n_s32(0) : vld1q_s32(acc_out + i * NN_GEMM_NR + 4 * q);
    smlal_sums(MR, PACKED, kq, a, b, acc);
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            vst1q_s32(acc_out + i * NN_GEMM_NR + 4 * q, acc[i][q]);
}

static inline __attribute__((always_inline)) void
smlal_fused(const size_t MR, const bool PACKED, size_t kq, const nn_q8_rows *a, const int32_t *b,
            const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c, size_t ldc)
{
    int32x4_t acc[NN_QGEMM_MR_NEON][4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = acc_in ? vld1q_s32(acc_in + i * NN_GEMM_NR + 4 * q) : vdupq_n_s32(0);
    smlal_sums(MR, PACKED, kq, a, b, acc);
    /* A copy for the output stage: acc itself, its address never taken,
     * stays in registers through the loop. */
    int32x4_t out[NN_QGEMM_MR_NEON * 4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            out[4 * i + q] = acc[i][q];
    nn_qgemm_neon_epilogue(MR, out, e, c, ldc);
}

void nn_qgemm_kernel_neon(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                          int32_t *acc, bool init)
{
    switch (mr) {
    case 4:
        if (a->row == 4)
            smlal_kern(4, true, kq, a, b, acc, init);
        else
            smlal_kern(4, false, kq, a, b, acc, init);
        break;
    case 3:
        smlal_kern(3, false, kq, a, b, acc, init);
        break;
    case 2:
        smlal_kern(2, false, kq, a, b, acc, init);
        break;
    case 1:
        smlal_kern(1, false, kq, a, b, acc, init);
        break;
    default:
        break;
    }
}

void nn_qgemm_fused_neon(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                         const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                         size_t ldc)
{
    switch (mr) {
    case 4:
        if (a->row == 4)
            smlal_fused(4, true, kq, a, b, acc_in, e, c, ldc);
        else
            smlal_fused(4, false, kq, a, b, acc_in, e, c, ldc);
        break;
    case 3:
        smlal_fused(3, false, kq, a, b, acc_in, e, c, ldc);
        break;
    case 2:
        smlal_fused(2, false, kq, a, b, acc_in, e, c, ldc);
        break;
    case 1:
        smlal_fused(1, false, kq, a, b, acc_in, e, c, ldc);
        break;
    default:
        break;
    }
}
