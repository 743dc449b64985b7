/*
 * Micro-kernels behind gemm.h. B is packed in panels of NN_GEMM_NR columns:
 *   float: panel[p][j]      (k rows of 16 floats)
 *   int8:  panel[g][j][t]   (ceil(k/4) groups of 16 columns x 4 bytes, int8,
 *                            so that one 32-bit word holds 4 k-steps)
 * A is read in place for float (rows of stride lda); for int8 the driver
 * packs up to MR rows as uint8 words: apack[g][i] (4 k-steps of row i).
 */
#ifndef NN_KERNELS_GEMM_INTERNAL_H
#define NN_KERNELS_GEMM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NN_GEMM_NR 16
#define NN_GEMM_MAX_MR 16

/* Flags of the float kernel. */
#define NN_GEMM_ACCUMULATE 1u /* start from C instead of bias (or zero) */
#define NN_GEMM_CLAMP 2u      /* clamp the result to [lo, hi] */

/* C[mr x 16] (row stride ldc) op= A[mr x kc] (stride lda) . panel[kc x 16];
 * bias (16 values) used when not accumulating, may be NULL. mr <= MR. */
typedef void (*nn_sgemm_kernel_fn)(size_t mr, size_t kc, const float *a, size_t lda,
                                   const float *b, float *c, size_t ldc, const float *bias,
                                   unsigned flags, float lo, float hi);

/* acc[i][j] (+)= sum_g dot4(apack[g][i], panel[g][j]) for i < mr, j < 16:
 * uint8 A times int8 B. init: start from zero instead of acc. */
typedef void (*nn_qgemm_kernel_fn)(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                                   const int32_t *b, int32_t *acc, bool init);

/* One row of up to 16 accumulators to 8-bit: acc + row_term + col_term[j],
 * times mult[j] * 2^-(31 + rshift[j]) with rounding, + out_zero, clamped. */
typedef void (*nn_qgemm_requant_fn)(size_t cols, const int32_t *acc, int32_t row_term,
                                    const int32_t *col_term, const int32_t *mult,
                                    const int32_t *rshift, int32_t out_zero, int32_t lo,
                                    int32_t hi, bool out_signed, void *out);

/* C[i][j] for i < m, j in [j0, j1) as dot products of unpacked rows: the
 * path for a handful of rows, where packing B would cost as much as the
 * product. */
typedef void (*nn_sgemm_dot_fn)(size_t m, size_t j0, size_t j1, size_t k, const float *a,
                                size_t lda, const float *b, size_t ldb, const float *bias,
                                float lo, float hi, bool clamp, float *c, size_t ldc);

typedef struct nn_gemm_isa {
    size_t s_mr;
    nn_sgemm_kernel_fn skernel;
    size_t q_mr;
    nn_qgemm_kernel_fn qkernel;
    nn_qgemm_requant_fn qrequant; /* NULL: scalar path */
    nn_sgemm_dot_fn sdot;
} nn_gemm_isa;

void nn_sgemm_kernel_c(size_t mr, size_t kc, const float *a, size_t lda, const float *b, float *c,
                       size_t ldc, const float *bias, unsigned flags, float lo, float hi);
void nn_qgemm_kernel_c(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                       const int32_t *b, int32_t *acc, bool init);
void nn_sgemm_kernel_avx2(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                          float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                          float hi);
void nn_sgemm_kernel_avx512(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                            float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                            float hi);
void nn_qgemm_kernel_avx2(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                          const int32_t *b, int32_t *acc, bool init);
void nn_qgemm_kernel_avx512(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                            const int32_t *b, int32_t *acc, bool init);
void nn_sgemm_dot_c(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                    const float *b, size_t ldb, const float *bias, float lo, float hi, bool clamp,
                    float *c, size_t ldc);
void nn_sgemm_dot_avx512(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                         const float *b, size_t ldb, const float *bias, float lo, float hi,
                         bool clamp, float *c, size_t ldc);
void nn_qgemm_requant_avx512(size_t cols, const int32_t *acc, int32_t row_term,
                             const int32_t *col_term, const int32_t *mult, const int32_t *rshift,
                             int32_t out_zero, int32_t lo, int32_t hi, bool out_signed, void *out);

/* aarch64 (gemm_neon.c, gemm_neondot.c). */
void nn_sgemm_kernel_neon(size_t mr, size_t kc, const float *a, size_t lda, const float *b,
                          float *c, size_t ldc, const float *bias, unsigned flags, float lo,
                          float hi);
void nn_sgemm_dot_neon(size_t m, size_t j0, size_t j1, size_t k, const float *a, size_t lda,
                       const float *b, size_t ldb, const float *bias, float lo, float hi,
                       bool clamp, float *c, size_t ldc);
void nn_qgemm_kernel_neon(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                          const int32_t *b, int32_t *acc, bool init);
void nn_qgemm_kernel_neondot(size_t mr, size_t kq, const uint32_t *apack, size_t mr_stride,
                             const int32_t *b, int32_t *acc, bool init);
void nn_qgemm_requant_neon(size_t cols, const int32_t *acc, int32_t row_term,
                           const int32_t *col_term, const int32_t *mult, const int32_t *rshift,
                           int32_t out_zero, int32_t lo, int32_t hi, bool out_signed, void *out);

#define NN_SGEMM_MR_C 4
#define NN_SGEMM_MR_AVX2 6
#define NN_SGEMM_MR_AVX512 14
#define NN_QGEMM_MR_C 4
#define NN_QGEMM_MR_AVX2 3
#define NN_QGEMM_MR_AVX512 12
#define NN_SGEMM_MR_NEON 5
#define NN_QGEMM_MR_NEON 4
#define NN_QGEMM_MR_NEONDOT 6

#endif
