/*
 * Tile kernels behind depthwise.c. A tile is px output pixels next to each
 * other in one output row (multiplier 1: channel c reads input channel c),
 * over channels [0, nc) of the pointers given, and over a rectangle of
 * filter taps that lies inside the input for every pixel of the tile, so
 * the kernels check no bounds. A new instruction set supplies an f32 and a
 * q8 tile function and an entry in depthwise.c's dw_isa_get(); its q8
 * tiles must give the portable tile's bytes exactly (tests/test_qkernels).
 */
#ifndef NN_KERNELS_DEPTHWISE_INTERNAL_H
#define NN_KERNELS_DEPTHWISE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/depthwise.h"
#include "kernels/quant.h"

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
/* The output stage of a quantized tile; the arrays start at the tile's
 * first channel. */
typedef struct nn_dw_out {
    const int32_t *bias, *mult, *shift; /* per channel; shift positive = left */
    int32_t out_zero, lo, hi;
} nn_dw_out;

/* TFLite's DEPTHWISE_CONV_2D requantizes with MultiplyByQuantizedMultiplier:
 * ties away from zero (kernels/quant.h). */
#define NN_DW_ROUNDING NN_ROUND_AWAY

/* out[p][c] = nn_requant_output(bias[c] + sum (in - in_zero) * f, mult[c],
 * shift[c], NN_DW_ROUNDING, out_zero, lo, hi) in 8 bits (int8 or uint8 by the clamp
 * range), pixel step t->out_px; in is 8-bit (signed or not), f the filter
 * minus its zero point. All in 32-bit integers: exact while the taps are at
 * most NN_DW_MAX_TAPS (|sums| < 2^25). */
typedef void (*nn_dw_q8_fn)(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                            int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out);

#define NN_DW_MAX_TAPS 256

/* A run of px output pixels in each of rows_out output rows (in_step input
 * and out_step output elements apart) for a 3x3 filter whose columns are
 * next to each other in the input (t->in_col apart, pixels t->in_px =
 * t->in_col or 2 * t->in_col apart: stride 1 or 2), over t->rows (1 to 3)
 * filter rows and all 3 columns: the shape of almost every quantized
 * depthwise layer. With lead, the first pixel's column 0 lies left of the
 * input and in points at its column 1; with trail, the last pixel's column
 * 2 lies right of the input (lead and trail pixels are distinct). Those
 * taps read in_zero, so they add nothing. Each input column is loaded once
 * for the pixels that share it, and the filter and requantization are set
 * up once for all the rows. f is the packed filter (nn_dw_pack16): the
 * filter minus its zero point in the low 16 bits of each int32, zeros
 * above, the form 16-bit multiply-add pairs take; o->bias already holds
 * bias - in_zero * (the sum of the rows' taps), so the raw input
 * multiplies. Gives nn_dw_tile_q8_c's bytes for the taps inside the input. */
typedef struct nn_dw_run {
    size_t px, rows_out, in_step, out_step;
    bool lead, trail;
} nn_dw_run;

typedef void (*nn_dw_q8_run_fn)(const nn_dw_tile *t, const nn_dw_run *run, const uint8_t *in,
                                bool in_signed, int32_t in_zero, const int32_t *f,
                                const nn_dw_out *o, uint8_t *out);

/* The packed form of a filter value f in [-255, 255]. */
static inline int32_t nn_dw_pack16(int32_t f) { return (int32_t)(uint16_t)f; }

void nn_dw_run_q8_c(const nn_dw_tile *t, const nn_dw_run *run, const uint8_t *in,
                   bool in_signed, int32_t in_zero, const int32_t *f, const nn_dw_out *o,
                   uint8_t *out);
void nn_dw_run_q8_avx2(const nn_dw_tile *t, const nn_dw_run *run, const uint8_t *in,
                   bool in_signed, int32_t in_zero, const int32_t *f, const nn_dw_out *o,
                   uint8_t *out);
void nn_dw_run_q8_avx512(const nn_dw_tile *t, const nn_dw_run *run, const uint8_t *in,
                   bool in_signed, int32_t in_zero, const int32_t *f, const nn_dw_out *o,
                   uint8_t *out);

void nn_dw_tile_f32_c(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                      const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_c(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                     int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out);
void nn_dw_tile_f32_avx2(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                         const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_avx2(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                        int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out);
void nn_dw_tile_f32_avx512(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                           const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_avx512(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                          int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out);
void nn_dw_tile_f32_neon(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                         const float *bias, float lo, float hi, float *out);
void nn_dw_tile_q8_neon(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                        int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out);

#endif
