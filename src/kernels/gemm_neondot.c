/*
 * int8 micro-kernel for aarch64 cores with the dot product (SDOT), 6 rows x
 * 16 columns. A 16-byte chunk of a panel group is 4 columns x 4 k-steps,
 * the layout sdot reads: each 32-bit lane gets the dot product of its
 * column's 4 bytes with one row's 4 A bytes, picked by lane. sdot is
 * signed x signed, so A (uint8) is flipped to a - 128 and 128 times the
 * panel's column sums over these k-steps are added back:
 *   sum a*b = sum (a - 128)*b + 128 * sum b,
 * identical modulo 2^32 to the portable kernel's wrapping sums.
 */
#include <arm_neon.h>

#include "kernels/gemm_internal.h"

#define MR NN_QGEMM_MR_NEONDOT

static inline __attribute__((always_inline)) void
qkern(const size_t ROWS, size_t kq, const uint32_t *apack, size_t mr_stride, const int32_t *b,
      int32_t *acc_out, bool init)
{
    int32x4_t acc[MR][4];
#pragma GCC unroll 6
    for (size_t i = 0; i < ROWS; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = vdupq_n_s32(0);
    const uint8x16_t flip = vdupq_n_u8(0x80);
    for (size_t g = 0; g < kq; g++) {
        const int8_t *bg = (const int8_t *)(b + g * NN_GEMM_NR);
        const int8x16_t b0 = vld1q_s8(bg), b1 = vld1q_s8(bg + 16);
        const int8x16_t b2 = vld1q_s8(bg + 32), b3 = vld1q_s8(bg + 48);
        const uint32_t *ag = apack + g * mr_stride;
        uint32x4_t w03;
        uint32x2_t w45;
        if (ROWS == MR) {
            w03 = vld1q_u32(ag);
            w45 = vld1_u32(ag + 4);
        } else {
            uint32_t words[MR] = {0, 0, 0, 0, 0, 0};
#pragma GCC unroll 6
            for (size_t i = 0; i < ROWS; i++)
                words[i] = ag[i];
            w03 = vld1q_u32(words);
            w45 = vld1_u32(words + 4);
        }
        const int8x16_t a03 = vreinterpretq_s8_u8(veorq_u8(vreinterpretq_u8_u32(w03), flip));
        const int8x8_t a45 = vreinterpret_s8_u8(veor_u8(vreinterpret_u8_u32(w45), vget_low_u8(flip)));
#define ROW_Q(i, av, L)                                  \
    do {                                                 \
        acc[i][0] = vdotq_laneq_s32(acc[i][0], b0, av, L); \
        acc[i][1] = vdotq_laneq_s32(acc[i][1], b1, av, L); \
        acc[i][2] = vdotq_laneq_s32(acc[i][2], b2, av, L); \
        acc[i][3] = vdotq_laneq_s32(acc[i][3], b3, av, L); \
    } while (0)
#define ROW_D(i, av, L)                                 \
    do {                                                \
        acc[i][0] = vdotq_lane_s32(acc[i][0], b0, av, L); \
        acc[i][1] = vdotq_lane_s32(acc[i][1], b1, av, L); \
        acc[i][2] = vdotq_lane_s32(acc[i][2], b2, av, L); \
        acc[i][3] = vdotq_lane_s32(acc[i][3], b3, av, L); \
    } while (0)
        ROW_Q(0, a03, 0);
        if (ROWS > 1)
            ROW_Q(1, a03, 1);
        if (ROWS > 2)
            ROW_Q(2, a03, 2);
        if (ROWS > 3)
            ROW_Q(3, a03, 3);
        if (ROWS > 4)
            ROW_D(4, a45, 0);
        if (ROWS > 5)
            ROW_D(5, a45, 1);
#undef ROW_Q
#undef ROW_D
    }
    /* The column sums of the k-steps above, from a second pass over the
     * panel (it is in L1 by now), times 128. */
    const int8x16_t ones = vdupq_n_s8(1);
    int32x4_t csum[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
    for (size_t g = 0; g < kq; g++) {
        const int8_t *bg = (const int8_t *)(b + g * NN_GEMM_NR);
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            csum[q] = vdotq_s32(csum[q], vld1q_s8(bg + 16 * q), ones);
    }
#pragma GCC unroll 4
    for (int q = 0; q < 4; q++)
        csum[q] = vshlq_n_s32(csum[q], 7);
#pragma GCC unroll 6
    for (size_t i = 0; i < ROWS; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++) {
            int32_t *dst = acc_out + i * NN_GEMM_NR + 4 * q;
            int32x4_t v = vaddq_s32(acc[i][q], csum[q]);
            vst1q_s32(dst, init ? v : vaddq_s32(v, vld1q_s32(dst)));
        }
}

void nn_qgemm_kernel_neondot(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                             const int32_t *b, int32_t *acc, bool init)
{
    switch (mr) {
#define CASE(n) \
    case n: qkern(n, kq, apack, mr_stride, b, acc, init); break;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
#undef CASE
    default: break;
    }
}
