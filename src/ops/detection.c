/*
 * Box operations of the detection family: AXIS_ALIGNED_BBOX_TRANSFORM,
 * BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS and DETECTION_POSTPROCESSING.
 * Every variant is computed in float32 (float16 widened, quantized types
 * dequantized) and converted back on output, as the reference does.
 * The number of boxes BOX_WITH_NMS_LIMIT and GENERATE_PROPOSALS return
 * depends on the data: prepare runs the selection to size the outputs once
 * the inputs are known, execute runs it again to fill them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/fp16.h"
#include "ops/detection_common.h"
#include "runtime.h"

enum { FL3 = ANEURALNETWORKS_FEATURE_LEVEL_3, FL4 = ANEURALNETWORKS_FEATURE_LEVEL_4 };

#define T_F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define T_F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define T_I32 ANEURALNETWORKS_TENSOR_INT32
#define T_QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define T_QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
#define T_QA16 ANEURALNETWORKS_TENSOR_QUANT16_ASYMM
#define T_QS16 ANEURALNETWORKS_TENSOR_QUANT16_SYMM

static void set_dims(nn_tensor *t, uint32_t rank, uint32_t d0, uint32_t d1, uint32_t d2)
{
    nn_tensor_set_small_rank(t, rank);
    t->dims[0] = d0;
    t->dims[1] = d1;
    t->dims[2] = d2;
}

/* ------------------------------------------------------------------ */
/* AXIS_ALIGNED_BBOX_TRANSFORM                                         */

static int bbox_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 4, 4, 1) || c->feature_level < FL3)
        return SEQ_BAD;
    const nn_tensor *roi = c->in[0], *delta = c->in[1], *batch = c->in[2], *info = c->in[3];
    const nn_tensor *out = c->out[0];
    int32_t t = roi->type;
    if (t == T_QA16) {
        if (delta->type != T_QA8 && !(delta->type == T_QA8S && c->feature_level >= FL4))
            return nn_invalid("input 1 (deltas) of type %s for TENSOR_QUANT16_ASYMM boxes",
                              nn_type_name(delta->type));
        if (seq_check_box_coords(c, roi, T_QA8) || seq_check_box_coords(c, info, T_QA8) ||
            seq_check_box_coords(c, out, T_QA8) || nn_check_quant(delta))
            return SEQ_BAD;
    } else if (t == T_F32 || t == T_F16) {
        if (nn_expect_type(c, false, 1, t) || nn_expect_type(c, false, 3, t) ||
            nn_expect_type(c, true, 0, t))
            return SEQ_BAD;
    } else {
        return SEQ_BAD;
    }
    if (nn_check_rank(roi, 2, 2) || nn_check_rank(delta, 2, 2) || nn_check_rank(info, 2, 2) ||
        seq_check_tensor(batch, T_I32, 1))
        return SEQ_BAD;
    return SEQ_OK;
}

static int bbox_prepare(nn_op_call *c)
{
    const nn_tensor *roi = c->in[0], *delta = c->in[1], *batch = c->in[2], *info = c->in[3];
    if (roi->rank != 2 || delta->rank != 2 || batch->rank != 1 || info->rank != 2)
        return SEQ_BAD;
    uint32_t n = roi->dims[0];
    if (roi->dims[1] != 4 || delta->dims[0] != n || delta->dims[1] % 4 != 0 ||
        batch->dims[0] != n || info->dims[1] != 2)
        return SEQ_BAD;
    set_dims(c->out[0], 2, n, delta->dims[1], 0);
    return SEQ_OK;
}

static int bbox_execute(nn_op_call *c)
{
    const nn_tensor *roi_t = c->in[0], *delta_t = c->in[1], *info_t = c->in[3];
    const int32_t *batch = c->in[2]->data;
    size_t n = roi_t->dims[0], classes = delta_t->dims[1] / 4, images = info_t->dims[0];
    float *roi = seq_load_alloc(roi_t), *delta = seq_load_alloc(delta_t);
    float *info = seq_load_alloc(info_t), *out = seq_load_alloc(c->out[0]);
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (roi == NULL || delta == NULL || info == NULL || out == NULL)
        goto done;
    rc = ANEURALNETWORKS_OP_FAILED;
    for (size_t i = 0; i < n; i++) {
        if (batch[i] < 0 || (size_t)batch[i] >= images)
            goto done;
        const float *im = info + 2 * (size_t)batch[i];
        for (size_t k = 0; k < classes; k++) {
            size_t o = (i * classes + k) * 4;
            seq_bbox_apply(roi + i * 4, delta + o, im[0], im[1], out + o);
        }
    }
    seq_store(c->out[0], out, n * classes * 4);
    rc = SEQ_OK;
done:
    free(roi);
    free(delta);
    free(info);
    free(out);
    return rc;
}

