/*
 * Micro-kernels behind gemm.h. B is packed in panels of NN_GEMM_NR columns:
 *   float: panel[p][j]      (k rows of 16 floats)
 *   int8:  panel[g][j][t]   (ceil(k/4) groups of 16 columns x 4 bytes, int8,
 *                            so that one 32-bit word holds 4 k-steps)
 * A is read in place for float (rows of stride lda); for int8 the kernels
 * read 32-bit words of 4 uint8 k-steps through nn_q8_rows: in place when k
 * is a multiple of 4, else from a packed copy apack[g][i].
 *
 * A new instruction set (say NEON, in gemm_neon.c) supplies the five
 * functions of nn_gemm_isa with the contracts below, an entry in gemm.c's
 * gemm_isa() for its nn_isa level (kernels/isa.h), and passes
 * tests/test_qkernels under NNAPI_LINUX_ISA set to it: its int8 results must
 * equal the portable kernels' bit for bit, requantization included
 * (kernels/quant_x86.h shows the x86 lane arithmetic).
 */
#ifndef NN_KERNELS_GEMM_INTERNAL_H
#define NN_KERNELS_GEMM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/isa.h"
#include "kernels/quant.h"

#define NN_GEMM_NR 16
#define NN_GEMM_MAX_MR 16

/* Flags of the float kernel. */
#define NN_GEMM_ACCUMULATE 1u /* start from C instead of bias (or zero) */
#define NN_GEMM_CLAMP 2u      /* clamp the result to [lo, hi] */
/* Only the first n (1..15) columns of C and bias are read and written
 * (the panel's other columns are zero); ISAs whose table sets s_cols. */
#define NN_GEMM_COLS(n) ((unsigned)(n) << 8)
#define NN_GEMM_COLS_OF(flags) (((flags) >> 8) & 15u)

/* C[mr x 16] (row stride ldc) op= A[mr x kc] (stride lda) . panel[kc x 16];
 * bias (16 values) used when not accumulating, may be NULL. mr <= MR. */
typedef void (*nn_sgemm_kernel_fn)(size_t mr, size_t kc, const float *a, size_t lda,
                                   const float *b, float *c, size_t ldc, const float *bias,
                                   unsigned flags, float lo, float hi);

/* The int8 kernels' A: the word of row i, group g (k-steps 4g..4g+3) is
 * the 4 bytes at base + i * row + g * group, XORed with flip (0x80808080
 * turns int8 into uint8 + 128, or 0). Packed: row 4, group 4 * mr, flip 0;
 * in place: row = lda, group = 4. */
typedef struct nn_q8_rows {
    const uint8_t *base;
    size_t row, group;
    uint32_t flip;
} nn_q8_rows;

/* acc[i][j] (+)= sum_g dot4(word(i, g), panel[g][j]) for i < mr, j < 16:
 * uint8 A times int8 B. init: start from zero instead of acc. */
typedef void (*nn_qgemm_kernel_fn)(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                                   int32_t *acc, bool init);

/* The output stage of one panel, fused into the micro-kernel: for i < mr,
 * j < cols,
 *   out[i][j] = nn_requant_output(acc[i][j] + row_term[i] + col_term[j],
 *                                 mult[j], shift[j], rounding, out_zero, lo, hi)
 * with the sums wrapping as 32-bit lanes do. Every ISA's kernel gives
 * exactly what the portable one gives (tests/test_qkernels.c checks it). */
typedef struct nn_qgemm_epilogue {
    const int32_t *col_term; /* NR: bias[j] - a_zero * colsum[j] */
    const int32_t *mult;     /* NR: Q31 multipliers */
    const int32_t *shift;    /* NR: exponents in [-NN_QGEMM_FUSED_MAX_RIGHT, 31] */
    nn_rounding rounding;    /* ties: up for CONV_2D / FULLY_CONNECTED */
    const int32_t *row_term; /* mr: k * a_zero * b_zero - b_zero * rowsum[i]; NULL: zeros */
    size_t cols;             /* valid columns of the panel, <= NR */
    int32_t out_zero, lo, hi;
    bool out_signed;         /* int8 output, else uint8 */
    /* NULL, or what the ISA's qprepare made of this panel's fields above
     * except row_term (the same for every row tile of a panel, so gemm.c
     * prepares it once per panel): kernels that have no qprepare ignore it. */
    const void *prepared;
} nn_qgemm_epilogue;

