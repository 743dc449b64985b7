/* Image resizing: RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR. */
#include <math.h>
#include <string.h>

#include "kernels/fp16.h"
#include "kernels/qops.h"
#include "ops/shape_common.h"
#include "util/threadpool.h"

static int resize_prepare(nn_op_call *c);

#define BILINEAR_TYPES SHP_TYPES({T_F32, FL1}, {T_F16, FL3}, {T_QA8, FL3}, {T_QA8S, FL4})
#define NEAREST_TYPES SHP_TYPES({T_F32, FL3}, {T_F16, FL3}, {T_QA8, FL3}, {T_QA8S, FL4})

static int resize_validate(const nn_op_call *c)
{
    bool nearest = c->op_type == ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR;
    const nn_tensor *in = c->in[0];
    if (nn_check_counts(c, nearest ? 4 : 3, 6, 1) ||
        shp_check_type(c, in->type, nearest ? NEAREST_TYPES : BILINEAR_TYPES) ||
        !shp_rank_in(in, 4, 4) || shp_check_same_q(in, c->out[0]))
        return NN_BAD;
    int32_t t1 = c->in[1]->type, t2 = c->in[2]->type;
    int32_t scale_type = in->type == T_F16 ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32;
    if (t1 != t2 || (t1 != ANEURALNETWORKS_INT32 && t1 != scale_type))
        return nn_invalid("inputs 1 and 2 of types %s and %s, expected both INT32 or both %s",
                          nn_type_name(t1), nn_type_name(t2), nn_type_name(scale_type));
    if (t1 != ANEURALNETWORKS_INT32 && c->feature_level < FL3)
        return nn_invalid("scale inputs need feature level 3");
    if (shp_check_opt_scalar(c, 3, ANEURALNETWORKS_BOOL, FL3) ||
        shp_check_opt_scalar(c, 4, ANEURALNETWORKS_BOOL, FL4) ||
        shp_check_opt_scalar(c, 5, ANEURALNETWORKS_BOOL, FL4))
        return NN_BAD;
    for (uint32_t i = 1; i < 3; i++) {
        const nn_tensor *t = c->in[i];
        if (t->data == NULL)
            continue;
        if (t1 == ANEURALNETWORKS_INT32 ? nn_scalar_i32(t) <= 0 : !(nn_scalar_f32(t) > 0.0f))
            return nn_invalid("input %u (%s) is not positive", i, i == 1 ? "width" : "height");
    }
    if (c->n_in > 5 && shp_present(c, 4) && shp_present(c, 5) && c->in[4]->data &&
        c->in[5]->data && nn_scalar_bool(c->in[4]) && nn_scalar_bool(c->in[5]))
        return nn_invalid("align_corners and half_pixel_centers are both set");
    return shp_validate_shapes(c, resize_prepare);
}

typedef struct resize_params {
    bool nchw, align_corners, half_pixel;
    uint32_t out_h, out_w;
} resize_params;

/* Output size along one axis from input 1 (width) or 2 (height). */
static int resize_size(const nn_tensor *t, uint32_t in_size, uint32_t *out)
{
    if (t->type == ANEURALNETWORKS_INT32) {
        int32_t v = nn_scalar_i32(t);
        if (v <= 0)
            return shp_value_error(t);
        *out = (uint32_t)v;
        return NN_OK;
    }
    float v = (float)in_size * nn_scalar_f32(t);
    if (!(v >= 1.0f) || v >= 4294967296.0f)
        return shp_value_error(t);
    *out = (uint32_t)v;
    return NN_OK;
}

static int resize_read(const nn_op_call *c, resize_params *p, bool *known)
{
    *known = c->in[1]->data && c->in[2]->data;
    if (!*known)
        return NN_OK;
    p->nchw = shp_opt_bool(c, 3);
    p->align_corners = shp_opt_bool(c, 4);
    p->half_pixel = shp_opt_bool(c, 5);
    if (p->align_corners && p->half_pixel)
        return NN_BAD;
    shp_nhwc s = shp_get_nhwc(c->in[0], p->nchw);
    int err = resize_size(c->in[1], s.w, &p->out_w);
    return err ? err : resize_size(c->in[2], s.h, &p->out_h);
}