const nn_op_def nn_op_AXIS_ALIGNED_BBOX_TRANSFORM = {
    .code = ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM,
    .name = "AXIS_ALIGNED_BBOX_TRANSFORM",
    .validate = bbox_validate,
    .prepare = bbox_prepare,
    .execute = bbox_execute,
};

/* ------------------------------------------------------------------ */
/* BOX_WITH_NMS_LIMIT                                                  */

static int nms_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 9, 9, 4) || c->feature_level < FL3)
        return SEQ_BAD;
    const nn_tensor *scores = c->in[0];
    int32_t t = scores->type;
    int32_t ft = seq_scalar_type_for(t);
    if (!seq_box_main_type_ok(c, t) || nn_check_rank(scores, 2, 2) || nn_check_quant(scores))
        return SEQ_BAD;
    if (seq_check_box_coords(c, c->in[1], t) || nn_check_rank(c->in[1], 2, 2) ||
        seq_check_tensor(c->in[2], T_I32, 1))
        return SEQ_BAD;
    if (seq_check_scalar(c->in[3], ft) || seq_check_scalar(c->in[4], ANEURALNETWORKS_INT32) ||
        seq_check_scalar(c->in[5], ANEURALNETWORKS_INT32) || seq_check_scalar(c->in[6], ft) ||
        seq_check_scalar(c->in[7], ft) || seq_check_scalar(c->in[8], ft))
        return SEQ_BAD;
    if (c->in[5]->data != NULL &&
        (nn_scalar_i32(c->in[5]) < 0 || nn_scalar_i32(c->in[5]) > 2))
        return nn_invalid("input 5 (NMS kernel) %d, expected 0, 1 or 2", nn_scalar_i32(c->in[5]));
    const nn_tensor *o0 = c->out[0];
    if (o0->type != t || (t != T_F32 && t != T_F16 &&
                          (o0->scale != scores->scale || o0->zero_point != scores->zero_point)))
        return SEQ_BAD;
    if (seq_check_box_coords(c, c->out[1], t) || nn_expect_type(c, true, 2, T_I32) ||
        nn_expect_type(c, true, 3, T_I32))
        return SEQ_BAD;
    return SEQ_OK;
}

typedef struct nms_result {
    float *scores;  /* per candidate (num_rois * num_classes), soft-NMS updated */
    float *boxes;   /* per candidate, 4 each */
    uint32_t *sel;  /* selected candidate indices, grouped by batch */
    size_t n_sel;
} nms_result;

static void nms_result_free(nms_result *r)
{
    free(r->scores);
    free(r->boxes);
    free(r->sel);
}