/* The fused kernels' right shifts are at most this and the output zero
 * point is a quant8 one (|out_zero| <= 256); gemm.c sends other panels to
 * its scalar output stage. So the x86 kernels fold the zero point into
 * their rounding terms (kernels/quant_x86.h). */
#define NN_QGEMM_FUSED_MAX_RIGHT 22

/* Room (64-byte aligned) for a prepared epilogue. */
#define NN_QGEMM_PREPARED_BYTES 1024

/* Fills prepared (NN_QGEMM_PREPARED_BYTES, 64-byte aligned) from e: the
 * per-panel part of an ISA's qfused output stage, done once per panel
 * instead of once per row tile. Optional: gemm.c's qprepare_of() names the
 * ISAs that have one. */
typedef void (*nn_qgemm_prepare_fn)(const nn_qgemm_epilogue *e, void *prepared);

/* The product of nn_qgemm_kernel_fn (plus acc_in, an mr x NR tile of
 * earlier k blocks' sums, when not NULL) through epilogue e into the 8-bit
 * rows c (row stride ldc). */
typedef void (*nn_qgemm_fused_fn)(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                                  const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                                  size_t ldc);

/* C[i][j] for i < m, j in [j0, j1) as dot products of unpacked rows: the
 * path for a handful of rows, where packing B would cost as much as the
 * product. */
typedef void (*nn_sgemm_dot_fn)(size_t m, size_t j0, size_t j1, size_t k, const float *a,
                                size_t lda, const float *b, size_t ldb, const float *bias,
                                float lo, float hi, bool clamp, float *c, size_t ldc);

/* skernel for panels p < panels (B at b + p * b_stride, C and bias at
 * column p * NR), NN_GEMM_COLS (for ISAs with s_cols) applying to the last
 * one only. */
typedef void (*nn_sgemm_panels_fn)(size_t mr, size_t kc, const float *a, size_t lda,
                                   const float *b, size_t b_stride, size_t panels, float *c,
                                   size_t ldc, const float *bias, unsigned flags, float lo,
                                   float hi);

/* qfused, acc_in NULL, for panels q < panels of one row tile: B at
 * b + q * b_stride, C at column q * NR, output stage e[q] (one row_term for
 * all), kq <= KQ / 4 (one k block of gemm.c). Equals qfused panel by panel. */
typedef void (*nn_qgemm_fused_panels_fn)(size_t mr, size_t kq, const nn_q8_rows *a,
                                         const int32_t *b, size_t b_stride, size_t panels,
                                         const nn_qgemm_epilogue *e, uint8_t *c, size_t ldc);

/* One ISA's kernels (gemm.c picks the table of nn_isa_current()). A new
 * ISA supplies all of them: s_mr/q_mr rows per micro-tile (<= MAX_MR), the
 * float kernel, the int8 kernel for raw accumulators, the int8 kernel with
 * the fused output stage, and the few-rows float dot product. */
typedef struct nn_gemm_isa {
    size_t s_mr;
    nn_sgemm_kernel_fn skernel;
    bool s_cols;   /* skernel takes NN_GEMM_COLS */
    size_t q_mr;
    /* The int8 kernels' b: false, the int8 panel above; true, the same
     * panel with every byte widened to int16 (panel[g][j][t] as int16_t,
     * 128 bytes per group), for units without 8-bit dot products. */
    bool q_wide_b;
    nn_qgemm_kernel_fn qkernel;
    nn_qgemm_fused_fn qfused;
    nn_sgemm_dot_fn sdot;
    /* NULL, or skernel over consecutive panels (nn_sgemm_panels_fn). */
    nn_sgemm_panels_fn spanels;
    /* NULL, or qfused over the panels of a row tile (nn_qgemm_fused_panels_fn). */
    nn_qgemm_fused_panels_fn qpanels;
} nn_gemm_isa;

/* The kernels gemm.c runs at level isa (kernels/isa.h); NULL when this
 * build has none for it. Tests compare each level's with the portable ones. */
const nn_gemm_isa *nn_gemm_isa_of(nn_isa isa);

