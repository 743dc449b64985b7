#include "ops/detection_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/fp16.h"
#include "kernels/quant.h"

void seq_load(const nn_tensor *t, float *dst, size_t n)
{
    const float s = t->scale;
    const float zp = (float)t->zero_point;
    switch (t->type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
        memcpy(dst, t->data, n * sizeof(float));
        break;
    case ANEURALNETWORKS_TENSOR_FLOAT16:
        nn_f16_to_f32_array(t->data, dst, n);
        break;
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: {
        const uint8_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            dst[i] = ((float)p[i] - zp) * s;
        break;
    }
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM: {
        const int8_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            dst[i] = ((float)p[i] - zp) * s;
        break;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: {
        const uint16_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            dst[i] = ((float)p[i] - zp) * s;
        break;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: {
        const int16_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            dst[i] = (float)p[i] * s;
        break;
    }
    case ANEURALNETWORKS_TENSOR_INT32: {
        const int32_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            dst[i] = (float)p[i];
        break;
    }
    default:
        memset(dst, 0, n * sizeof(float));
        break;
    }
}

/* round-half-away quantization with saturation to [lo, hi]. */
static int32_t quantize(float v, float scale, int32_t zp, int32_t lo, int32_t hi)
{
    return nn_quantize_value(v, scale, zp, lo, hi);
}

void seq_store(nn_tensor *t, const float *src, size_t n)
{
    const float s = t->scale;
    const int32_t zp = t->zero_point;
    switch (t->type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
        memcpy(t->data, src, n * sizeof(float));
        break;
    case ANEURALNETWORKS_TENSOR_FLOAT16:
        nn_f32_to_f16_array(src, t->data, n);
        break;
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: {
        uint8_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            p[i] = (uint8_t)quantize(src[i], s, zp, 0, 255);
        break;
    }
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM: {
        int8_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            p[i] = (int8_t)quantize(src[i], s, zp, -128, 127);
        break;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: {
        uint16_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            p[i] = (uint16_t)quantize(src[i], s, zp, 0, 65535);
        break;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: {
        int16_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            p[i] = (int16_t)quantize(src[i], s, 0, -32768, 32767);
        break;
    }
    case ANEURALNETWORKS_TENSOR_INT32: {
        int32_t *p = t->data;
        for (size_t i = 0; i < n; i++)
            p[i] = (int32_t)src[i];
        break;
    }
    default:
        break;
    }
}

bool seq_mul_ok(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b)
        return false;
    *out = a * b;
    return true;
}

float *seq_load_alloc(const nn_tensor *t)
{
    size_t n = nn_tensor_count(t);
    size_t bytes;
    if (!seq_mul_ok(n ? n : 1, sizeof(float), &bytes))
        return NULL;
    float *p = malloc(bytes);
    if (p != NULL && n > 0)
        seq_load(t, p, n);
    return p;
}

int seq_check_scalar(const nn_tensor *t, int32_t type)
{
    if (t->omitted)
        return nn_invalid("a %s scalar is omitted", nn_type_name(type));
    if (t->type != type)
        return nn_invalid("scalar of type %s, expected %s", nn_type_name(t->type),
                          nn_type_name(type));
    return SEQ_OK;
}

int seq_check_tensor(const nn_tensor *t, int32_t type, uint32_t rank)
{
    if (t->type != type)
        return nn_invalid("tensor of type %s, expected %s", nn_type_name(t->type),
                          nn_type_name(type));
    if (rank != 0 && t->rank != 0 && t->rank != rank)
        return nn_invalid("%s of rank %u, expected %u", nn_type_name(type), t->rank, rank);
    return nn_check_quant(t);
}

float seq_iou(const float *a, const float *b)
{
    float area_a = (a[2] - a[0]) * (a[3] - a[1]);
    float area_b = (b[2] - b[0]) * (b[3] - b[1]);
    float x1 = fmaxf(a[0], b[0]), y1 = fmaxf(a[1], b[1]);
    float x2 = fminf(a[2], b[2]), y2 = fminf(a[3], b[3]);
    float inter = fmaxf(x2 - x1, 0.0f) * fmaxf(y2 - y1, 0.0f);
    float uni = area_a + area_b - inter;
    return uni > 0.0f ? inter / uni : 0.0f;
}

static void swap_u32(uint32_t *a, uint32_t *b)
{
    uint32_t t = *a;
    *a = *b;
    *b = t;
}

/* Index of the first maximum of scores[sel[begin..end)]. */
static size_t argmax_sel(const float *scores, const uint32_t *sel, size_t begin, size_t end)
{
    size_t best = begin;
    for (size_t i = begin + 1; i < end; i++)
        if (scores[sel[i]] > scores[sel[best]])
            best = i;
    return best;
}

size_t seq_hard_nms(const float *scores, const float *boxes, size_t stride, float iou_threshold,
                    int32_t max_keep, uint32_t *sel, size_t n)
{
    size_t start = 0, end = n;
    size_t limit = max_keep < 0 ? n : (size_t)max_keep;
    while (start < end && start < limit) {
        swap_u32(&sel[argmax_sel(scores, sel, start, end)], &sel[start]);
        const float *best = boxes + stride * sel[start];
        /* Discarded candidates are swapped to the end, as the reference
         * does: this order decides which of equal scores wins later. */
        for (size_t i = start + 1; i < end;) {
            if (seq_iou(boxes + stride * sel[i], best) >= iou_threshold)
                swap_u32(&sel[i], &sel[--end]);
            else
                i++;
        }
        start++;
    }
    return start;
}

size_t seq_stable_hard_nms(const float *scores, const float *boxes, size_t stride,
                           float iou_threshold, int32_t max_keep, uint32_t *sel, size_t n)
{
    size_t limit = max_keep < 0 ? n : (size_t)max_keep;
    size_t kept = 0;
    seq_sort_desc(sel, n, scores);
    for (size_t i = 0; i < n && kept < limit; i++) {
        const float *box = boxes + stride * sel[i];
        bool overlaps = false;
        for (size_t k = 0; k < kept && !overlaps; k++)
            overlaps = seq_iou(boxes + stride * sel[k], box) >= iou_threshold;
        if (!overlaps)
            sel[kept++] = sel[i];
    }
    return kept;
}

size_t seq_soft_nms(float *scores, const float *boxes, size_t stride, int32_t kernel,
                    float iou_threshold, float sigma, float score_threshold, int32_t max_keep,
                    uint32_t *sel, size_t n)
{
    size_t start = 0, end = n;
    size_t limit = max_keep < 0 ? n : (size_t)max_keep;
    while (start < end && start < limit) {
        swap_u32(&sel[argmax_sel(scores, sel, start, end)], &sel[start]);
        const float *best = boxes + stride * sel[start];
        for (size_t i = start + 1; i < end;) {
            float iou = seq_iou(boxes + stride * sel[i], best);
            float w;
            if (kernel == 1)
                w = iou < iou_threshold ? 1.0f : 1.0f - iou;
            else if (kernel == 2)
                w = expf(-iou * iou / sigma);
            else
                w = iou < iou_threshold ? 1.0f : 0.0f;
            scores[sel[i]] *= w;
            if (scores[sel[i]] < score_threshold)
                swap_u32(&sel[i], &sel[--end]);
            else
                i++;
        }
        start++;
    }
    return start;
}

static void merge_desc(uint32_t *idx, uint32_t *tmp, size_t n, const float *key)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_desc(idx, tmp, h, key);
    merge_desc(idx + h, tmp, n - h, key);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = key[idx[j]] > key[idx[i]] ? idx[j++] : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

void seq_sort_desc(uint32_t *idx, size_t n, const float *key)
{
    if (n < 2)
        return;
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (tmp == NULL) {
        /* Insertion sort needs no memory; only reached when out of memory. */
        for (size_t i = 1; i < n; i++) {
            uint32_t v = idx[i];
            size_t j = i;
            while (j > 0 && key[idx[j - 1]] < key[v]) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = v;
        }
        return;
    }
    merge_desc(idx, tmp, n, key);
    free(tmp);
}

void seq_bbox_apply(const float *roi, const float *delta, float height, float width, float *out)
{
    float w = roi[2] - roi[0];
    float h = roi[3] - roi[1];
    float cx = roi[0] + w / 2.0f + delta[0] * w;
    float cy = roi[1] + h / 2.0f + delta[1] * h;
    float nw = w * expf(delta[2]);
    float nh = h * expf(delta[3]);
    out[0] = fmaxf(fminf(cx - nw / 2.0f, width), 0.0f);
    out[1] = fmaxf(fminf(cy - nh / 2.0f, height), 0.0f);
    out[2] = fmaxf(fminf(cx + nw / 2.0f, width), 0.0f);
    out[3] = fmaxf(fminf(cy + nh / 2.0f, height), 0.0f);
}

int seq_view(const nn_tensor *t, seq_fview *v)
{
    v->p = NULL;
    v->owned = NULL;
    if (t == NULL || t->omitted || t->data == NULL)
        return SEQ_OK;
    if (t->type == ANEURALNETWORKS_TENSOR_FLOAT32) {
        v->p = t->data;
        return SEQ_OK;
    }
    v->owned = seq_load_alloc(t);
    v->p = v->owned;
    return v->owned ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
}

void seq_view_free(seq_fview *v)
{
    free(v->owned);
    v->owned = NULL;
    v->p = NULL;
}

int seq_out_open(nn_tensor *t, seq_fout *o)
{
    o->t = t;
    o->owned = false;
    o->p = NULL;
    if (t == NULL || t->data == NULL)
        return SEQ_OK;
    if (t->type == ANEURALNETWORKS_TENSOR_FLOAT32) {
        o->p = t->data;
        return SEQ_OK;
    }
    o->p = seq_load_alloc(t);
    o->owned = true;
    return o->p ? SEQ_OK : ANEURALNETWORKS_OUT_OF_MEMORY;
}

void seq_out_close(seq_fout *o, bool commit)
{
    if (o->owned) {
        if (commit && o->p != NULL)
            seq_store(o->t, o->p, nn_tensor_count(o->t));
        free(o->p);
    }
    o->p = NULL;
    o->owned = false;
}

bool seq_box_main_type_ok(const nn_op_call *c, int32_t t)
{
    if (t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16 ||
        t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
        return true;
    return t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED &&
           c->feature_level >= ANEURALNETWORKS_FEATURE_LEVEL_4;
}

int seq_check_box_coords(const nn_op_call *c, const nn_tensor *b, int32_t t)
{
    if (t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16)
        return b->type == t ? SEQ_OK
                            : nn_invalid("box coordinates of type %s, expected %s",
                                         nn_type_name(b->type), nn_type_name(t));
    if (b->type != ANEURALNETWORKS_TENSOR_QUANT16_ASYMM)
        return nn_invalid("box coordinates of type %s, expected TENSOR_QUANT16_ASYMM",
                          nn_type_name(b->type));
    return nn_check_value(c, b->scale == 0.125f && b->zero_point == 0,
                          "box coordinates with scale %g zero point %d, expected 0.125 and 0",
                          (double)b->scale, b->zero_point);
}