/* Stable sort of sel[0..n) by class (index % classes) ascending. */
static int sort_by_class(uint32_t *sel, size_t n, size_t classes)
{
    if (n < 2)
        return SEQ_OK;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (tmp == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    size_t k = 0;
    for (size_t cls = 0; cls < classes; cls++)
        for (size_t i = 0; i < n; i++)
            if (sel[i] % classes == cls)
                tmp[k++] = sel[i];
    memcpy(sel, tmp, n * sizeof *sel);
    free(tmp);
    return SEQ_OK;
}

static int nms_run(const nn_op_call *c, nms_result *r)
{
    memset(r, 0, sizeof *r);
    const nn_tensor *st = c->in[0];
    size_t rois = st->dims[0], classes = st->dims[1];
    const int32_t *batch = c->in[2]->data;
    float score_thr = nn_scalar_f32(c->in[3]);
    int32_t max_det = nn_scalar_i32(c->in[4]);
    int32_t kernel = nn_scalar_i32(c->in[5]);
    float iou_thr = nn_scalar_f32(c->in[6]);
    float sigma = nn_scalar_f32(c->in[7]);
    float nms_thr = nn_scalar_f32(c->in[8]);
    size_t cand;
    if (!seq_mul_ok(rois, classes, &cand) || cand > UINT32_MAX)
        return ANEURALNETWORKS_OP_FAILED;
    if (!nn_index_fits_i32(classes)) {
        nn_vlog("BOX_WITH_NMS_LIMIT: %zu classes: a class would not fit the int32 output",
                classes);
        return ANEURALNETWORKS_OP_FAILED;
    }
    r->scores = seq_load_alloc(st);
    r->boxes = seq_load_alloc(c->in[1]);
    r->sel = malloc((cand ? cand : 1) * sizeof *r->sel);
    if (r->scores == NULL || r->boxes == NULL || r->sel == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    /* Batch indices name images of the batch: never negative. */
    for (size_t i = 0; i < rois; i++)
        if (batch[i] < 0)
            return ANEURALNETWORKS_OP_FAILED;
    size_t n = 0;
    for (size_t b0 = 0; b0 < rois;) {
        size_t b1 = b0 + 1;
        while (b1 < rois && batch[b1] == batch[b0])
            b1++;
        size_t batch_begin = n;
        /* Class 0 is the background and never selected. */
        for (size_t cls = 1; cls < classes; cls++) {
            size_t begin = n;
            for (size_t i = b0; i < b1; i++) {
                uint32_t idx = (uint32_t)(i * classes + cls);
                if (r->scores[idx] > score_thr)
                    r->sel[n++] = idx;
            }
            size_t kept;
            if (kernel == 0)
                kept = seq_hard_nms(r->scores, r->boxes, 4, iou_thr, max_det, r->sel + begin,
                                    n - begin);
            else
                kept = seq_soft_nms(r->scores, r->boxes, 4, kernel, iou_thr, sigma, nms_thr,
                                    max_det, r->sel + begin, n - begin);
            n = begin + kept;
        }
        seq_sort_desc(r->sel + batch_begin, n - batch_begin, r->scores);
        if (max_det >= 0 && n - batch_begin > (size_t)max_det)
            n = batch_begin + (size_t)max_det;
        int rc = sort_by_class(r->sel + batch_begin, n - batch_begin, classes);
        if (rc != SEQ_OK)
            return rc;
        b0 = b1;
    }
    r->n_sel = n;
    return SEQ_OK;
}

static bool nms_inputs_known(const nn_op_call *c)
{
    for (uint32_t i = 0; i < 9; i++)
        if (c->in[i]->data == NULL && nn_tensor_count(c->in[i]) > 0)
            return false;
    return true;
}

static int nms_prepare(nn_op_call *c)
{
    const nn_tensor *s = c->in[0], *b = c->in[1], *bi = c->in[2];
    if (s->rank != 2 || b->rank != 2 || bi->rank != 1)
        return SEQ_BAD;
    size_t rois = s->dims[0], classes = s->dims[1];
    if (b->dims[0] != rois || b->dims[1] != classes * 4 || bi->dims[0] != rois)
        return SEQ_BAD;
    if (!nms_inputs_known(c))
        return SEQ_OK;
    nms_result r;
    int rc = nms_run(c, &r);
    if (rc == SEQ_OK) {
        uint32_t n = (uint32_t)r.n_sel;
        set_dims(c->out[0], 1, n, 0, 0);
        set_dims(c->out[1], 2, n, 4, 0);
        set_dims(c->out[2], 1, n, 0, 0);
        set_dims(c->out[3], 1, n, 0, 0);
    }
    nms_result_free(&r);
    return rc;
}

static int nms_execute(nn_op_call *c)
{
    nms_result r;
    int rc = nms_run(c, &r);
    if (rc != SEQ_OK) {
        nms_result_free(&r);
        return rc;
    }
    size_t n = r.n_sel, classes = c->in[0]->dims[1];
    const int32_t *batch = c->in[2]->data;
    float *sc = malloc((n ? n : 1) * sizeof(float));
    float *bx = malloc((n ? n : 1) * 4 * sizeof(float));
    if (sc == NULL || bx == NULL) {
        rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    } else if (n > c->out[0]->dims[0]) {
        rc = ANEURALNETWORKS_OP_FAILED;
    } else {
        int32_t *cls = c->out[2]->data, *bo = c->out[3]->data;
        for (size_t i = 0; i < n; i++) {
            uint32_t idx = r.sel[i];
            sc[i] = r.scores[idx];
            memcpy(bx + 4 * i, r.boxes + 4 * (size_t)idx, 4 * sizeof(float));
            cls[i] = (int32_t)(idx % classes);
            bo[i] = batch[idx / classes];
        }
        seq_store(c->out[0], sc, n);
        seq_store(c->out[1], bx, 4 * n);
    }
    free(sc);
    free(bx);
    nms_result_free(&r);
    return rc;
}

const nn_op_def nn_op_BOX_WITH_NMS_LIMIT = {
    .code = ANEURALNETWORKS_BOX_WITH_NMS_LIMIT,
    .name = "BOX_WITH_NMS_LIMIT",
    .validate = nms_validate,
    .prepare = nms_prepare,
    .execute = nms_execute,
};

/* ------------------------------------------------------------------ */
/* GENERATE_PROPOSALS                                                  */

static int gp_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 11, 11, 3) || c->feature_level < FL3)
        return SEQ_BAD;
    const nn_tensor *scores = c->in[0], *deltas = c->in[1], *anchors = c->in[2], *info = c->in[3];
    int32_t t = scores->type;
    int32_t ft = seq_scalar_type_for(t);
    if (!seq_box_main_type_ok(c, t) || nn_check_rank(scores, 4, 4) || nn_check_quant(scores))
        return SEQ_BAD;
    if (deltas->type != t || nn_check_rank(deltas, 4, 4) || nn_check_quant(deltas))
        return SEQ_BAD;
    if (t == T_F32 || t == T_F16) {
        if (anchors->type != t || info->type != t)
            return SEQ_BAD;
    } else if (anchors->type != T_QS16 || seq_check_box_coords(c, info, T_QA8) ||
               nn_check_value(c, anchors->scale == 0.125f, "anchors scale %g, expected 0.125",
                              (double)anchors->scale)) {
        return SEQ_BAD;
    }
    if (nn_check_rank(anchors, 2, 2) || nn_check_rank(info, 2, 2))
        return SEQ_BAD;
    if (seq_check_scalar(c->in[4], ft) || seq_check_scalar(c->in[5], ft) ||
        seq_check_scalar(c->in[6], ANEURALNETWORKS_INT32) ||
        seq_check_scalar(c->in[7], ANEURALNETWORKS_INT32) || seq_check_scalar(c->in[8], ft) ||
        seq_check_scalar(c->in[9], ft) || seq_check_scalar(c->in[10], ANEURALNETWORKS_BOOL))
        return SEQ_BAD;
    const nn_tensor *o0 = c->out[0];
    if (o0->type != t || (t != T_F32 && t != T_F16 &&
                          (o0->scale != scores->scale || o0->zero_point != scores->zero_point)))
        return SEQ_BAD;
    if (seq_check_box_coords(c, c->out[1], t) || c->out[2]->type != T_I32)
        return SEQ_BAD;
    return SEQ_OK;
}

