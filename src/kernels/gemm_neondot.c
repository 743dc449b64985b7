/*
 * int8 micro-kernels for aarch64 cores with the dot product (Armv8.2
 * DotProd, level neondot), 4 rows x 16 columns. A 16-byte quarter of a
 * panel group is 4 columns x 4 k-steps, the layout sdot reads: each 32-bit
 * lane gets the dot product of its column's 4 bytes with one row's 4 A
 * bytes, picked by lane. sdot is signed x signed, so the uint8 A is taken
 * as a - 128 (one XOR) and 128 times the panel's column sums over the same
 * k-steps is added back:
 *   sum a*b = sum (a - 128)*b + 128 * sum b,
 * the same modulo 2^32 as the portable kernel's wrapping sums. The column
 * sums are 4 more sdot per group (against ones), shared by the 4 rows, in a
 * second pass over the panel (in L1 by then): in the main loop they would
 * take the registers that keep its 16 accumulators, 4 B and 4 A vectors
 * from spilling. A group's 64 panel bytes come in one ld1 of 4 registers.
 */
#include <arm_neon.h>
#include <string.h>

#include "kernels/gemm_internal.h"
#include "kernels/gemm_neon.h"

#define MR_MAX NN_QGEMM_MR_NEONDOT

/* How the kernel reads A (nn_q8_rows): */
enum {
    A_GATHER,     /* any row and group steps: each row's word into its lane */
    A_PACKED,     /* row 4, 4 rows: a group's 4 words are consecutive, one load */
    A_IN_PLACE,   /* group 4: 16 bytes of a row are 4 groups, one load per row per 4 groups */
};

static inline __attribute__((always_inline)) void
sdot_sums(const size_t MR, const int MODE, size_t kq, const nn_q8_rows *a, const int32_t *b,
          int32x4_t acc[MR_MAX][4])
{
    const uint8x16_t conv = vreinterpretq_u8_u32(vdupq_n_u32(a->flip ^ 0x80808080u));
    const int8_t *bg = (const int8_t *)(const void *)b;
    const uint8_t *ag = a->base;
    size_t g = 0;
    if (MODE == A_IN_PLACE) {
        for (; g + 4 <= kq; g += 4, ag += 16, bg += 4 * 4 * NN_GEMM_NR) {
            int8x16_t av[MR_MAX];
#pragma GCC unroll 4
            for (size_t i = 0; i < MR; i++)
                av[i] = vreinterpretq_s8_u8(veorq_u8(vld1q_u8(ag + i * a->row), conv));
            /* Group g + T: lane T of each row's vector. */
#define GROUP(T)                                                                   \
    do {                                                                           \
        const int8x16x4_t bt = vld1q_s8_x4(bg + (T) * 4 * NN_GEMM_NR);            \
        _Pragma("GCC unroll 4") for (int q = 0; q < 4; q++)                        \
            _Pragma("GCC unroll 4") for (size_t i = 0; i < MR; i++)                \
                acc[i][q] = vdotq_laneq_s32(acc[i][q], bt.val[q], av[i], (T));     \
    } while (0)
            GROUP(0);
            GROUP(1);
            GROUP(2);
            GROUP(3);
#undef GROUP
        }
    }
    for (; g < kq; g++, ag += a->group, bg += 4 * NN_GEMM_NR) {
        uint8x16_t words;
        if (MODE == A_PACKED) {
            words = vld1q_u8(ag);
        } else {
            uint32_t w[4] = {0, 0, 0, 0};
#pragma GCC unroll 4
            for (size_t i = 0; i < MR; i++)
                memcpy(&w[i], ag + i * a->row, 4);
            words = vreinterpretq_u8_u32(vld1q_u32(w));
        }
        const int8x16_t av = vreinterpretq_s8_u8(veorq_u8(words, conv));
        const int8x16x4_t bt = vld1q_s8_x4(bg);
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++) {
            const int8x16_t bq = bt.val[q];
            /* Row i: lane i. */
            acc[0][q] = vdotq_laneq_s32(acc[0][q], bq, av, 0);
            if (MR > 1)
                acc[1][q] = vdotq_laneq_s32(acc[1][q], bq, av, 1);
            if (MR > 2)
                acc[2][q] = vdotq_laneq_s32(acc[2][q], bq, av, 2);
            if (MR > 3)
                acc[3][q] = vdotq_laneq_s32(acc[3][q], bq, av, 3);
        }
    }
    const int8x16_t ones = vdupq_n_s8(1);
    int32x4_t csum[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
    bg = (const int8_t *)(const void *)b;
#pragma GCC unroll 4
    for (g = 0; g < kq; g++, bg += 4 * NN_GEMM_NR) {
        const int8x16x4_t bt = vld1q_s8_x4(bg);
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            csum[q] = vdotq_s32(csum[q], bt.val[q], ones);
    }
#pragma GCC unroll 4
    for (int q = 0; q < 4; q++) {
        const int32x4_t fix = vshlq_n_s32(csum[q], 7);
#pragma GCC unroll 4
        for (size_t i = 0; i < MR; i++)
            acc[i][q] = vaddq_s32(acc[i][q], fix);
    }
}

