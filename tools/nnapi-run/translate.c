/*
 * TensorFlow Lite graph -> NNAPI model. Each TFLite tensor becomes one NNAPI
 * operand (created on first use), each builtin operator one NNAPI operation
 * (occasionally two: a separate activation, or a RESHAPE that restores a kept
 * rank). Constant DEQUANTIZE operators (float16 or int8 weights) are folded
 * into float32 constants, since NNAPI wants float weights for float operations.
 */
#include "translate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OP_INPUTS = 64, MAX_RANK = 8 };

typedef struct {
    const tfl_model *tm;
    nr_translation *tr;
    ANeuralNetworksModel *m;
    int64_t *opnd;   /* NNAPI operand of each tensor, -1 until created */
    float **folded;  /* float32 contents of folded DEQUANTIZE outputs */
    uint32_t n_operands;
    int cur;         /* TFLite operator being translated, -1 outside */
    char *err;
    size_t errsz;
    int64_t level;   /* NNAPI feature level the operations may come from */
} xl;

typedef struct {
    uint32_t v[MAX_OP_INPUTS];
    uint32_t n;
} ilist;

static int fail(xl *x, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->cur >= 0)
        snprintf(x->err, x->errsz, "operator #%d %s: %s", x->cur,
                 tfl_op_name(x->tm->ops[x->cur].code), msg);
    else
        snprintf(x->err, x->errsz, "%s", msg);
    return -1;
}

#define NN(call)                                                                  \
    do {                                                                          \
        int rc_ = (call);                                                         \
        if (rc_ != ANEURALNETWORKS_NO_ERROR)                                      \
            return fail(x, "%s failed with NNAPI result code %d", #call, rc_);   \
    } while (0)

static void *block(xl *x, size_t size)
{
    nr_translation *tr = x->tr;
    if (tr->n_blocks == tr->cap_blocks) {
        size_t cap = tr->cap_blocks ? tr->cap_blocks * 2 : 64;
        void **nb = realloc(tr->blocks, cap * sizeof *nb);
        if (nb == NULL)
            return NULL;
        tr->blocks = nb;
        tr->cap_blocks = cap;
    }
    /* malloc's alignment suits every element type NNAPI reads. */
    void *p = calloc(1, size ? size : 1);
    if (p != NULL)
        tr->blocks[tr->n_blocks++] = p;
    return p;
}

static int add_operand(xl *x, const ANeuralNetworksOperandType *ot, uint32_t *idx)
{
    NN(ANeuralNetworksModel_addOperand(x->m, ot));
    *idx = x->n_operands++;
    return 0;
}

static int scalar(xl *x, int32_t type, const void *value, size_t size, uint32_t *idx)
{
    ANeuralNetworksOperandType ot = {type, 0, NULL, 0.0f, 0};
    if (add_operand(x, &ot, idx))
        return -1;
    NN(ANeuralNetworksModel_setOperandValue(x->m, *idx, value, size));
    return 0;
}

static int push_i32(xl *x, ilist *l, int32_t v)
{
    if (l->n == MAX_OP_INPUTS)
        return fail(x, "too many inputs");
    return scalar(x, ANEURALNETWORKS_INT32, &v, sizeof v, &l->v[l->n++]);
}

static int push_bool(xl *x, ilist *l, int v)
{
    uint8_t b = v != 0;
    if (l->n == MAX_OP_INPUTS)
        return fail(x, "too many inputs");
    return scalar(x, ANEURALNETWORKS_BOOL, &b, sizeof b, &l->v[l->n++]);
}

static uint16_t f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t sign = (u >> 16) & 0x8000u;
    int32_t exp = (int32_t)((u >> 23) & 0xff) - 127 + 15;
    uint32_t man = u & 0x7fffffu;
    if (((u >> 23) & 0xff) == 0xff)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)exp << 10) | (man >> 13), rem = man & 0x1fffu;
    /* Round to nearest even; a carry into the exponent is the correct result. */
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

static float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu, u;
    if (exp == 0) {
        float f = ldexpf((float)man, -24);
        return sign ? -f : f;
    }
    if (exp == 31)
        u = sign | 0x7f800000u | (man << 13);
    else
        u = sign | ((exp - 15 + 127) << 23) | (man << 13);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* A float scalar of the precision the operation's tensors use. */
static int push_float(xl *x, ilist *l, int tensor_type, float v)
{
    if (l->n == MAX_OP_INPUTS)
        return fail(x, "too many inputs");
    if (tensor_type == ANEURALNETWORKS_TENSOR_FLOAT16) {
        uint16_t h = f32_to_f16(v);
        return scalar(x, ANEURALNETWORKS_FLOAT16, &h, sizeof h, &l->v[l->n++]);
    }
    return scalar(x, ANEURALNETWORKS_FLOAT32, &v, sizeof v, &l->v[l->n++]);
}

static int push_i32_tensor(xl *x, ilist *l, const int32_t *vals, uint32_t n)
{
    if (l->n == MAX_OP_INPUTS)
        return fail(x, "too many inputs");
    uint32_t dims[1] = {n};
    ANeuralNetworksOperandType ot = {ANEURALNETWORKS_TENSOR_INT32, 1, dims, 0.0f, 0};
    int32_t *copy = block(x, (size_t)n * sizeof *copy);
    if (copy == NULL)
        return fail(x, "out of memory");
    if (n > 0)
        memcpy(copy, vals, (size_t)n * sizeof *copy);
    uint32_t idx = 0;
    if (add_operand(x, &ot, &idx))
        return -1;
    NN(ANeuralNetworksModel_setOperandValue(x->m, idx, copy, (size_t)n * sizeof *copy));
    l->v[l->n++] = idx;
    return 0;
}

static int is_const(const xl *x, int ti)
{
    const tfl_tensor *t = &x->tm->tensors[ti];
    return x->folded[ti] != NULL || t->data != NULL || t->is_variable;
}

static int elem_type(const xl *x, int ti)
{
    return x->folded[ti] != NULL ? TFL_FLOAT32 : x->tm->tensors[ti].type;
}

/* The NNAPI operand type of a tensor. dims must hold MAX_RANK entries. */
static int tensor_type(xl *x, int ti, ANeuralNetworksOperandType *ot, uint32_t *dims, int *per_channel)
{
    const tfl_tensor *t = &x->tm->tensors[ti];
    int type = elem_type(x, ti);
    int has_q = x->folded[ti] == NULL && t->n_scale > 0 && t->scale[0] > 0.0f;
    memset(ot, 0, sizeof *ot);
    *per_channel = 0;
    if (t->rank > MAX_RANK)
        return fail(x, "tensor %d (%s) has rank %u", ti, t->name, t->rank);
    for (uint32_t i = 0; i < t->rank; i++)
        dims[i] = t->shape[i] > 0 ? (uint32_t)t->shape[i] : 0;
    ot->dimensionCount = t->rank;
    ot->dimensions = t->rank ? dims : NULL;
    /* A constant needs a shape; NNAPI reads rank 0 as "unknown". */
    if (t->rank == 0 && is_const(x, ti)) {
        dims[0] = 1;
        ot->dimensionCount = 1;
        ot->dimensions = dims;
    }
    switch (type) {
    case TFL_FLOAT32:
        ot->type = ANEURALNETWORKS_TENSOR_FLOAT32;
        return 0;
    case TFL_FLOAT16:
        ot->type = ANEURALNETWORKS_TENSOR_FLOAT16;
        return 0;
    case TFL_INT32:
        ot->type = ANEURALNETWORKS_TENSOR_INT32;
        return 0;
    case TFL_INT64:
        if (t->data == NULL)
            return fail(x, "tensor %d (%s) is int64, which NNAPI has no type for", ti, t->name);
        ot->type = ANEURALNETWORKS_TENSOR_INT32; /* constants are narrowed */
        return 0;
    case TFL_BOOL:
        ot->type = ANEURALNETWORKS_TENSOR_BOOL8;
        return 0;
    case TFL_UINT8:
    case TFL_INT8:
        if (!has_q)
            return fail(x, "tensor %d (%s) is %s without quantization parameters", ti, t->name,
                        tfl_type_name(type));
        if (t->n_scale > 1) {
            if (type != TFL_INT8)
                return fail(x, "tensor %d (%s): per-channel uint8 is not supported", ti, t->name);
            for (uint32_t i = 0; i < t->n_scale; i++)
                if (t->zero_point[i] != 0)
                    return fail(x, "tensor %d (%s): per-channel zero point %lld is not 0", ti,
                                t->name, (long long)t->zero_point[i]);
            ot->type = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
            *per_channel = 1;
            return 0;
        }
        ot->type = type == TFL_UINT8 ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
                                     : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
        ot->scale = t->scale[0];
        ot->zeroPoint = (int32_t)t->zero_point[0];
        return 0;
    case TFL_INT16:
        if (!has_q || t->n_scale > 1 || t->zero_point[0] != 0)
            return fail(x, "tensor %d (%s): int16 needs symmetric per-tensor quantization", ti, t->name);
        ot->type = ANEURALNETWORKS_TENSOR_QUANT16_SYMM;
        ot->scale = t->scale[0];
        return 0;
    default:
        return fail(x, "tensor %d (%s) has type %s, which NNAPI cannot represent", ti, t->name,
                    tfl_type_name(type));
    }
}

