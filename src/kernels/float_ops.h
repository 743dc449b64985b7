/*
 * Vectorized float32 rows of the reductions around the convolutions:
 * softmax along a contiguous axis and 2-D pooling over NHWC channels.
 * Each has a portable build and AVX2 / AVX-512 builds of the same source
 * (float_ops_impl.h, compiled three times), chosen by nn_isa_current().
 */
#ifndef NN_KERNELS_FLOAT_OPS_H
#define NN_KERNELS_FLOAT_OPS_H

#include <stdbool.h>
#include <stddef.h>

/* out[i] = exp(beta (x[i] - max)) / sum, or for log_softmax
 * beta (x[i] - max) - log(sum), over len contiguous floats. Returns false
 * (nothing written) when the row or beta is not finite: the caller's
 * scalar path gives those NaN / infinity results. */
bool nn_softmax_f32_row(const float *x, float *out, size_t len, float beta, bool log_softmax);

enum { NN_POOL_F32_AVG, NN_POOL_F32_MAX, NN_POOL_F32_L2 };

/* One output pixel of ch channels: the window's pixels are rows y in
 * [y0, y1) and columns x in [x0, x1) of an NHWC image (row stride
 * row_stride floats, pixel stride ch); count = window pixels (> 0). */
void nn_pool_f32_pixel(int kind, const float *in, size_t row_stride, size_t ch, size_t y0,
                       size_t y1, size_t x0, size_t x1, float lo, float hi, float *out);

/* The per-ISA builds behind the two functions above. */
typedef struct nn_float_ops_isa {
    void (*softmax_row)(const float *x, float *out, size_t len, float beta, float mx,
                        bool log_softmax);
    void (*pool_pixel)(int kind, const float *in, size_t row_stride, size_t ch, size_t y0,
                       size_t y1, size_t x0, size_t x1, float lo, float hi, float *out);
} nn_float_ops_isa;

extern const nn_float_ops_isa nn_float_ops_c, nn_float_ops_avx2, nn_float_ops_avx512;

#endif
