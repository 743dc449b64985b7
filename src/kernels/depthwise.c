/*
 * Depthwise convolution, one output row per task. For each output pixel the
 * filter taps inside the input are listed first, so the inner loops run over
 * contiguous channels without bounds checks.
 */
#include "kernels/depthwise.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "android/NeuralNetworks.h"
#include "kernels/depthwise_internal.h"
#include "kernels/quant.h"
#include "util/threadpool.h"

#define MAX_TAPS 256

static bool use_avx512(void)
{
    static atomic_int state; /* 0 unknown, 1 no, 2 yes */
    int s = atomic_load_explicit(&state, memory_order_relaxed);
    if (!s) {
        /* NN_GEMM_ISA (see gemm.c) also narrows these kernels, for testing. */
        const char *force = getenv("NN_GEMM_ISA");
        __builtin_cpu_init();
        s = (!force || strcmp(force, "avx512") == 0) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")
                ? 2
                : 1;
        atomic_store_explicit(&state, s, memory_order_relaxed);
    }
    return s == 2;
}

typedef struct dw_job {
    const nn_dw_geom *g;
    const void *in;
    const void *filter; /* float, or int32 with the zero point removed */
    const float *bias;
    float lo, hi;
    const nn_dw_quant *q;
    const nn_dw_q8_pixel *qp; /* vector requantization, NULL for the scalar path */
    const float *ffilter;     /* quant vector path: filter minus zero point, as float */
    bool vec;
    void *out;
} dw_job;

/* Lists the taps of output pixel (n, oy, ox) that fall inside the input:
 * element offsets of the input pixel and of the filter tap. */
static size_t list_taps(const nn_dw_geom *g, size_t n, size_t oy, size_t ox, size_t *in_off,
                        size_t *f_off)
{
    size_t t = 0;
    for (uint32_t i = 0; i < g->f_h; i++) {
        int64_t y = (int64_t)oy * g->stride_h + (int64_t)i * g->dil_h - g->pad_t;
        if (y < 0 || y >= g->in_h)
            continue;
        for (uint32_t j = 0; j < g->f_w; j++) {
            int64_t x = (int64_t)ox * g->stride_w + (int64_t)j * g->dil_w - g->pad_l;
            if (x < 0 || x >= g->in_w)
                continue;
            in_off[t] = ((n * g->in_h + (size_t)y) * g->in_w + (size_t)x) * g->in_c;
            f_off[t] = ((size_t)i * g->f_w + j) * g->out_c;
            t++;
        }
    }
    return t;
}

/* Filters with more taps than a tap list holds: plain bounds-checked loops. */
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
                            qacc += (xv - q->in_zero) * ((const int32_t *)J->filter)[fi];
                        } else {
                            facc += ((const float *)J->in)[ii] * ((const float *)J->filter)[fi];
                        }
                    }
                }
                if (!q) {
                    ((float *)J->out)[obase + c] = facc < J->lo ? J->lo : (facc > J->hi ? J->hi : facc);
                    continue;
                }
                int32_t v = q->out_zero + nn_mul_by_quant_mult(qacc, q->mult[c], q->shift[c]);
                v = nn_clamp_i32(v, q->lo, q->hi);
                if (q->out_signed)
                    ((int8_t *)J->out)[obase + c] = (int8_t)v;
                else
                    ((uint8_t *)J->out)[obase + c] = (uint8_t)v;
            }
        }
    }
}