/* Contents of a constant tensor, converted to what its NNAPI operand holds. */
static int const_value(xl *x, int ti, const void **data, size_t *size)
{
    const tfl_tensor *t = &x->tm->tensors[ti];
    size_t n = tfl_numel(t), es = tfl_type_size(elem_type(x, ti));
    if (x->folded[ti] != NULL) {
        *data = x->folded[ti];
        *size = n * sizeof(float);
        return 0;
    }
    if (es == 0 || (n > 0 && n > SIZE_MAX / es))
        return fail(x, "tensor %d (%s): bad size", ti, t->name);
    if (t->data == NULL) { /* variable tensor: starts at zero on every run */
        void *z = block(x, n * es);
        if (z == NULL)
            return fail(x, "out of memory");
        *data = z;
        *size = n * es;
        return 0;
    }
    if (t->data_size != n * es)
        return fail(x, "tensor %d (%s): buffer holds %zu bytes, shape needs %zu", ti, t->name,
                    t->data_size, n * es);
    if (t->type == TFL_INT64) {
        int32_t *v = block(x, n * sizeof *v);
        if (v == NULL)
            return fail(x, "out of memory");
        for (size_t i = 0; i < n; i++) {
            int64_t w;
            memcpy(&w, t->data + 8 * i, sizeof w);
            if (w < INT32_MIN || w > INT32_MAX)
                return fail(x, "tensor %d (%s): int64 value %lld does not fit int32", ti, t->name,
                            (long long)w);
            v[i] = (int32_t)w;
        }
        *data = v;
        *size = n * sizeof *v;
        return 0;
    }
    if ((uintptr_t)t->data % 8 != 0) { /* keep NNAPI's element reads aligned */
        void *c = block(x, t->data_size);
        if (c == NULL)
            return fail(x, "out of memory");
        memcpy(c, t->data, t->data_size);
        *data = c;
    } else {
        *data = t->data;
    }
    *size = t->data_size;
    return 0;
}

static int set_const(xl *x, int ti, uint32_t idx)
{
    const void *data;
    size_t size;
    if (const_value(x, ti, &data, &size))
        return -1;
    NN(ANeuralNetworksModel_setOperandValue(x->m, idx, data, size));
    return 0;
}

/* The operand of a tensor, created on first use. */
static int tensor(xl *x, int ti, uint32_t *idx)
{
    if (ti < 0 || (uint32_t)ti >= x->tm->n_tensors)
        return fail(x, "a required input is missing");
    if (x->opnd[ti] >= 0) {
        *idx = (uint32_t)x->opnd[ti];
        return 0;
    }
    const tfl_tensor *t = &x->tm->tensors[ti];
    ANeuralNetworksOperandType ot;
    uint32_t dims[MAX_RANK];
    int pc;
    if (tensor_type(x, ti, &ot, dims, &pc) || add_operand(x, &ot, idx))
        return -1;
    if (pc) {
        if (t->quant_dim < 0 || (uint32_t)t->quant_dim >= t->rank ||
            (uint32_t)t->shape[t->quant_dim] != t->n_scale)
            return fail(x, "tensor %d (%s): %u scales for dimension %d", ti, t->name, t->n_scale,
                        t->quant_dim);
        ANeuralNetworksSymmPerChannelQuantParams q = {(uint32_t)t->quant_dim, t->n_scale, t->scale};
        NN(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(x->m, *idx, &q));
    }
    if (is_const(x, ti) && set_const(x, ti, *idx))
        return -1;
    x->opnd[ti] = *idx;
    return 0;
}

static int push_t(xl *x, ilist *l, int ti)
{
    if (l->n == MAX_OP_INPUTS)
        return fail(x, "too many inputs");
    return tensor(x, ti, &l->v[l->n++]);
}

/* An optional tensor input that the model leaves out. */
static int push_omitted(xl *x, ilist *l, int32_t type)
{
    if (l->n == MAX_OP_INPUTS)
        return fail(x, "too many inputs");
    ANeuralNetworksOperandType ot = {type, 0, NULL, 0.0f, 0};
    uint32_t idx = 0;
    if (add_operand(x, &ot, &idx))
        return -1;
    NN(ANeuralNetworksModel_setOperandValue(x->m, idx, NULL, 0));
    l->v[l->n++] = idx;
    return 0;
}

/* Input k of the current operator, or -1 when absent. */
static int in_t(const xl *x, uint32_t k)
{
    const tfl_op *op = &x->tm->ops[x->cur];
    return k < op->n_in ? op->in[k] : -1;
}

static int out_t(const xl *x, uint32_t k)
{
    const tfl_op *op = &x->tm->ops[x->cur];
    return k < op->n_out ? op->out[k] : -1;
}

static const tfl_tensor *tens(const xl *x, int ti) { return &x->tm->tensors[ti]; }

static int emit(xl *x, int code, const ilist *in, uint32_t n_out, const uint32_t *outs)
{
    nr_translation *tr = x->tr;
    int32_t *src = realloc(tr->op_source, (tr->n_ops + 1) * sizeof *src);
    if (src == NULL)
        return fail(x, "out of memory");
    tr->op_source = src;
    int32_t *codes = realloc(tr->op_code, (tr->n_ops + 1) * sizeof *codes);
    if (codes == NULL)
        return fail(x, "out of memory");
    tr->op_code = codes;
    int rc = ANeuralNetworksModel_addOperation(x->m, code, in->n, in->v, n_out, outs);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return fail(x, "the runtime rejected NNAPI operation %s (result code %d)",
                    nr_nnapi_op_name(code), rc);
    tr->op_source[tr->n_ops] = x->cur;
    tr->op_code[tr->n_ops] = code;
    tr->n_ops++;
    return 0;
}

/* A fresh operand with the type and shape of tensor ti, for intermediate values. */
static int temp_like(xl *x, int ti, uint32_t rank, const uint32_t *shape, uint32_t *idx)
{
    ANeuralNetworksOperandType ot;
    uint32_t dims[MAX_RANK];
    int pc;
    if (tensor_type(x, ti, &ot, dims, &pc))
        return -1;
    if (shape != NULL) {
        ot.dimensionCount = rank;
        ot.dimensions = shape;
    }
    return add_operand(x, &ot, idx);
}

