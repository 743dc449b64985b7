/*
 * Region operations: ROI_ALIGN, ROI_POOLING and HEATMAP_MAX_KEYPOINT.
 * Computed in float32 (float16 widened, quantized types dequantized) and
 * converted back on output. Feature maps in NCHW are read through strides,
 * so no transposed copy is made.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/detection_common.h"

enum { FL3 = ANEURALNETWORKS_FEATURE_LEVEL_3, FL4 = ANEURALNETWORKS_FEATURE_LEVEL_4 };

#define T_F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define T_F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define T_I32 ANEURALNETWORKS_TENSOR_INT32
#define T_QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define T_QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
#define T_QA16 ANEURALNETWORKS_TENSOR_QUANT16_ASYMM

/* Regions: box coordinates of rank 2. */
static int check_rois(const nn_op_call *c, const nn_tensor *r, int32_t t)
{
    if (seq_check_box_coords(c, r, t) != SEQ_OK)
        return SEQ_BAD;
    return nn_check_rank(r, 2, 2);
}

/* Layout of a 4-D feature map: element (n, y, x, ch) at
 * n*sn + y*sy + x*sx + ch*sc. */
typedef struct fmap {
    size_t batches, h, w, depth;
    size_t sn, sy, sx, sc;
} fmap;

static void fmap_of(const nn_tensor *t, bool nchw, fmap *m)
{
    m->batches = t->dims[0];
    if (nchw) {
        m->depth = t->dims[1];
        m->h = t->dims[2];
        m->w = t->dims[3];
        m->sx = 1;
        m->sy = m->w;
        m->sc = m->h * m->w;
    } else {
        m->h = t->dims[1];
        m->w = t->dims[2];
        m->depth = t->dims[3];
        m->sc = 1;
        m->sx = m->depth;
        m->sy = m->w * m->depth;
    }
    m->sn = m->h * m->w * m->depth;
}

/* Shared by ROI_ALIGN and ROI_POOLING: inputs 0..6 and the layout flag. */
static int roi_validate_common(const nn_op_call *c, uint32_t layout_idx, bool same_q)
{
    const nn_tensor *in = c->in[0], *out = c->out[0];
    int32_t t = in->type;
    int32_t ft = seq_scalar_type_for(t);
    if (c->feature_level < FL3 || !seq_box_main_type_ok(c, t) || nn_check_rank(in, 4, 4) ||
        nn_check_quant(in))
        return SEQ_BAD;
    if (check_rois(c, c->in[1], t) || seq_check_tensor(c->in[2], T_I32, 1))
        return SEQ_BAD;
    if (seq_check_scalar(c->in[3], ANEURALNETWORKS_INT32) ||
        seq_check_scalar(c->in[4], ANEURALNETWORKS_INT32) || seq_check_scalar(c->in[5], ft) ||
        seq_check_scalar(c->in[6], ft) ||
        seq_check_scalar(c->in[layout_idx], ANEURALNETWORKS_BOOL))
        return SEQ_BAD;
    /* Values: Android's ROI_ALIGN and ROI_POOLING check them when they
     * prepare, so such a model builds and computing it fails. */
    for (uint32_t i = 3; i <= 4; i++)
        if (c->in[i]->data != NULL &&
            nn_check_value(c, nn_scalar_i32(c->in[i]) > 0,
                           "input %u (output %s) %d is not positive", i,
                           i == 3 ? "height" : "width", nn_scalar_i32(c->in[i])))
            return SEQ_BAD;
    for (uint32_t i = 5; i <= 6; i++)
        if (c->in[i]->data != NULL &&
            nn_check_value(c, nn_scalar_f32(c->in[i]) > 0.0f,
                           "input %u (%s ratio) %g is not positive", i,
                           i == 5 ? "height" : "width", (double)nn_scalar_f32(c->in[i])))
            return SEQ_BAD;
    if (out->type != t || nn_check_quant(out))
        return SEQ_BAD;
    if (same_q && (t == T_QA8 || t == T_QA8S) && nn_expect_same_quant(c, 0, 0))
        return SEQ_BAD;
    return SEQ_OK;
}

