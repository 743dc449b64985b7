/*
 * CONV_2D, GROUPED_CONV_2D and TRANSPOSE_CONV_2D. Convolutions are lowered to
 * matrix products: rows are output pixels (NHWC), columns output channels,
 * k runs over filter taps x input channels. A 1x1 stride-1 unpadded
 * convolution uses the input as the left matrix directly; others gather
 * patches (im2col) a chunk of rows at a time. Constant filters are packed
 * once in plan.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/conv_direct.h"
#include "kernels/depthwise.h"
#include "kernels/fp16.h"
#include "kernels/gemm.h"
#include "kernels/quant.h"
#include "ops/conv_common.h"
#include "util/threadpool.h"

#define IM2COL_BYTES ((size_t)4 << 20)

static size_t align64(size_t v) { return (v + 63) & ~(size_t)63; }

typedef struct conv_setup {
    nn_conv_layout l;
    nn_conv_params p;
    nn_conv_geom g;
    uint32_t groups;
    bool quant, direct;
    size_t k;          /* fh * fw * Cg */
    size_t col_ld;     /* im2col row stride: k, rounded up to 4 bytes for 8-bit rows
                        * (whole 4-byte words let the GEMM read them in place) */
    size_t chunk;      /* im2col rows per pass */
    size_t in_stage, out_stage, col_bytes, acc_bytes;
} conv_setup;