/* The fused activation of an operator: folded into the operation when it takes
 * a FuseCode, otherwise applied by a separate operation after it. */
typedef struct {
    uint32_t out;   /* where the main operation writes */
    uint32_t final; /* the TFLite output tensor's operand */
    int post;       /* activation operation to append, or -1 */
} actplan;

static int plan_act(xl *x, int out_ti, int act, int fusable, int32_t *fuse, actplan *p)
{
    if (tensor(x, out_ti, &p->final))
        return -1;
    p->out = p->final;
    p->post = -1;
    *fuse = ANEURALNETWORKS_FUSED_NONE;
    if (act == 0)
        return 0;
    if (fusable && act >= 1 && act <= 3) {
        *fuse = act; /* TFLite's NONE/RELU/RELU_N1_TO_1/RELU6 are NNAPI's FuseCodes */
        return 0;
    }
    static const int post_ops[] = {-1, ANEURALNETWORKS_RELU, ANEURALNETWORKS_RELU1,
                                   ANEURALNETWORKS_RELU6, ANEURALNETWORKS_TANH};
    if (act < 0 || act > 4)
        return fail(x, "fused activation %d is not supported", act);
    p->post = post_ops[act];
    return temp_like(x, out_t(x, 0), 0, NULL, &p->out);
}

static int finish_act(xl *x, const actplan *p)
{
    if (p->post < 0)
        return 0;
    ilist l = {{p->out}, 1};
    return emit(x, p->post, &l, 1, &p->final);
}

static int padding_code(xl *x, int tfl_padding, int32_t *code)
{
    if (tfl_padding == 0)
        *code = ANEURALNETWORKS_PADDING_SAME;
    else if (tfl_padding == 1)
        *code = ANEURALNETWORKS_PADDING_VALID;
    else
        return fail(x, "padding %d is not supported", tfl_padding);
    return 0;
}

static int quantized(int tfl_type) { return tfl_type == TFL_UINT8 || tfl_type == TFL_INT8 || tfl_type == TFL_INT16; }

/* The bias operand of a convolution or dense layer: NNAPI wants an int32 bias
 * scaled by input scale x filter scale (0 with a per-channel filter), and a
 * bias even where TFLite omits it. */
static int push_bias(xl *x, ilist *l, int bias_ti, int in_ti, int w_ti, uint32_t units)
{
    const tfl_tensor *in = tens(x, in_ti), *w = tens(x, w_ti);
    int q = quantized(elem_type(x, in_ti));
    ANeuralNetworksOperandType ot = {0, 1, NULL, 0.0f, 0};
    uint32_t dims[1] = {units};
    ot.dimensions = dims;
    if (q) {
        if (in->n_scale == 0 || w->n_scale == 0)
            return fail(x, "quantized input or filter without a scale");
        ot.type = ANEURALNETWORKS_TENSOR_INT32;
        ot.scale = w->n_scale > 1 ? 0.0f : in->scale[0] * w->scale[0];
    } else {
        ot.type = elem_type(x, in_ti) == TFL_FLOAT16 ? ANEURALNETWORKS_TENSOR_FLOAT16
                                                     : ANEURALNETWORKS_TENSOR_FLOAT32;
    }
    if (l->n == MAX_OP_INPUTS)
        return fail(x, "too many inputs");
    uint32_t idx = 0;
    if (bias_ti >= 0) {
        const tfl_tensor *b = tens(x, bias_ti);
        if (b->rank != 1 || b->shape[0] < 0 || (uint32_t)b->shape[0] != units)
            return fail(x, "bias tensor %d has the wrong shape", bias_ti);
        if (!is_const(x, bias_ti) || !q)
            return push_t(x, l, bias_ti);
        if (elem_type(x, bias_ti) != TFL_INT32)
            return fail(x, "quantized bias of type %s is not supported", tfl_type_name(b->type));
        if (add_operand(x, &ot, &idx) || set_const(x, bias_ti, idx))
            return -1;
    } else {
        size_t es = ot.type == ANEURALNETWORKS_TENSOR_FLOAT16 ? 2 : 4;
        void *z = block(x, (size_t)units * es);
        if (z == NULL)
            return fail(x, "out of memory");
        if (add_operand(x, &ot, &idx))
            return -1;
        NN(ANeuralNetworksModel_setOperandValue(x->m, idx, z, (size_t)units * es));
    }
    l->v[l->n++] = idx;
    return 0;
}

/* Stores the float32 values of constant tensor in_ti as the contents of
 * tensor out_ti: folds DEQUANTIZE of constants (out_ti its output) and the
 * int8 weights of hybrid models (out_ti = in_ti). */
static int fold_float(xl *x, int in_ti, int out_ti)
{
    const tfl_tensor *t = tens(x, in_ti);
    size_t n = tfl_numel(t);
    if (tfl_numel(tens(x, out_ti)) != n)
        return fail(x, "constant DEQUANTIZE changes the element count");
    const void *data;
    size_t size;
    if (const_value(x, in_ti, &data, &size))
        return -1;
    float *f = block(x, n * sizeof *f);
    if (f == NULL)
        return fail(x, "out of memory");
    /* Per-channel parameters repeat every `inner` elements along quant_dim. */
    size_t inner = 1, nch = t->n_scale > 1 ? t->n_scale : 1;
    if (nch > 1) {
        if (t->quant_dim < 0 || (uint32_t)t->quant_dim >= t->rank)
            return fail(x, "bad quantized dimension %d", t->quant_dim);
        for (uint32_t d = (uint32_t)t->quant_dim + 1; d < t->rank; d++)
            inner *= (size_t)t->shape[d];
    }
    for (size_t i = 0; i < n; i++) {
        size_t c = nch > 1 ? (i / inner) % nch : 0;
        float s = t->n_scale ? t->scale[c] : 1.0f;
        float zp = t->n_scale ? (float)t->zero_point[c] : 0.0f;
        switch (t->type) {
        case TFL_FLOAT16: {
            uint16_t h;
            memcpy(&h, (const uint8_t *)data + 2 * i, 2);
            f[i] = f16_to_f32(h);
            break;
        }
        case TFL_INT8: f[i] = ((float)((const int8_t *)data)[i] - zp) * s; break;
        case TFL_UINT8: f[i] = ((float)((const uint8_t *)data)[i] - zp) * s; break;
        case TFL_INT16: {
            int16_t v;
            memcpy(&v, (const uint8_t *)data + 2 * i, 2);
            f[i] = ((float)v - zp) * s;
            break;
        }
        default:
            return fail(x, "constant DEQUANTIZE of %s is not supported", tfl_type_name(t->type));
        }
    }
    x->folded[out_ti] = f;
    return 0;
}

/* Reads a small constant int32/int64 tensor (an axis, a size). */
static int const_ints(xl *x, int ti, int32_t *out, uint32_t max, uint32_t *n)
{
    if (ti < 0 || !is_const(x, ti) || x->folded[ti] != NULL)
        return fail(x, "input tensor %d must be a constant", ti);
    const void *data;
    size_t size;
    int type = tens(x, ti)->type;
    if (type != TFL_INT32 && type != TFL_INT64)
        return fail(x, "input tensor %d must be int32", ti);
    if (const_value(x, ti, &data, &size))
        return -1;
    if (size / 4 > max)
        return fail(x, "input tensor %d is too long", ti);
    *n = (uint32_t)(size / 4);
    memcpy(out, data, size);
    return 0;
}

/* The tensor type of an operation's float scalars: FLOAT16 for float16 data. */
static int fkind(const xl *x)
{
    int in = in_t(x, 0);
    return in >= 0 && elem_type(x, in) == TFL_FLOAT16 ? ANEURALNETWORKS_TENSOR_FLOAT16
                                                     : ANEURALNETWORKS_TENSOR_FLOAT32;
}

