/* AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D over NHWC data. Padding cells
 * take no part: averages divide by the number of cells inside the input. */
#include <math.h>
#include <string.h>

#include "kernels/float_ops.h"
#include "kernels/qops.h"
#include "kernels/quant.h"
#include "ops/conv_common.h"
#include "util/threadpool.h"

enum { POOL_AVG, POOL_MAX, POOL_L2 };

static size_t align64(size_t v) { return (v + 63) & ~(size_t)63; }

typedef struct pool_setup {
    nn_conv_layout l;
    nn_conv_params p;
    nn_conv_geom g;
    size_t in_stage, out_stage;
} pool_setup;

static int pool_validate(const nn_op_call *c, int kind)
{
    if (c->n_out != 1)
        return nn_invalid("%u outputs, expected 1", c->n_out);
    pool_setup s;
    int err = nn_conv_layout_of(c, NN_CONV_POOL, &s.l);
    if (!err)
        err = nn_conv_read_params(c, &s.l, &s.p);
    if (err)
        return err;
    const nn_tensor *in = c->in[0], *out = c->out[0];
    int32_t t = in->type;
    bool ok = t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16 ||
              (kind != POOL_L2 && nn_type_is_quant8(t));
    if (!ok)
        return nn_invalid("the operation does not take %s", nn_type_name(t));
    if (!nn_conv_type_level_ok(c, t) || nn_expect_type(c, true, 0, t))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(in, 4, 4) || nn_check_rank(out, 4, 4) || nn_check_quant(in) || nn_check_quant(out))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_type_is_quant8(t) && nn_expect_same_quant(c, 0, 0))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t fl = c->feature_level;
    if (fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 && s.l.nchw >= 0)
        return nn_invalid("the layout input needs feature level 3");
    return ANEURALNETWORKS_NO_ERROR;
}

static int pool_setup_of(const nn_op_call *c, pool_setup *s, bool *known)
{
    memset(s, 0, sizeof *s);
    int err = nn_conv_layout_of(c, NN_CONV_POOL, &s->l);
    if (!err)
        err = nn_conv_read_params(c, &s->l, &s->p);
    if (err)
        return err;
    *known = s->p.known;
    if (!*known)
        return ANEURALNETWORKS_NO_ERROR;
    bool nchw = s->p.nchw == 1;
    const nn_tensor *in = c->in[0];
    if (in->rank != 4)
        return ANEURALNETWORKS_BAD_DATA;
    uint32_t d[4];
    nn_conv_nhwc_dims(in, nchw, d);
    nn_conv_geom *g = &s->g;
    g->n = d[0], g->in_h = d[1], g->in_w = d[2], g->in_c = g->out_c = d[3];
    g->f_h = (uint32_t)s->p.filter_h, g->f_w = (uint32_t)s->p.filter_w;
    g->stride_h = s->p.stride_h, g->stride_w = s->p.stride_w;
    g->dil_h = g->dil_w = 1;
    err = nn_conv_out_size(&s->p, true, g->in_h, g->f_h, &g->out_h, &g->pad_t);
    if (!err)
        err = nn_conv_out_size(&s->p, false, g->in_w, g->f_w, &g->out_w, &g->pad_l);
    if (err)
        return err;
    if (!nn_conv_size_ok(g->n, g->out_h, g->out_w, g->out_c, sizeof(float)) ||
        !nn_conv_size_ok(g->n, g->in_h, g->in_w, g->in_c, sizeof(float)))
        return ANEURALNETWORKS_BAD_DATA;
    size_t out_count = (size_t)g->n * g->out_h * g->out_w * g->out_c;
    s->in_stage = nn_conv_stage_bytes(in, nchw);
    if (in->type == ANEURALNETWORKS_TENSOR_FLOAT16)
        s->out_stage = out_count * sizeof(float);
    else if (nchw)
        s->out_stage = out_count * nn_type_size(in->type);
    return ANEURALNETWORKS_NO_ERROR;
}

static int pool_prepare(nn_op_call *c)
{
    pool_setup s;
    bool known;
    int err = pool_setup_of(c, &s, &known);
    if (err || !known)
        return err;
    uint32_t d[4] = {s.g.n, s.g.out_h, s.g.out_w, s.g.out_c};
    nn_conv_set_dims(c->out[0], s.p.nchw == 1, d);
    c->scratch_bytes = align64(s.in_stage) + align64(s.out_stage);
    return ANEURALNETWORKS_NO_ERROR;
}

typedef struct pool_job {
    int kind;
    const nn_conv_geom *g;
    const void *in;
    void *out;
    bool quant, sgn;
    float lo, hi;
    int32_t qlo, qhi;
} pool_job;

#define CB 64

