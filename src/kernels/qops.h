/*
 * Vector kernels of the quantized operations outside the GEMM and the
 * depthwise convolution: byte table lookups (the quantized LOGISTIC, TANH
 * and the other unary operations, and the requantizing copy of
 * CONCATENATION, all of whose results depend on one input byte) and the
 * quantized MAX_POOL_2D / AVERAGE_POOL_2D window. Each has a portable
 * definition and AVX2 / AVX-512 versions chosen by nn_isa_current(), equal
 * to it bit for bit (tests/test_qops.c checks every level).
 */
#ifndef NN_KERNELS_QOPS_H
#define NN_KERNELS_QOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* out[i] = table[in[i]] for i < n; in and out may be the same array. */
void nn_q8_lookup(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);

/* One output pixel of a quantized pooling over channels [0, nc): the
 * window's rows x cols input pixels start at in (channel 0), row_step and
 * col_step elements apart; channels are contiguous. */
typedef struct nn_q8_window {
    const uint8_t *in;
    size_t rows, cols, row_step, col_step, nc;
    bool is_signed;   /* int8, else uint8 */
    int32_t lo, hi;   /* clamp range of the result */
} nn_q8_window;

/* out[c] = clamp(max over the window, lo, hi); an empty window gives
 * clamp(0, lo, hi). */
void nn_q8_pool_max(const nn_q8_window *w, uint8_t *out);

/* out[c] = clamp(the window's sum / count rounded half away from zero (as
 * TFLite's average pool rounds), lo, hi); an empty window gives clamp(0). */
void nn_q8_pool_avg(const nn_q8_window *w, uint8_t *out);

/* The portable definitions, and the vector ones (x86-64) for the
 * dispatcher and the tests. The vector averages take windows of fewer than
 * NN_Q8_POOL_VECTOR_MAX pixels, whose float quotients truncate exactly
 * (sums below 2^24, quotients at most 256 away from an integer by 1/count
 * or more, further than the float's error of 256 * 2^-24). */
#define NN_Q8_POOL_VECTOR_MAX 65536
void nn_q8_lookup_c(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
void nn_q8_pool_max_c(const nn_q8_window *w, uint8_t *out);
void nn_q8_pool_avg_c(const nn_q8_window *w, uint8_t *out);
void nn_q8_lookup_avx2(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
void nn_q8_pool_max_avx2(const nn_q8_window *w, uint8_t *out);
void nn_q8_pool_avg_avx2(const nn_q8_window *w, uint8_t *out);
void nn_q8_lookup_avx512(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
void nn_q8_pool_max_avx512(const nn_q8_window *w, uint8_t *out);
void nn_q8_pool_avg_avx512(const nn_q8_window *w, uint8_t *out);

#endif