static inline __attribute__((always_inline)) void
sdot_kern(const size_t MR, const int MODE, size_t kq, const nn_q8_rows *a, const int32_t *b,
          int32_t *acc_out, bool init)
{
    int32x4_t acc[MR_MAX][4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = init ? vdupq_n_s32(0) : vld1q_s32(acc_out + i * NN_GEMM_NR + 4 * q);
    sdot_sums(MR, MODE, kq, a, b, acc);
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            vst1q_s32(acc_out + i * NN_GEMM_NR + 4 * q, acc[i][q]);
}

static inline __attribute__((always_inline)) void
sdot_fused(const size_t MR, const int MODE, size_t kq, const nn_q8_rows *a, const int32_t *b,
           const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c, size_t ldc)
{
    int32x4_t acc[MR_MAX][4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            acc[i][q] = acc_in ? vld1q_s32(acc_in + i * NN_GEMM_NR + 4 * q) : vdupq_n_s32(0);
    sdot_sums(MR, MODE, kq, a, b, acc);
    /* A copy for the output stage: acc itself, its address never taken,
     * stays in registers through the loops. */
    int32x4_t out[MR_MAX * 4];
#pragma GCC unroll 4
    for (size_t i = 0; i < MR; i++)
#pragma GCC unroll 4
        for (int q = 0; q < 4; q++)
            out[4 * i + q] = acc[i][q];
    nn_qgemm_neon_epilogue(MR, out, e, c, ldc);
}

/* The A access of mr rows (see the enum). */
static int a_mode(size_t mr, const nn_q8_rows *a)
{
    if (a->group == 4)
        return A_IN_PLACE;
    return mr == 4 && a->row == 4 ? A_PACKED : A_GATHER;
}

#define DISPATCH(KERNEL, ...)                                             \
    do {                                                                  \
        switch (mr * 4 + (size_t)a_mode(mr, a)) {                         \
        case 4 * 4 + A_GATHER: KERNEL(4, A_GATHER, __VA_ARGS__); break;   \
        case 4 * 4 + A_PACKED: KERNEL(4, A_PACKED, __VA_ARGS__); break;   \
        case 4 * 4 + A_IN_PLACE: KERNEL(4, A_IN_PLACE, __VA_ARGS__); break; \
        case 3 * 4 + A_GATHER: KERNEL(3, A_GATHER, __VA_ARGS__); break;   \
        case 3 * 4 + A_IN_PLACE: KERNEL(3, A_IN_PLACE, __VA_ARGS__); break; \
        case 2 * 4 + A_GATHER: KERNEL(2, A_GATHER, __VA_ARGS__); break;   \
        case 2 * 4 + A_IN_PLACE: KERNEL(2, A_IN_PLACE, __VA_ARGS__); break; \
        case 1 * 4 + A_GATHER: KERNEL(1, A_GATHER, __VA_ARGS__); break;   \
        case 1 * 4 + A_IN_PLACE: KERNEL(1, A_IN_PLACE, __VA_ARGS__); break; \
        default: break;                                                   \
        }                                                                 \
    } while (0)

void nn_qgemm_kernel_neondot(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                             int32_t *acc, bool init)
{
    DISPATCH(sdot_kern, kq, a, b, acc, init);
}

void nn_qgemm_fused_neondot(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                            const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                            size_t ldc)
{
    DISPATCH(sdot_fused, kq, a, b, acc_in, e, c, ldc);
}