typedef struct gp_shape {
    bool nchw;
    size_t batches, h, w, a;
} gp_shape;

static int gp_shape_of(const nn_op_call *c, gp_shape *g)
{
    const nn_tensor *s = c->in[0], *d = c->in[1], *an = c->in[2], *info = c->in[3];
    if (s->rank != 4 || d->rank != 4 || an->rank != 2 || info->rank != 2)
        return SEQ_BAD;
    g->nchw = c->in[10]->data != NULL && nn_scalar_bool(c->in[10]);
    g->batches = s->dims[0];
    g->a = g->nchw ? s->dims[1] : s->dims[3];
    g->h = g->nchw ? s->dims[2] : s->dims[1];
    g->w = g->nchw ? s->dims[3] : s->dims[2];
    uint32_t dc = g->nchw ? d->dims[1] : d->dims[3];
    uint32_t dh = g->nchw ? d->dims[2] : d->dims[1];
    uint32_t dw = g->nchw ? d->dims[3] : d->dims[2];
    if (d->dims[0] != g->batches || dc != g->a * 4 || dh != g->h || dw != g->w ||
        an->dims[0] != g->a || an->dims[1] != 4 || info->dims[0] != g->batches ||
        info->dims[1] != 2)
        return SEQ_BAD;
    return SEQ_OK;
}

typedef struct gp_result {
    float *scores; /* all candidates of all batches, [batch][h][w][a] */
    float *boxes;
    uint32_t *sel; /* selected candidate indices, grouped by batch */
    size_t n_sel;
} gp_result;

