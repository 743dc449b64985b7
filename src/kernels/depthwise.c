/*
 * Depthwise convolution, one output row per task. Each row is cut into
 * tiles (depthwise_internal.h) whose filter taps all fall inside the input:
 * runs of up to 8 interior pixels, single pixels at the borders with their
 * taps clipped, so the vector kernels need no bounds checks. A depth
 * multiplier above 1 first replicates each input channel multiplier times
 * (small for the usual few input channels), making every case multiplier 1.
 * Quantized 3x3 filters take the interior of each output row in one run
 * (nn_dw_q8_run_fn) with the input zero point folded into the bias.
 */
#include "kernels/depthwise.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "android/NeuralNetworks.h"
#include "kernels/blob.h"
#include "kernels/depthwise_internal.h"
#include "kernels/isa.h"
#include "kernels/quant.h"
#include "util/threadpool.h"

/* Most input bytes the quantized runs of several output rows read. */
#define RUN_BATCH_BYTES ((size_t)64 << 10)

/* Largest replicated input for multipliers above 1. */
#define MAX_EXPANDED_BYTES ((size_t)64 << 20)

typedef struct dw_isa {
    nn_dw_f32_fn f32;
    nn_dw_q8_fn q8;
    nn_dw_q8_run_fn q8_run; /* NULL: the tiles take the whole row */
} dw_isa;

static const dw_isa isa_c = {nn_dw_tile_f32_c, nn_dw_tile_q8_c, nn_dw_run_q8_c};
#if defined(NN_KERNELS_X86_64)
static const dw_isa isa_avx2 = {nn_dw_tile_f32_avx2, nn_dw_tile_q8_avx2, nn_dw_run_q8_avx2};
static const dw_isa isa_avx512 = {nn_dw_tile_f32_avx512, nn_dw_tile_q8_avx512,
                                  nn_dw_run_q8_avx512};
#elif defined(NN_KERNELS_AARCH64)
static const dw_isa isa_neon = {nn_dw_tile_f32_neon, nn_dw_tile_q8_neon, NULL};
#endif
/* The tiles of the level nn_isa_current() chose (src/kernels/isa.c). */
static const dw_isa *dw_isa_get(void)
{
    switch (nn_isa_current()) {
#if defined(NN_KERNELS_X86_64)
    case NN_ISA_AVX512:
        return &isa_avx512;
    case NN_ISA_AVX2:
        return &isa_avx2;
#elif defined(NN_KERNELS_AARCH64)
    case NN_ISA_NEONDOT:
    case NN_ISA_NEON:
        return &isa_neon;
#endif
    default:
        return &isa_c;
    }
}

/* ---- portable tiles ---- */

void nn_dw_tile_f32_c(const nn_dw_tile *t, size_t px, const float *in, const float *f,
                      const float *bias, float lo, float hi, float *out)
{
    for (size_t p = 0; p < px; p++) {
        float *o = out + p * t->out_px;
        const float *ip = in + p * t->in_px;
        for (size_t c = 0; c < t->nc; c++)
            o[c] = bias ? bias[c] : 0.0f;
        for (size_t r = 0; r < t->rows; r++)
            for (size_t j = 0; j < t->cols; j++) {
                const float *x = ip + r * t->in_row + j * t->in_col;
                const float *w = f + r * t->f_row + j * t->f_col;
                for (size_t c = 0; c < t->nc; c++)
                    o[c] += x[c] * w[c];
            }
        for (size_t c = 0; c < t->nc; c++)
            o[c] = o[c] < lo ? lo : (o[c] > hi ? hi : o[c]);
    }
}