static void dw_rows(void *arg, size_t begin, size_t end)
{
    const dw_job *J = arg;
    const nn_dw_geom *g = J->g;
    if ((size_t)g->f_h * g->f_w > MAX_TAPS) {
        dw_rows_large(J, begin, end);
        return;
    }
    /* Few channels: sweeping a row per channel block keeps the filter in
     * registers; with many, per-pixel passes read the input contiguously. */
    if (J->vec && g->out_c <= 32 && (size_t)g->f_h * g->f_w <= NN_DW_ROW_MAX_TAPS) {
        for (size_t row = begin; row < end; row++) {
            size_t n = row / g->out_h, oy = row % g->out_h;
            if (J->q)
                nn_dw_row_q8_avx512(g, n, oy, J->in, J->ffilter, J->qp, J->out);
            else
                nn_dw_row_f32_avx512(g, n, oy, J->in, J->filter, J->bias, J->lo, J->hi, J->out);
        }
        return;
    }
    const size_t oc = g->out_c, m = g->multiplier;
    size_t in_off[MAX_TAPS], f_off[MAX_TAPS];
    const void *inp[MAX_TAPS], *fp[MAX_TAPS];
    for (size_t row = begin; row < end; row++) {
        size_t n = row / g->out_h, oy = row % g->out_h;
        for (size_t ox = 0; ox < g->out_w; ox++) {
            size_t taps = list_taps(g, n, oy, ox, in_off, f_off);
            size_t obase = ((n * g->out_h + oy) * g->out_w + ox) * oc;
            if (!J->q) {
                const float *in = J->in, *f = J->filter;
                float *o = (float *)J->out + obase;
                if (J->vec) {
                    for (size_t t = 0; t < taps; t++) {
                        inp[t] = in + in_off[t];
                        fp[t] = f + f_off[t];
                    }
                    nn_dw_pixel_f32_avx512(taps, (const float *const *)inp, (const float *const *)fp,
                                           oc, J->bias, J->lo, J->hi, o);
                    continue;
                }
                for (size_t c = 0; c < oc; c++) {
                    float acc = J->bias ? J->bias[c] : 0.0f;
                    for (size_t t = 0; t < taps; t++)
                        acc += in[in_off[t] + c / m] * f[f_off[t] + c];
                    o[c] = acc < J->lo ? J->lo : (acc > J->hi ? J->hi : acc);
                }
                continue;
            }
            const nn_dw_quant *q = J->q;
            const uint8_t *in = J->in;
            const int32_t *f = J->filter;
            if (J->vec) {
                for (size_t t = 0; t < taps; t++) {
                    inp[t] = in + in_off[t];
                    fp[t] = J->ffilter + f_off[t];
                }
                nn_dw_pixel_q8_avx512(taps, (const uint8_t *const *)inp, (const float *const *)fp,
                                      oc, J->qp, (int8_t *)J->out + obase);
                continue;
            }
            for (size_t c = 0; c < oc; c++) {
                int32_t acc = q->bias ? q->bias[c] : 0;
                for (size_t t = 0; t < taps; t++) {
                    size_t ii = in_off[t] + c / m;
                    int32_t x = q->in_signed ? (int8_t)in[ii] : in[ii];
                    acc += (x - q->in_zero) * f[f_off[t] + c];
                }
                int32_t v = q->out_zero + nn_mul_by_quant_mult(acc, q->mult[c], q->shift[c]);
                v = nn_clamp_i32(v, q->lo, q->hi);
                if (q->out_signed)
                    ((int8_t *)J->out)[obase + c] = (int8_t)v;
                else
                    ((uint8_t *)J->out)[obase + c] = (uint8_t)v;
            }
        }
    }
}

static void run_rows(const nn_dw_geom *g, dw_job *J)
{
    size_t rows = (size_t)g->n * g->out_h;
    size_t per_row = (size_t)g->out_w * g->out_c * g->f_h * g->f_w;
    size_t grain = per_row ? ((size_t)1 << 14) / per_row + 1 : rows;
    nn_parallel_for(rows, grain, dw_rows, J);
}

void nn_depthwise_f32(const nn_dw_geom *g, const float *in, const float *filter,
                      const float *bias, float lo, float hi, float *out)
{
    dw_job J = {.g = g, .in = in, .filter = filter, .bias = bias, .lo = lo, .hi = hi, .out = out};
    J.vec = use_avx512() && g->multiplier == 1 && bias;
    run_rows(g, &J);
}

int nn_depthwise_q8(const nn_dw_geom *g, const void *in, const void *filter,
                    const nn_dw_quant *q, void *out)
{
    size_t taps = (size_t)g->f_h * g->f_w, oc = g->out_c;
    int32_t *wf = malloc((2 * taps * oc + 3 * oc + 1) * sizeof(int32_t));
    if (!wf)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int32_t *bias = wf + taps * oc, *rshift = bias + oc;
    float *ff = (float *)(rshift + oc);
    for (size_t i = 0; i < taps * oc; i++) {
        wf[i] = (q->filter_signed ? ((const int8_t *)filter)[i] : ((const uint8_t *)filter)[i]) -
                q->filter_zero;
        ff[i] = (float)wf[i];
    }
    bool vec = use_avx512() && g->multiplier == 1;
    for (size_t c = 0; c < oc; c++) {
        bias[c] = q->bias ? q->bias[c] : 0;
        rshift[c] = -q->shift[c];
        vec = vec && q->shift[c] <= 0;
    }
    nn_dw_q8_pixel qp = {.in_signed = q->in_signed, .out_signed = q->out_signed,
                         .in_zero = q->in_zero, .out_zero = q->out_zero, .lo = q->lo, .hi = q->hi,
                         .bias = bias, .mult = q->mult, .rshift = rshift};
    dw_job J = {.g = g, .in = in, .filter = wf, .q = q, .qp = &qp, .vec = vec, .out = out,
                .ffilter = ff};
    run_rows(g, &J);
    free(wf);
    return ANEURALNETWORKS_NO_ERROR;
}