static int out1(xl *x, int code, ilist *l)
{
    uint32_t o;
    if (tensor(x, out_t(x, 0), &o))
        return -1;
    return emit(x, code, l, 1, &o);
}

static int shape_of_output(xl *x, int32_t *shape, uint32_t *rank)
{
    const tfl_tensor *o = tens(x, out_t(x, 0));
    if (o->rank > MAX_RANK)
        return fail(x, "output rank %u", o->rank);
    for (uint32_t i = 0; i < o->rank; i++) {
        if (o->shape[i] < 0)
            return fail(x, "output shape is not static");
        shape[i] = o->shape[i];
    }
    *rank = o->rank;
    return 0;
}

/* Hybrid models keep int8 weights for float activations, which NNAPI has no
 * operation for: such weights become float32 constants. */
static int fold_hybrid_weights(xl *x, int in, int w)
{
    int wt = elem_type(x, w);
    if (elem_type(x, in) == TFL_FLOAT32 && (wt == TFL_INT8 || wt == TFL_UINT8) && is_const(x, w) &&
        x->opnd[w] < 0)
        return fold_float(x, w, w);
    return 0;
}

static int conv_like(xl *x, const tfl_op *op, int depthwise)
{
    const tfl_model *tm = x->tm;
    int in = in_t(x, 0), w = in_t(x, 1);
    if (in < 0 || w < 0 || tens(x, w)->rank != 4 || tens(x, in)->rank != 4)
        return fail(x, "expects a 4-D input and filter");
    if (fold_hybrid_weights(x, in, w))
        return -1;
    int32_t pad = 0, fuse;
    if (padding_code(x, tfl_opt_u8(tm, op, 0, 0), &pad))
        return -1;
    int32_t sw = tfl_opt_i32(tm, op, 1, 1), sh = tfl_opt_i32(tm, op, 2, 1);
    int act = tfl_opt_u8(tm, op, depthwise ? 4 : 3, 0);
    int32_t dw = tfl_opt_i32(tm, op, depthwise ? 5 : 4, 1), dh = tfl_opt_i32(tm, op, depthwise ? 6 : 5, 1);
    uint32_t units = (uint32_t)tens(x, w)->shape[depthwise ? 3 : 0];
    ilist l = {{0}, 0};
    actplan p;
    if (push_t(x, &l, in) || push_t(x, &l, w) || push_bias(x, &l, in_t(x, 2), in, w, units) ||
        push_i32(x, &l, pad) || push_i32(x, &l, sw) || push_i32(x, &l, sh))
        return -1;
    if (depthwise) {
        int32_t cin = tens(x, in)->shape[3];
        if (cin <= 0 || (int32_t)units % cin != 0)
            return fail(x, "%u output channels for %d input channels", units, cin);
        if (push_i32(x, &l, (int32_t)units / cin))
            return -1;
    }
    if (plan_act(x, out_t(x, 0), act, 1, &fuse, &p) || push_i32(x, &l, fuse))
        return -1;
    if (dw != 1 || dh != 1)
        if (push_bool(x, &l, 0) || push_i32(x, &l, dw) || push_i32(x, &l, dh))
            return -1;
    if (emit(x, depthwise ? ANEURALNETWORKS_DEPTHWISE_CONV_2D : ANEURALNETWORKS_CONV_2D, &l, 1, &p.out))
        return -1;
    return finish_act(x, &p);
}

static int pool(xl *x, const tfl_op *op, int code)
{
    const tfl_model *tm = x->tm;
    int32_t pad = 0, fuse;
    if (padding_code(x, tfl_opt_u8(tm, op, 0, 0), &pad))
        return -1;
    ilist l = {{0}, 0};
    actplan p;
    if (push_t(x, &l, in_t(x, 0)) || push_i32(x, &l, pad) || push_i32(x, &l, tfl_opt_i32(tm, op, 1, 1)) ||
        push_i32(x, &l, tfl_opt_i32(tm, op, 2, 1)) || push_i32(x, &l, tfl_opt_i32(tm, op, 3, 1)) ||
        push_i32(x, &l, tfl_opt_i32(tm, op, 4, 1)) ||
        plan_act(x, out_t(x, 0), tfl_opt_u8(tm, op, 5, 0), 1, &fuse, &p) ||
        push_i32(x, &l, fuse) || emit(x, code, &l, 1, &p.out))
        return -1;
    return finish_act(x, &p);
}

/* NNAPI's FULLY_CONNECTED has no per-channel weights, CONV_2D has: a 1x1
 * convolution over the input viewed as [B, 1, 1, I] reads the [U, I] weights as
 * [U, 1, 1, I]. Writes [B, U] to dst. */
static int fc_as_conv(xl *x, int in, int w, int bias, int out, uint32_t batch, int32_t fuse, uint32_t dst)
{
    const tfl_tensor *wt = tens(x, w);
    uint32_t units = (uint32_t)wt->shape[0], isz = (uint32_t)wt->shape[1];
    if (wt->quant_dim != 0 || wt->n_scale != units)
        return fail(x, "per-channel weights must be quantized along dimension 0");
    uint32_t in4[4] = {batch, 1, 1, isz}, f4[4] = {units, 1, 1, isz}, o4[4] = {batch, 1, 1, units};
    int32_t s4[4] = {(int32_t)batch, 1, 1, (int32_t)isz}, s2[2] = {(int32_t)batch, (int32_t)units};
    uint32_t xin = 0, filt = 0, conv_out = 0;
    ilist r = {{0}, 0};
    if (push_t(x, &r, in) || push_i32_tensor(x, &r, s4, 4) || temp_like(x, in, 4, in4, &xin) ||
        emit(x, ANEURALNETWORKS_RESHAPE, &r, 1, &xin))
        return -1;
    ANeuralNetworksOperandType ot = {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 4, f4, 0.0f, 0};
    ANeuralNetworksSymmPerChannelQuantParams q = {0, wt->n_scale, wt->scale};
    if (add_operand(x, &ot, &filt))
        return -1;
    NN(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(x->m, filt, &q));
    if (set_const(x, w, filt))
        return -1;
    ilist l = {{xin, filt}, 2};
    if (push_bias(x, &l, bias, in, w, units) || push_i32(x, &l, ANEURALNETWORKS_PADDING_VALID) ||
        push_i32(x, &l, 1) || push_i32(x, &l, 1) || push_i32(x, &l, fuse) ||
        temp_like(x, out, 4, o4, &conv_out) || emit(x, ANEURALNETWORKS_CONV_2D, &l, 1, &conv_out))
        return -1;
    ilist r2 = {{conv_out}, 1};
    if (push_i32_tensor(x, &r2, s2, 2))
        return -1;
    return emit(x, ANEURALNETWORKS_RESHAPE, &r2, 1, &dst);
}