static int roi_prepare_common(nn_op_call *c, uint32_t layout_idx)
{
    const nn_tensor *in = c->in[0], *rois = c->in[1], *bi = c->in[2];
    if (in->rank != 4 || rois->rank != 2 || bi->rank != 1)
        return SEQ_BAD;
    if (rois->dims[1] != 4 || bi->dims[0] != rois->dims[0])
        return SEQ_BAD;
    if (c->in[3]->data == NULL || c->in[4]->data == NULL || c->in[layout_idx]->data == NULL)
        return SEQ_OK;
    bool nchw = nn_scalar_bool(c->in[layout_idx]);
    int32_t oh = nn_scalar_i32(c->in[3]), ow = nn_scalar_i32(c->in[4]);
    if (oh <= 0 || ow <= 0)
        return SEQ_BAD;
    nn_tensor *out = c->out[0];
    nn_tensor_set_small_rank(out, 4);
    out->dims[0] = rois->dims[0];
    out->dims[1] = nchw ? in->dims[1] : (uint32_t)oh;
    out->dims[2] = nchw ? (uint32_t)oh : (uint32_t)ow;
    out->dims[3] = nchw ? (uint32_t)ow : in->dims[3];
    return SEQ_OK;
}

/* Float copies of the feature map and rois plus the output staging buffer. */
typedef struct roi_bufs {
    float *in, *rois, *out;
} roi_bufs;

static int roi_bufs_load(const nn_op_call *c, roi_bufs *b)
{
    b->in = seq_load_alloc(c->in[0]);
    b->rois = seq_load_alloc(c->in[1]);
    b->out = seq_load_alloc(c->out[0]);
    return b->in && b->rois && b->out ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
}

static void roi_bufs_free(roi_bufs *b)
{
    free(b->in);
    free(b->rois);
    free(b->out);
}

/* ------------------------------------------------------------------ */
/* ROI_ALIGN                                                           */

static int align_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 10, 10, 1))
        return SEQ_BAD;
    if (seq_check_scalar(c->in[7], ANEURALNETWORKS_INT32) ||
        seq_check_scalar(c->in[8], ANEURALNETWORKS_INT32))
        return SEQ_BAD;
    for (uint32_t i = 7; i <= 8; i++)
        if (c->in[i]->data != NULL &&
            nn_check_value(c, nn_scalar_i32(c->in[i]) >= 0,
                           "input %u (sampling points) %d is negative", i,
                           nn_scalar_i32(c->in[i])))
            return SEQ_BAD;
    return roi_validate_common(c, 9, false);
}

static int align_prepare(nn_op_call *c)
{
    return roi_prepare_common(c, 9);
}

/* Sample points of one bin along one axis: count of them (the sampling
 * ratio, or adaptively ceil(bin)), spacing, and the index range [lo, hi)
 * of those that can land inside the feature map, [-1, size]. */
typedef struct axis_samples {
    float count, step;
    size_t lo, hi;
} axis_samples;

/* The count must be a whole float (at most 2^24) with a finite spacing;
 * a hostile ROI or ratio asking for more fails the execution. */
static bool axis_count(int32_t ratio, float bin, axis_samples *a)
{
    a->count = ratio > 0 ? (float)ratio : ceilf(bin);
    if (!(a->count >= 1.0f && a->count <= 16777216.0f))
        return false;
    a->step = bin / a->count;
    return isfinite(a->step) && a->step > 0.0f;
}

/*
 * Points outside the map contribute nothing, so only indices near it are
 * visited: the loop then costs about two points per cell at most however far
 * the ROI reaches. The range is widened by the float rounding of the
 * positions and the exact in-map test stays in the loop, so the points
 * summed are exactly those of a full scan. False when the range would still
 * exceed about two points per cell (a sampling ratio far finer than the map,
 * or a ROI so far away that positions near the map cannot be resolved).
 */