static void gp_result_free(gp_result *r)
{
    free(r->scores);
    free(r->boxes);
    free(r->sel);
}

/* Keeps the candidates with both sides above min_size whose centre lies in
 * the image; returns the new count. */
static size_t gp_filter(const float *boxes, const float *im, float min_size, uint32_t *sel,
                        size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const float *b = boxes + 4 * (size_t)sel[i];
        float w = b[2] - b[0], h = b[3] - b[1];
        float cx = b[0] + w / 2.0f, cy = b[1] + h / 2.0f;
        if (w > min_size && h > min_size && cx < im[1] && cy < im[0])
            sel[k++] = sel[i];
    }
    return k;
}

static int gp_run(const nn_op_call *c, const gp_shape *g, gp_result *r)
{
    memset(r, 0, sizeof *r);
    size_t per = g->h * g->w * g->a, total;
    if (!seq_mul_ok(per, g->batches, &total) || total > UINT32_MAX || total > SIZE_MAX / 16)
        return ANEURALNETWORKS_OP_FAILED;
    if (!nn_index_fits_i32(g->batches)) {
        nn_vlog("GENERATE_PROPOSALS: %zu batches: a batch index would not fit the int32 output",
                (size_t)g->batches);
        return ANEURALNETWORKS_OP_FAILED;
    }
    float h_stride = nn_scalar_f32(c->in[4]), w_stride = nn_scalar_f32(c->in[5]);
    int32_t pre_n = nn_scalar_i32(c->in[6]), post_n = nn_scalar_i32(c->in[7]);
    float iou_thr = nn_scalar_f32(c->in[8]), min_size = nn_scalar_f32(c->in[9]);
    float *sc_raw = seq_load_alloc(c->in[0]), *dl = seq_load_alloc(c->in[1]);
    float *an = seq_load_alloc(c->in[2]), *info = seq_load_alloc(c->in[3]);
    size_t alloc_n = total ? total : 1;
    r->scores = malloc(alloc_n * sizeof(float));
    r->boxes = malloc(alloc_n * 4 * sizeof(float));
    r->sel = malloc(alloc_n * sizeof(uint32_t));
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (sc_raw == NULL || dl == NULL || an == NULL || info == NULL || r->scores == NULL ||
        r->boxes == NULL || r->sel == NULL)
        goto done;
    size_t H = g->h, W = g->w, A = g->a, n = 0;
    for (size_t b = 0; b < g->batches; b++) {
        const float *im = info + 2 * b;
        for (size_t y = 0; y < H; y++)
            for (size_t x = 0; x < W; x++)
                for (size_t a = 0; a < A; a++) {
                    size_t idx = b * per + (y * W + x) * A + a;
                    float delta[4], anchor[4];
                    for (size_t k = 0; k < 4; k++) {
                        size_t ch = a * 4 + k;
                        delta[k] = g->nchw ? dl[((b * A * 4 + ch) * H + y) * W + x]
                                           : dl[((b * H + y) * W + x) * A * 4 + ch];
                    }
                    r->scores[idx] = g->nchw ? sc_raw[((b * A + a) * H + y) * W + x]
                                             : sc_raw[idx];
                    anchor[0] = an[a * 4 + 0] + (float)x * w_stride;
                    anchor[1] = an[a * 4 + 1] + (float)y * h_stride;
                    anchor[2] = an[a * 4 + 2] + (float)x * w_stride;
                    anchor[3] = an[a * 4 + 3] + (float)y * h_stride;
                    seq_bbox_apply(anchor, delta, im[0], im[1], r->boxes + 4 * idx);
                }
        uint32_t *sel = r->sel + n;
        for (size_t i = 0; i < per; i++)
            sel[i] = (uint32_t)(b * per + i);
        seq_sort_desc(sel, per, r->scores);
        size_t m = per;
        if (pre_n > 0 && (size_t)pre_n < m)
            m = (size_t)pre_n;
        m = gp_filter(r->boxes, im, min_size, sel, m);
        m = seq_hard_nms(r->scores, r->boxes, 4, iou_thr, post_n > 0 ? post_n : -1, sel, m);
        n += m;
    }
    r->n_sel = n;
    rc = SEQ_OK;
done:
    free(sc_raw);
    free(dl);
    free(an);
    free(info);
    return rc;
}