void nn_dw_tile_q8_c(const nn_dw_tile *t, size_t px, const uint8_t *in, bool in_signed,
                     int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    for (size_t p = 0; p < px; p++) {
        const uint8_t *ip = in + p * t->in_px;
        uint8_t *op = out + p * t->out_px;
        for (size_t c = 0; c < t->nc; c++) {
            int32_t acc = o->bias[c];
            for (size_t r = 0; r < t->rows; r++)
                for (size_t j = 0; j < t->cols; j++) {
                    uint8_t x = ip[r * t->in_row + j * t->in_col + c];
                    int32_t v = (in_signed ? (int8_t)x : x) - in_zero;
                    int32_t w = f[r * t->f_row + j * t->f_col + c];
                    acc = nn_wrapping_add_i32(acc, nn_wrapping_mul_i32(v, w));
                }
            /* the low byte: int8 or uint8 */
            op[c] = (uint8_t)nn_requant_output(acc, o->mult[c], o->shift[c], NN_DW_ROUNDING,
                                               o->out_zero, o->lo, o->hi);
        }
    }
}

/* The filter value in the low 16 bits of a packed one (nn_dw_pack16). */
static inline int32_t unpack16(int32_t v)
{
    v &= 0xffff;
    return v >= 0x8000 ? v - 0x10000 : v;
}

/* One row of a run. */
static void run_row_q8_c(const nn_dw_tile *t, size_t px, bool lead, bool trail, const uint8_t *in,
                         bool in_signed, int32_t in_zero, const int32_t *f, const nn_dw_out *o,
                         uint8_t *out)
{
    const size_t back = lead ? t->in_col : 0; /* in is the first pixel's column 1 */
    for (size_t p = 0; p < px; p++) {
        uint8_t *op = out + p * t->out_px;
        for (size_t c = 0; c < t->nc; c++) {
            int32_t acc = o->bias[c];
            for (size_t r = 0; r < t->rows; r++)
                for (size_t j = 0; j < 3; j++) {
                    int32_t v = in_zero;
                    if (!(lead && p == 0 && j == 0) && !(trail && p + 1 == px && j == 2)) {
                        uint8_t x = in[p * t->in_px + r * t->in_row + j * t->in_col - back + c];
                        v = in_signed ? (int8_t)x : x;
                    }
                    acc = nn_wrapping_add_i32(acc, v * unpack16(f[r * t->f_row + j * t->f_col + c]));
                }
            op[c] = (uint8_t)nn_requant_output(acc, o->mult[c], o->shift[c], NN_DW_ROUNDING,
                                               o->out_zero, o->lo, o->hi);
        }
    }
}

void nn_dw_run_q8_c(const nn_dw_tile *t, const nn_dw_run *run, const uint8_t *in, bool in_signed,
                    int32_t in_zero, const int32_t *f, const nn_dw_out *o, uint8_t *out)
{
    for (size_t y = 0; y < run->rows_out; y++)
        run_row_q8_c(t, run->px, run->lead, run->trail, in + y * run->in_step, in_signed, in_zero,
                     f, o, out + y * run->out_step);
}

/* ---- weights ---- */

struct nn_dw_q8_weights {
    nn_dw_quant q;       /* bias, mult and shift point into blob */
    int32_t *wf;         /* [tap][channel]: the filter minus its zero point */
    int32_t *packed;     /* 3x3 filters: wf packed (nn_dw_pack16), else NULL */
    int32_t *row_bias;   /* 3x3: [r_lo * 3 + r_hi - 1][channel], r_lo < r_hi: the bias
                          * minus in_zero * the sum of filter rows [r_lo, r_hi) */
    /* wf, bias, mult, shift, then packed and row_bias: a compilation cache
     * blob (kernels/blob.h), so that a cache hit maps them built. */
    int32_t *blob;
    bool owns_blob;
    bool filled;         /* the blob came built from the cache */
};