static int conv_validate_common(const nn_op_call *c, int kind)
{
    if (c->n_out != 1)
        return nn_invalid("%u outputs, expected 1", c->n_out);
    nn_conv_layout l;
    nn_conv_params p;
    int err = nn_conv_layout_of(c, kind, &l);
    if (!err)
        err = nn_conv_read_params(c, &l, &p);
    if (err)
        return err;
    const nn_tensor *in = c->in[0], *f = c->in[1], *b = c->in[2], *out = c->out[0];
    err = nn_conv_check_weights(c, in, f, b, kind == NN_CONV_DEPTHWISE ? 3 : 0);
    if (err)
        return err;
    if (nn_expect_type(c, true, 0, in->type) || nn_check_quant(out) || nn_check_rank(out, 4, 4))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t fl = c->feature_level;
    if (fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 &&
        (l.nchw >= 0 || l.dil_w >= 0 || in->type == ANEURALNETWORKS_TENSOR_FLOAT16))
        return nn_invalid("a layout or dilation input, or TENSOR_FLOAT16, needs feature level 3");
    if (fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 &&
        in->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM && !(out->scale > in->scale * f->scale))
        return nn_invalid("output scale %g <= input scale * filter scale %g before feature level 3",
                          (double)out->scale, (double)(in->scale * f->scale));
    if (l.out_shape >= 0) {
        const nn_tensor *s = c->in[l.out_shape];
        if (nn_expect_type(c, false, (uint32_t)l.out_shape, ANEURALNETWORKS_TENSOR_INT32) ||
            nn_check_rank(s, 1, 1))
            return ANEURALNETWORKS_BAD_DATA;
        if (s->rank == 1 && s->dims[0] && s->dims[0] != 4)
            return nn_invalid("input %d (output shape) of %u elements, expected 4", l.out_shape,
                              s->dims[0]);
    }
    /* Shape agreement where known: Android's CPU executor checks it when
     * preparing the computation, its validation does not. */
    if (f->rank == 4 && b->rank == 1) {
        uint32_t cout = kind == NN_CONV_DEPTHWISE ? f->dims[3] : f->dims[0];
        if (nn_check_value(c, !cout || !b->dims[0] || cout == b->dims[0],
                           "bias of %u elements for %u output channels", b->dims[0], cout))
            return ANEURALNETWORKS_BAD_DATA;
    }
    if (kind == NN_CONV_DEPTHWISE && f->rank == 4 &&
        nn_check_value(c, f->dims[0] <= 1, "depthwise filter dimension 0 is %u, expected 1",
                       f->dims[0]))
        return ANEURALNETWORKS_BAD_DATA;
    if (in->rank == 4 && f->rank == 4 && p.nchw >= 0) {
        uint32_t d[4];
        nn_conv_nhwc_dims(in, p.nchw == 1, d);
        uint32_t cin = d[3];
        bool fits = true;
        if (cin && f->dims[3]) {
            if (kind == NN_CONV_PLAIN || kind == NN_CONV_TRANSPOSE)
                fits = cin == f->dims[3];
            else if (kind == NN_CONV_GROUPED && p.groups > 0)
                fits = (uint64_t)f->dims[3] * (uint32_t)p.groups == cin &&
                       (!f->dims[0] || f->dims[0] % (uint32_t)p.groups == 0);
            else if (kind == NN_CONV_DEPTHWISE && p.multiplier > 0)
                fits = (uint64_t)cin * (uint32_t)p.multiplier == f->dims[3];
        }
        if (nn_check_value(c, fits, "%u input channels do not fit the filter's %u", cin,
                           f->dims[3]))
            return ANEURALNETWORKS_BAD_DATA;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static int validate_conv(const nn_op_call *c) { return conv_validate_common(c, NN_CONV_PLAIN); }
static int validate_grouped(const nn_op_call *c) { return conv_validate_common(c, NN_CONV_GROUPED); }
static int validate_transpose(const nn_op_call *c) { return conv_validate_common(c, NN_CONV_TRANSPOSE); }

/* Geometry and scratch for CONV_2D / GROUPED_CONV_2D. known=false when
 * parameters are not available yet. */
static int conv_setup_of(const nn_op_call *c, int kind, conv_setup *s, bool *known)
{
    memset(s, 0, sizeof *s);
    int err = nn_conv_layout_of(c, kind, &s->l);
    if (!err)
        err = nn_conv_read_params(c, &s->l, &s->p);
    if (err)
        return err;
    *known = s->p.known;
    if (!s->p.known)
        return ANEURALNETWORKS_NO_ERROR;
    const nn_tensor *in = c->in[0], *f = c->in[1];
    bool nchw = s->p.nchw == 1;
    uint32_t d[4];
    nn_conv_nhwc_dims(in, nchw, d);
    nn_conv_geom *g = &s->g;
    g->n = d[0], g->in_h = d[1], g->in_w = d[2], g->in_c = d[3];
    g->out_c = f->dims[0];
    g->f_h = f->dims[1], g->f_w = f->dims[2];
    g->stride_h = s->p.stride_h, g->stride_w = s->p.stride_w;
    g->dil_h = s->p.dil_h, g->dil_w = s->p.dil_w;
    s->groups = kind == NN_CONV_GROUPED ? (uint32_t)s->p.groups : 1;
    if (g->in_c != f->dims[3] * s->groups || g->out_c % s->groups ||
        c->in[2]->dims[0] != g->out_c)
        return ANEURALNETWORKS_BAD_DATA;
    err = nn_conv_out_size(&s->p, true, g->in_h, g->f_h, &g->out_h, &g->pad_t);
    if (!err)
        err = nn_conv_out_size(&s->p, false, g->in_w, g->f_w, &g->out_w, &g->pad_l);
    if (err)
        return err;
    if (!g->f_h || !g->f_w || !f->dims[3] ||
        !nn_conv_size_ok(g->n, g->out_h, g->out_w, g->out_c, sizeof(float)) ||
        !nn_conv_size_ok(g->n, g->in_h, g->in_w, g->in_c, sizeof(float)) ||
        !nn_conv_size_ok(g->f_h, g->f_w, f->dims[3], 64, sizeof(float)))
        return ANEURALNETWORKS_BAD_DATA;
    s->quant = nn_type_is_quant8(in->type);
    s->k = (size_t)g->f_h * g->f_w * f->dims[3];
    s->direct = s->groups == 1 && g->f_h == 1 && g->f_w == 1 && g->stride_h == 1 &&
                g->stride_w == 1 && g->pad_t == 0 && g->pad_l == 0 && g->out_h == g->in_h &&
                g->out_w == g->in_w;
    size_t es = s->quant ? 1 : sizeof(float);
    size_t rows = (size_t)g->n * g->out_h * g->out_w;
    s->col_ld = s->quant ? (s->k + 3) & ~(size_t)3 : s->k;
    if (!s->direct && rows) {
        size_t unit = s->col_ld * es;
        size_t chunk = IM2COL_BYTES / (unit ? unit : 1);
        if (chunk < 64)
            chunk = 64;
        s->chunk = chunk < rows ? chunk : rows;
        s->col_bytes = s->chunk * s->col_ld * es;
    }
    s->in_stage = nn_conv_stage_bytes(in, nchw);
    size_t out_count = rows * g->out_c;
    if (in->type == ANEURALNETWORKS_TENSOR_FLOAT16)
        s->out_stage = out_count * sizeof(float);
    else if (nchw)
        s->out_stage = out_count * es;
    return ANEURALNETWORKS_NO_ERROR;
}

static int conv_prepare_kind(nn_op_call *c, int kind)
{
    conv_setup s;
    bool known;
    int err = conv_setup_of(c, kind, &s, &known);
    if (err || !known)
        return err;
    uint32_t d[4] = {s.g.n, s.g.out_h, s.g.out_w, s.g.out_c};
    nn_conv_set_dims(c->out[0], s.p.nchw == 1, d);
    c->scratch_bytes = align64(s.in_stage) + align64(s.out_stage) + align64(s.col_bytes);
    return ANEURALNETWORKS_NO_ERROR;
}

static int prepare_conv(nn_op_call *c) { return conv_prepare_kind(c, NN_CONV_PLAIN); }
static int prepare_grouped(nn_op_call *c) { return conv_prepare_kind(c, NN_CONV_GROUPED); }

/* Gathers patches of rows [r0, r0 + rows) of group grp into col (rows x k). */
typedef struct im2col_job {
    const conv_setup *s;
    const void *in;
    void *col;
    size_t r0;
    uint32_t grp, cg;
    uint8_t pad_byte;
} im2col_job;

static void im2col_rows(void *arg, size_t begin, size_t end)
{
    const im2col_job *J = arg;
    const nn_conv_geom *g = &J->s->g;
    const size_t es = J->s->quant ? 1 : sizeof(float);
    const size_t cg = J->cg, ld = J->s->col_ld;
    const size_t run = cg * es;
    for (size_t r = begin; r < end; r++) {
        size_t pix = J->r0 + r;
        size_t ox = pix % g->out_w, oy = (pix / g->out_w) % g->out_h, n = pix / ((size_t)g->out_w * g->out_h);
        uint8_t *dst = (uint8_t *)J->col + r * ld * es;
        /* The padding of 8-bit rows meets zero weights; it is set to be defined. */
        memset(dst + J->s->k * es, J->pad_byte, (ld - J->s->k) * es);
        const int64_t x0 = (int64_t)ox * g->stride_w - g->pad_l;
        /* A filter row inside the input, taps next to each other over all
         * channels, is one run of bytes (the first layers' few channels
         * would otherwise cost a copy per tap). */
        const bool whole_rows = g->dil_w == 1 && cg == g->in_c && x0 >= 0 &&
                                x0 + (int64_t)g->f_w <= (int64_t)g->in_w;
        for (uint32_t i = 0; i < g->f_h; i++) {
            int64_t y = (int64_t)oy * g->stride_h + (int64_t)i * g->dil_h - g->pad_t;
            if (whole_rows && y >= 0 && y < g->in_h) {
                const uint8_t *src = (const uint8_t *)J->in +
                                     (((size_t)n * g->in_h + (size_t)y) * g->in_w + (size_t)x0) * g->in_c * es;
                memcpy(dst, src, run * g->f_w);
                dst += run * g->f_w;
                continue;
            }
            for (uint32_t j = 0; j < g->f_w; j++, dst += run) {
                int64_t x = x0 + (int64_t)j * g->dil_w;
                if (y < 0 || y >= g->in_h || x < 0 || x >= g->in_w) {
                    memset(dst, J->s->quant ? J->pad_byte : 0, run);
                    continue;
                }
                const uint8_t *src = (const uint8_t *)J->in +
                                     ((((size_t)n * g->in_h + (size_t)y) * g->in_w + (size_t)x) * g->in_c +
                                      (size_t)J->grp * cg) * es;
                memcpy(dst, src, run);
            }
        }
    }
}

/* Carves the scratch area into staging buffers; returns the input/output
 * pointers to compute with (NHWC, float32 or 8-bit). */
static void stage_buffers(nn_op_call *c, bool nchw, size_t in_stage, size_t out_stage,
                          const void **in, void **out, uint8_t **rest)
{
    uint8_t *p = c->scratch;
    if (in_stage) {
        nn_conv_stage_in(c->in[0], nchw, p);
        *in = p;
        p += align64(in_stage);
    } else {
        *in = c->in[0]->data;
    }
    if (out_stage) {
        *out = p;
        p += align64(out_stage);
    } else {
        *out = c->out[0]->data;
    }
    *rest = p;
}

static int plan_conv_kind(nn_op_call *c, void **state, int kind)
{
    *state = NULL;
    const nn_tensor *f = c->in[1], *b = c->in[2];
    if (!f->constant || !b->constant || !f->data || !b->data || !nn_tensor_shape_known(f))
        return ANEURALNETWORKS_NO_ERROR;
    uint32_t groups = 1;
    if (kind == NN_CONV_GROUPED) {
        nn_conv_layout l;
        const nn_tensor *gt;
        if (nn_conv_layout_of(c, kind, &l) || !(gt = c->in[l.groups])->data)
            return ANEURALNETWORKS_NO_ERROR;
        int32_t v = nn_scalar_i32(gt);
        if (v < 1 || f->dims[0] % (uint32_t)v)
            return ANEURALNETWORKS_NO_ERROR;
        groups = (uint32_t)v;
    }
    nn_conv_weights *w;
    int err = nn_conv_weights_build(c->in[0], f, b, c->out[0], groups, &w);
    if (err)
        return err;
    conv_setup s;
    bool known;
    /* The filter's own shape rules most layers out before the setup does. */
    if (!w->quant && f->type == ANEURALNETWORKS_TENSOR_FLOAT32 && f->rank == 4 &&
        nn_sconv_direct_fits(f->dims[3], f->dims[1], f->dims[2], 1, 1, groups) &&
        !conv_setup_of(c, kind, &s, &known) && known &&
        nn_sconv_direct_fits(s.g.in_c, s.g.f_h, s.g.f_w, s.g.dil_h, s.g.dil_w, s.groups)) {
        w->fdirect = nn_sconv_direct_pack(s.g.out_c, s.g.f_h, s.g.f_w, s.g.in_c, f->data, w->fbias);
        if (!w->fdirect) {
            nn_conv_weights_free(w);
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        }
    }
    *state = w;
    return ANEURALNETWORKS_NO_ERROR;
}

static int plan_conv(nn_op_call *c, void **state) { return plan_conv_kind(c, state, NN_CONV_PLAIN); }
static int plan_grouped(nn_op_call *c, void **state) { return plan_conv_kind(c, state, NN_CONV_GROUPED); }
static void release_conv(void *state) { nn_conv_weights_free(state); }

static int conv_execute_kind(nn_op_call *c, int kind)
{
    conv_setup s;
    bool known;
    int err = conv_setup_of(c, kind, &s, &known);
    if (err)
        return err;
    if (!known)
        return ANEURALNETWORKS_OP_FAILED;
    nn_conv_weights *w = c->state, *own = NULL;
    if (!w || w->groups != s.groups) {
        err = nn_conv_weights_build(c->in[0], c->in[1], c->in[2], c->out[0], s.groups, &own);
        if (err)
            return err;
        w = own;
    }
    bool nchw = s.p.nchw == 1;
    const void *in;
    void *out;
    uint8_t *col;
    stage_buffers(c, nchw, s.in_stage, s.out_stage, &in, &out, &col);
    const nn_conv_geom *g = &s.g;
    const size_t rows = (size_t)g->n * g->out_h * g->out_w;
    const uint32_t cg = g->in_c / s.groups, mg = g->out_c / s.groups;
    const nn_tensor *ot = c->out[0];
    float lo = 0, hi = 0;
    nn_requant rq = {0};
    if (s.quant) {
        /* Ties up as TFLite's CONV_2D (kernels/quant.h); GROUPED_CONV_2D,
         * which TFLite does not have, rounds as the convolution it
         * generalizes. */
        rq.rounding = NN_ROUND_UP;
        rq.per_channel = true;
        rq.out_zero = ot->zero_point;
        rq.out_signed = ot->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
        nn_quant_activation_range(s.p.act, ot->type, ot->scale, ot->zero_point, &rq.lo, &rq.hi);
    } else {
        nn_float_activation_range(s.p.act, &lo, &hi);
    }
    const size_t es = s.quant ? 1 : sizeof(float);
    /* Few input channels: the direct kernel, no im2col (conv_direct.h). */
    bool direct_path = w->fdirect && nn_sconv_direct_fits(g->in_c, g->f_h, g->f_w, g->dil_h,
                                                          g->dil_w, s.groups);
    if (direct_path) {
        nn_sconv_direct_geom dg = {g->n,     g->in_h,  g->in_w,  g->in_c,  g->out_h,
                                   g->out_w, g->out_c, g->f_h,   g->f_w,   g->pad_t,
                                   g->pad_l, g->stride_h, g->stride_w};
        nn_sconv_direct(&dg, in, w->fdirect, lo, hi, out);
    }
    for (uint32_t grp = 0; !direct_path && grp < s.groups; grp++) {
        for (size_t r0 = 0; r0 < rows; r0 += s.direct ? rows : s.chunk) {
            size_t nr = s.direct ? rows : (rows - r0 < s.chunk ? rows - r0 : s.chunk);
            const void *a = (const uint8_t *)in + r0 * g->in_c * es;
            size_t lda = g->in_c;
            if (!s.direct) {
                im2col_job J = {.s = &s, .in = in, .col = col, .r0 = r0, .grp = grp, .cg = cg,
                                .pad_byte = (uint8_t)c->in[0]->zero_point};
                nn_parallel_for(nr, 16, im2col_rows, &J);
                a = col;
                lda = s.col_ld;
            }
            size_t off = r0 * g->out_c + (size_t)grp * mg;
            if (s.quant) {
                nn_q8_matrix am = {.data = a, .ld = lda,
                                   .is_signed = c->in[0]->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
                                   .zero = c->in[0]->zero_point, .padded = !s.direct};
                rq.mult = w->mult + (size_t)grp * mg;
                rq.shift = w->shift + (size_t)grp * mg;
                nn_qgemm_prepacked(nr, &am, w->qpack[grp], w->qbias + (size_t)grp * mg, &rq,
                                   (uint8_t *)out + off, g->out_c);
            } else {
                nn_sgemm_prepacked(nr, a, lda, w->fpack[grp], w->fbias + (size_t)grp * mg, lo, hi,
                                   (float *)out + off, g->out_c);
            }
        }
    }
    if (s.out_stage)
        nn_conv_stage_out(out, nchw, c->out[0]);
    nn_conv_weights_free(own);
    return ANEURALNETWORKS_NO_ERROR;
}

static int execute_conv(nn_op_call *c) { return conv_execute_kind(c, NN_CONV_PLAIN); }
static int execute_grouped(nn_op_call *c) { return conv_execute_kind(c, NN_CONV_GROUPED); }

const nn_op_def nn_op_CONV_2D = {
    .code = ANEURALNETWORKS_CONV_2D, .name = "CONV_2D", .validate = validate_conv,
    .prepare = prepare_conv, .execute = execute_conv, .plan = plan_conv, .release = release_conv,
};

const nn_op_def nn_op_GROUPED_CONV_2D = {
    .code = ANEURALNETWORKS_GROUPED_CONV_2D, .name = "GROUPED_CONV_2D",
    .validate = validate_grouped, .prepare = prepare_grouped, .execute = execute_grouped,
    .plan = plan_grouped, .release = release_conv,
};

/* ---- TRANSPOSE_CONV_2D ----
 * Each input pixel times the filter gives a (fh x fw x Cout) patch that is
 * added into the output at (y*s - pad, x*s - pad). The product runs as one
 * matrix multiply (input pixels x Cin) . (taps*Cout x Cin)^T, the patches
 * are then scattered. */

typedef struct tconv_setup {
    nn_conv_layout l;
    nn_conv_params p;
    nn_conv_geom g;
    bool quant;
    size_t taps_c; /* fh * fw * Cout */
    size_t chunk;
    size_t in_stage, out_stage, col_bytes, acc_bytes;
} tconv_setup;

static int tconv_setup_of(const nn_op_call *c, tconv_setup *s, bool *known)
{
    memset(s, 0, sizeof *s);
    int err = nn_conv_layout_of(c, NN_CONV_TRANSPOSE, &s->l);
    if (!err)
        err = nn_conv_read_params(c, &s->l, &s->p);
    if (err)
        return err;
    const nn_tensor *shape = s->l.out_shape >= 0 ? c->in[s->l.out_shape] : NULL;
    *known = s->p.known && (!shape || shape->data);
    if (!*known)
        return ANEURALNETWORKS_NO_ERROR;
    const nn_tensor *in = c->in[0], *f = c->in[1];
    bool nchw = s->p.nchw == 1;
    uint32_t d[4];
    nn_conv_nhwc_dims(in, nchw, d);
    nn_conv_geom *g = &s->g;
    g->n = d[0], g->in_h = d[1], g->in_w = d[2], g->in_c = d[3];
    g->out_c = f->dims[0], g->f_h = f->dims[1], g->f_w = f->dims[2];
    g->stride_h = s->p.stride_h, g->stride_w = s->p.stride_w;
    g->dil_h = g->dil_w = 1;
    if (g->in_c != f->dims[3] || c->in[2]->dims[0] != g->out_c)
        return ANEURALNETWORKS_BAD_DATA;
    int64_t oh, ow;
    if (shape) {
        if (shape->rank != 1 || shape->dims[0] != 4 || shape->bytes < 4 * sizeof(int32_t))
            return ANEURALNETWORKS_BAD_DATA;
        const int32_t *sd = shape->data;
        int32_t od[4];
        memcpy(od, sd, sizeof od);
        int32_t on = od[0], oc = nchw ? od[1] : od[3];
        oh = nchw ? od[2] : od[1];
        ow = nchw ? od[3] : od[2];
        if (on != (int32_t)g->n || oc != (int32_t)g->out_c || oh < 1 || ow < 1)
            return ANEURALNETWORKS_BAD_DATA;
        int64_t pads[2] = {0, 0};
        if (s->p.padding_code == ANEURALNETWORKS_PADDING_SAME) {
            int64_t outs[2] = {oh, ow}, st[2] = {g->stride_h, g->stride_w}, fs[2] = {g->f_h, g->f_w};
            for (int i = 0; i < 2; i++) {
                int64_t in_size = (outs[i] + st[i] - 1) / st[i];
                int64_t span = (in_size - 1) * st[i] + fs[i];
                pads[i] = span > outs[i] ? (span - outs[i]) / 2 : 0;
            }
        }
        g->pad_t = (int32_t)pads[0];
        g->pad_l = (int32_t)pads[1];
    } else {
        oh = ((int64_t)g->in_h - 1) * g->stride_h + g->f_h - s->p.pad_t - s->p.pad_b;
        ow = ((int64_t)g->in_w - 1) * g->stride_w + g->f_w - s->p.pad_l - s->p.pad_r;
        g->pad_t = s->p.pad_t;
        g->pad_l = s->p.pad_l;
        if (oh < 1 || ow < 1)
            return ANEURALNETWORKS_BAD_DATA;
    }
    if (oh > UINT32_MAX || ow > UINT32_MAX)
        return ANEURALNETWORKS_BAD_DATA;
    g->out_h = (uint32_t)oh;
    g->out_w = (uint32_t)ow;
    if (!g->f_h || !g->f_w || !g->in_c ||
        !nn_conv_size_ok(g->n, g->out_h, g->out_w, g->out_c, sizeof(float)) ||
        !nn_conv_size_ok(g->n, g->in_h, g->in_w, g->in_c, sizeof(float)) ||
        !nn_conv_size_ok(g->f_h, g->f_w, g->out_c, 16, sizeof(float)))
        return ANEURALNETWORKS_BAD_DATA;
    s->quant = nn_type_is_quant8(in->type);
    s->taps_c = (size_t)g->f_h * g->f_w * g->out_c;
    size_t rows = (size_t)g->n * g->in_h * g->in_w;
    size_t unit = s->taps_c * sizeof(float);
    s->chunk = IM2COL_BYTES / (unit ? unit : 1);
    if (s->chunk < 16)
        s->chunk = 16;
    if (s->chunk > rows)
        s->chunk = rows;
    s->col_bytes = s->chunk * unit;
    size_t out_count = (size_t)g->n * g->out_h * g->out_w * g->out_c;
    s->in_stage = nn_conv_stage_bytes(in, nchw);
    if (in->type == ANEURALNETWORKS_TENSOR_FLOAT16)
        s->out_stage = out_count * sizeof(float);
    else if (nchw)
        s->out_stage = out_count * (s->quant ? 1 : sizeof(float));
    if (s->quant)
        s->acc_bytes = out_count * sizeof(int32_t);
    return ANEURALNETWORKS_NO_ERROR;
}

static int prepare_transpose(nn_op_call *c)
{
    tconv_setup s;
    bool known;
    int err = tconv_setup_of(c, &s, &known);
    if (err || !known)
        return err;
    uint32_t d[4] = {s.g.n, s.g.out_h, s.g.out_w, s.g.out_c};
    nn_conv_set_dims(c->out[0], s.p.nchw == 1, d);
    c->scratch_bytes = align64(s.in_stage) + align64(s.out_stage) + align64(s.col_bytes) +
                       align64(s.acc_bytes);
    return ANEURALNETWORKS_NO_ERROR;
}

/* Packs the filter with rows ordered (tap, out channel) so that one row of
 * the product holds a patch in NHWC order. */
static int tconv_weights_build(const nn_tensor *in, const nn_tensor *f, const nn_tensor *b,
                               const nn_tensor *out, nn_conv_weights **wp)
{
    *wp = NULL;
    uint32_t cout = f->dims[0], taps = f->dims[1] * f->dims[2], cin = f->dims[3];
    size_t es = nn_type_size(f->type);
    size_t total = (size_t)cout * taps * cin * es;
    uint8_t *perm = malloc(total ? total : 1);
    if (!perm)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t o = 0; o < cout; o++)
        for (uint32_t t = 0; t < taps; t++)
            memcpy(perm + (((size_t)t * cout + o) * cin) * es,
                   (const uint8_t *)f->data + (((size_t)o * taps + t) * cin) * es, cin * es);
    nn_tensor pf = *f;
    nn_tensor_borrow_dims(&pf);
    pf.data = perm;
    nn_tensor_set_small_rank(&pf, 4);
    pf.dims[0] = cout * taps;
    pf.dims[1] = pf.dims[2] = 1;
    pf.dims[3] = cin;
    if (f->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL) {
        pf.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
        pf.zero_point = 0;
        pf.channel_quant = NULL;
    }
    pf.scale = 1.0f;
    nn_conv_weights *w;
    int err = nn_conv_weights_build(in, &pf, NULL, out, 1, &w);
    free(perm);
    if (err)
        return err;
    for (uint32_t o = 0; o < cout; o++) {
        if (w->quant)
            w->qbias[o] = b->data ? ((const int32_t *)b->data)[o] : 0;
        else
            w->fbias[o] = b->data ? nn_tensor_f32_at(b, o) : 0.0f;
    }
    if (w->quant)
        nn_conv_requant_params(in, f, out, cout, w->mult, w->shift);
    *wp = w;
    return ANEURALNETWORKS_NO_ERROR;
}

static int plan_transpose(nn_op_call *c, void **state)
{
    *state = NULL;
    const nn_tensor *f = c->in[1], *b = c->in[2];
    if (!f->constant || !b->constant || !f->data || !b->data || !nn_tensor_shape_known(f))
        return ANEURALNETWORKS_NO_ERROR;
    nn_conv_weights *w;
    int err = tconv_weights_build(c->in[0], f, b, c->out[0], &w);
    if (!err)
        *state = w;
    return err;
}

static int execute_transpose(nn_op_call *c)
{
    tconv_setup s;
    bool known;
    int err = tconv_setup_of(c, &s, &known);
    if (err)
        return err;
    if (!known)
        return ANEURALNETWORKS_OP_FAILED;
    nn_conv_weights *w = c->state, *own = NULL;
    if (!w) {
        err = tconv_weights_build(c->in[0], c->in[1], c->in[2], c->out[0], &own);
        if (err)
            return err;
        w = own;
    }
    bool nchw = s.p.nchw == 1;
    const void *in;
    void *out;
    uint8_t *rest;
    stage_buffers(c, nchw, s.in_stage, s.out_stage, &in, &out, &rest);
    void *col = rest;
    int32_t *acc = (int32_t *)(rest + align64(s.col_bytes));
    const nn_conv_geom *g = &s.g;
    const size_t oc = g->out_c, opix = (size_t)g->n * g->out_h * g->out_w;
    float *fout = out;
    for (size_t p = 0; p < opix; p++)
        for (size_t o = 0; o < oc; o++) {
            if (s.quant)
                acc[p * oc + o] = w->qbias[o];
            else
                fout[p * oc + o] = w->fbias[o];
        }
    const size_t rows = (size_t)g->n * g->in_h * g->in_w;
    const size_t es = s.quant ? 1 : sizeof(float);
    for (size_t r0 = 0; r0 < rows; r0 += s.chunk) {
        size_t nr = rows - r0 < s.chunk ? rows - r0 : s.chunk;
        const void *a = (const uint8_t *)in + r0 * g->in_c * es;
        if (s.quant) {
            nn_q8_matrix am = {.data = a, .ld = g->in_c,
                               .is_signed = c->in[0]->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
                               .zero = c->in[0]->zero_point};
            nn_qgemm_prepacked_i32(nr, &am, w->qpack[0], NULL, col, s.taps_c);
        } else {
            nn_sgemm_prepacked(nr, a, g->in_c, w->fpack[0], NULL, -INFINITY, INFINITY, col, s.taps_c);
        }
        for (size_t r = 0; r < nr; r++) {
            size_t pix = r0 + r;
            size_t ix = pix % g->in_w, iy = (pix / g->in_w) % g->in_h, n = pix / ((size_t)g->in_w * g->in_h);
            for (uint32_t i = 0; i < g->f_h; i++) {
                int64_t y = (int64_t)iy * g->stride_h + i - g->pad_t;
                if (y < 0 || y >= g->out_h)
                    continue;
                for (uint32_t j = 0; j < g->f_w; j++) {
                    int64_t x = (int64_t)ix * g->stride_w + j - g->pad_l;
                    if (x < 0 || x >= g->out_w)
                        continue;
                    size_t dst = (((size_t)n * g->out_h + (size_t)y) * g->out_w + (size_t)x) * oc;
                    size_t src = r * s.taps_c + ((size_t)i * g->f_w + j) * oc;
                    if (s.quant) {
                        const int32_t *cv = (const int32_t *)col + src;
                        for (size_t o = 0; o < oc; o++)
                            acc[dst + o] = nn_wrapping_add_i32(acc[dst + o], cv[o]);
                    } else {
                        const float *cv = (const float *)col + src;
                        for (size_t o = 0; o < oc; o++)
                            fout[dst + o] += cv[o];
                    }
                }
            }
        }
    }
    const nn_tensor *ot = c->out[0];
    if (s.quant) {
        int32_t lo, hi;
        nn_quant_activation_range(s.p.act, ot->type, ot->scale, ot->zero_point, &lo, &hi);
        bool sgn = ot->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
        for (size_t p = 0; p < opix; p++)
            for (size_t o = 0; o < oc; o++) {
                /* TFLite's TRANSPOSE_CONV requantizes its scattered sums
                 * with MultiplyByQuantizedMultiplier: ties away from zero. */
                int32_t v = nn_requant_output(acc[p * oc + o], w->mult[o], w->shift[o],
                                              NN_ROUND_AWAY, ot->zero_point, lo, hi);
                if (sgn)
                    ((int8_t *)out)[p * oc + o] = (int8_t)v;
                else
                    ((uint8_t *)out)[p * oc + o] = (uint8_t)v;
            }
    } else {
        float lo, hi;
        nn_float_activation_range(s.p.act, &lo, &hi);
        if (s.p.act)
            for (size_t i = 0; i < opix * oc; i++)
                fout[i] = fout[i] < lo ? lo : (fout[i] > hi ? hi : fout[i]);
    }
    if (s.out_stage)
        nn_conv_stage_out(out, nchw, c->out[0]);
    nn_conv_weights_free(own);
    return ANEURALNETWORKS_NO_ERROR;
}

const nn_op_def nn_op_TRANSPOSE_CONV_2D = {
    .code = ANEURALNETWORKS_TRANSPOSE_CONV_2D, .name = "TRANSPOSE_CONV_2D",
    .validate = validate_transpose, .prepare = prepare_transpose, .execute = execute_transpose,
    .plan = plan_transpose, .release = release_conv,
};

/* ---- DEPTHWISE_CONV_2D ---- */

typedef struct dw_setup {
    nn_conv_layout l;
    nn_conv_params p;
    nn_dw_geom g;
    size_t in_stage, out_stage, filt_bytes, bias_bytes, req_bytes;
} dw_setup;

static int dw_setup_of(const nn_op_call *c, dw_setup *s, bool *known)
{
    memset(s, 0, sizeof *s);
    int err = nn_conv_layout_of(c, NN_CONV_DEPTHWISE, &s->l);
    if (!err)
        err = nn_conv_read_params(c, &s->l, &s->p);
    if (err)
        return err;
    *known = s->p.known;
    if (!*known)
        return ANEURALNETWORKS_NO_ERROR;
    const nn_tensor *in = c->in[0], *f = c->in[1];
    bool nchw = s->p.nchw == 1;
    uint32_t d[4];
    nn_conv_nhwc_dims(in, nchw, d);
    nn_dw_geom *g = &s->g;
    g->n = d[0], g->in_h = d[1], g->in_w = d[2], g->in_c = d[3];
    g->out_c = f->dims[3], g->f_h = f->dims[1], g->f_w = f->dims[2];
    g->multiplier = (uint32_t)s->p.multiplier;
    g->stride_h = s->p.stride_h, g->stride_w = s->p.stride_w;
    g->dil_h = s->p.dil_h, g->dil_w = s->p.dil_w;
    if (f->dims[0] != 1 || (uint64_t)g->in_c * g->multiplier != g->out_c ||
        c->in[2]->dims[0] != g->out_c)
        return ANEURALNETWORKS_BAD_DATA;
    err = nn_conv_out_size(&s->p, true, g->in_h, g->f_h, &g->out_h, &g->pad_t);
    if (!err)
        err = nn_conv_out_size(&s->p, false, g->in_w, g->f_w, &g->out_w, &g->pad_l);
    if (err)
        return err;
    if (!g->f_h || !g->f_w || !nn_conv_size_ok(g->n, g->out_h, g->out_w, g->out_c, sizeof(float)) ||
        !nn_conv_size_ok(g->n, g->in_h, g->in_w, g->in_c, sizeof(float)) ||
        !nn_conv_size_ok(g->f_h, g->f_w, g->out_c, 4, sizeof(float)))
        return ANEURALNETWORKS_BAD_DATA;
    bool half = in->type == ANEURALNETWORKS_TENSOR_FLOAT16;
    size_t out_count = (size_t)g->n * g->out_h * g->out_w * g->out_c;
    s->in_stage = nn_conv_stage_bytes(in, nchw);
    if (half)
        s->out_stage = out_count * sizeof(float);
    else if (nchw)
        s->out_stage = out_count * nn_type_size(in->type);
    if (half) {
        s->filt_bytes = (size_t)g->f_h * g->f_w * g->out_c * sizeof(float);
        s->bias_bytes = (size_t)g->out_c * sizeof(float);
    }
    if (nn_type_is_quant8(in->type))
        s->req_bytes = 2 * (size_t)g->out_c * sizeof(int32_t);
    return ANEURALNETWORKS_NO_ERROR;
}

static int validate_dw(const nn_op_call *c) { return conv_validate_common(c, NN_CONV_DEPTHWISE); }

/* The quantization of a quant8 depthwise call, its multipliers in mult and
 * shift (out_c each; none when NULL); the clamp range is left to the caller. */
static nn_dw_quant dw_quant_of(const nn_op_call *c, uint32_t out_c, int32_t *mult, int32_t *shift)
{
    const nn_tensor *in = c->in[0], *f = c->in[1], *ot = c->out[0];
    if (mult)
        nn_conv_requant_params(in, f, ot, out_c, mult, shift);
    nn_dw_quant q = {
        .in_signed = in->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
        .filter_signed = f->type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
        .out_signed = ot->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
        .in_zero = in->zero_point,
        .filter_zero = f->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL ? 0 : f->zero_point,
        .out_zero = ot->zero_point, .bias = c->in[2]->data, .mult = mult, .shift = shift};
    return q;
}

/* Constant quant8 filter and bias: the kernels' forms of them, built once. */
static int plan_dw(nn_op_call *c, void **state)
{
    *state = NULL;
    const nn_tensor *f = c->in[1], *b = c->in[2];
    if (!nn_type_is_quant8(c->in[0]->type) || !f->constant || !b->constant || !f->data ||
        !b->data || !nn_tensor_shape_known(f) || f->rank != 4)
        return ANEURALNETWORKS_NO_ERROR;
    nn_dw_geom g = {.f_h = f->dims[1], .f_w = f->dims[2], .out_c = f->dims[3]};
    nn_dw_quant q = dw_quant_of(c, g.out_c, NULL, NULL);
    nn_dw_q8_weights *w;
    int err = nn_dw_q8_weights_build(&g, f->data, &q, &w);
    if (err)
        return err;
    /* A cache hit maps them computed. */
    int32_t *mult = nn_dw_q8_requant_of(w);
    if (mult)
        nn_conv_requant_params(c->in[0], f, c->out[0], g.out_c, mult, mult + g.out_c);
    *state = w;
    return ANEURALNETWORKS_NO_ERROR;
}

static void release_dw(void *state) { nn_dw_q8_weights_free(state); }

static int prepare_dw(nn_op_call *c)
{
    dw_setup s;
    bool known;
    int err = dw_setup_of(c, &s, &known);
    if (err || !known)
        return err;
    uint32_t d[4] = {s.g.n, s.g.out_h, s.g.out_w, s.g.out_c};
    nn_conv_set_dims(c->out[0], s.p.nchw == 1, d);
    c->scratch_bytes = align64(s.in_stage) + align64(s.out_stage) + align64(s.filt_bytes) +
                       align64(s.bias_bytes) + align64(s.req_bytes);
    return ANEURALNETWORKS_NO_ERROR;
}

static int execute_dw(nn_op_call *c)
{
    dw_setup s;
    bool known;
    int err = dw_setup_of(c, &s, &known);
    if (err)
        return err;
    if (!known)
        return ANEURALNETWORKS_OP_FAILED;
    bool nchw = s.p.nchw == 1;
    const void *in;
    void *out;
    uint8_t *rest;
    stage_buffers(c, nchw, s.in_stage, s.out_stage, &in, &out, &rest);
    const nn_tensor *f = c->in[1], *b = c->in[2], *ot = c->out[0];
    if (nn_type_is_quant8(c->in[0]->type)) {
        int32_t lo, hi;
        nn_quant_activation_range(s.p.act, ot->type, ot->scale, ot->zero_point, &lo, &hi);
        if (c->state) {
            err = nn_depthwise_q8_built(&s.g, in, c->state, lo, hi, out);
        } else {
            int32_t *mult = (int32_t *)rest;
            nn_dw_quant q = dw_quant_of(c, s.g.out_c, mult, mult + s.g.out_c);
            q.lo = lo;
            q.hi = hi;
            err = nn_depthwise_q8(&s.g, in, f->data, &q, out);
        }
        if (err)
            return err;
    } else {
        const float *filt = f->data, *bias = b->data;
        if (f->type == ANEURALNETWORKS_TENSOR_FLOAT16) {
            float *ff = (float *)rest, *bf = (float *)(rest + align64(s.filt_bytes));
            nn_f16_to_f32_array(f->data, ff, s.filt_bytes / sizeof(float));
            nn_f16_to_f32_array(b->data, bf, s.g.out_c);
            filt = ff;
            bias = bf;
        }
        float lo, hi;
        nn_float_activation_range(s.p.act, &lo, &hi);
        err = nn_depthwise_f32(&s.g, in, filt, bias, lo, hi, out);
        if (err)
            return err;
    }
    if (s.out_stage)
        nn_conv_stage_out(out, nchw, c->out[0]);
    return ANEURALNETWORKS_NO_ERROR;
}

const nn_op_def nn_op_DEPTHWISE_CONV_2D = {
    .code = ANEURALNETWORKS_DEPTHWISE_CONV_2D, .name = "DEPTHWISE_CONV_2D",
    .validate = validate_dw, .prepare = prepare_dw, .execute = execute_dw, .plan = plan_dw,
    .release = release_dw,
};