static int fully_connected(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    int in = in_t(x, 0), w = in_t(x, 1), out = out_t(x, 0);
    if (in < 0 || w < 0 || tens(x, w)->rank != 2 || tens(x, w)->shape[0] <= 0 || tens(x, w)->shape[1] <= 0)
        return fail(x, "expects 2-D weights");
    if (tfl_opt_u8(tm, op, 1, 0) != 0)
        return fail(x, "shuffled weights format is not supported");
    if (fold_hybrid_weights(x, in, w))
        return -1;
    uint32_t units = (uint32_t)tens(x, w)->shape[0], isz = (uint32_t)tens(x, w)->shape[1];
    size_t n_in = tfl_numel(tens(x, in));
    if (n_in % isz != 0 || n_in / isz > UINT32_MAX)
        return fail(x, "input size is not a multiple of the weights' input size");
    uint32_t batch = (uint32_t)(n_in / isz);
    int per_channel = x->folded[w] == NULL && tens(x, w)->n_scale > 1;
    int32_t fuse;
    actplan p;
    if (plan_act(x, out, tfl_opt_u8(tm, op, 0, 0), 1, &fuse, &p))
        return -1;
    /* keep_num_dims: NNAPI produces [batch, units]; a RESHAPE restores the rank. */
    const tfl_tensor *o = tens(x, out);
    int keep = o->rank != 2 && tfl_opt_bool(tm, op, 2, 0);
    uint32_t dst = p.out;
    uint32_t flat[2] = {batch, units};
    if (keep && temp_like(x, out, 2, flat, &dst))
        return -1;
    if (per_channel) {
        if (fc_as_conv(x, in, w, in_t(x, 2), out, batch, fuse, dst))
            return -1;
    } else {
        ilist l = {{0}, 0};
        if (push_t(x, &l, in) || push_t(x, &l, w) || push_bias(x, &l, in_t(x, 2), in, w, units) ||
            push_i32(x, &l, fuse) || emit(x, ANEURALNETWORKS_FULLY_CONNECTED, &l, 1, &dst))
            return -1;
    }
    if (keep) {
        int32_t shape[MAX_RANK];
        uint32_t rank;
        ilist r = {{dst}, 1};
        if (shape_of_output(x, shape, &rank) || push_i32_tensor(x, &r, shape, rank) ||
            emit(x, ANEURALNETWORKS_RESHAPE, &r, 1, &p.out))
            return -1;
    }
    return finish_act(x, &p);
}

static int lstm(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    if (op->n_in != 20 && op->n_in != 24)
        return fail(x, "%u inputs (expected 20 or 24)", op->n_in);
    for (uint32_t k = 0; k < op->n_in; k++) {
        int ti = op->in[k];
        if (ti >= 0 && elem_type(x, ti) != TFL_FLOAT32)
            return fail(x, "only float32 LSTMs are supported (input %u is %s)", k,
                        tfl_type_name(elem_type(x, ti)));
    }
    ilist l = {{0}, 0};
    for (uint32_t k = 0; k < 20; k++) {
        int ti = op->in[k];
        if (ti < 0 ? push_omitted(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32) : push_t(x, &l, ti))
            return -1;
    }
    int act = tfl_opt_u8(tm, op, 0, 0);
    if (push_i32(x, &l, act) || push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, tfl_opt_f32(tm, op, 1, 0.0f)) ||
        push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, tfl_opt_f32(tm, op, 2, 0.0f)) ||
        push_bool(x, &l, tfl_opt_bool(tm, op, 3, 0)))
        return -1;
    for (uint32_t k = 20; k < 24; k++) {
        int ti = k < op->n_in ? op->in[k] : -1;
        if (ti < 0 ? push_omitted(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32) : push_t(x, &l, ti))
            return -1;
    }
    return out1(x, ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, &l);
}

/* ADD, SUB, MUL, DIV: two tensors and a FuseCode. */
static int binary_fused(xl *x, const tfl_op *op, int code)
{
    int32_t fuse;
    actplan p;
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)) ||
        plan_act(x, out_t(x, 0), tfl_opt_u8(x->tm, op, 0, 0), 1, &fuse, &p) ||
        push_i32(x, &l, fuse) || emit(x, code, &l, 1, &p.out))
        return -1;
    return finish_act(x, &p);
}

static int simple(xl *x, int code, uint32_t n_inputs)
{
    ilist l = {{0}, 0};
    for (uint32_t k = 0; k < n_inputs; k++)
        if (push_t(x, &l, in_t(x, k)))
            return -1;
    return out1(x, code, &l);
}

static int reshape_to_output(xl *x)
{
    int32_t shape[MAX_RANK];
    uint32_t rank;
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || shape_of_output(x, shape, &rank))
        return -1;
    if (rank == 0) {
        shape[0] = 1;
        rank = 1;
    }
    if (push_i32_tensor(x, &l, shape, rank))
        return -1;
    return out1(x, ANEURALNETWORKS_RESHAPE, &l);
}

static int squeeze(xl *x, const tfl_op *op)
{
    int32_t dims[MAX_RANK];
    int n = tfl_opt_i32_vec(x->tm, op, 0, dims, MAX_RANK);
    if (in_t(x, 0) < 0)
        return fail(x, "missing input");
    const tfl_tensor *in = tens(x, in_t(x, 0));
    if (n <= 0) { /* no list: every dimension of size 1 */
        n = 0;
        for (uint32_t i = 0; i < in->rank && i < MAX_RANK; i++)
            if (in->shape[i] == 1)
                dims[n++] = (int32_t)i;
    }
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_i32_tensor(x, &l, dims, (uint32_t)n))
        return -1;
    return out1(x, ANEURALNETWORKS_SQUEEZE, &l);
}

static int concatenation(xl *x, const tfl_op *op)
{
    int32_t axis = tfl_opt_i32(x->tm, op, 0, 0), fuse;
    int out = out_t(x, 0);
    if (axis < 0)
        axis += (int32_t)tens(x, out)->rank;
    ilist l = {{0}, 0};
    actplan p;
    for (uint32_t k = 0; k < op->n_in; k++)
        if (push_t(x, &l, op->in[k]))
            return -1;
    if (push_i32(x, &l, axis) || plan_act(x, out, tfl_opt_u8(x->tm, op, 1, 0), 0, &fuse, &p) ||
        emit(x, ANEURALNETWORKS_CONCATENATION, &l, 1, &p.out))
        return -1;
    return finish_act(x, &p);
}

static int reduce(xl *x, const tfl_op *op, int code)
{
    ilist l = {{0}, 0};
    int keep = tfl_opt_bool(x->tm, op, 0, 0);
    if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)))
        return -1;
    /* MEAN takes keep_dims as INT32, the REDUCE_* family as BOOL. */
    if (code == ANEURALNETWORKS_MEAN ? push_i32(x, &l, keep) : push_bool(x, &l, keep))
        return -1;
    return out1(x, code, &l);
}

static int resize(xl *x, const tfl_op *op, int code)
{
    const tfl_tensor *o = tens(x, out_t(x, 0));
    if (o->rank != 4)
        return fail(x, "expects a 4-D output");
    int bilinear = code == ANEURALNETWORKS_RESIZE_BILINEAR;
    int align = tfl_opt_bool(x->tm, op, bilinear ? 2 : 0, 0);
    int half = tfl_opt_bool(x->tm, op, bilinear ? 3 : 1, 0);
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_i32(x, &l, o->shape[2]) || push_i32(x, &l, o->shape[1]) ||
        push_bool(x, &l, 0) || push_bool(x, &l, align) || push_bool(x, &l, half))
        return -1;
    return out1(x, code, &l);
}

static int pad(xl *x, int v2)
{
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)))
        return -1;
    if (!v2 || in_t(x, 2) < 0)
        return out1(x, ANEURALNETWORKS_PAD, &l);
    int vt = in_t(x, 2), it = elem_type(x, in_t(x, 0));
    const void *data;
    size_t size;
    if (!is_const(x, vt) || const_value(x, vt, &data, &size) || size < 1)
        return fail(x, "the pad value must be a constant");
    if (it == TFL_FLOAT32) {
        float v;
        memcpy(&v, data, sizeof v);
        if (push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, v))
            return -1;
    } else if (it == TFL_UINT8 || it == TFL_INT8) {
        int32_t v = it == TFL_UINT8 ? *(const uint8_t *)data : *(const int8_t *)data;
        if (push_i32(x, &l, v))
            return -1;
    } else {
        return fail(x, "PADV2 of %s is not supported", tfl_type_name(it));
    }
    return out1(x, ANEURALNETWORKS_PAD_V2, &l);
}