static void fill_q8_weights(nn_dw_q8_weights *w, size_t taps, size_t oc, const void *filter,
                            const nn_dw_quant *q)
{
    int32_t *bias = w->wf + taps * oc, *mult = bias + oc, *shift = mult + oc;
    if (q->filter_signed)
        for (size_t i = 0; i < taps * oc; i++)
            w->wf[i] = ((const int8_t *)filter)[i] - q->filter_zero;
    else
        for (size_t i = 0; i < taps * oc; i++)
            w->wf[i] = ((const uint8_t *)filter)[i] - q->filter_zero;
    for (size_t c = 0; c < oc; c++)
        bias[c] = q->bias ? q->bias[c] : 0;
    if (q->mult) {
        memcpy(mult, q->mult, oc * sizeof *mult);
        memcpy(shift, q->shift, oc * sizeof *shift);
    }
    if (!w->packed)
        return;
    for (size_t i = 0; i < taps * oc; i++)
        w->packed[i] = nn_dw_pack16(w->wf[i]);
    for (size_t c = 0; c < oc; c++) {
        int64_t row[3];
        for (size_t r = 0; r < 3; r++)
            row[r] = (int64_t)w->wf[(r * 3) * oc + c] + w->wf[(r * 3 + 1) * oc + c] +
                     w->wf[(r * 3 + 2) * oc + c];
        for (size_t lo = 0; lo < 3; lo++) {
            int64_t sum = 0;
            for (size_t hi = lo + 1; hi <= 3; hi++) {
                sum += row[hi - 1];
                /* the kernels' wrapping 32-bit sums */
                w->row_bias[(lo * 3 + hi - 1) * oc + c] =
                    nn_wrapping_add_i32(bias[c], (int32_t)(uint32_t)(-(int64_t)q->in_zero * sum));
            }
        }
    }
}