static int gp_prepare(nn_op_call *c)
{
    if (c->in[10]->data == NULL)
        return SEQ_OK;
    gp_shape g;
    if (gp_shape_of(c, &g))
        return SEQ_BAD;
    for (uint32_t i = 0; i < 11; i++)
        if (c->in[i]->data == NULL && nn_tensor_count(c->in[i]) > 0)
            return SEQ_OK;
    gp_result r;
    int rc = gp_run(c, &g, &r);
    if (rc == SEQ_OK) {
        uint32_t n = (uint32_t)r.n_sel;
        set_dims(c->out[0], 1, n, 0, 0);
        set_dims(c->out[1], 2, n, 4, 0);
        set_dims(c->out[2], 1, n, 0, 0);
    }
    gp_result_free(&r);
    return rc;
}

static int gp_execute(nn_op_call *c)
{
    gp_shape g;
    if (gp_shape_of(c, &g))
        return SEQ_BAD;
    gp_result r;
    int rc = gp_run(c, &g, &r);
    if (rc != SEQ_OK) {
        gp_result_free(&r);
        return rc;
    }
    size_t n = r.n_sel, per = g.h * g.w * g.a;
    float *sc = malloc((n ? n : 1) * sizeof(float));
    float *bx = malloc((n ? n : 1) * 4 * sizeof(float));
    if (sc == NULL || bx == NULL) {
        rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    } else if (n > c->out[0]->dims[0]) {
        rc = ANEURALNETWORKS_OP_FAILED;
    } else {
        int32_t *bo = c->out[2]->data;
        for (size_t i = 0; i < n; i++) {
            uint32_t idx = r.sel[i];
            sc[i] = r.scores[idx];
            memcpy(bx + 4 * i, r.boxes + 4 * (size_t)idx, 4 * sizeof(float));
            bo[i] = (int32_t)(idx / per);
        }
        seq_store(c->out[0], sc, n);
        seq_store(c->out[1], bx, 4 * n);
    }
    free(sc);
    free(bx);
    gp_result_free(&r);
    return rc;
}

const nn_op_def nn_op_GENERATE_PROPOSALS = {
    .code = ANEURALNETWORKS_GENERATE_PROPOSALS,
    .name = "GENERATE_PROPOSALS",
    .validate = gp_validate,
    .prepare = gp_prepare,
    .execute = gp_execute,
};

/* ------------------------------------------------------------------ */
/* DETECTION_POSTPROCESSING                                            */

static int dp_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 14, 14, 4) || c->feature_level < FL3)
        return SEQ_BAD;
    int32_t t = c->in[0]->type;
    if (t != T_F32 && t != T_F16)
        return SEQ_BAD;
    int32_t ft = seq_scalar_type_for(t);
    if (nn_check_rank(c->in[0], 3, 3) || seq_check_tensor(c->in[1], t, 3) ||
        seq_check_tensor(c->in[2], t, 2))
        return SEQ_BAD;
    for (uint32_t i = 3; i <= 6; i++)
        if (seq_check_scalar(c->in[i], ft))
            return SEQ_BAD;
        else if (c->in[i]->data != NULL && !(nn_scalar_f32(c->in[i]) > 0.0f))
            return nn_invalid("input %u (a box scale) %g is not positive", i,
                              (double)nn_scalar_f32(c->in[i]));
    if (seq_check_scalar(c->in[7], ANEURALNETWORKS_BOOL) ||
        seq_check_scalar(c->in[8], ANEURALNETWORKS_INT32) ||
        seq_check_scalar(c->in[9], ANEURALNETWORKS_INT32) ||
        seq_check_scalar(c->in[10], ANEURALNETWORKS_INT32) || seq_check_scalar(c->in[11], ft) ||
        seq_check_scalar(c->in[12], ft) || seq_check_scalar(c->in[13], ANEURALNETWORKS_BOOL))
        return SEQ_BAD;
    for (uint32_t i = 8; i <= 10; i++)
        if (c->in[i]->data != NULL && nn_scalar_i32(c->in[i]) <= 0)
            return nn_invalid("input %u (a detection count) %d is not positive", i,
                              nn_scalar_i32(c->in[i]));
    for (uint32_t i = 11; i <= 12; i++)
        if (c->in[i]->data != NULL && !(nn_scalar_f32(c->in[i]) >= 0.0f))
            return SEQ_BAD;
    if (c->out[0]->type != t || c->out[1]->type != t || c->out[2]->type != T_I32 ||
        c->out[3]->type != T_I32)
        return SEQ_BAD;
    return SEQ_OK;
}