static bool axis_range(axis_samples *a, float start, size_t size)
{
    a->lo = a->hi = 0;
    if (!isfinite(start))
        return true;
    double s = start, st = a->step;
    double margin = 4.0 * FLT_EPSILON * (fabs(s) + st * a->count + (double)size + 1.0) / st + 2.0;
    double first = fmax((-1.0 - s) / st - 0.5 - margin, 0.0);
    double end = fmin(((double)size - s) / st + 0.5 + margin, (double)a->count);
    if (!(first < end))
        return true;
    a->lo = (size_t)first;
    a->hi = (size_t)ceil(end);
    return a->hi - a->lo <= 2 * size + 64;
}

static int align_execute(nn_op_call *c)
{
    bool nchw = nn_scalar_bool(c->in[9]);
    fmap m;
    fmap_of(c->in[0], nchw, &m);
    const int32_t *batch = c->in[2]->data;
    size_t n_rois = c->in[1]->dims[0];
    size_t oh = (size_t)nn_scalar_i32(c->in[3]), ow = (size_t)nn_scalar_i32(c->in[4]);
    float h_scale = 1.0f / nn_scalar_f32(c->in[5]), w_scale = 1.0f / nn_scalar_f32(c->in[6]);
    int32_t sr_h = nn_scalar_i32(c->in[7]), sr_w = nn_scalar_i32(c->in[8]);
    roi_bufs b;
    int rc = roi_bufs_load(c, &b);
    if (rc != SEQ_OK)
        goto done;
    /* Output strides in the chosen layout. */
    size_t o_sc = nchw ? oh * ow : 1, o_sx = nchw ? 1 : m.depth, o_sy = ow * o_sx;
    size_t o_sn = oh * ow * m.depth;
    rc = ANEURALNETWORKS_OP_FAILED;
    for (size_t r = 0; r < n_rois; r++) {
        if (batch[r] < 0 || (size_t)batch[r] >= m.batches || m.h == 0 || m.w == 0)
            goto done;
        const float *roi = b.rois + 4 * r;
        const float *img = b.in + (size_t)batch[r] * m.sn;
        float x0 = roi[0] * w_scale, y0 = roi[1] * h_scale;
        float x1 = roi[2] * w_scale, y1 = roi[3] * h_scale;
        float rw = fmaxf(x1 - x0, 1.0f), rh = fmaxf(y1 - y0, 1.0f);
        float bin_w = rw / (float)ow, bin_h = rh / (float)oh;
        axis_samples sy, sx;
        if (!axis_count(sr_h, bin_h, &sy) || !axis_count(sr_w, bin_w, &sx))
            goto done;
        /* Exact: both counts are whole floats below 2^24. */
        float inv_count = 1.0f / (float)((double)sx.count * (double)sy.count);
        for (size_t i = 0; i < oh; i++)
            for (size_t j = 0; j < ow; j++) {
                float *o = b.out + r * o_sn + i * o_sy + j * o_sx;
                for (size_t ch = 0; ch < m.depth; ch++)
                    o[ch * o_sc] = 0.0f;
                float ys = y0 + bin_h * (float)i, xs = x0 + bin_w * (float)j;
                if (!axis_range(&sy, ys, m.h) || !axis_range(&sx, xs, m.w))
                    goto done;
                for (size_t iy = sy.lo; iy < sy.hi; iy++) {
                    float y = ys + sy.step * ((float)iy + 0.5f);
                    if (!(y >= -1.0f && y <= (float)m.h))
                        continue;
                    y = fmaxf(y, 0.0f);
                    size_t ya = (size_t)y, yb = ya + 1;
                    if (ya >= m.h - 1) {
                        ya = yb = m.h - 1;
                        y = (float)ya;
                    }
                    float dy = y - (float)ya;
                    for (size_t ix = sx.lo; ix < sx.hi; ix++) {
                        float x = xs + sx.step * ((float)ix + 0.5f);
                        if (!(x >= -1.0f && x <= (float)m.w))
                            continue;
                        x = fmaxf(x, 0.0f);
                        size_t xa = (size_t)x, xb = xa + 1;
                        if (xa >= m.w - 1) {
                            xa = xb = m.w - 1;
                            x = (float)xa;
                        }
                        float dx = x - (float)xa;
                        float w00 = (1.0f - dy) * (1.0f - dx), w01 = (1.0f - dy) * dx;
                        float w10 = dy * (1.0f - dx), w11 = dy * dx;
                        const float *p00 = img + ya * m.sy + xa * m.sx;
                        const float *p01 = img + ya * m.sy + xb * m.sx;
                        const float *p10 = img + yb * m.sy + xa * m.sx;
                        const float *p11 = img + yb * m.sy + xb * m.sx;
                        for (size_t ch = 0; ch < m.depth; ch++) {
                            size_t k = ch * m.sc;
                            o[ch * o_sc] += w00 * p00[k] + w01 * p01[k] + w10 * p10[k] +
                                            w11 * p11[k];
                        }
                    }
                }
                for (size_t ch = 0; ch < m.depth; ch++)
                    o[ch * o_sc] *= inv_count;
            }
    }
    seq_store(c->out[0], b.out, nn_tensor_count(c->out[0]));
    rc = SEQ_OK;
done:
    roi_bufs_free(&b);
    return rc;
}

