/*
 * Vector kernels of the quantized operations outside the GEMM and the
 * depthwise convolution: byte table lookups (the quantized LOGISTIC, TANH
 * and the other unary operations, and the requantizing copy of
 * CONCATENATION, all of whose results depend on one input byte) and the
 * quantized MAX_POOL_2D / AVERAGE_POOL_2D window, the quantized bilinear
 * resize and the sums of a quantized MEAN. Each has a portable
 * definition and AVX2 / AVX-512 versions chosen by nn_isa_current(), equal
 * to it bit for bit (tests/test_qops.c checks every level).
 */
#ifndef NN_KERNELS_QOPS_H
#define NN_KERNELS_QOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/isa.h"

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

/* One output pixel of a quantized RESIZE_BILINEAR over nc contiguous
 * channels: out[c] = p00[c] * w00 + p10[c] * w10 + p01[c] * w01 +
 * p11[c] * w11 in float32, summed in that order with every product and sum
 * rounded (no fused multiply-add), clamped to the type's range and
 * truncated toward zero, as the operation's portable loop computes it. */
typedef struct nn_q8_bilinear {
    const uint8_t *p00, *p01, *p10, *p11;
    float w00, w01, w10, w11;
    size_t nc;
    bool is_signed;
} nn_q8_bilinear;
void nn_q8_resize_bilinear(const nn_q8_bilinear *b, uint8_t *out);

/* acc[i] += in[i] as int8 (is_signed) or uint8 values, i < n: the sums of a
 * quantized MEAN (the caller keeps them below 2^31). */
void nn_q8_accumulate(const uint8_t *in, bool is_signed, int32_t *acc, size_t n);

/* The sum of in[0..n) as int8 or uint8 values. */
int64_t nn_q8_sum(const uint8_t *in, bool is_signed, size_t n);

/* The largest of in[0..n) (n >= 1) as int8 or uint8 values. */
int32_t nn_q8_max(const uint8_t *in, bool is_signed, size_t n);

/* The last pass of TFLite's quantized SOFTMAX over a row (ops/softmax.c):
 * with x = in[i] (int8 or uint8) and p = min(e[x] * inv, 512) in float32,
 * out[i] = round(p) + out_zero for int8 (ties away from zero), p + 1/2
 * truncated for uint8, saturated to the type. e is indexed by the value
 * (from -128 for int8). */
void nn_q8_softmax_out(const float *e, float inv, const uint8_t *in, bool is_signed,
                       int32_t out_zero, uint8_t *out, size_t n);

/* The portable definitions, and the vector ones (x86-64) for the
 * dispatcher and the tests. The vector averages take windows of fewer than
 * NN_Q8_POOL_VECTOR_MAX pixels, whose float quotients truncate exactly
 * (sums below 2^24, quotients at most 256 away from an integer by 1/count
 * or more, further than the float's error of 256 * 2^-24). */
#define NN_Q8_POOL_VECTOR_MAX 65536
void nn_q8_resize_bilinear_c(const nn_q8_bilinear *b, uint8_t *out);
void nn_q8_accumulate_c(const uint8_t *in, bool is_signed, int32_t *acc, size_t n);
int64_t nn_q8_sum_c(const uint8_t *in, bool is_signed, size_t n);
void nn_q8_resize_bilinear_avx2(const nn_q8_bilinear *b, uint8_t *out);
void nn_q8_accumulate_avx2(const uint8_t *in, bool is_signed, int32_t *acc, size_t n);
int64_t nn_q8_sum_avx2(const uint8_t *in, bool is_signed, size_t n);
void nn_q8_resize_bilinear_avx512(const nn_q8_bilinear *b, uint8_t *out);
void nn_q8_accumulate_avx512(const uint8_t *in, bool is_signed, int32_t *acc, size_t n);
int64_t nn_q8_sum_avx512(const uint8_t *in, bool is_signed, size_t n);
int32_t nn_q8_max_c(const uint8_t *in, bool is_signed, size_t n);
int32_t nn_q8_max_avx2(const uint8_t *in, bool is_signed, size_t n);
int32_t nn_q8_max_avx512(const uint8_t *in, bool is_signed, size_t n);
void nn_q8_softmax_out_c(const float *e, float inv, const uint8_t *in, bool is_signed,
                         int32_t out_zero, uint8_t *out, size_t n);
void nn_q8_softmax_out_avx2(const float *e, float inv, const uint8_t *in, bool is_signed,
                            int32_t out_zero, uint8_t *out, size_t n);
void nn_q8_softmax_out_avx512(const float *e, float inv, const uint8_t *in, bool is_signed,
                              int32_t out_zero, uint8_t *out, size_t n);
void nn_q8_lookup_c(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
void nn_q8_pool_max_c(const nn_q8_window *w, uint8_t *out);
void nn_q8_pool_avg_c(const nn_q8_window *w, uint8_t *out);
void nn_q8_lookup_avx2(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
void nn_q8_pool_max_avx2(const nn_q8_window *w, uint8_t *out);
void nn_q8_pool_avg_avx2(const nn_q8_window *w, uint8_t *out);
void nn_q8_lookup_avx512(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
void nn_q8_pool_max_avx512(const nn_q8_window *w, uint8_t *out);
void nn_q8_pool_avg_avx512(const nn_q8_window *w, uint8_t *out);

/* One ISA's versions of the kernels above: the table the dispatched
 * functions call for the current ISA, which the tests and bench_qops also
 * run version by version. */
typedef struct nn_q8_kernels {
    const char *name;
    void (*lookup)(const uint8_t table[256], const uint8_t *in, uint8_t *out, size_t n);
    void (*pool_max)(const nn_q8_window *w, uint8_t *out);
    void (*pool_avg)(const nn_q8_window *w, uint8_t *out);
    void (*bilinear)(const nn_q8_bilinear *b, uint8_t *out);
    void (*accumulate)(const uint8_t *in, bool is_signed, int32_t *acc, size_t n);
    int64_t (*sum)(const uint8_t *in, bool is_signed, size_t n);
    int32_t (*max)(const uint8_t *in, bool is_signed, size_t n);
    void (*softmax_out)(const float *e, float inv, const uint8_t *in, bool is_signed,
                        int32_t out_zero, uint8_t *out, size_t n);
} nn_q8_kernels;

/* isa's versions (whether or not this CPU runs them), or NULL for an ISA
 * with none of its own (the portable ones serve it). */
const nn_q8_kernels *nn_q8_kernels_for(nn_isa isa);

#endif