static int dp_prepare(nn_op_call *c)
{
    const nn_tensor *s = c->in[0], *d = c->in[1], *a = c->in[2];
    if (s->rank != 3 || d->rank != 3 || a->rank != 2)
        return SEQ_BAD;
    uint32_t batches = s->dims[0], anchors = s->dims[1], classes = s->dims[2];
    if (d->dims[0] != batches || d->dims[1] != anchors || d->dims[2] < 4 ||
        a->dims[0] != anchors || a->dims[1] != 4 || classes < 2)
        return SEQ_BAD;
    if (c->in[7]->data == NULL || c->in[8]->data == NULL || c->in[9]->data == NULL)
        return SEQ_OK;
    uint64_t slots = (uint64_t)nn_scalar_i32(c->in[8]);
    if (!nn_scalar_bool(c->in[7]))
        slots *= (uint64_t)nn_scalar_i32(c->in[9]);
    if (slots > UINT32_MAX)
        return SEQ_BAD;
    set_dims(c->out[0], 2, batches, (uint32_t)slots, 0);
    set_dims(c->out[1], 3, batches, (uint32_t)slots, 4);
    set_dims(c->out[2], 2, batches, (uint32_t)slots, 0);
    set_dims(c->out[3], 1, batches, 0, 0);
    return SEQ_OK;
}

/* Decodes [dy, dx, dh, dw] against the anchors into [y1, x1, y2, x2]. */
static void dp_decode(const float *delta, size_t enc, const float *anchor, size_t n,
                      const float sc[4], float *boxes)
{
    for (size_t i = 0; i < n; i++) {
        const float *d = delta + i * enc, *a = anchor + i * 4;
        float cy = d[0] / sc[0] * a[2] + a[0];
        float cx = d[1] / sc[1] * a[3] + a[1];
        float h = expf(d[2] / sc[2]) * a[2];
        float w = expf(d[3] / sc[3]) * a[3];
        boxes[i * 4 + 0] = cy - h / 2.0f;
        boxes[i * 4 + 1] = cx - w / 2.0f;
        boxes[i * 4 + 2] = cy + h / 2.0f;
        boxes[i * 4 + 3] = cx + w / 2.0f;
    }
}