static int resize_prepare(nn_op_call *c)
{
    resize_params p;
    bool known;
    int err = resize_read(c, &p, &known);
    if (err || !known)
        return err;
    shp_nhwc s = shp_get_nhwc(c->in[0], p.nchw);
    s.h = p.out_h;
    s.w = p.out_w;
    shp_set_nhwc(c->out[0], p.nchw, s);
    return shp_set_shape(c->out[0], 4, c->out[0]->dims);
}

static float load(const void *data, size_t i, int32_t type)
{
    switch (type) {
    case T_F32:
        return ((const float *)data)[i];
    case T_F16:
        return nn_f16_to_f32(((const uint16_t *)data)[i]);
    case T_QA8:
        return ((const uint8_t *)data)[i];
    default:
        return ((const int8_t *)data)[i];
    }
}

/* Quantized results are truncated toward zero as the reference kernels do. */
static void store(void *data, size_t i, int32_t type, float v)
{
    switch (type) {
    case T_F32:
        ((float *)data)[i] = v;
        break;
    case T_F16:
        ((uint16_t *)data)[i] = nn_f32_to_f16(v);
        break;
    case T_QA8:
        ((uint8_t *)data)[i] = (uint8_t)(v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v));
        break;
    default:
        ((int8_t *)data)[i] = (int8_t)(v < -128.0f ? -128.0f : (v > 127.0f ? 127.0f : v));
        break;
    }
}

static float axis_scale(uint32_t in, uint32_t out, bool align_corners)
{
    if (align_corners && out > 1)
        return (float)(in - 1) / (float)(out - 1);
    return (float)in / (float)out;
}

/* Source index of a nearest-neighbour output coordinate. */
static uint32_t nearest_src(uint32_t dst, uint32_t in, float scale, const resize_params *p)
{
    float off = p->half_pixel ? 0.5f : 0.0f;
    float f = ((float)dst + off) * scale;
    int64_t v = p->align_corners ? (int64_t)roundf(f) : (int64_t)floorf(f);
    if (v > (int64_t)in - 1)
        v = (int64_t)in - 1;
    if (v < 0)
        v = 0;
    return (uint32_t)v;
}

/* Bilinear source coordinates: lower/upper index and the fraction. */
typedef struct lerp {
    uint32_t lo, hi;
    float t;
} lerp;

static lerp bilinear_src(uint32_t dst, uint32_t in, float scale, const resize_params *p)
{
    float f = p->half_pixel ? ((float)dst + 0.5f) * scale - 0.5f : (float)dst * scale;
    float fl = floorf(f);
    int64_t lo = (int64_t)fl, hi = (int64_t)ceilf(f);
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)in - 1)
        hi = (int64_t)in - 1;
    lerp r = {(uint32_t)lo, (uint32_t)hi, f - (float)lo};
    return r;
}

typedef struct resize_job {
    const nn_tensor *in;
    nn_tensor *out;
    resize_params p;
    bool nearest;
    shp_nhwc is, os;
    size_t ish, isw, isc, isn, osh, osw, osc, osn;
    float sh, sw;
} resize_job;

