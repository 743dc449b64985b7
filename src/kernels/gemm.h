/*
 * Matrix products for the compute-heavy operations (convolutions, fully
 * connected, recurrent cells). All matrices are row-major with explicit row
 * strides (in elements). The right-hand operand is given transposed, as
 * NNAPI stores weights: B is n rows of k values, and C = A · Bᵀ.
 *
 * Every function spreads its work over the thread pool (nn_parallel_for);
 * called from inside a parallel loop it simply runs on the calling thread.
 * Zero-sized m, n or k are allowed (k == 0 gives bias, clamped).
 */
#ifndef NN_KERNELS_GEMM_H
#define NN_KERNELS_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/quant.h"

/* ---- float32 ---- */

/* C[i][j] = clamp(sum_p A[i][p] * B[j][p] + bias[j], lo, hi);
 * bias may be NULL (zero). Use -INFINITY / INFINITY for no clamp.
 * Up to 4 rows run as dot products over B in place; more rows pack B per
 * call (pack it once with nn_sgemm_pack when it is reused).
 * Returns ANEURALNETWORKS_NO_ERROR or OUT_OF_MEMORY. */
int nn_sgemm(size_t m, size_t n, size_t k, const float *a, size_t lda, const float *b,
             size_t ldb, const float *bias, float lo, float hi, float *c, size_t ldc);

/* B packed once (e.g. constant weights, at plan time) for repeated products. */
typedef struct nn_sgemm_packed nn_sgemm_packed;

/* Packs B (n rows of k, row stride ldb). NULL when out of memory. */
nn_sgemm_packed *nn_sgemm_pack(size_t n, size_t k, const float *b, size_t ldb);
void nn_sgemm_packed_free(nn_sgemm_packed *p);
size_t nn_sgemm_packed_n(const nn_sgemm_packed *p);
size_t nn_sgemm_packed_k(const nn_sgemm_packed *p);

/* As nn_sgemm, with B = the packed matrix (n and k from the packing). */
void nn_sgemm_prepacked(size_t m, const float *a, size_t lda, const nn_sgemm_packed *bp,
                        const float *bias, float lo, float hi, float *c, size_t ldc);

/* ---- 8-bit integer, int32 accumulation ----
 * Elements are uint8 (is_signed false) or int8 (true), each operand with its
 * zero point: acc[i][j] = bias[j] + sum_p (A[i][p] - a_zero) * (B[j][p] - b_zero).
 * The caller keeps k small enough that int32 accumulation cannot overflow
 * (k < 2^16 always is). */
typedef struct nn_q8_matrix {
    const void *data;
    size_t ld;
    bool is_signed;
    int32_t zero;
    /* A operand only: every row (the last too) can be read up to k rounded
     * up to 4 bytes; the bytes past k may hold anything. */
    bool padded;
} nn_q8_matrix;

/* Raw int32 accumulators into C (row stride ldc). bias may be NULL.
 * Returns ANEURALNETWORKS_NO_ERROR or OUT_OF_MEMORY (B is packed per call). */
int nn_qgemm_i32(size_t m, size_t n, size_t k, const nn_q8_matrix *a, const nn_q8_matrix *b,
                  const int32_t *bias, int32_t *c, size_t ldc);

/* Requantization of accumulators to an 8-bit output:
 * out = clamp(out_zero + acc * mult[j] * 2^(shift[j] - 31), lo, hi)
 * by nn_requant_output (kernels/quant.h) with the given rounding of ties.
 * per_channel false: mult[0]/shift[0] for all j. */
typedef struct nn_requant {
    const int32_t *mult;
    const int32_t *shift;
    nn_rounding rounding;
    bool per_channel;
    int32_t out_zero;
    int32_t lo, hi;        /* in the output's quantized domain */
    bool out_signed;       /* int8 output, else uint8 */
} nn_requant;

/* B packed once for repeated quantized products (weights at plan time). */
typedef struct nn_qgemm_packed nn_qgemm_packed;

/* NULL when out of memory. */
nn_qgemm_packed *nn_qgemm_pack(size_t n, size_t k, const nn_q8_matrix *b);
void nn_qgemm_packed_free(nn_qgemm_packed *p);

/* acc = bias[j] + sum_p (A - a_zero)(B - b_zero), requantized into C
 * (8-bit, row stride ldc, signedness from rq->out_signed). */
void nn_qgemm_prepacked(size_t m, const nn_q8_matrix *a, const nn_qgemm_packed *bp,
                        const int32_t *bias, const nn_requant *rq, void *c, size_t ldc);

/* As nn_qgemm_prepacked with raw int32 accumulators (row stride ldc). */
void nn_qgemm_prepacked_i32(size_t m, const nn_q8_matrix *a, const nn_qgemm_packed *bp,
                            const int32_t *bias, int32_t *c, size_t ldc);

/* Unpacked convenience form of nn_qgemm_prepacked (packs B per call);
 * NO_ERROR or OUT_OF_MEMORY. */
int nn_qgemm(size_t m, size_t n, size_t k, const nn_q8_matrix *a, const nn_q8_matrix *b,
             const int32_t *bias, const nn_requant *rq, void *c, size_t ldc);

#endif