static int dp_execute(nn_op_call *c)
{
    const nn_tensor *st = c->in[0];
    size_t batches = st->dims[0], anchors = st->dims[1], classes = st->dims[2];
    size_t enc = c->in[1]->dims[2];
    float sc[4];
    for (int i = 0; i < 4; i++)
        sc[i] = nn_scalar_f32(c->in[3 + i]);
    bool regular = nn_scalar_bool(c->in[7]);
    int32_t max_det = nn_scalar_i32(c->in[8]);
    int32_t max_cls_per_det = nn_scalar_i32(c->in[9]);
    int32_t max_per_class = nn_scalar_i32(c->in[10]);
    /* Only scores lower than score_thr are filtered, as NeuralNetworks.h
     * says and TFLite does (Android's reference also drops equal ones). */
    float score_thr = nn_scalar_f32(c->in[11]), iou_thr = nn_scalar_f32(c->in[12]);
    int32_t label_off = nn_scalar_bool(c->in[13]) ? 0 : 1;
    size_t slots = c->out[0]->dims[1];
    /* Candidates are numbered in uint32; classes and counts go out as int32. */
    if (anchors * classes > UINT32_MAX || !nn_index_fits_i32(classes) ||
        !nn_index_fits_i32(slots + 1)) {
        nn_vlog("DETECTION_POSTPROCESSING: %zu anchors x %zu classes, %zu detections: an index "
                "or count would not fit its int32 output", anchors, classes, slots);
        return ANEURALNETWORKS_OP_FAILED;
    }

    float *scores = seq_load_alloc(st), *deltas = seq_load_alloc(c->in[1]);
    float *anc = seq_load_alloc(c->in[2]);
    size_t cand = anchors * classes;
    float *boxes = malloc((anchors ? anchors : 1) * 4 * sizeof(float));
    float *maxsc = malloc((anchors ? anchors : 1) * sizeof(float));
    uint32_t *sel = malloc((cand ? cand : 1) * sizeof(uint32_t));
    uint32_t *cls_idx = malloc(classes * sizeof(uint32_t));
    size_t n_out = batches * slots;
    float *o_sc = calloc(n_out + 1, sizeof(float));
    float *o_bx = calloc(n_out * 4 + 1, sizeof(float));
    int32_t *o_cls = c->out[2]->data, *o_num = c->out[3]->data;
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (scores == NULL || deltas == NULL || anc == NULL || boxes == NULL || maxsc == NULL ||
        sel == NULL || cls_idx == NULL || o_sc == NULL || o_bx == NULL)
        goto done;
    memset(o_cls, 0, batches * slots * sizeof(int32_t));
    for (size_t b = 0; b < batches; b++) {
        const float *bs = scores + b * cand;
        dp_decode(deltas + b * anchors * enc, enc, anc, anchors, sc, boxes);
        float *os = o_sc + b * slots, *ob = o_bx + b * slots * 4;
        int32_t *oc = o_cls + b * slots;
        size_t count = 0;
        if (regular) {
            size_t n = 0;
            for (size_t cls = 1; cls < classes; cls++) {
                size_t begin = n;
                for (size_t a = 0; a < anchors; a++)
                    if (bs[a * classes + cls] >= score_thr)
                        sel[n++] = (uint32_t)(a * classes + cls);
                /* NMS works on anchor indices with this class's scores;
                 * the kept ones are turned back into candidate indices. */
                uint32_t *s = sel + begin;
                size_t m = n - begin;
                for (size_t i = 0; i < m; i++)
                    s[i] /= (uint32_t)classes;
                for (size_t a = 0; a < anchors; a++)
                    maxsc[a] = bs[a * classes + cls];
                size_t kept = seq_stable_hard_nms(maxsc, boxes, 4, iou_thr, max_per_class, s, m);
                for (size_t i = 0; i < kept; i++)
                    s[i] = s[i] * (uint32_t)classes + (uint32_t)cls;
                n = begin + kept;
            }
            seq_sort_desc(sel, n, bs);
            count = n < (size_t)max_det ? n : (size_t)max_det;
            for (size_t i = 0; i < count; i++) {
                size_t a = sel[i] / classes;
                os[i] = bs[sel[i]];
                memcpy(ob + 4 * i, boxes + 4 * a, 4 * sizeof(float));
                oc[i] = (int32_t)(sel[i] % classes) - label_off;
            }
        } else {
            size_t n = 0;
            for (size_t a = 0; a < anchors; a++) {
                float m = -INFINITY;
                for (size_t cls = 1; cls < classes; cls++)
                    m = fmaxf(m, bs[a * classes + cls]);
                maxsc[a] = m;
                if (m >= score_thr)
                    sel[n++] = (uint32_t)a;
            }
            size_t kept = seq_stable_hard_nms(maxsc, boxes, 4, iou_thr, max_det, sel, n);
            size_t per = (size_t)max_cls_per_det < classes - 1 ? (size_t)max_cls_per_det
                                                                : classes - 1;
            for (size_t i = 0; i < kept; i++) {
                size_t a = sel[i];
                for (size_t k = 0; k + 1 < classes; k++)
                    cls_idx[k] = (uint32_t)(a * classes + k + 1);
                seq_sort_desc(cls_idx, classes - 1, bs);
                for (size_t k = 0; k < per; k++) {
                    size_t o = i * (size_t)max_cls_per_det + k;
                    os[o] = bs[cls_idx[k]];
                    memcpy(ob + 4 * o, boxes + 4 * a, 4 * sizeof(float));
                    oc[o] = (int32_t)(cls_idx[k] % classes) - label_off;
                }
            }
            count = kept;
        }
        o_num[b] = (int32_t)count;
    }
    seq_store(c->out[0], o_sc, batches * slots);
    seq_store(c->out[1], o_bx, batches * slots * 4);
    rc = SEQ_OK;
done:
    free(scores);
    free(deltas);
    free(anc);
    free(boxes);
    free(maxsc);
    free(sel);
    free(cls_idx);
    free(o_sc);
    free(o_bx);
    return rc;
}

const nn_op_def nn_op_DETECTION_POSTPROCESSING = {
    .code = ANEURALNETWORKS_DETECTION_POSTPROCESSING,
    .name = "DETECTION_POSTPROCESSING",
    .validate = dp_validate,
    .prepare = dp_prepare,
    .execute = dp_execute,
};