/* ---- operators that feature levels 6 and 7 have as one operation ---- */

static int needs_level(xl *x, int64_t level, const char *what)
{
    if (x->level >= level)
        return 0;
    return fail(x, "%s needs NNAPI feature level %lld (translating for %lld; see --feature-level)",
                what, (long long)level, (long long)x->level);
}

static int batch_matmul(xl *x, const tfl_op *op)
{
    if (needs_level(x, ANEURALNETWORKS_FEATURE_LEVEL_6, "BATCH_MATMUL"))
        return -1;
    if (in_t(x, 0) < 0 || in_t(x, 1) < 0 || tens(x, in_t(x, 0))->rank != tens(x, in_t(x, 1))->rank)
        return fail(x, "NNAPI BATCH_MATMUL takes two inputs of one rank");
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)) ||
        push_bool(x, &l, tfl_opt_bool(x->tm, op, 0, 0)) || push_bool(x, &l, tfl_opt_bool(x->tm, op, 1, 0)))
        return -1;
    return out1(x, ANEURALNETWORKS_BATCH_MATMUL, &l);
}

static int pack(xl *x, const tfl_op *op)
{
    if (needs_level(x, ANEURALNETWORKS_FEATURE_LEVEL_6, "PACK"))
        return -1;
    int32_t axis = tfl_opt_i32(x->tm, op, 1, 0);
    if (axis < 0)
        axis += (int32_t)tens(x, out_t(x, 0))->rank;
    ilist l = {{0}, 0};
    if (push_i32(x, &l, axis))
        return -1;
    for (uint32_t k = 0; k < op->n_in; k++)
        if (push_t(x, &l, op->in[k]))
            return -1;
    return out1(x, ANEURALNETWORKS_PACK, &l);
}

static int mirror_pad(xl *x, const tfl_op *op)
{
    if (needs_level(x, ANEURALNETWORKS_FEATURE_LEVEL_7, "MIRROR_PAD"))
        return -1;
    /* TFLite's MirrorPadMode numbers REFLECT and SYMMETRIC as NNAPI does. */
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)) ||
        push_i32(x, &l, tfl_opt_u8(x->tm, op, 0, 0)))
        return -1;
    return out1(x, ANEURALNETWORKS_MIRROR_PAD, &l);
}

/* REVERSE_V2 with one constant axis; NNAPI wants it non-negative. */
static int reverse_v2(xl *x)
{
    if (needs_level(x, ANEURALNETWORKS_FEATURE_LEVEL_7, "REVERSE_V2"))
        return -1;
    int32_t axis[MAX_RANK];
    uint32_t n;
    if (const_ints(x, in_t(x, 1), axis, MAX_RANK, &n))
        return -1;
    if (n != 1)
        return fail(x, "NNAPI REVERSE reverses exactly one axis (%u given)", n);
    if (axis[0] < 0)
        axis[0] += (int32_t)tens(x, in_t(x, 0))->rank;
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_i32_tensor(x, &l, axis, 1))
        return -1;
    return out1(x, ANEURALNETWORKS_REVERSE, &l);
}

/* ARGMAX, ARGMIN: NNAPI takes the axis as a scalar, TFLite as a tensor. */
static int arg_minmax(xl *x, int code)
{
    int32_t axis;
    uint32_t n;
    if (const_ints(x, in_t(x, 1), &axis, 1, &n))
        return -1;
    if (n != 1)
        return fail(x, "axis must hold one value");
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_i32(x, &l, axis))
        return -1;
    return out1(x, code, &l);
}

static int split(xl *x, const tfl_op *op)
{
    int32_t axis;
    uint32_t n;
    if (const_ints(x, in_t(x, 0), &axis, 1, &n))
        return -1;
    if (n != 1)
        return fail(x, "axis must hold one value");
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 1)) || push_i32(x, &l, axis) || push_i32(x, &l, (int32_t)op->n_out))
        return -1;
    uint32_t outs[MAX_OP_INPUTS];
    if (op->n_out > MAX_OP_INPUTS)
        return fail(x, "too many outputs");
    for (uint32_t k = 0; k < op->n_out; k++)
        if (tensor(x, op->out[k], &outs[k]))
            return -1;
    return emit(x, ANEURALNETWORKS_SPLIT, &l, op->n_out, outs);
}

static int strided_slice(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    if (tfl_opt_i32(tm, op, 2, 0) || tfl_opt_i32(tm, op, 3, 0) || tfl_opt_bool(tm, op, 5, 0))
        return fail(x, "ellipsis, new-axis and offset masks are not supported");
    ilist l = {{0}, 0};
    for (uint32_t k = 0; k < 4; k++)
        if (push_t(x, &l, in_t(x, k)))
            return -1;
    if (push_i32(x, &l, tfl_opt_i32(tm, op, 0, 0)) || push_i32(x, &l, tfl_opt_i32(tm, op, 1, 0)) ||
        push_i32(x, &l, tfl_opt_i32(tm, op, 4, 0)))
        return -1;
    return out1(x, ANEURALNETWORKS_STRIDED_SLICE, &l);
}

