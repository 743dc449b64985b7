/*
 * Direct float32 convolution for layers with few input channels (a
 * network's first convolution: 3 channels, 3x3, stride 2). im2col would
 * turn each output pixel into a short row (27 values) and the product
 * would spend more time on the copy and on the tile edges than on the
 * multiply-adds; here the filter taps are multiplied straight from the NHWC
 * input. NHWC data, dilation 1, one group; threaded over output rows.
 */
#ifndef NN_KERNELS_CONV_DIRECT_H
#define NN_KERNELS_CONV_DIRECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct nn_sconv_direct_geom {
    uint32_t n, in_h, in_w, in_c;
    uint32_t out_h, out_w, out_c;
    uint32_t f_h, f_w;
    int32_t pad_t, pad_l, stride_h, stride_w;
} nn_sconv_direct_geom;

/* True when the direct kernel is the better path for this shape. */
bool nn_sconv_direct_fits(uint32_t in_c, uint32_t f_h, uint32_t f_w, int32_t dil_h,
                          int32_t dil_w, uint32_t groups);

/* Filter [out_c, f_h, f_w, in_c] and bias (out_c, may be NULL) rearranged
 * for the kernels; NULL when out of memory. */
typedef struct nn_sconv_direct_weights nn_sconv_direct_weights;
nn_sconv_direct_weights *nn_sconv_direct_pack(uint32_t out_c, uint32_t f_h, uint32_t f_w,
                                              uint32_t in_c, const float *filter,
                                              const float *bias);
void nn_sconv_direct_free(nn_sconv_direct_weights *w);

/* out = clamp(conv(in, w) + bias, lo, hi). g must match the packing. */
void nn_sconv_direct(const nn_sconv_direct_geom *g, const float *in,
                     const nn_sconv_direct_weights *w, float lo, float hi, float *out);

/* ---- the per-ISA kernel (tests/test_kernels_isa.c checks each one) ----
 * npix output pixels of one row, all channels: pixel p reads, for each
 * filter row r < f_h, the run of taps_w floats at in + p * step + r * row
 * (taps_w = f_w * in_c: the filter row's taps, contiguous in NHWC), and
 * writes out[p * oc + j] for j < oc. w holds f_h * taps_w groups of ocp
 * floats (ocp = oc rounded up to 16, zero beyond oc); bias ocp floats. */
typedef void (*nn_sconv_direct_fn)(size_t npix, const float *in, size_t step, size_t row,
                                   size_t f_h, size_t taps_w, const float *w, size_t ocp,
                                   const float *bias, float lo, float hi, float *out, size_t oc);

void nn_sconv_direct_row_c(size_t npix, const float *in, size_t step, size_t row, size_t f_h,
                           size_t taps_w, const float *w, size_t ocp, const float *bias, float lo,
                           float hi, float *out, size_t oc);
void nn_sconv_direct_row_avx2(size_t npix, const float *in, size_t step, size_t row, size_t f_h,
                              size_t taps_w, const float *w, size_t ocp, const float *bias,
                              float lo, float hi, float *out, size_t oc);
void nn_sconv_direct_row_avx512(size_t npix, const float *in, size_t step, size_t row,
                                size_t f_h, size_t taps_w, const float *w, size_t ocp,
                                const float *bias, float lo, float hi, float *out, size_t oc);

#endif