int nn_dw_q8_weights_build(const nn_dw_geom *g, const void *filter, const nn_dw_quant *q,
                           nn_dw_q8_weights **wp)
{
    *wp = NULL;
    size_t taps = (size_t)g->f_h * g->f_w, oc = g->out_c;
    bool three = g->f_h == 3 && g->f_w == 3;
    size_t words = taps * oc + 3 * oc + (three ? taps * oc + 9 * oc : 0);
    nn_dw_q8_weights *w = malloc(sizeof *w);
    if (!w)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    bool filled;
    w->blob = nn_blob_acquire(words * sizeof(int32_t), &filled, &w->owns_blob);
    if (!w->blob) {
        free(w);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    w->q = *q;
    w->wf = w->blob;
    w->q.bias = w->wf + taps * oc;
    w->q.mult = w->q.bias + oc;
    w->q.shift = w->q.mult + oc;
    w->packed = three ? w->wf + taps * oc + 3 * oc : NULL;
    w->row_bias = three ? w->packed + taps * oc : NULL;
    w->filled = filled;
    if (!filled)
        fill_q8_weights(w, taps, oc, filter, q);
    *wp = w;
    return ANEURALNETWORKS_NO_ERROR;
}

int32_t *nn_dw_q8_requant_of(nn_dw_q8_weights *w)
{
    return w->filled ? NULL : (int32_t *)w->q.mult;
}

void nn_dw_q8_weights_free(nn_dw_q8_weights *w)
{
    if (w) {
        if (w->owns_blob)
            free(w->blob);
        free(w);
    }
}

/* ---- rows ---- */

typedef struct dw_job {
    const nn_dw_geom *g;
    const dw_isa *isa;   /* NULL: the bounds-checked path */
    const void *in;      /* out_c channels (multiplier 1) on the tile path */
    const float *f;      /* float filter */
    const float *bias;   /* float path, may be NULL */
    float lo, hi;
    const nn_dw_quant *q;
    const int32_t *qbias; /* quantized: bias (zeros when absent) */
    const int32_t *wf;   /* quantized filter minus its zero point */
    const nn_dw_q8_weights *w; /* quantized */
    bool run;            /* quantized: the interior columns by isa->q8_run */
    size_t xa, xb;       /* output columns whose taps all fall inside the input */
    /* Channel blocks per output row (float tiles only; 1 otherwise): a task
     * is one block of one row, so that layers of few rows (7 at 7x7) still
     * split evenly between the threads. */
    size_t blocks, block_c; /* blocks, and channels in each but the last */
    bool lead, trail;    /* runs: with the column before xa (missing its column 0),
                          * the column xb (missing its column 2) */
    void *out;
} dw_job;

/* Filters with more taps than the tile kernels take, or multipliers whose
 * expanded input would be too large: plain bounds-checked loops. */
static void dw_rows_large(const dw_job *J, size_t begin, size_t end)
{
    const nn_dw_geom *g = J->g;
    const size_t oc = g->out_c, m = g->multiplier;
    const nn_dw_quant *q = J->q;
    for (size_t row = begin; row < end; row++) {
        size_t n = row / g->out_h, oy = row % g->out_h;
        for (size_t ox = 0; ox < g->out_w; ox++) {
            size_t obase = ((n * g->out_h + oy) * g->out_w + ox) * oc;
            for (size_t c = 0; c < oc; c++) {
                float facc = J->bias ? J->bias[c] : 0.0f;
                int32_t qacc = q && q->bias ? q->bias[c] : 0;
                for (uint32_t i = 0; i < g->f_h; i++) {
                    int64_t y = (int64_t)oy * g->stride_h + (int64_t)i * g->dil_h - g->pad_t;
                    for (uint32_t j = 0; y >= 0 && y < g->in_h && j < g->f_w; j++) {
                        int64_t x = (int64_t)ox * g->stride_w + (int64_t)j * g->dil_w - g->pad_l;
                        if (x < 0 || x >= g->in_w)
                            continue;
                        size_t ii = ((n * g->in_h + (size_t)y) * g->in_w + (size_t)x) * g->in_c + c / m;
                        size_t fi = ((size_t)i * g->f_w + j) * oc + c;
                        if (q) {
                            const uint8_t *in = J->in;
                            int32_t xv = q->in_signed ? (int8_t)in[ii] : in[ii];
                            qacc = nn_wrapping_add_i32(
                                qacc, nn_wrapping_mul_i32(xv - q->in_zero, J->wf[fi]));
                        } else {
                            facc += ((const float *)J->in)[ii] * J->f[fi];
                        }
                    }
                }
                if (!q) {
                    ((float *)J->out)[obase + c] = facc < J->lo ? J->lo : (facc > J->hi ? J->hi : facc);
                    continue;
                }
                int32_t v = nn_requant_output(qacc, q->mult[c], q->shift[c], NN_DW_ROUNDING,
                                              q->out_zero, q->lo, q->hi);
                if (q->out_signed)
                    ((int8_t *)J->out)[obase + c] = (int8_t)v;
                else
                    ((uint8_t *)J->out)[obase + c] = (uint8_t)v;
            }
        }
    }
}


/* Taps k in [0, n) whose position base + k * step lies in [0, size). */
static void tap_range(int64_t base, int64_t step, uint32_t n, uint32_t size, size_t *lo, size_t *hi)
{
    int64_t a = 0, b = n;
    if (base < 0)
        a = (-base + step - 1) / step;
    if (base >= size) {
        b = 0;
    } else {
        int64_t e = ((int64_t)size - base + step - 1) / step;
        b = e < b ? e : b;
    }
    *lo = (size_t)(a < b ? a : b);
    *hi = (size_t)b;
}

/* The quantized run over the interior columns (with their lead and trail
 * pixels) of rows_out output rows from oy, which share their filter rows
 * [r_lo, r_hi). */
static void dw_run(const dw_job *J, size_t n, size_t oy, size_t rows_out, size_t r_lo, size_t r_hi,
                   const nn_dw_tile *t, size_t row_px)
{
    const nn_dw_geom *g = J->g;
    const size_t C = g->out_c;
    const nn_dw_q8_weights *w = J->w;
    size_t ox = J->xa - J->lead;
    nn_dw_tile rt = *t;
    rt.cols = 3;
    nn_dw_run run = {.px = J->xb - ox + J->trail, .rows_out = rows_out,
                     .in_step = (size_t)g->stride_h * g->in_w * C, .out_step = (size_t)g->out_w * C,
                     .lead = J->lead, .trail = J->trail};
    nn_dw_out o = {w->row_bias + (r_lo * 3 + r_hi - 1) * C, w->q.mult, w->q.shift, w->q.out_zero,
                   J->q->lo, J->q->hi};
    /* The first column inside the input: column 1 of a lead pixel. */
    size_t first = (size_t)((int64_t)ox * g->stride_w - g->pad_l + (J->lead ? 1 : 0));
    J->isa->q8_run(&rt, &run, (const uint8_t *)J->in + (row_px + first) * C, w->q.in_signed,
                   w->q.in_zero, w->packed + r_lo * 3 * C, &o,
                   (uint8_t *)J->out + ((n * g->out_h + oy) * g->out_w + ox) * C);
}

/* Channels [c0, c0 + nc) of output rows [oy, oy + rows_out) of image n,
 * which share their filter rows; the quantized tiles take every channel
 * (c0 = 0, nc = out_c). */
static void dw_row_tiles(const dw_job *J, size_t n, size_t oy, size_t rows_out, size_t c0,
                         size_t nc)
{
    const nn_dw_geom *g = J->g;
    const size_t C = g->out_c;
    size_t r_lo, r_hi;
    int64_t ybase = (int64_t)oy * g->stride_h - g->pad_t;
    tap_range(ybase, g->dil_h, g->f_h, g->in_h, &r_lo, &r_hi);
    nn_dw_tile t = {.rows = r_hi - r_lo,
                    .in_row = (size_t)g->dil_h * g->in_w * C,
                    .in_col = (size_t)g->dil_w * C,
                    .in_px = (size_t)g->stride_w * C,
                    .f_row = (size_t)g->f_w * C,
                    .f_col = C,
                    .nc = nc,
                    .out_px = C};
    size_t y0 = t.rows ? (size_t)(ybase + (int64_t)r_lo * g->dil_h) : 0;
    /* The run's columns, taken by dw_run. */
    size_t skip_a = 0, skip_b = 0;
    if (J->run && J->xb > J->xa && t.rows) {
        dw_run(J, n, oy, rows_out, r_lo, r_hi, &t, ((size_t)n * g->in_h + y0) * g->in_w);
        skip_a = J->xa - J->lead;
        skip_b = J->xb + J->trail;
    }
    for (size_t y = 0; y < rows_out; y++, oy++, y0 += (size_t)g->stride_h) {
        size_t row_px = ((size_t)n * g->in_h + y0) * g->in_w;
        for (size_t ox = 0, px; ox < g->out_w; ox += px) {
            if (ox == skip_a && skip_b > skip_a) {
                px = skip_b - skip_a;
                continue;
            }
            size_t c_lo = 0, c_hi = g->f_w;
            int64_t xbase = (int64_t)ox * g->stride_w - g->pad_l;
            if (ox >= J->xa && ox < J->xb) {
                size_t run = J->xb - ox;
                /* Many channels: 4 pixels over wider channel blocks. */
                size_t most = C >= 32 ? 4 : 8;
                px = run >= most ? most : run >= 4 ? 4 : run >= 2 ? 2 : 1;
            } else {
                px = 1;
                tap_range(xbase, g->dil_w, g->f_w, g->in_w, &c_lo, &c_hi);
            }
            t.cols = c_hi - c_lo;
            /* With no tap inside the input the pointers are never read. */
            size_t in_off = 0, f_off = 0;
            if (t.rows && t.cols) {
                in_off = (row_px + (size_t)(xbase + (int64_t)c_lo * g->dil_w)) * C;
                f_off = (r_lo * g->f_w + c_lo) * C;
            }
            size_t obase = ((n * g->out_h + oy) * g->out_w + ox) * C;
            if (!J->q) {
                J->isa->f32(&t, px, (const float *)J->in + in_off + c0, J->f + f_off + c0,
                            J->bias ? J->bias + c0 : NULL, J->lo, J->hi,
                            (float *)J->out + obase + c0);
                continue;
            }
            const nn_dw_quant *q = J->q;
            nn_dw_out o = {J->qbias, q->mult, q->shift, q->out_zero, q->lo, q->hi};
            J->isa->q8(&t, px, (const uint8_t *)J->in + in_off, q->in_signed, q->in_zero,
                       J->wf + f_off, &o, (uint8_t *)J->out + obase);
        }
    }
}

/* Whether every filter row of output row oy lies inside the input. */
static bool full_rows(const nn_dw_geom *g, size_t oy)
{
    size_t lo, hi;
    tap_range((int64_t)oy * g->stride_h - g->pad_t, g->dil_h, g->f_h, g->in_h, &lo, &hi);
    return lo == 0 && hi == g->f_h;
}

static void dw_rows(void *arg, size_t begin, size_t end)
{
    const dw_job *J = arg;
    const nn_dw_geom *g = J->g;
    if (J->isa == NULL) {
        dw_rows_large(J, begin, end);
        return;
    }
    if (J->blocks > 1) {
        for (size_t u = begin; u < end; u++) {
            size_t row = u / J->blocks, c0 = u % J->blocks * J->block_c;
            size_t nc = g->out_c - c0 < J->block_c ? g->out_c - c0 : J->block_c;
            dw_row_tiles(J, row / g->out_h, row % g->out_h, 1, c0, nc);
        }
        return;
    }
    const size_t row_bytes = (size_t)g->in_w * g->out_c;
    for (size_t row = begin, count; row < end; row += count) {
        size_t n = row / g->out_h, oy = row % g->out_h;
        count = 1;
        /* Rows with every filter row inside the input go together, up to
         * the image's end, while the input rows they read stay in cache
         * for the next block of channels: their runs share one setup. */
        if (J->run && full_rows(g, oy))
            while (row + count < end && oy + count < g->out_h && full_rows(g, oy + count) &&
                   ((count + 1) * g->stride_h + g->f_h) * row_bytes <= RUN_BATCH_BYTES)
                count++;
        dw_row_tiles(J, n, oy, count, 0, g->out_c);
    }
}

static void run_rows(const nn_dw_geom *g, dw_job *J)
{
    /* The interior columns: every filter column inside the input. */
    J->xa = J->xb = 0;
    for (size_t ox = 0; ox < g->out_w; ox++) {
        size_t lo, hi;
        tap_range((int64_t)ox * g->stride_w - g->pad_l, g->dil_w, g->f_w, g->in_w, &lo, &hi);
        if (lo == 0 && hi == g->f_w) {
            if (J->xb == 0)
                J->xa = ox;
            J->xb = ox + 1;
        }
    }
    J->lead = J->trail = false;
    if (J->run && J->xb > J->xa) {
        size_t lo, hi;
        if (J->xa > 0) {
            tap_range((int64_t)(J->xa - 1) * g->stride_w - g->pad_l, 1, 3, g->in_w, &lo, &hi);
            J->lead = lo == 1 && hi == 3;
        }
        if (J->xb < g->out_w) {
            tap_range((int64_t)J->xb * g->stride_w - g->pad_l, 1, 3, g->in_w, &lo, &hi);
            J->trail = lo == 0 && hi == 2;
        }
    }
    size_t rows = (size_t)g->n * g->out_h;
    /* Fewer rows than 4 per thread: blocks of 16 channels or more (whole
     * vectors, so every channel runs the same code as unsplit). */
    const size_t threads = (size_t)nn_thread_count();
    J->blocks = 1;
    J->block_c = g->out_c;
    const size_t vectors = (g->out_c + 15) / 16;
    if (J->isa && !J->q && threads > 1 && rows < 4 * threads && vectors > 1) {
        size_t want = (4 * threads + rows - 1) / rows;
        J->block_c = (vectors + (want < vectors ? want : vectors) - 1) /
                     (want < vectors ? want : vectors) * 16;
        J->blocks = (g->out_c + J->block_c - 1) / J->block_c;
    }
    size_t units = rows * J->blocks;
    size_t per_unit = (size_t)g->out_w * J->block_c * g->f_h * g->f_w;
    size_t grain = per_unit ? ((size_t)1 << 14) / per_unit + 1 : units;
    nn_parallel_for(units, grain, dw_rows, J);
}

/* The input with each channel repeated multiplier times (element size es),
 * or NULL with *rc set: OUT_OF_MEMORY, or NO_ERROR when it is too large to
 * be worth building (the bounds-checked path runs instead). */
static void *expand_input(const nn_dw_geom *g, const void *in, size_t es, int *rc)
{
    *rc = ANEURALNETWORKS_NO_ERROR;
    size_t pixels = (size_t)g->n * g->in_h * g->in_w, C = g->out_c, m = g->multiplier;
    if (C && pixels > MAX_EXPANDED_BYTES / C / es)
        return NULL;
    uint8_t *e = malloc(pixels * C * es + 1);
    if (e == NULL) {
        *rc = ANEURALNETWORKS_OUT_OF_MEMORY;
        return NULL;
    }
    const uint8_t *src = in;
    for (size_t p = 0; p < pixels; p++)
        for (size_t c = 0; c < C; c++)
            memcpy(e + (p * C + c) * es, src + (p * g->in_c + c / m) * es, es);
    return e;
}

int nn_depthwise_f32(const nn_dw_geom *g, const float *in, const float *filter,
                     const float *bias, float lo, float hi, float *out)
{
    dw_job J = {.g = g, .isa = dw_isa_get(), .in = in, .f = filter, .bias = bias, .lo = lo,
                .hi = hi, .out = out};
#if defined(NN_KERNELS_X86_64)
    /* 8 channels or fewer would leave half of every 16-lane register idle;
     * 8-lane registers run at the same rate per instruction. */
    if (J.isa == &isa_avx512 && g->out_c <= 8)
        J.isa = &isa_avx2;
#endif
    void *expanded = NULL;
    if ((size_t)g->f_h * g->f_w > NN_DW_MAX_TAPS)
        J.isa = NULL;
    else if (g->multiplier > 1) {
        int rc;
        expanded = expand_input(g, in, sizeof(float), &rc);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        if (expanded)
            J.in = expanded;
        else
            J.isa = NULL;
    }
    run_rows(g, &J);
    free(expanded);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_depthwise_q8_built(const nn_dw_geom *g, const void *in, const nn_dw_q8_weights *w,
                          int32_t lo, int32_t hi, void *out)
{
    size_t taps = (size_t)g->f_h * g->f_w;
    nn_dw_quant q = w->q;
    q.lo = lo;
    q.hi = hi;
    dw_job J = {.g = g, .isa = dw_isa_get(), .in = in, .q = &q, .qbias = w->q.bias, .wf = w->wf,
                .w = w, .out = out};
    /* The runs load the pixels' shared columns once: next to each other
     * (dilation 1), 1 or 2 columns apart. */
    J.run = J.isa->q8_run && w->packed && g->dil_w == 1 && (g->stride_w == 1 || g->stride_w == 2);
    int rc = ANEURALNETWORKS_NO_ERROR;
    void *expanded = NULL;
    if (taps > NN_DW_MAX_TAPS)
        J.isa = NULL;
    else if (g->multiplier > 1) {
        expanded = expand_input(g, in, 1, &rc);
        if (expanded)
            J.in = expanded;
        else
            J.isa = NULL;
    }
    if (!J.isa)
        J.run = false;
    if (rc == ANEURALNETWORKS_NO_ERROR)
        run_rows(g, &J);
    free(expanded);
    return rc;
}

int nn_depthwise_q8(const nn_dw_geom *g, const void *in, const void *filter,
                    const nn_dw_quant *q, void *out)
{
    nn_dw_q8_weights *w;
    int rc = nn_dw_q8_weights_build(g, filter, q, &w);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    rc = nn_depthwise_q8_built(g, in, w, q->lo, q->hi, out);
    nn_dw_q8_weights_free(w);
    return rc;
}