const nn_op_def nn_op_ROI_ALIGN = {
    .code = ANEURALNETWORKS_ROI_ALIGN,
    .name = "ROI_ALIGN",
    .validate = align_validate,
    .prepare = align_prepare,
    .execute = align_execute,
};

/* ------------------------------------------------------------------ */
/* ROI_POOLING                                                         */

static int pool_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 8, 8, 1))
        return SEQ_BAD;
    return roi_validate_common(c, 7, true);
}

static int pool_prepare(nn_op_call *c)
{
    return roi_prepare_common(c, 7);
}

static size_t clamp_sz(float v, size_t hi)
{
    if (!(v > 0.0f))
        return 0;
    return v >= (float)hi ? hi : (size_t)v;
}

static int pool_execute(nn_op_call *c)
{
    bool nchw = nn_scalar_bool(c->in[7]);
    fmap m;
    fmap_of(c->in[0], nchw, &m);
    const int32_t *batch = c->in[2]->data;
    size_t n_rois = c->in[1]->dims[0];
    size_t oh = (size_t)nn_scalar_i32(c->in[3]), ow = (size_t)nn_scalar_i32(c->in[4]);
    float h_scale = 1.0f / nn_scalar_f32(c->in[5]), w_scale = 1.0f / nn_scalar_f32(c->in[6]);
    /* An empty bin gives real 0; for quantized outputs that is the zero point. */
    float empty = 0.0f;
    roi_bufs b;
    int rc = roi_bufs_load(c, &b);
    if (rc != SEQ_OK)
        goto done;
    size_t o_sc = nchw ? oh * ow : 1, o_sx = nchw ? 1 : m.depth, o_sy = ow * o_sx;
    size_t o_sn = oh * ow * m.depth;
    for (size_t r = 0; r < n_rois; r++) {
        if (batch[r] < 0 || (size_t)batch[r] >= m.batches) {
            rc = ANEURALNETWORKS_OP_FAILED;
            goto done;
        }
        const float *roi = b.rois + 4 * r;
        const float *img = b.in + (size_t)batch[r] * m.sn;
        float x0 = roundf(roi[0] * w_scale), y0 = roundf(roi[1] * h_scale);
        float x1 = roundf(roi[2] * w_scale), y1 = roundf(roi[3] * h_scale);
        float rw = fmaxf(x1 - x0 + 1.0f, 1.0f), rh = fmaxf(y1 - y0 + 1.0f, 1.0f);
        float bw = rw / (float)ow, bh = rh / (float)oh;
        for (size_t i = 0; i < oh; i++)
            for (size_t j = 0; j < ow; j++) {
                float *o = b.out + r * o_sn + i * o_sy + j * o_sx;
                size_t hs = clamp_sz(floorf(bh * (float)i + y0), m.h);
                size_t he = clamp_sz(ceilf(bh * (float)(i + 1) + y0), m.h);
                size_t ws = clamp_sz(floorf(bw * (float)j + x0), m.w);
                size_t we = clamp_sz(ceilf(bw * (float)(j + 1) + x0), m.w);
                for (size_t ch = 0; ch < m.depth; ch++) {
                    float best = empty;
                    if (hs < he && ws < we) {
                        best = -INFINITY;
                        for (size_t y = hs; y < he; y++)
                            for (size_t x = ws; x < we; x++)
                                best = fmaxf(best, img[y * m.sy + x * m.sx + ch * m.sc]);
                    }
                    o[ch * o_sc] = best;
                }
            }
    }
    seq_store(c->out[0], b.out, nn_tensor_count(c->out[0]));
    rc = SEQ_OK;
done:
    roi_bufs_free(&b);
    return rc;
}