static int translate_op(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    switch (op->code) {
    case TFL_OP_CONV_2D: return conv_like(x, op, 0);
    case TFL_OP_DEPTHWISE_CONV_2D: return conv_like(x, op, 1);
    case TFL_OP_AVERAGE_POOL_2D: return pool(x, op, ANEURALNETWORKS_AVERAGE_POOL_2D);
    case TFL_OP_MAX_POOL_2D: return pool(x, op, ANEURALNETWORKS_MAX_POOL_2D);
    case TFL_OP_L2_POOL_2D: return pool(x, op, ANEURALNETWORKS_L2_POOL_2D);
    case TFL_OP_FULLY_CONNECTED: return fully_connected(x, op);
    case TFL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return lstm(x, op);
    case TFL_OP_SOFTMAX: {
        ilist l = {{0}, 0};
        if (push_t(x, &l, in_t(x, 0)) || push_float(x, &l, fkind(x), tfl_opt_f32(tm, op, 0, 1.0f)))
            return -1;
        return out1(x, ANEURALNETWORKS_SOFTMAX, &l);
    }
    case TFL_OP_LOG_SOFTMAX: {
        ilist l = {{0}, 0};
        if (push_t(x, &l, in_t(x, 0)) || push_float(x, &l, fkind(x), 1.0f) ||
            push_i32(x, &l, -1))
            return -1;
        return out1(x, ANEURALNETWORKS_LOG_SOFTMAX, &l);
    }
    case TFL_OP_RESHAPE:
    case TFL_OP_EXPAND_DIMS:
        return reshape_to_output(x);
    case TFL_OP_SQUEEZE: return squeeze(x, op);
    case TFL_OP_ADD: return binary_fused(x, op, ANEURALNETWORKS_ADD);
    case TFL_OP_SUB: return binary_fused(x, op, ANEURALNETWORKS_SUB);
    case TFL_OP_MUL: return binary_fused(x, op, ANEURALNETWORKS_MUL);
    case TFL_OP_DIV: return binary_fused(x, op, ANEURALNETWORKS_DIV);
    case TFL_OP_CONCATENATION: return concatenation(x, op);
    case TFL_OP_LOGISTIC: return simple(x, ANEURALNETWORKS_LOGISTIC, 1);
    case TFL_OP_TANH: return simple(x, ANEURALNETWORKS_TANH, 1);
    case TFL_OP_RELU: return simple(x, ANEURALNETWORKS_RELU, 1);
    case TFL_OP_RELU6: return simple(x, ANEURALNETWORKS_RELU6, 1);
    case TFL_OP_RELU_N1_TO_1: return simple(x, ANEURALNETWORKS_RELU1, 1);
    case TFL_OP_HARD_SWISH: return simple(x, ANEURALNETWORKS_HARD_SWISH, 1);
    case TFL_OP_ELU: {
        ilist l = {{0}, 0};
        if (push_t(x, &l, in_t(x, 0)) || push_float(x, &l, fkind(x), 1.0f))
            return -1;
        return out1(x, ANEURALNETWORKS_ELU, &l);
    }
    case TFL_OP_EXP: return simple(x, ANEURALNETWORKS_EXP, 1);
    case TFL_OP_LOG: return simple(x, ANEURALNETWORKS_LOG, 1);
    case TFL_OP_ABS: return simple(x, ANEURALNETWORKS_ABS, 1);
    case TFL_OP_NEG: return simple(x, ANEURALNETWORKS_NEG, 1);
    case TFL_OP_SQRT: return simple(x, ANEURALNETWORKS_SQRT, 1);
    case TFL_OP_RSQRT: return simple(x, ANEURALNETWORKS_RSQRT, 1);
    case TFL_OP_SIN: return simple(x, ANEURALNETWORKS_SIN, 1);
    case TFL_OP_FLOOR: return simple(x, ANEURALNETWORKS_FLOOR, 1);
    case TFL_OP_LOGICAL_NOT: return simple(x, ANEURALNETWORKS_LOGICAL_NOT, 1);
    case TFL_OP_CAST: return simple(x, ANEURALNETWORKS_CAST, 1);
    case TFL_OP_L2_NORMALIZATION: return simple(x, ANEURALNETWORKS_L2_NORMALIZATION, 1);
    case TFL_OP_QUANTIZE:
        if (elem_type(x, in_t(x, 0)) != TFL_FLOAT32 && elem_type(x, in_t(x, 0)) != TFL_FLOAT16)
            return fail(x, "requantizing %s is not supported (NNAPI QUANTIZE takes float input)",
                        tfl_type_name(elem_type(x, in_t(x, 0))));
        return simple(x, ANEURALNETWORKS_QUANTIZE, 1);
    case TFL_OP_DEQUANTIZE:
        if (in_t(x, 0) >= 0 && is_const(x, in_t(x, 0))) {
            if (tens(x, out_t(x, 0))->type != TFL_FLOAT32)
                return fail(x, "constant DEQUANTIZE to %s is not supported",
                            tfl_type_name(tens(x, out_t(x, 0))->type));
            return fold_float(x, in_t(x, 0), out_t(x, 0));
        }
        if (elem_type(x, in_t(x, 0)) == TFL_FLOAT16)
            return simple(x, ANEURALNETWORKS_CAST, 1);
        return simple(x, ANEURALNETWORKS_DEQUANTIZE, 1);
    case TFL_OP_MAXIMUM: return simple(x, ANEURALNETWORKS_MAXIMUM, 2);
    case TFL_OP_MINIMUM: return simple(x, ANEURALNETWORKS_MINIMUM, 2);
    case TFL_OP_POW: return simple(x, ANEURALNETWORKS_POW, 2);
    case TFL_OP_PRELU: return simple(x, ANEURALNETWORKS_PRELU, 2);
    case TFL_OP_EQUAL: return simple(x, ANEURALNETWORKS_EQUAL, 2);
    case TFL_OP_NOT_EQUAL: return simple(x, ANEURALNETWORKS_NOT_EQUAL, 2);
    case TFL_OP_LESS: return simple(x, ANEURALNETWORKS_LESS, 2);
    case TFL_OP_LESS_EQUAL: return simple(x, ANEURALNETWORKS_LESS_EQUAL, 2);
    case TFL_OP_GREATER: return simple(x, ANEURALNETWORKS_GREATER, 2);
    case TFL_OP_GREATER_EQUAL: return simple(x, ANEURALNETWORKS_GREATER_EQUAL, 2);
    case TFL_OP_LOGICAL_AND: return simple(x, ANEURALNETWORKS_LOGICAL_AND, 2);
    case TFL_OP_LOGICAL_OR: return simple(x, ANEURALNETWORKS_LOGICAL_OR, 2);
    case TFL_OP_SELECT: return simple(x, ANEURALNETWORKS_SELECT, 3);
    case TFL_OP_TRANSPOSE: return simple(x, ANEURALNETWORKS_TRANSPOSE, 2);
    case TFL_OP_SLICE: return simple(x, ANEURALNETWORKS_SLICE, 3);
    case TFL_OP_TILE: return simple(x, ANEURALNETWORKS_TILE, 2);
    case TFL_OP_MEAN: return reduce(x, op, ANEURALNETWORKS_MEAN);
    case TFL_OP_SUM: return reduce(x, op, ANEURALNETWORKS_REDUCE_SUM);
    case TFL_OP_REDUCE_PROD: return reduce(x, op, ANEURALNETWORKS_REDUCE_PROD);
    case TFL_OP_REDUCE_MAX: return reduce(x, op, ANEURALNETWORKS_REDUCE_MAX);
    case TFL_OP_REDUCE_MIN: return reduce(x, op, ANEURALNETWORKS_REDUCE_MIN);
    case TFL_OP_REDUCE_ANY: return reduce(x, op, ANEURALNETWORKS_REDUCE_ANY);
    case TFL_OP_PAD: return pad(x, 0);
    case TFL_OP_PADV2: return pad(x, 1);
    case TFL_OP_RESIZE_BILINEAR: return resize(x, op, ANEURALNETWORKS_RESIZE_BILINEAR);
    case TFL_OP_RESIZE_NEAREST_NEIGHBOR: return resize(x, op, ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR);
    case TFL_OP_SPACE_TO_DEPTH:
    case TFL_OP_DEPTH_TO_SPACE: {
        ilist l = {{0}, 0};
        if (push_t(x, &l, in_t(x, 0)) || push_i32(x, &l, tfl_opt_i32(tm, op, 0, 1)))
            return -1;
        return out1(x, op->code == TFL_OP_SPACE_TO_DEPTH ? ANEURALNETWORKS_SPACE_TO_DEPTH
                                                         : ANEURALNETWORKS_DEPTH_TO_SPACE, &l);
    }
    case TFL_OP_LOCAL_RESPONSE_NORMALIZATION: {
        ilist l = {{0}, 0};
        if (push_t(x, &l, in_t(x, 0)) || push_i32(x, &l, tfl_opt_i32(tm, op, 0, 0)) ||
            push_float(x, &l, fkind(x), tfl_opt_f32(tm, op, 1, 0.0f)) ||
            push_float(x, &l, fkind(x), tfl_opt_f32(tm, op, 2, 0.0f)) ||
            push_float(x, &l, fkind(x), tfl_opt_f32(tm, op, 3, 0.0f)))
            return -1;
        return out1(x, ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, &l);
    }
    case TFL_OP_GATHER:
        if (tfl_opt_i32(tm, op, 1, 0) != 0)
            return fail(x, "batch_dims is not supported");
        {
            int32_t axis = tfl_opt_i32(tm, op, 0, 0);
            ilist l = {{0}, 0};
            if (push_t(x, &l, in_t(x, 0)) || push_i32(x, &l, axis) || push_t(x, &l, in_t(x, 1)))
                return -1;
            return out1(x, ANEURALNETWORKS_GATHER, &l);
        }
    case TFL_OP_ARG_MAX:
    case TFL_OP_ARG_MIN:
        if (tens(x, out_t(x, 0))->type != TFL_INT32)
            return fail(x, "only int32 outputs are supported");
        return arg_minmax(x, op->code == TFL_OP_ARG_MAX ? ANEURALNETWORKS_ARGMAX : ANEURALNETWORKS_ARGMIN);
    case TFL_OP_SPLIT: return split(x, op);
    case TFL_OP_STRIDED_SLICE: return strided_slice(x, op);
    case TFL_OP_LEAKY_RELU: {
        if (elem_type(x, in_t(x, 0)) != TFL_FLOAT32)
            return fail(x, "only float32 LEAKY_RELU is supported");
        float *alpha = block(x, sizeof *alpha);
        if (alpha == NULL)
            return fail(x, "out of memory");
        *alpha = tfl_opt_f32(tm, op, 0, 0.0f);
        uint32_t one[1] = {1}, ai = 0;
        ANeuralNetworksOperandType ot = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, one, 0.0f, 0};
        ilist l = {{0}, 0};
        if (push_t(x, &l, in_t(x, 0)) || add_operand(x, &ot, &ai))
            return -1;
        NN(ANeuralNetworksModel_setOperandValue(x->m, ai, alpha, sizeof *alpha));
        l.v[l.n++] = ai;
        return out1(x, ANEURALNETWORKS_PRELU, &l);
    }
    case TFL_OP_BATCH_MATMUL: return batch_matmul(x, op);
    case TFL_OP_PACK: return pack(x, op);
    case TFL_OP_MIRROR_PAD: return mirror_pad(x, op);
    case TFL_OP_REVERSE_V2: return reverse_v2(x);
    default:
        if (op->custom_code != NULL)
            return fail(x, "custom operator \"%s\" cannot be translated to NNAPI", op->custom_code);
        return fail(x, "builtin operator %s (%d) cannot be translated to NNAPI by nnapi-run",
                    tfl_op_name(op->code), op->code);
    }
}

