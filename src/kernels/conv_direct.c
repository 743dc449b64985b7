/* Direct float convolution (see conv_direct.h): packing, borders, threads. */
#include "kernels/conv_direct.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/blob.h"
#include "kernels/isa.h"
#include "util/threadpool.h"

#define OC_BLOCK 16
/* Taps of one filter beyond which im2col + GEMM does better. */
#define MAX_TAPS 64

struct nn_sconv_direct_weights {
    uint32_t out_c, f_h, f_w, in_c;
    size_t ocp;
    float *w;    /* f_h * f_w * in_c groups of ocp */
    float *bias; /* ocp, after w in the same compilation cache blob (kernels/blob.h) */
    bool owns_w;
};

bool nn_sconv_direct_fits(uint32_t in_c, uint32_t f_h, uint32_t f_w, int32_t dil_h,
                          int32_t dil_w, uint32_t groups)
{
    return groups == 1 && dil_h == 1 && dil_w == 1 && in_c <= 4 &&
           (size_t)f_h * f_w * in_c <= MAX_TAPS;
}

void nn_sconv_direct_row_c(size_t npix, const float *in, size_t step, size_t row, size_t f_h,
                           size_t taps_w, const float *w, size_t ocp, const float *bias, float lo,
                           float hi, float *out, size_t oc)
{
    for (size_t p = 0; p < npix; p++) {
        float *o = out + p * oc;
        for (size_t j = 0; j < oc; j++)
            o[j] = bias[j];
        for (size_t r = 0; r < f_h; r++) {
            const float *x = in + p * step + r * row;
            const float *wr = w + r * taps_w * ocp;
            for (size_t t = 0; t < taps_w; t++)
                for (size_t j = 0; j < oc; j++)
                    o[j] += x[t] * wr[t * ocp + j];
        }
        for (size_t j = 0; j < oc; j++)
            o[j] = o[j] < lo ? lo : (o[j] > hi ? hi : o[j]);
    }
}

static nn_sconv_direct_fn direct_kernel(uint32_t out_c)
{
    (void)out_c; /* used by the x86-64 choice only */
    switch (nn_isa_current()) {
#if defined(NN_KERNELS_X86_64)
    case NN_ISA_AVX512:
        /* 8 channels or fewer would leave half of every 16-lane register
         * idle: 8-lane registers run at the same rate per instruction. */
        return out_c <= 8 ? nn_sconv_direct_row_avx2 : nn_sconv_direct_row_avx512;
    case NN_ISA_AVX2:
        return nn_sconv_direct_row_avx2;
#endif
    default:
        return nn_sconv_direct_row_c;
    }
}

nn_sconv_direct_weights *nn_sconv_direct_pack(uint32_t out_c, uint32_t f_h, uint32_t f_w,
                                              uint32_t in_c, const float *filter,
                                              const float *bias)
{
    nn_sconv_direct_weights *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    size_t taps = (size_t)f_h * f_w * in_c;
    w->out_c = out_c, w->f_h = f_h, w->f_w = f_w, w->in_c = in_c;
    w->ocp = ((size_t)out_c + OC_BLOCK - 1) / OC_BLOCK * OC_BLOCK;
    /* ocp is a multiple of 16 floats: bias stays 64-byte aligned */
    bool filled;
    w->w = nn_blob_acquire((taps + 1) * w->ocp * sizeof(float), &filled, &w->owns_w);
    if (!w->w) {
        free(w);
        return NULL;
    }
    w->bias = w->w + taps * w->ocp;
    if (filled)
        return w;
    memset(w->w, 0, (taps + 1) * w->ocp * sizeof(float));
    for (size_t j = 0; j < out_c; j++) {
        for (size_t t = 0; t < taps; t++)
            w->w[t * w->ocp + j] = filter[j * taps + t];
        if (bias)
            w->bias[j] = bias[j];
    }
    return w;
}

void nn_sconv_direct_free(nn_sconv_direct_weights *w)
{
    if (w) {
        if (w->owns_w)
            free(w->w);
        free(w);
    }
}

