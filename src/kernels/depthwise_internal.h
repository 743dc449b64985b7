/*
 * Tile kernels behind depthwise.c. A tile is px output pixels next to each
 * other in one output row (multiplier 1: channel c reads input channel c),
 * over channels [0, nc) of the pointers given, and over a rectangle of
 * filter taps that lies inside the input for every pixel of the tile, so
 * the kernels check no bounds.
 */
#ifndef NN_KERNELS_DEPTHWISE_INTERNAL_H
#define NN_KERNELS_DEPTHWISE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/depthwise.h"

/* Most pixels in one tile. */
#define NN_DW_PX_MAX 8

typedef struct nn_dw_tile {
    size_t rows, cols;               /* filter taps of the rectangle */
    size_t in_row, in_col, in_px;    /* input element steps: filter row, filter column, pixel */
    size_t f_row, f_col;             /* filter element steps: row, column */
    size_t nc;                       /* channels */
    size_t out_px;                   /* output (or accumulator) step between pixels */
} nn_dw_tile;

/* out[p][c] = clamp(bias[c] + sum in * f, lo, hi); bias may be NULL. */
typedef void (*nn_dw_f32_fn)(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                             const float *bias, float lo, float hi, float *out);
/* acc[p][c] = sum (in - in_zero) * f, in 8-bit (signed or not), f the
 * filter minus its zero point as float: exact while the taps are at most
 * NN_DW_MAX_TAPS (products below 2^16, sums below 2^24). */
typedef void (*nn_dw_q8_fn)(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                            int32_t in_zero, const float *f, int32_t *acc);

#define NN_DW_MAX_TAPS 256

void nn_dw_tile_f32_c(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                      const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_c(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                     int32_t in_zero, const float *f, int32_t *acc);
void nn_dw_tile_f32_avx2(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                         const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_avx2(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                        int32_t in_zero, const float *f, int32_t *acc);
void nn_dw_tile_f32_avx512(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                           const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_avx512(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                          int32_t in_zero, const float *f, int32_t *acc);
void nn_dw_tile_f32_neon(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                         const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_neon(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                        int32_t in_zero, const float *f, int32_t *acc);

#endif
