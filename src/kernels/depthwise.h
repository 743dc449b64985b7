/* Depthwise 2-D convolution on NHWC data, threaded over output rows. */
#ifndef NN_KERNELS_DEPTHWISE_H
#define NN_KERNELS_DEPTHWISE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct nn_dw_geom {
    uint32_t n, in_h, in_w, in_c;
    uint32_t out_h, out_w, out_c; /* out_c = in_c * multiplier */
    uint32_t f_h, f_w, multiplier;
    int32_t pad_t, pad_l, stride_h, stride_w, dil_h, dil_w;
} nn_dw_geom;

/* filter [f_h, f_w, out_c], bias [out_c] (may be NULL). NO_ERROR or
 * OUT_OF_MEMORY. */
int nn_depthwise_f32(const nn_dw_geom *g, const float *in, const float *filter,
                      const float *bias, float lo, float hi, float *out);

/* 8-bit: acc = bias + sum (in - in_zero)(filter - filter_zero), requantized
 * per output channel with mult/shift, clamped to [lo, hi]. */
typedef struct nn_dw_quant {
    bool in_signed, filter_signed, out_signed;
    int32_t in_zero, filter_zero, out_zero, lo, hi;
    const int32_t *bias, *mult, *shift; /* out_c each; bias may be NULL */
} nn_dw_quant;

/* NO_ERROR or OUT_OF_MEMORY. */
int nn_depthwise_q8(const nn_dw_geom *g, const void *in, const void *filter,
                     const nn_dw_quant *q, void *out);

/* The filter, bias and requantization of a quantized depthwise layer in the
 * forms the kernels take, built once (per compilation when they are
 * constant): everything of q but the clamp range lo, hi. */
typedef struct nn_dw_q8_weights nn_dw_q8_weights;

/* g's f_h, f_w and out_c; NO_ERROR or OUT_OF_MEMORY. q's mult and shift
 * may be NULL: the caller then writes them through nn_dw_q8_requant_of. */
int nn_dw_q8_weights_build(const nn_dw_geom *g, const void *filter, const nn_dw_quant *q,
                           nn_dw_q8_weights **w);
/* Where the caller of a build without mult and shift writes them (out_c
 * multipliers, then out_c shifts); NULL when the weights came built from
 * the compilation cache, requantization included. */
int32_t *nn_dw_q8_requant_of(nn_dw_q8_weights *w);
void nn_dw_q8_weights_free(nn_dw_q8_weights *w);

/* nn_depthwise_q8 with weights built for g's filter shape and the clamp
 * range [lo, hi]. NO_ERROR or OUT_OF_MEMORY. */
int nn_depthwise_q8_built(const nn_dw_geom *g, const void *in, const nn_dw_q8_weights *w,
                          int32_t lo, int32_t hi, void *out);

#endif