int nr_translate(const tfl_model *tm, int relaxed, int64_t feature_level, nr_translation *tr,
                 char *err, size_t err_size)
{
    memset(tr, 0, sizeof *tr);
    xl x = {tm, tr, NULL, NULL, NULL, 0, -1, err, err_size,
            feature_level > 0 ? feature_level : ANeuralNetworks_getRuntimeFeatureLevel()};
    int rc = -1;
    if (tm->n_subgraphs > 1)
        fprintf(stderr, "nnapi-run: note: the model has %u subgraphs; running the first\n", tm->n_subgraphs);
    x.opnd = malloc((tm->n_tensors ? tm->n_tensors : 1) * sizeof *x.opnd);
    x.folded = calloc(tm->n_tensors ? tm->n_tensors : 1, sizeof *x.folded);
    tr->input_tensor = calloc(tm->n_inputs ? tm->n_inputs : 1, sizeof *tr->input_tensor);
    tr->output_tensor = calloc(tm->n_outputs ? tm->n_outputs : 1, sizeof *tr->output_tensor);
    if (x.opnd == NULL || x.folded == NULL || tr->input_tensor == NULL || tr->output_tensor == NULL) {
        fail(&x, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < tm->n_tensors; i++)
        x.opnd[i] = -1;
    if (ANeuralNetworksModel_create(&tr->model) != ANEURALNETWORKS_NO_ERROR) {
        fail(&x, "ANeuralNetworksModel_create failed");
        goto done;
    }
    x.m = tr->model;

    uint32_t *ins = calloc(tm->n_inputs + 1, sizeof *ins), *outs = calloc(tm->n_outputs + 1, sizeof *outs);
    if (ins == NULL || outs == NULL) {
        free(ins);
        free(outs);
        fail(&x, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < tm->n_inputs; i++) {
        int ti = tm->inputs[i];
        if (is_const(&x, ti))
            continue;
        if (tensor(&x, ti, &ins[tr->n_inputs]))
            goto io_done;
        tr->input_tensor[tr->n_inputs++] = ti;
    }
    for (uint32_t i = 0; i < tm->n_ops; i++) {
        x.cur = (int)i;
        if (translate_op(&x, &tm->ops[i]))
            goto io_done;
    }
    x.cur = -1;
    for (uint32_t i = 0; i < tm->n_outputs; i++) {
        int ti = tm->outputs[i];
        if (x.opnd[ti] < 0) {
            fail(&x, "model output %u (%s) is not computed by any operator", i, tm->tensors[ti].name);
            goto io_done;
        }
        outs[i] = (uint32_t)x.opnd[ti];
        tr->output_tensor[i] = ti;
    }
    tr->n_outputs = tm->n_outputs;
    int r = ANeuralNetworksModel_identifyInputsAndOutputs(tr->model, tr->n_inputs, ins, tr->n_outputs, outs);
    if (r != ANEURALNETWORKS_NO_ERROR) {
        fail(&x, "ANeuralNetworksModel_identifyInputsAndOutputs failed (result code %d)", r);
        goto io_done;
    }
    if (relaxed && (r = ANeuralNetworksModel_relaxComputationFloat32toFloat16(tr->model, 1))) {
        fail(&x, "ANeuralNetworksModel_relaxComputationFloat32toFloat16 failed (result code %d)", r);
        goto io_done;
    }
    r = ANeuralNetworksModel_finish(tr->model);
    if (r != ANEURALNETWORKS_NO_ERROR) {
        fail(&x, "ANeuralNetworksModel_finish failed (result code %d): the model is invalid", r);
        goto io_done;
    }
    rc = 0;
io_done:
    free(ins);
    free(outs);
done:
    free(x.opnd);
    free(x.folded);
    if (rc != 0)
        nr_translation_free(tr);
    return rc;
}

void nr_translation_free(nr_translation *tr)
{
    if (tr->model != NULL)
        ANeuralNetworksModel_free(tr->model);
    for (size_t i = 0; i < tr->n_blocks; i++)
        free(tr->blocks[i]);
    free(tr->blocks);
    free(tr->input_tensor);
    free(tr->output_tensor);
    free(tr->op_source);
    free(tr->op_code);
    memset(tr, 0, sizeof *tr);
}

static const char *const nn_names[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
    "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP",
    "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION",
    "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU1", "RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN",
    "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "BATCH_TO_SPACE_ND", "DIV", "MEAN", "PAD",
    "SPACE_TO_BATCH_ND", "SQUEEZE", "STRIDED_SLICE", "SUB", "TRANSPOSE", "ABS", "ARGMAX", "ARGMIN",
    "AXIS_ALIGNED_BBOX_TRANSFORM", "BIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_RNN",
    "BOX_WITH_NMS_LIMIT", "CAST", "CHANNEL_SHUFFLE", "DETECTION_POSTPROCESSING", "EQUAL", "EXP",
    "EXPAND_DIMS", "GATHER", "GENERATE_PROPOSALS", "GREATER", "GREATER_EQUAL", "GROUPED_CONV_2D",
    "HEATMAP_MAX_KEYPOINT", "INSTANCE_NORMALIZATION", "LESS", "LESS_EQUAL", "LOG", "LOGICAL_AND",
    "LOGICAL_NOT", "LOGICAL_OR", "LOG_SOFTMAX", "MAXIMUM", "MINIMUM", "NEG", "NOT_EQUAL", "PAD_V2",
    "POW", "PRELU", "QUANTIZE", "QUANTIZED_16BIT_LSTM", "RANDOM_MULTINOMIAL", "REDUCE_ALL",
    "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD", "REDUCE_SUM", "ROI_ALIGN",
    "ROI_POOLING", "RSQRT", "SELECT", "SIN", "SLICE", "SPLIT", "SQRT", "TILE", "TOPK_V2",
    "TRANSPOSE_CONV_2D", "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_RNN",
    "RESIZE_NEAREST_NEIGHBOR", "QUANTIZED_LSTM", "IF", "WHILE", "ELU", "HARD_SWISH", "FILL", "RANK",
    "BATCH_MATMUL", "PACK", "MIRROR_PAD", "REVERSE",
};

const char *nr_nnapi_op_name(int code)
{
    if (code >= 0 && (size_t)code < sizeof nn_names / sizeof nn_names[0])
        return nn_names[code];
    return "(unknown operation)";
}
