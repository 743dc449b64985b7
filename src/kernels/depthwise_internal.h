/* Per-pixel depthwise kernels behind depthwise.c. */
#ifndef NN_KERNELS_DEPTHWISE_INTERNAL_H
#define NN_KERNELS_DEPTHWISE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/depthwise.h"

/* Filters up to this many taps use the row kernels. */
#define NN_DW_ROW_MAX_TAPS 32

typedef struct nn_dw_q8_pixel {
    bool in_signed, out_signed;
    int32_t in_zero, out_zero, lo, hi;
    const int32_t *bias, *mult, *rshift; /* per channel; rshift = -shift >= 0 */
} nn_dw_q8_pixel;

void nn_dw_pixel_f32_avx512(size_t taps, const float *const *inp, const float *const *fp, size_t ch,
                            const float *bias, float lo, float hi, float *out);
void nn_dw_pixel_q8_avx512(size_t taps, const uint8_t *const *inp, const float *const *fp, size_t ch,
                           const nn_dw_q8_pixel *q, void *out);

void nn_dw_row_f32_avx512(const nn_dw_geom *g, size_t n, size_t oy, const float *in,
                          const float *filter, const float *bias, float lo, float hi, float *out);
void nn_dw_row_q8_avx512(const nn_dw_geom *g, size_t n, size_t oy, const uint8_t *in,
                         const float *filter, const nn_dw_q8_pixel *q, void *out);

#endif