const nn_op_def nn_op_ROI_POOLING = {
    .code = ANEURALNETWORKS_ROI_POOLING,
    .name = "ROI_POOLING",
    .validate = pool_validate,
    .prepare = pool_prepare,
    .execute = pool_execute,
};

/* ------------------------------------------------------------------ */
/* HEATMAP_MAX_KEYPOINT                                                */

static int heat_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 3, 3, 2) || c->feature_level < FL3)
        return SEQ_BAD;
    const nn_tensor *hm = c->in[0];
    int32_t t = hm->type;
    if (!seq_box_main_type_ok(c, t) || nn_check_rank(hm, 4, 4) || nn_check_quant(hm))
        return SEQ_BAD;
    if (check_rois(c, c->in[1], t) || seq_check_scalar(c->in[2], ANEURALNETWORKS_BOOL))
        return SEQ_BAD;
    if (c->out[0]->type != t || nn_check_quant(c->out[0]))
        return SEQ_BAD;
    const nn_tensor *kp = c->out[1];
    if (kp->type != c->in[1]->type)
        return SEQ_BAD;
    if (kp->type == T_QA16 &&
        nn_check_value(c, kp->scale == 0.125f && kp->zero_point == 0,
                       "keypoints scale %g zero point %d, expected 0.125 and 0", (double)kp->scale,
                       kp->zero_point))
        return SEQ_BAD;
    return SEQ_OK;
}

static int heat_prepare(nn_op_call *c)
{
    const nn_tensor *hm = c->in[0], *boxes = c->in[1];
    if (hm->rank != 4 || boxes->rank != 2)
        return SEQ_BAD;
    if (c->in[2]->data == NULL)
        return SEQ_OK;
    bool nchw = nn_scalar_bool(c->in[2]);
    uint32_t n = hm->dims[0];
    uint32_t k = nchw ? hm->dims[1] : hm->dims[3];
    uint32_t h = nchw ? hm->dims[2] : hm->dims[1];
    uint32_t w = nchw ? hm->dims[3] : hm->dims[2];
    if (h != w || (n > 0 && h < 2) || boxes->dims[0] != n || boxes->dims[1] != 4)
        return SEQ_BAD;
    nn_tensor *o0 = c->out[0], *o1 = c->out[1];
    nn_tensor_set_small_rank(o0, 2);
    o0->dims[0] = n;
    o0->dims[1] = k;
    nn_tensor_set_small_rank(o1, 3);
    o1->dims[0] = n;
    o1->dims[1] = k;
    o1->dims[2] = 2;
    return SEQ_OK;
}

/* Second-order Taylor expansion of the 3x3 neighbourhood g around its
 * centre: moves the maximum by delta (x, y), limited to 1.5 cells, and
 * returns the interpolated value there. */