void nn_sgemm_kernel_c(size_t mr, size_t kc, const float *a, size_t lda, const float *b, float *c,
                       size_t ldc, const float *bias, unsigned flags, float lo, float hi);
void nn_qgemm_kernel_c(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                          int32_t *acc, bool init);
void nn_sgemm_kernel_avx2(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                          float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                          float hi);
void nn_sgemm_kernel_avx512(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                            float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                            float hi);
void nn_sgemm_kernel_panels_avx2(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                                 size_t b_stride, size_t panels, float *c, size_t ldc,
                                 const float *bias, unsigned flags, float lo, float hi);
void nn_sgemm_kernel_panels_avx512(size_t mr, size_t kc, const float *a, size_t lda,
                                   const float *b, size_t b_stride, size_t panels, float *c,
                                   size_t ldc, const float *bias, unsigned flags, float lo,
                                   float hi);
void nn_qgemm_kernel_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                          int32_t *acc, bool init);
void nn_qgemm_kernel_avx512(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                          int32_t *acc, bool init);
void nn_sgemm_dot_c(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                    const float *b, size_t ldb, const float *bias, float lo, float hi, bool clamp,
                    float *c, size_t ldc);
void nn_sgemm_dot_avx512(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                         const float *b, size_t ldb, const float *bias, float lo, float hi,
                         bool clamp, float *c, size_t ldc);
void nn_qgemm_fused_c(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                         const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                         size_t ldc);
void nn_qgemm_fused_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                         const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                         size_t ldc);
void nn_qgemm_fused_avx512(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                         const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                         size_t ldc);
void nn_qgemm_fused_panels_avx2(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                                size_t b_stride, size_t panels, const nn_qgemm_epilogue *e,
                                uint8_t *c, size_t ldc);
void nn_qgemm_fused_panels_avx512(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                                  size_t b_stride, size_t panels, const nn_qgemm_epilogue *e,
                                  uint8_t *c, size_t ldc);
void nn_qgemm_prepare_avx2(const nn_qgemm_epilogue *e, void *prepared);
void nn_qgemm_prepare_avx512(const nn_qgemm_epilogue *e, void *prepared);

/* aarch64: float and int8 without the dot product (gemm_neon.c), int8
 * with SDOT (gemm_neondot.c, compiled for Armv8.2 DotProd). */
void nn_qgemm_kernel_neon(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                          int32_t *acc, bool init);
void nn_qgemm_fused_neon(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                         const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                         size_t ldc);
void nn_qgemm_kernel_neondot(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                             int32_t *acc, bool init);
void nn_qgemm_fused_neondot(size_t mr, size_t kq, const nn_q8_rows *a, const int32_t *b,
                            const int32_t *acc_in, const nn_qgemm_epilogue *e, uint8_t *c,
                            size_t ldc);
void nn_sgemm_kernel_neon(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                          float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                          float hi);
void nn_sgemm_dot_neon(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                       const float *b, size_t ldb, const float *bias, float lo, float hi,
                       bool clamp, float *c, size_t ldc);

#define NN_SGEMM_MR_C 4
#define NN_SGEMM_MR_AVX2 6
/* 8, not the 14 the registers hold: 14 row addresses spill the general
 * registers (A is read in place, unpacked). */
#define NN_SGEMM_MR_AVX512 8
#define NN_QGEMM_MR_C 4
#define NN_QGEMM_MR_AVX2 6
#define NN_QGEMM_MR_AVX512 16
#define NN_SGEMM_MR_NEON 5
#define NN_QGEMM_MR_NEON 4
#define NN_QGEMM_MR_NEONDOT 4

/* The int16 copy of packed B that the AVX2 int8 kernels read (q_wide_b),
 * made at packing time from `panels` panels of kq words: within a panel,
 * k block by k block (NN_QGEMM_WIDE_BLOCK words, gemm.c's KQ bytes; the
 * last may be shorter), the block's words of columns 0-7, then those of
 * columns 8-15, each byte widened: the kernels, which take a panel in
 * halves of 8 columns, read each half's B in one sequential stream. */
#define NN_QGEMM_WIDE_BLOCK 256
void nn_widen_i8_avx2(const int8_t *src, int16_t *dst, size_t panels, size_t kq);

#endif
