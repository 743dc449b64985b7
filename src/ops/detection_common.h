/*
 * Helpers shared by the detection, region and recurrent operations
 * (detection*.c, roi*.c, rnn*.c, lstm*.c): float staging of tensors of any
 * numeric type, box geometry and the non-maximum suppression loops.
 * The box/NMS routines follow the reference behaviour of the Android CPU
 * implementation (candidate order, tie breaking) because the conformance
 * vectors depend on it.
 */
#ifndef NN_OPS_DETECTION_COMMON_H
#define NN_OPS_DETECTION_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/op.h"

#define SEQ_OK ANEURALNETWORKS_NO_ERROR
#define SEQ_BAD ANEURALNETWORKS_BAD_DATA

/* Reads n elements of t as real values (float16 widened, quantized types
 * dequantized). t may be FLOAT32/16, QUANT8_ASYMM(_SIGNED), QUANT8_SYMM,
 * QUANT16_ASYMM/SYMM or INT32 tensors. */
void seq_load(const nn_tensor *t, float *dst, size_t n);
/* Writes n real values into t, rounding and saturating for integer types. */
void seq_store(nn_tensor *t, const float *src, size_t n);
/* malloc'ed float copy of the whole tensor (at least one element is
 * allocated); NULL when out of memory. */
float *seq_load_alloc(const nn_tensor *t);

/* n * size with overflow check: false on overflow. */
bool seq_mul_ok(size_t a, size_t b, size_t *out);

/* True when the tensor is an optional input that holds no value. */
static inline bool seq_absent(const nn_op_call *c, uint32_t i)
{
    return i >= c->n_in || c->in[i]->omitted;
}

/* Presence of optional input i: SEQ_ABSENT (omitted), SEQ_PRESENT, or
 * SEQ_UNKNOWN for a non-constant operand before execution (a model input
 * may still be omitted then). */
enum { SEQ_ABSENT = 0, SEQ_PRESENT = 1, SEQ_UNKNOWN = 2 };

static inline int seq_presence(const nn_op_call *c, int i)
{
    if (i < 0 || (uint32_t)i >= c->n_in || c->in[i]->omitted)
        return SEQ_ABSENT;
    if (c->in[i]->data != NULL || c->in[i]->constant)
        return SEQ_PRESENT;
    return SEQ_UNKNOWN;
}

/* Combined presence of a group that must be all-or-none: SEQ_BAD through
 * *bad when known members disagree; SEQ_UNKNOWN unless all are known. */
static inline int seq_group(const nn_op_call *c, const int *idx, int n, int *bad)
{
    bool any_p = false, any_a = false, any_u = false;
    for (int k = 0; k < n; k++) {
        int s = seq_presence(c, idx[k]);
        any_p |= s == SEQ_PRESENT;
        any_a |= s == SEQ_ABSENT;
        any_u |= s == SEQ_UNKNOWN;
    }
    if (any_p && any_a)
        *bad = 1;
    if (any_u)
        return SEQ_UNKNOWN;
    return any_p ? SEQ_PRESENT : SEQ_ABSENT;
}

/* FLOAT32 scalar for float32/quantized ops, FLOAT16 for float16 ops. */
static inline int32_t seq_scalar_type_for(int32_t tensor_type)
{
    return tensor_type == ANEURALNETWORKS_TENSOR_FLOAT16 ? ANEURALNETWORKS_FLOAT16
                                                          : ANEURALNETWORKS_FLOAT32;
}

/* Checks a scalar operand's type and that it is not omitted. Its value may
 * be unknown at validation (a model input): test with t->data. */
int seq_check_scalar(const nn_tensor *t, int32_t type);
/* Type and, where known, exact rank of a tensor. rank 0 = any rank. */
int seq_check_tensor(const nn_tensor *t, int32_t type, uint32_t rank);

/* Main tensor type of the box and region operations: FLOAT32/16,
 * QUANT8_ASYMM, and QUANT8_ASYMM_SIGNED from feature level 4. */
bool seq_box_main_type_ok(const nn_op_call *c, int32_t t);

/* Box coordinates accompanying a main tensor of type t: the same float type,
 * or QUANT16_ASYMM with scale 0.125 and zero point 0 for quantized t. */
int seq_check_box_coords(const nn_op_call *c, const nn_tensor *b, int32_t t);

/* Intersection over union of two [x1, y1, x2, y2] boxes. */
float seq_iou(const float *a, const float *b);

/* Hard NMS over the candidate indices sel[0..n): repeatedly moves the best
 * remaining candidate to the front and discards those overlapping it by
 * IoU >= iou_threshold. Boxes are at boxes + stride * index. max_keep < 0
 * means unlimited. Returns the number kept (now at sel[0..]). */
size_t seq_hard_nms(const float *scores, const float *boxes, size_t stride, float iou_threshold,
                    int32_t max_keep, uint32_t *sel, size_t n);

/* Hard NMS that visits candidates in a stable order: sel[0..n) is sorted by
 * descending score (equal scores keep their order in sel), then each
 * candidate is kept unless a kept one overlaps it by IoU >= iou_threshold.
 * Without ties this keeps what seq_hard_nms keeps, in the same order; with
 * ties the first candidate wins, as in TensorFlow Lite's detection
 * post-processing (the specification does not order ties). */
size_t seq_stable_hard_nms(const float *scores, const float *boxes, size_t stride,
                           float iou_threshold, int32_t max_keep, uint32_t *sel, size_t n);

/* Soft NMS: as seq_hard_nms but rescales the scores (in place) of the
 * remaining candidates by kernel(IoU) and discards those falling below
 * score_threshold. kernel: 1 linear, 2 gaussian (0 hard is the special
 * case giving weight 0 above the threshold). */
size_t seq_soft_nms(float *scores, const float *boxes, size_t stride, int32_t kernel,
                    float iou_threshold, float sigma, float score_threshold, int32_t max_keep,
                    uint32_t *sel, size_t n);

/* Stable sort of idx[0..n) by key[idx] descending. */
void seq_sort_desc(uint32_t *idx, size_t n, const float *key);

/* Applies [dx, dy, dw, dh] to an [x1, y1, x2, y2] box and clips the result
 * to [0, width] x [0, height]. */
void seq_bbox_apply(const float *roi, const float *delta, float height, float width, float *out);

/* A tensor's values as float32: the tensor's own memory for FLOAT32,
 * a converted copy otherwise (owned). p is NULL for an omitted tensor. */
typedef struct seq_fview {
    const float *p;
    float *owned;
} seq_fview;

/* ANEURALNETWORKS_OUT_OF_MEMORY or NO_ERROR. */
int seq_view(const nn_tensor *t, seq_fview *v);
void seq_view_free(seq_fview *v);

/* Float32 destination for an output: the tensor's memory for FLOAT32, a
 * staging buffer otherwise, written back (converted) by seq_out_close. */
typedef struct seq_fout {
    float *p;
    nn_tensor *t;
    bool owned;
} seq_fout;

int seq_out_open(nn_tensor *t, seq_fout *o);
/* Converts and frees the staging buffer; commit false only frees it. */
void seq_out_close(seq_fout *o, bool commit);

#endif