static float heat_refine(const float g[3][3], float delta[2])
{
    float bx = -(g[1][2] - g[1][0]) / 2.0f;
    float by = -(g[2][1] - g[0][1]) / 2.0f;
    float axx = g[1][0] - 2.0f * g[1][1] + g[1][2];
    float axy = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) / 4.0f;
    float ayy = g[0][1] - 2.0f * g[1][1] + g[2][1];
    float det = axx * ayy - axy * axy;
    delta[0] = delta[1] = 0.0f;
    if (det != 0.0f) {
        delta[0] = (ayy * bx - axy * by) / det;
        delta[1] = (axx * by - axy * bx) / det;
        float mx = fmaxf(fabsf(delta[0]), fabsf(delta[1]));
        if (mx > 1.5f) {
            float s = 1.5f / mx;
            delta[0] *= s;
            delta[1] *= s;
        }
    }
    return g[1][1] - bx * delta[0] - by * delta[1] +
           0.5f * (axx * delta[0] * delta[0] + 2.0f * axy * delta[0] * delta[1] +
                   ayy * delta[1] * delta[1]);
}

/* Index v - 1 of a map of the given size, mirrored at the edges. */
static size_t heat_mirror(size_t v, size_t size)
{
    if (v == 0)
        return 1;
    return v - 1 >= size ? size - 2 : v - 1;
}

static int heat_execute(nn_op_call *c)
{
    bool nchw = nn_scalar_bool(c->in[2]);
    fmap m;
    fmap_of(c->in[0], nchw, &m);
    size_t n = m.batches, kps = m.depth, size = m.h;
    float *hm = seq_load_alloc(c->in[0]), *boxes = seq_load_alloc(c->in[1]);
    float *sc = seq_load_alloc(c->out[0]), *kp = seq_load_alloc(c->out[1]);
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (hm == NULL || boxes == NULL || sc == NULL || kp == NULL)
        goto done;
    for (size_t i = 0; i < n; i++) {
        const float *box = boxes + 4 * i, *img = hm + i * m.sn;
        float rw = fmaxf(box[2] - box[0], 1.0f), rh = fmaxf(box[3] - box[1], 1.0f);
        float sx = rw / (float)size, sy = rh / (float)size;
        for (size_t k = 0; k < kps; k++) {
            const float *p = img + k * m.sc;
            size_t my = 0, mx = 0;
            float best = -INFINITY;
            for (size_t y = 0; y < size; y++)
                for (size_t x = 0; x < size; x++) {
                    float v = p[y * m.sy + x * m.sx];
                    if (v > best) {
                        best = v;
                        my = y;
                        mx = x;
                    }
                }
            /* The 3x3 neighbourhood mirrors at the map's edges. */
            float g[3][3];
            for (size_t dy = 0; dy < 3; dy++)
                for (size_t dx = 0; dx < 3; dx++)
                    g[dy][dx] = p[heat_mirror(my + dy, size) * m.sy +
                                  heat_mirror(mx + dx, size) * m.sx];
            float delta[2];
            sc[i * kps + k] = heat_refine(g, delta);
            kp[(i * kps + k) * 2 + 0] = box[0] + ((float)mx + delta[0] + 0.5f) * sx;
            kp[(i * kps + k) * 2 + 1] = box[1] + ((float)my + delta[1] + 0.5f) * sy;
        }
    }
    seq_store(c->out[0], sc, n * kps);
    seq_store(c->out[1], kp, n * kps * 2);
    rc = SEQ_OK;
done:
    free(hm);
    free(boxes);
    free(sc);
    free(kp);
    return rc;
}

const nn_op_def nn_op_HEATMAP_MAX_KEYPOINT = {
    .code = ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT,
    .name = "HEATMAP_MAX_KEYPOINT",
    .validate = heat_validate,
    .prepare = heat_prepare,
    .execute = heat_execute,
};