typedef struct {
    const nn_sconv_direct_geom *g;
    const float *in;
    const nn_sconv_direct_weights *w;
    float lo, hi;
    float *out;
    nn_sconv_direct_fn kernel;
} direct_job;

/* One output pixel whose window leaves the input: the window is copied
 * with zeros for the padding and run as a one-pixel row. */
static void border_pixel(const direct_job *J, uint32_t n, uint32_t oy, uint32_t ox, float *out)
{
    const nn_sconv_direct_geom *g = J->g;
    const size_t taps_w = (size_t)g->f_w * g->in_c;
    float patch[MAX_TAPS];
    for (uint32_t r = 0; r < g->f_h; r++) {
        int64_t y = (int64_t)oy * g->stride_h + r - g->pad_t;
        for (uint32_t s = 0; s < g->f_w; s++) {
            int64_t x = (int64_t)ox * g->stride_w + s - g->pad_l;
            float *dst = patch + r * taps_w + (size_t)s * g->in_c;
            if (y < 0 || y >= g->in_h || x < 0 || x >= g->in_w)
                memset(dst, 0, g->in_c * sizeof(float));
            else
                memcpy(dst, J->in + (((size_t)n * g->in_h + (size_t)y) * g->in_w + (size_t)x) * g->in_c,
                       g->in_c * sizeof(float));
        }
    }
    J->kernel(1, patch, 0, taps_w, g->f_h, taps_w, J->w->w, J->w->ocp, J->w->bias, J->lo, J->hi,
              out, g->out_c);
}

static void direct_rows(void *arg, size_t begin, size_t end)
{
    const direct_job *J = arg;
    const nn_sconv_direct_geom *g = J->g;
    const size_t taps_w = (size_t)g->f_w * g->in_c, row = (size_t)g->in_w * g->in_c;
    /* Output columns whose windows lie inside the input: [x0, x1). */
    int64_t sw = g->stride_w;
    int64_t x0 = g->pad_l > 0 ? (g->pad_l + sw - 1) / sw : 0;
    int64_t last = (int64_t)g->in_w - g->f_w + g->pad_l; /* leftmost tap of the last window */
    int64_t x1 = last < 0 ? 0 : last / sw + 1;
    if (x1 > g->out_w)
        x1 = g->out_w;
    if (x1 < x0)
        x1 = x0;
    for (size_t r = begin; r < end; r++) {
        uint32_t n = (uint32_t)(r / g->out_h), oy = (uint32_t)(r % g->out_h);
        float *out = J->out + r * g->out_w * g->out_c;
        int64_t y = (int64_t)oy * g->stride_h - g->pad_t;
        bool inside = y >= 0 && y + g->f_h <= g->in_h;
        int64_t a = inside ? x0 : g->out_w, b = inside ? x1 : g->out_w;
        for (int64_t ox = 0; ox < a; ox++)
            border_pixel(J, n, oy, (uint32_t)ox, out + ox * g->out_c);
        if (b > a) {
            const float *in = J->in + ((size_t)n * g->in_h + (size_t)y) * row +
                              (size_t)(a * sw - g->pad_l) * g->in_c;
            J->kernel((size_t)(b - a), in, (size_t)sw * g->in_c, row, g->f_h, taps_w, J->w->w,
                      J->w->ocp, J->w->bias, J->lo, J->hi, out + a * g->out_c, g->out_c);
        }
        for (int64_t ox = b > a ? b : a; ox < g->out_w; ox++)
            border_pixel(J, n, oy, (uint32_t)ox, out + ox * g->out_c);
    }
}

void nn_sconv_direct(const nn_sconv_direct_geom *g, const float *in,
                     const nn_sconv_direct_weights *w, float lo, float hi, float *out)
{
    direct_job J = {g, in, w, lo, hi, out, direct_kernel(g->out_c)};
    size_t rows = (size_t)g->n * g->out_h;
    /* About 64k multiply-adds per task at the least: below that a thread's
     * wake-up costs more than it saves. */
    size_t per_row = (size_t)g->out_w * g->out_c * g->f_h * g->f_w * g->in_c;
    size_t grain = per_row ? ((size_t)1 << 16) / per_row + 1 : rows;
    nn_parallel_for(rows, grain, direct_rows, &J);
}