/* Output rows [begin, end) of the flattened (batch, y) range. */
static void resize_rows(void *arg, size_t begin, size_t end)
{
    const resize_job *j = arg;
    int32_t type = j->in->type;
    size_t elem = nn_type_size(type);
    const char *src = j->in->data;
    char *dst = j->out->data;
    bool f32 = type == T_F32;
    for (size_t r = begin; r < end; r++) {
        size_t n = r / j->os.h;
        uint32_t y = (uint32_t)(r % j->os.h);
        size_t base = n * j->isn;
        for (uint32_t x = 0; x < j->os.w; x++) {
            size_t o = n * j->osn + y * j->osh + x * j->osw;
            if (j->nearest) {
                size_t i = base + nearest_src(y, j->is.h, j->sh, &j->p) * j->ish +
                           nearest_src(x, j->is.w, j->sw, &j->p) * j->isw;
                if (!j->p.nchw) {
                    memcpy(dst + o * elem, src + i * elem, j->is.c * elem);
                    continue;
                }
                for (uint32_t ch = 0; ch < j->is.c; ch++)
                    memcpy(dst + (o + ch * j->osc) * elem, src + (i + ch * j->isc) * elem, elem);
                continue;
            }
            lerp ly = bilinear_src(y, j->is.h, j->sh, &j->p);
            lerp lx = bilinear_src(x, j->is.w, j->sw, &j->p);
            size_t i00 = base + ly.lo * j->ish + lx.lo * j->isw;
            size_t i01 = base + ly.lo * j->ish + lx.hi * j->isw;
            size_t i10 = base + ly.hi * j->ish + lx.lo * j->isw;
            size_t i11 = base + ly.hi * j->ish + lx.hi * j->isw;
            float w00 = (1 - ly.t) * (1 - lx.t), w10 = ly.t * (1 - lx.t);
            float w01 = (1 - ly.t) * lx.t, w11 = ly.t * lx.t;
            if (f32) {
                const float *fs = (const float *)src;
                float *fd = (float *)dst;
                for (uint32_t ch = 0; ch < j->is.c; ch++) {
                    size_t k = ch * j->isc;
                    fd[o + ch * j->osc] = fs[i00 + k] * w00 + fs[i10 + k] * w10 +
                                          fs[i01 + k] * w01 + fs[i11 + k] * w11;
                }
                continue;
            }
            if (!j->p.nchw && (type == T_QA8 || type == T_QA8S)) {
                /* Contiguous channels: the vector kernel, the same floats. */
                const uint8_t *q = (const uint8_t *)src;
                nn_q8_bilinear px = {.p00 = q + i00, .p01 = q + i01, .p10 = q + i10, .p11 = q + i11,
                                     .w00 = w00, .w01 = w01, .w10 = w10, .w11 = w11,
                                     .nc = j->is.c, .is_signed = type == T_QA8S};
                nn_q8_resize_bilinear(&px, (uint8_t *)dst + o);
                continue;
            }
            for (uint32_t ch = 0; ch < j->is.c; ch++) {
                size_t k = ch * j->isc;
                float v = load(src, i00 + k, type) * w00 + load(src, i10 + k, type) * w10 +
                          load(src, i01 + k, type) * w01 + load(src, i11 + k, type) * w11;
                store(dst, o + ch * j->osc, type, v);
            }
        }
    }
}

static int resize_execute(nn_op_call *c)
{
    resize_job j;
    bool known;
    if (resize_read(c, &j.p, &known) || !known)
        return ANEURALNETWORKS_OP_FAILED;
    j.in = c->in[0];
    j.out = c->out[0];
    j.nearest = c->op_type == ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR;
    bool nchw = j.p.nchw;
    j.is = shp_get_nhwc(j.in, nchw);
    j.os = shp_get_nhwc(j.out, nchw);
    if (j.is.h == 0 || j.is.w == 0 || j.os.h == 0)
        return ANEURALNETWORKS_OP_FAILED;
    /* Element strides of H, W, C and N in both tensors. */
    j.ish = nchw ? j.is.w : (size_t)j.is.w * j.is.c;
    j.isw = nchw ? 1 : j.is.c;
    j.isc = nchw ? (size_t)j.is.h * j.is.w : 1;
    j.isn = (size_t)j.is.h * j.is.w * j.is.c;
    j.osh = nchw ? j.os.w : (size_t)j.os.w * j.os.c;
    j.osw = nchw ? 1 : j.os.c;
    j.osc = nchw ? (size_t)j.os.h * j.os.w : 1;
    j.osn = (size_t)j.os.h * j.os.w * j.os.c;
    j.sh = axis_scale(j.is.h, j.os.h, j.p.align_corners);
    j.sw = axis_scale(j.is.w, j.os.w, j.p.align_corners);
    size_t row = (size_t)j.os.w * j.os.c;
    nn_parallel_for((size_t)j.is.n * j.os.h, row >= 16384 ? 1 : 16384 / (row ? row : 1),
                    resize_rows, &j);
    return NN_OK;
}

const nn_op_def nn_op_RESIZE_BILINEAR = {
    .code = ANEURALNETWORKS_RESIZE_BILINEAR,
    .name = "RESIZE_BILINEAR",
    .validate = resize_validate,
    .prepare = resize_prepare,
    .execute = resize_execute,
};

const nn_op_def nn_op_RESIZE_NEAREST_NEIGHBOR = {
    .code = ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR,
    .name = "RESIZE_NEAREST_NEIGHBOR",
    .validate = resize_validate,
    .prepare = resize_prepare,
    .execute = resize_execute,
};