static void pool_rows(void *arg, size_t begin, size_t end)
{
    const pool_job *J = arg;
    const nn_conv_geom *g = J->g;
    const size_t ch = g->in_c;
    for (size_t row = begin; row < end; row++) {
        size_t n = row / g->out_h, oy = row % g->out_h;
        int64_t y0 = (int64_t)oy * g->stride_h - g->pad_t;
        int64_t ys = y0 < 0 ? 0 : y0, ye = y0 + g->f_h > g->in_h ? g->in_h : y0 + g->f_h;
        for (size_t ox = 0; ox < g->out_w; ox++) {
            int64_t x0 = (int64_t)ox * g->stride_w - g->pad_l;
            int64_t xs = x0 < 0 ? 0 : x0, xe = x0 + g->f_w > g->in_w ? g->in_w : x0 + g->f_w;
            int64_t cnt = (ye > ys && xe > xs) ? (ye - ys) * (xe - xs) : 0;
            size_t obase = ((n * g->out_h + oy) * g->out_w + ox) * ch;
            if (J->quant) {
                /* Every channel at once through the vector kernels (kernels/qops.h). */
                nn_q8_window w = {.in = J->in, .row_step = g->in_w * ch, .col_step = ch,
                                  .nc = ch, .is_signed = J->sgn, .lo = J->qlo, .hi = J->qhi};
                if (cnt) {
                    w.in += ((n * g->in_h + (size_t)ys) * g->in_w + (size_t)xs) * ch;
                    w.rows = (size_t)(ye - ys);
                    w.cols = (size_t)(xe - xs);
                }
                if (J->kind == POOL_MAX)
                    nn_q8_pool_max(&w, (uint8_t *)J->out + obase);
                else
                    nn_q8_pool_avg(&w, (uint8_t *)J->out + obase);
                continue;
            }
            if (cnt > 0) { /* float: the vector kernel (kernels/float_ops.h) */
                static const int kinds[] = {[POOL_AVG] = NN_POOL_F32_AVG,
                                            [POOL_MAX] = NN_POOL_F32_MAX,
                                            [POOL_L2] = NN_POOL_F32_L2};
                nn_pool_f32_pixel(kinds[J->kind], (const float *)J->in + n * g->in_h * g->in_w * ch,
                                  (size_t)g->in_w * ch, ch, (size_t)ys, (size_t)ye, (size_t)xs,
                                  (size_t)xe, J->lo, J->hi, (float *)J->out + obase);
                continue;
            }
            for (size_t c0 = 0; c0 < ch; c0 += CB) {
                size_t nc = ch - c0 < CB ? ch - c0 : CB;
                float acc[CB];
                for (size_t c = 0; c < nc; c++)
                    acc[c] = J->kind == POOL_MAX ? -INFINITY : 0.0f;
                for (int64_t y = ys; y < ye; y++)
                    for (int64_t x = xs; x < xe; x++) {
                        const float *ip = (const float *)J->in +
                                          ((n * g->in_h + (size_t)y) * g->in_w + (size_t)x) * ch + c0;
                        for (size_t c = 0; c < nc; c++) {
                            float v = ip[c];
                            if (J->kind == POOL_MAX)
                                acc[c] = v > acc[c] ? v : acc[c];
                            else if (J->kind == POOL_AVG)
                                acc[c] += v;
                            else
                                acc[c] += v * v;
                        }
                    }
                float *op = (float *)J->out + obase + c0;
                for (size_t c = 0; c < nc; c++) {
                    float v = acc[c];
                    if (J->kind == POOL_AVG)
                        v = cnt ? v / (float)cnt : 0.0f;
                    else if (J->kind == POOL_L2)
                        v = cnt ? sqrtf(v / (float)cnt) : 0.0f;
                    else if (!cnt)
                        v = 0.0f;
                    op[c] = v < J->lo ? J->lo : (v > J->hi ? J->hi : v);
                }
            }
        }
    }
}

static int pool_execute(nn_op_call *c, int kind)
{
    pool_setup s;
    bool known;
    int err = pool_setup_of(c, &s, &known);
    if (err)
        return err;
    if (!known)
        return ANEURALNETWORKS_OP_FAILED;
    bool nchw = s.p.nchw == 1;
    uint8_t *p = c->scratch;
    const void *in = c->in[0]->data;
    void *out = c->out[0]->data;
    if (s.in_stage) {
        nn_conv_stage_in(c->in[0], nchw, p);
        in = p;
        p += align64(s.in_stage);
    }
    if (s.out_stage)
        out = p;
    const nn_tensor *ot = c->out[0];
    pool_job J = {.kind = kind, .g = &s.g, .in = in, .out = out,
                  .quant = nn_type_is_quant8(ot->type),
                  .sgn = ot->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED};
    if (J.quant)
        nn_quant_activation_range(s.p.act, ot->type, ot->scale, ot->zero_point, &J.qlo, &J.qhi);
    else
        nn_float_activation_range(s.p.act, &J.lo, &J.hi);
    size_t rows = (size_t)s.g.n * s.g.out_h;
    size_t per_row = (size_t)s.g.out_w * s.g.out_c * s.g.f_h * s.g.f_w;
    nn_parallel_for(rows, per_row ? ((size_t)1 << 14) / per_row + 1 : rows, pool_rows, &J);
    if (s.out_stage)
        nn_conv_stage_out(out, nchw, c->out[0]);
    return ANEURALNETWORKS_NO_ERROR;
}

static int validate_avg(const nn_op_call *c) { return pool_validate(c, POOL_AVG); }
static int validate_max(const nn_op_call *c) { return pool_validate(c, POOL_MAX); }
static int validate_l2(const nn_op_call *c) { return pool_validate(c, POOL_L2); }
static int execute_avg(nn_op_call *c) { return pool_execute(c, POOL_AVG); }
static int execute_max(nn_op_call *c) { return pool_execute(c, POOL_MAX); }
static int execute_l2(nn_op_call *c) { return pool_execute(c, POOL_L2); }

const nn_op_def nn_op_AVERAGE_POOL_2D = {
    .code = ANEURALNETWORKS_AVERAGE_POOL_2D, .name = "AVERAGE_POOL_2D",
    .validate = validate_avg, .prepare = pool_prepare, .execute = execute_avg,
};
const nn_op_def nn_op_MAX_POOL_2D = {
    .code = ANEURALNETWORKS_MAX_POOL_2D, .name = "MAX_POOL_2D",
    .validate = validate_max, .prepare = pool_prepare, .execute = execute_max,
};
const nn_op_def nn_op_L2_POOL_2D = {
    .code = ANEURALNETWORKS_L2_POOL_2D, .name = "L2_POOL_2D",
    .validate = validate_l2, .prepare = pool_prepare, .execute = execute_l2,
};
