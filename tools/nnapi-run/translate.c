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
    int32_t **ival;  /* int32 contents computed at translation time (static shape arithmetic) */
    int32_t **ovr;   /* static shapes for tensors the file leaves unshaped: ovr_rank[ti] dims */
    uint32_t *ovr_rank;
    /* Tensors whose dimensions the file states wrongly: the outputs of
     * SPACE_TO_BATCH_ND and what follows it up to BATCH_TO_SPACE_ND, which
     * TFLite re-derives when it prepares the graph. Their NNAPI operands leave
     * the dimensions to the runtime's shape inference. */
    uint8_t *dyn;
    uint32_t n_operands;
    int cur;         /* TFLite operator being translated, -1 outside */
    char *err;
    size_t errsz;
    /* The NNAPI feature level the operations may come from: where it has an
     * operation that FL5 lacks, that operation; below, an FL5 composition. */
    int64_t level;
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
    return x->folded[ti] != NULL || x->ival[ti] != NULL || t->data != NULL || t->is_variable;
}

static int elem_type(const xl *x, int ti)
{
    if (x->ival[ti] != NULL)
        return TFL_INT32;
    return x->folded[ti] != NULL ? TFL_FLOAT32 : x->tm->tensors[ti].type;
}

/* The rank and dimensions of a tensor: the file's, or a static shape the
 * translation worked out for an output the file leaves unshaped. */
static uint32_t t_rank(const xl *x, int ti)
{
    return x->ovr[ti] != NULL ? x->ovr_rank[ti] : x->tm->tensors[ti].rank;
}

static const int32_t *t_shape(const xl *x, int ti)
{
    return x->ovr[ti] != NULL ? x->ovr[ti] : x->tm->tensors[ti].shape;
}

/* The NNAPI operand type of a tensor. dims must hold MAX_RANK entries. */
static int tensor_type(xl *x, int ti, ANeuralNetworksOperandType *ot, uint32_t *dims, int *per_channel)
{
    const tfl_tensor *t = &x->tm->tensors[ti];
    int type = elem_type(x, ti);
    int has_q = x->folded[ti] == NULL && t->n_scale > 0 && t->scale[0] > 0.0f;
    memset(ot, 0, sizeof *ot);
    *per_channel = 0;
    uint32_t rank = t_rank(x, ti);
    const int32_t *shape = t_shape(x, ti);
    if (rank > MAX_RANK)
        return fail(x, "tensor %d (%s) has rank %u", ti, t->name, rank);
    for (uint32_t i = 0; i < rank; i++)
        dims[i] = shape[i] > 0 && !x->dyn[ti] ? (uint32_t)shape[i] : 0;
    ot->dimensionCount = rank;
    ot->dimensions = rank ? dims : NULL;
    /* A constant needs a shape; NNAPI reads rank 0 as "unknown". */
    if (rank == 0 && is_const(x, ti)) {
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
            return fail(x, "tensor %d (%s) is int16 with zero point %lld: NNAPI has no asymmetric int16 "
                        "type (only TENSOR_QUANT16_SYMM, zero point 0)", ti, t->name,
                        has_q ? (long long)t->zero_point[0] : 0LL);
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
    if (x->ival[ti] != NULL) {
        *data = x->ival[ti];
        *size = n * sizeof(int32_t);
        return 0;
    }
    if (es == 0 || (n > 0 && n > SIZE_MAX / es))
        return fail(x, "tensor %d (%s): bad size", ti, t->name);
    if (t->data == NULL) { /* variable tensor: starts at zero on every run */
        void *z = block(x, n * es);
        if (z == NULL)
            return fail(x, "out of memory");
        /* TFLite resets int8 state to its zero point, everything else to 0. */
        if (t->type == TFL_INT8 && t->n_scale > 0)
            memset(z, (int)(int8_t)t->zero_point[0], n);
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
    /* Quantized types need a positive scale even when the value is omitted. */
    int q = type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM || type == ANEURALNETWORKS_TENSOR_QUANT16_SYMM ||
            type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM || type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    ANeuralNetworksOperandType ot = {type, 0, NULL, q ? 1.0f : 0.0f, 0};
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
        if (elem_type(x, bias_ti) == TFL_INT64)
            return fail(x, "bias tensor %d is int64 (TFLite's 16x8 quantization): NNAPI has no 64-bit tensor "
                        "type and its int16 activations would be TENSOR_QUANT16_SYMM, which its convolutions "
                        "do not take", bias_ti);
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

/* A fresh operand of the given NNAPI type and shape. */
static int temp_typed(xl *x, int32_t type, uint32_t rank, const uint32_t *dims, float scale, int32_t zp,
                      uint32_t *idx)
{
    ANeuralNetworksOperandType ot = {type, rank, rank ? dims : NULL, scale, zp};
    return add_operand(x, &ot, idx);
}

static int dims_of(xl *x, int ti, uint32_t *dims, uint32_t *rank)
{
    *rank = t_rank(x, ti);
    const int32_t *s = t_shape(x, ti);
    if (*rank > MAX_RANK)
        return fail(x, "rank %u", *rank);
    if (x->dyn[ti])
        return fail(x, "tensor %d has a shape known only at run time (after SPACE_TO_BATCH_ND)", ti);
    for (uint32_t d = 0; d < *rank; d++) {
        if (s[d] < 0)
            return fail(x, "tensor %d has a dynamic shape", ti);
        dims[d] = (uint32_t)s[d];
    }
    return 0;
}

/* The operand type of tensor ti reshaped to dims (same element type and
 * quantization). */
static int reshaped(xl *x, uint32_t src, int like_ti, uint32_t rank, const uint32_t *dims, uint32_t *dst)
{
    int32_t shape[MAX_RANK];
    for (uint32_t d = 0; d < rank; d++)
        shape[d] = (int32_t)dims[d];
    ilist l = {{src}, 1};
    if (push_i32_tensor(x, &l, shape, rank) || temp_like(x, like_ti, rank, dims, dst))
        return -1;
    return emit(x, ANEURALNETWORKS_RESHAPE, &l, 1, dst);
}

/* A constant tensor as an operand of an explicit NNAPI type (the integer
 * LSTM wants symmetric QUANT8_SYMM weights where the generic mapping would
 * give QUANT8_ASYMM_SIGNED). */
static int const_as(xl *x, int ti, int32_t type, uint32_t *idx)
{
    const tfl_tensor *t = tens(x, ti);
    uint32_t d[MAX_RANK], rank;
    if (dims_of(x, ti, d, &rank))
        return -1;
    if (t->n_scale > 1)
        return fail(x, "tensor %d (%s) has per-channel scales; NNAPI's QUANTIZED_LSTM takes one scale", ti,
                    t->name);
    float scale = type == ANEURALNETWORKS_TENSOR_INT32 ? 0.0f : (t->n_scale ? t->scale[0] : 0.0f);
    if (t->n_scale && t->zero_point[0] != 0 && type != ANEURALNETWORKS_TENSOR_INT32)
        return fail(x, "tensor %d (%s) has zero point %lld; NNAPI wants symmetric weights", ti, t->name,
                    (long long)t->zero_point[0]);
    if (temp_typed(x, type, rank, d, scale, 0, idx))
        return -1;
    return set_const(x, ti, *idx);
}

/* TFLite's full-integer UNIDIRECTIONAL_SEQUENCE_LSTM (int8 activations and
 * weights, int16 cell state): NNAPI's QUANTIZED_LSTM computes one step of
 * it, so the sequence is unrolled, each step's state feeding the next. The
 * gate intermediate scales are TFLite's: 2^-12 without layer normalisation,
 * the intermediate tensors' scales with it; the hidden state is requantized
 * to the fifth intermediate's scale and zero point. */
static int quantized_lstm(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    int in = op->in[0], out = out_t(x, 0);
    if (tfl_opt_u8(tm, op, 0, 0) != 4)
        return fail(x, "an integer LSTM must use tanh (activation %d)", tfl_opt_u8(tm, op, 0, 0));
    if (op->n_inter != 5)
        return fail(x, "an integer LSTM needs its 5 intermediate tensors (the model has %u)", op->n_inter);
    const tfl_tensor *hidden = tens(x, op->inter[4]);
    if (hidden->n_scale != 1)
        return fail(x, "the hidden-state intermediate has no scale");
    int ln = op->n_in > 20 && op->in[21] >= 0;
    float iscale[4];
    for (int g = 0; g < 4; g++) {
        const tfl_tensor *it = tens(x, op->inter[g]);
        iscale[g] = ln ? (it->n_scale ? it->scale[0] : 0.0f) : ldexpf(1.0f, -12);
        if (ln && it->n_scale == 0 && op->in[20 + g] >= 0)
            return fail(x, "intermediate %d has no scale", g);
    }
    int time_major = tfl_opt_bool(tm, op, 3, 0);
    uint32_t d[MAX_RANK], rank;
    if (dims_of(x, in, d, &rank))
        return -1;
    if (rank != 3)
        return fail(x, "expects a 3-D input");
    uint32_t T = time_major ? d[0] : d[1], B = time_major ? d[1] : d[0], I = d[2];
    if (op->in[18] < 0 || op->in[19] < 0 || !tens(x, op->in[18])->is_variable || !tens(x, op->in[19])->is_variable)
        return fail(x, "expects variable output and cell state tensors");
    uint32_t hd[MAX_RANK], hr, cd[MAX_RANK], cr;
    if (dims_of(x, op->in[18], hd, &hr) || dims_of(x, op->in[19], cd, &cr) || hr != 2 || cr != 2)
        return fail(x, "expects 2-D state tensors");
    uint32_t P = hd[1], U = cd[1];
    /* The operands every step shares: weights, biases, options. */
    ilist common = {{0}, 0};
    for (uint32_t k = 1; k < 18; k++) {
        int ti = k < op->n_in ? op->in[k] : -1;
        int32_t type = k <= 8 || k == 16 ? ANEURALNETWORKS_TENSOR_QUANT8_SYMM
                       : k <= 11        ? ANEURALNETWORKS_TENSOR_QUANT16_SYMM
                                        : ANEURALNETWORKS_TENSOR_INT32;
        if (ti < 0) {
            if (push_omitted(x, &common, type))
                return -1;
        } else if (!is_const(x, ti)) {
            return fail(x, "input %u must be a constant", k);
        } else if (const_as(x, ti, type, &common.v[common.n++])) {
            return -1;
        }
    }
    ilist tail = {{0}, 0};
    for (uint32_t k = 20; k < 24; k++) {
        int ti = k < op->n_in ? op->in[k] : -1;
        if (ti < 0 ? push_omitted(x, &tail, ANEURALNETWORKS_TENSOR_QUANT16_SYMM)
                   : const_as(x, ti, ANEURALNETWORKS_TENSOR_QUANT16_SYMM, &tail.v[tail.n++]))
            return -1;
    }
    if (push_float(x, &tail, ANEURALNETWORKS_TENSOR_FLOAT32, tfl_opt_f32(tm, op, 1, 0.0f)) ||
        push_float(x, &tail, ANEURALNETWORKS_TENSOR_FLOAT32, tfl_opt_f32(tm, op, 2, 0.0f)))
        return -1;
    for (int g = 0; g < 4; g++)
        if (push_float(x, &tail, ANEURALNETWORKS_TENSOR_FLOAT32, iscale[g]))
            return -1;
    if (push_i32(x, &tail, (int32_t)hidden->zero_point[0]) ||
        push_float(x, &tail, ANEURALNETWORKS_TENSOR_FLOAT32, hidden->scale[0]))
        return -1;
    const tfl_tensor *hs = tens(x, op->in[18]), *cs = tens(x, op->in[19]), *to = tens(x, out);
    if (hs->n_scale != 1 || cs->n_scale != 1 || to->n_scale != 1)
        return fail(x, "state and output tensors need one scale");
    uint32_t h_cur, c_cur, src;
    if (tensor(x, op->in[18], &h_cur) || tensor(x, op->in[19], &c_cur) || tensor(x, in, &src))
        return -1;
    uint32_t step_out[MAX_OP_INPUTS];
    if (T == 0 || T > MAX_OP_INPUTS - 1)
        return fail(x, "%u time steps (at most %d are unrolled)", T, MAX_OP_INPUTS - 1);
    for (uint32_t t = 0; t < T; t++) {
        /* The step's input [B, I]: a slice of the sequence, reshaped. */
        uint32_t xt, sl, sd3[3] = {time_major ? 1 : B, time_major ? B : 1, I}, sd2[2] = {B, I};
        int32_t begin[3] = {0, 0, 0}, size[3] = {(int32_t)sd3[0], (int32_t)sd3[1], (int32_t)I};
        begin[time_major ? 0 : 1] = (int32_t)t;
        if (T == 1) {
            sl = src;
        } else {
            ilist s = {{src}, 1};
            if (push_i32_tensor(x, &s, begin, 3) || push_i32_tensor(x, &s, size, 3) ||
                temp_like(x, in, 3, sd3, &sl) || emit(x, ANEURALNETWORKS_SLICE, &s, 1, &sl))
                return -1;
        }
        if (reshaped(x, sl, in, 2, sd2, &xt))
            return -1;
        ilist l = {{xt}, 1};
        for (uint32_t k = 0; k < common.n; k++)
            l.v[l.n++] = common.v[k];
        l.v[l.n++] = h_cur;
        l.v[l.n++] = c_cur;
        for (uint32_t k = 0; k < tail.n; k++)
            l.v[l.n++] = tail.v[k];
        uint32_t bp[2] = {B, P}, bu[2] = {B, U}, outs[3];
        if (temp_typed(x, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 2, bp, hs->scale[0],
                       (int32_t)hs->zero_point[0], &outs[0]) ||
            temp_typed(x, ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 2, bu, cs->scale[0], 0, &outs[1]) ||
            temp_typed(x, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 2, bp, to->scale[0],
                       (int32_t)to->zero_point[0], &outs[2]) ||
            emit(x, ANEURALNETWORKS_QUANTIZED_LSTM, &l, 3, outs))
            return -1;
        h_cur = outs[0];
        c_cur = outs[1];
        step_out[t] = outs[2];
    }
    /* The outputs [B, P] per step, stacked along the time axis. */
    int32_t axis = time_major ? 0 : 1;
    uint32_t od[3] = {time_major ? 1 : B, time_major ? B : 1, P};
    if (T == 1) {
        uint32_t fin;
        int32_t s3[3] = {(int32_t)od[0], (int32_t)od[1], (int32_t)P};
        ilist r = {{step_out[0]}, 1};
        if (push_i32_tensor(x, &r, s3, 3) || tensor(x, out, &fin))
            return -1;
        return emit(x, ANEURALNETWORKS_RESHAPE, &r, 1, &fin);
    }
    ilist cat = {{0}, 0};
    for (uint32_t t = 0; t < T; t++) {
        if (reshaped(x, step_out[t], out, 3, od, &cat.v[cat.n]))
            return -1;
        cat.n++;
    }
    if (push_i32(x, &cat, axis))
        return -1;
    return out1(x, ANEURALNETWORKS_CONCATENATION, &cat);
}

static int lstm(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    if (op->n_in != 20 && op->n_in != 24)
        return fail(x, "%u inputs (expected 20 or 24)", op->n_in);
    if (elem_type(x, op->in[0]) == TFL_INT8)
        return quantized_lstm(x, op);
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

static int batch_matmul_fl6(xl *x, const tfl_op *op)
{
    if (in_t(x, 0) < 0 || in_t(x, 1) < 0 || tens(x, in_t(x, 0))->rank != tens(x, in_t(x, 1))->rank)
        return fail(x, "NNAPI BATCH_MATMUL takes two inputs of one rank");
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)) ||
        push_bool(x, &l, tfl_opt_bool(x->tm, op, 0, 0)) || push_bool(x, &l, tfl_opt_bool(x->tm, op, 1, 0)))
        return -1;
    return out1(x, ANEURALNETWORKS_BATCH_MATMUL, &l);
}

static int pack_fl6(xl *x, const tfl_op *op)
{
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

static int mirror_pad_fl7(xl *x, const tfl_op *op)
{
    /* TFLite's MirrorPadMode numbers REFLECT and SYMMETRIC as NNAPI does. */
    ilist l = {{0}, 0};
    if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)) ||
        push_i32(x, &l, tfl_opt_u8(x->tm, op, 0, 0)))
        return -1;
    return out1(x, ANEURALNETWORKS_MIRROR_PAD, &l);
}

/* REVERSE_V2 with one constant axis; NNAPI wants it non-negative. */
static int reverse_fl7(xl *x)
{
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

/* ---- static shape arithmetic ----
 * Subgraphs that compute shapes (SHAPE -> STRIDED_SLICE -> PACK -> ADD ...)
 * depend only on static shapes and constants: they are evaluated here and
 * their results become int32 constants, as TFLite's own shape propagation
 * would make them. */

/* The int32 contents of a constant int32/int64 tensor, in a block. */
static int ints_of(xl *x, int ti, const int32_t **vals, size_t *n)
{
    const void *data;
    size_t size;
    if (const_value(x, ti, &data, &size))
        return -1;
    *vals = data;
    *n = size / sizeof(int32_t);
    return 0;
}

static int is_static_int(const xl *x, int ti)
{
    if (ti < 0 || !is_const(x, ti) || x->folded[ti] != NULL || x->tm->tensors[ti].is_variable)
        return 0;
    int t = elem_type(x, ti);
    return t == TFL_INT32 || t == TFL_INT64;
}

static int32_t *new_ival(xl *x, int ti, size_t *n)
{
    *n = tfl_numel(tens(x, ti));
    int32_t *v = block(x, (*n ? *n : 1) * sizeof *v);
    if (v == NULL)
        fail(x, "out of memory");
    return v;
}

static int64_t floor_div64(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Element-wise int32 arithmetic with broadcasting of the inputs' shapes. */
static int fold_binary(xl *x, int code)
{
    int a = in_t(x, 0), b = in_t(x, 1), o = out_t(x, 0);
    const tfl_tensor *ta = tens(x, a), *tb = tens(x, b), *to = tens(x, o);
    const int32_t *va, *vb;
    size_t na, nb, no;
    if (ints_of(x, a, &va, &na) || ints_of(x, b, &vb, &nb))
        return -1;
    int32_t *vo = new_ival(x, o, &no);
    if (vo == NULL)
        return -1;
    if (to->rank > MAX_RANK)
        return fail(x, "rank %u", to->rank);
    for (size_t i = 0; i < no; i++) {
        /* Broadcast: walk the output index, map onto each input from the right. */
        size_t ia = 0, ib = 0, sa = 1, sb = 1, rem = i;
        for (int d = (int)to->rank - 1; d >= 0; d--) {
            size_t dim = (size_t)to->shape[d], c = rem % dim;
            rem /= dim;
            int da = d - (int)(to->rank - ta->rank), db = d - (int)(to->rank - tb->rank);
            if (da >= 0) {
                if (ta->shape[da] != 1)
                    ia += c * sa;
                sa *= (size_t)ta->shape[da];
            }
            if (db >= 0) {
                if (tb->shape[db] != 1)
                    ib += c * sb;
                sb *= (size_t)tb->shape[db];
            }
        }
        if (ia >= na || ib >= nb)
            return fail(x, "shapes do not broadcast");
        int64_t p = va[ia], q = vb[ib], r;
        switch (code) {
        case TFL_OP_ADD: r = p + q; break;
        case TFL_OP_SUB: r = p - q; break;
        case TFL_OP_MUL: r = p * q; break;
        case TFL_OP_MAXIMUM: r = p > q ? p : q; break;
        case TFL_OP_MINIMUM: r = p < q ? p : q; break;
        case TFL_OP_FLOOR_DIV:
        case TFL_OP_FLOOR_MOD:
        case TFL_OP_DIV:
            if (q == 0)
                return fail(x, "integer division by zero");
            r = code == TFL_OP_DIV ? p / q : floor_div64(p, q);
            if (code == TFL_OP_FLOOR_MOD)
                r = p - r * q;
            break;
        default: return fail(x, "not foldable");
        }
        if (r < INT32_MIN || r > INT32_MAX)
            return fail(x, "int32 overflow in static shape arithmetic");
        vo[i] = (int32_t)r;
    }
    x->ival[o] = vo;
    return 0;
}

/* TFLite's STRIDED_SLICE on a static int tensor (begin/end/shrink masks). */
static int fold_strided_slice(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    int in = in_t(x, 0), o = out_t(x, 0);
    const tfl_tensor *ti = tens(x, in);
    const int32_t *v, *bg, *en, *st;
    size_t n, nb, ne, ns, no;
    if (ints_of(x, in, &v, &n) || ints_of(x, in_t(x, 1), &bg, &nb) || ints_of(x, in_t(x, 2), &en, &ne) ||
        ints_of(x, in_t(x, 3), &st, &ns))
        return -1;
    int32_t bmask = tfl_opt_i32(tm, op, 0, 0), emask = tfl_opt_i32(tm, op, 1, 0),
            shrink = tfl_opt_i32(tm, op, 4, 0);
    uint32_t rank = ti->rank;
    if (rank > MAX_RANK || nb != ne || nb != ns || nb > rank)
        return fail(x, "begin, end and strides do not match the input rank");
    int64_t start[MAX_RANK], step[MAX_RANK], count[MAX_RANK], total = 1;
    for (uint32_t d = 0; d < rank; d++) {
        int64_t dim = ti->shape[d], s = d < nb ? st[d] : 1, b, e;
        if (s == 0)
            return fail(x, "stride 0");
        int lo = s > 0 ? 0 : -1;
        int64_t hi = s > 0 ? dim : dim - 1;
        if (d >= nb || (bmask >> d & 1)) {
            b = s > 0 ? 0 : dim - 1;
        } else {
            b = bg[d] < 0 ? bg[d] + dim : bg[d];
            b = b < lo ? lo : b > hi ? hi : b;
        }
        if (d < nb && (shrink >> d & 1)) {
            e = b + 1;
            s = 1;
        } else if (d >= nb || (emask >> d & 1)) {
            e = s > 0 ? dim : -1;
        } else {
            e = en[d] < 0 ? en[d] + dim : en[d];
            e = e < lo ? lo : e > hi ? hi : e;
        }
        int64_t c = s > 0 ? (e - b + s - 1) / s : (b - e - s - 1) / -s;
        start[d] = b;
        step[d] = s;
        count[d] = c > 0 ? c : 0;
        total *= count[d];
    }
    int32_t *vo = new_ival(x, o, &no);
    if (vo == NULL)
        return -1;
    if ((size_t)total != no)
        return fail(x, "output holds %zu values, the slice %lld", no, (long long)total);
    for (size_t i = 0; i < no; i++) {
        size_t rem = i, src = 0, stride = 1;
        for (int d = (int)rank - 1; d >= 0; d--) {
            int64_t c = (int64_t)(rem % (size_t)count[d]);
            rem /= (size_t)count[d];
            src += (size_t)(start[d] + c * step[d]) * stride;
            stride *= (size_t)ti->shape[d];
        }
        if (src >= n)
            return fail(x, "slice outside the input");
        vo[i] = v[src];
    }
    x->ival[o] = vo;
    return 0;
}

/* PACK and CONCATENATION of static ints: for each index before the axis,
 * each input's block in turn. */
static int fold_stack(xl *x, const tfl_op *op, int32_t axis)
{
    int o = out_t(x, 0);
    const tfl_tensor *to = tens(x, o);
    size_t no;
    int32_t *vo = new_ival(x, o, &no);
    if (vo == NULL)
        return -1;
    if (axis < 0)
        axis += (int32_t)to->rank;
    if (axis < 0 || (uint32_t)axis >= to->rank || op->n_in == 0)
        return fail(x, "axis out of range");
    size_t outer = 1;
    for (int32_t d = 0; d < axis; d++)
        outer *= (size_t)to->shape[d];
    size_t pos = 0;
    for (size_t r = 0; r < outer; r++)
        for (uint32_t k = 0; k < op->n_in; k++) {
            const int32_t *v;
            size_t n;
            if (ints_of(x, op->in[k], &v, &n))
                return -1;
            size_t inner = n / outer; /* each input's block per outer index */
            if (pos + inner > no || (r + 1) * inner > n)
                return fail(x, "inputs do not match the output shape");
            memcpy(vo + pos, v + r * inner, inner * sizeof *vo);
            pos += inner;
        }
    if (pos != no)
        return fail(x, "inputs do not match the output shape");
    x->ival[o] = vo;
    return 0;
}

/* Evaluates an operator whose result is static. Returns 1 when folded, 0
 * when the operator computes at run time, -1 on error. */
static int fold_static(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    if (op->n_out != 1 || op->custom_code != NULL)
        return 0;
    int o = out_t(x, 0), in0 = in_t(x, 0);
    int ot = tens(x, o)->type;
    if (ot != TFL_INT32 && ot != TFL_INT64)
        return 0;
    for (uint32_t d = 0; d < tens(x, o)->rank; d++)
        if (tens(x, o)->shape[d] < 0)
            return 0;
    size_t no;
    int32_t *vo;
    switch (op->code) {
    case TFL_OP_SHAPE:
    case TFL_OP_RANK: {
        if (in0 < 0)
            return 0;
        uint32_t r = t_rank(x, in0);
        const int32_t *s = t_shape(x, in0);
        for (uint32_t d = 0; d < r; d++)
            if (s[d] < 0)
                return 0; /* dynamic: not expressible in NNAPI FL5 */
        if ((vo = new_ival(x, o, &no)) == NULL)
            return -1;
        if (op->code == TFL_OP_RANK) {
            if (no != 1)
                return fail(x, "RANK output is not a scalar");
            vo[0] = (int32_t)r;
        } else {
            if (no != r)
                return fail(x, "SHAPE output holds %zu values for rank %u", no, r);
            memcpy(vo, s, r * sizeof *vo);
        }
        x->ival[o] = vo;
        return 1;
    }
    default: break;
    }
    for (uint32_t k = 0; k < op->n_in; k++)
        if (op->in[k] >= 0 && !is_static_int(x, op->in[k]))
            return 0;
    int rc;
    switch (op->code) {
    case TFL_OP_ADD:
    case TFL_OP_SUB:
    case TFL_OP_MUL:
        if (tfl_opt_u8(tm, op, 0, 0) != 0)
            return 0;
        /* fall through */
    case TFL_OP_DIV:
    case TFL_OP_FLOOR_DIV:
    case TFL_OP_FLOOR_MOD:
    case TFL_OP_MAXIMUM:
    case TFL_OP_MINIMUM:
        rc = fold_binary(x, op->code);
        break;
    case TFL_OP_STRIDED_SLICE:
        if (tfl_opt_i32(tm, op, 2, 0) || tfl_opt_i32(tm, op, 3, 0) || tfl_opt_bool(tm, op, 5, 0))
            return 0;
        rc = fold_strided_slice(x, op);
        break;
    case TFL_OP_PACK: rc = fold_stack(x, op, tfl_opt_i32(tm, op, 1, 0)); break;
    case TFL_OP_CONCATENATION:
        if (tfl_opt_u8(tm, op, 1, 0) != 0)
            return 0;
        rc = fold_stack(x, op, tfl_opt_i32(tm, op, 0, 0));
        break;
    case TFL_OP_RESHAPE:
    case TFL_OP_SQUEEZE:
    case TFL_OP_EXPAND_DIMS:
    case TFL_OP_CAST: {
        const int32_t *v;
        size_t n;
        if (ints_of(x, in0, &v, &n) || (vo = new_ival(x, o, &no)) == NULL)
            return -1;
        if (n != no)
            return fail(x, "element count changes");
        memcpy(vo, v, n * sizeof *vo);
        x->ival[o] = vo;
        rc = 0;
        break;
    }
    default: return 0;
    }
    return rc ? -1 : 1;
}

/* ---- compositions ---- */



static int space_batch(xl *x, int to_batch)
{
    int in = in_t(x, 0), o = out_t(x, 0);
    int32_t block_v[4], pads[8];
    uint32_t nb, np;
    if (const_ints(x, in_t(x, 1), block_v, 4, &nb) || const_ints(x, in_t(x, 2), pads, 8, &np))
        return -1;
    if (tens(x, in)->rank != 4 || nb != 2 || np != 4)
        return fail(x, "NNAPI needs a 4-D input with 2 spatial dimensions");
    ilist l = {{0}, 0};
    if (push_t(x, &l, in) || push_i32_tensor(x, &l, block_v, 2))
        return -1;
    if (to_batch) {
        uint32_t pd[2] = {2, 2}, pi = 0;
        ANeuralNetworksOperandType pt = {ANEURALNETWORKS_TENSOR_INT32, 2, pd, 0.0f, 0};
        int32_t *pc = block(x, sizeof pads);
        if (pc == NULL)
            return fail(x, "out of memory");
        memcpy(pc, pads, 4 * sizeof *pc);
        if (add_operand(x, &pt, &pi))
            return -1;
        NN(ANeuralNetworksModel_setOperandValue(x->m, pi, pc, 4 * sizeof *pc));
        l.v[l.n++] = pi;
        x->dyn[o] = 1;
        return out1(x, ANEURALNETWORKS_SPACE_TO_BATCH_ND, &l);
    }
    /* NNAPI's BATCH_TO_SPACE_ND has no crops: a STRIDED_SLICE after it crops,
     * counting the end from the end so that the uncropped size need not be
     * known here. */
    if (!pads[0] && !pads[1] && !pads[2] && !pads[3])
        return out1(x, ANEURALNETWORKS_BATCH_TO_SPACE_ND, &l);
    ANeuralNetworksOperandType ot;
    uint32_t td[MAX_RANK], zero[4] = {0, 0, 0, 0}, mid, fin;
    int pcn;
    if (tensor_type(x, in, &ot, td, &pcn) || temp_typed(x, ot.type, 4, zero, ot.scale, ot.zeroPoint, &mid) ||
        emit(x, ANEURALNETWORKS_BATCH_TO_SPACE_ND, &l, 1, &mid))
        return -1;
    int32_t begin[4] = {0, pads[0], pads[2], 0}, end[4] = {0, -pads[1], -pads[3], 0}, step[4] = {1, 1, 1, 1};
    int32_t end_mask = 1 | 8 | (pads[1] ? 0 : 2) | (pads[3] ? 0 : 4);
    ilist s = {{mid}, 1};
    if (push_i32_tensor(x, &s, begin, 4) || push_i32_tensor(x, &s, end, 4) || push_i32_tensor(x, &s, step, 4) ||
        push_i32(x, &s, 0) || push_i32(x, &s, end_mask) || push_i32(x, &s, 0) || tensor(x, o, &fin))
        return -1;
    return emit(x, ANEURALNETWORKS_STRIDED_SLICE, &s, 1, &fin);
}


/* PACK: each input gains a size-1 axis (RESHAPE), then CONCATENATION. */
static int pack(xl *x, const tfl_op *op)
{
    if (x->level >= ANEURALNETWORKS_FEATURE_LEVEL_6)
        return pack_fl6(x, op);
    int o = out_t(x, 0);
    int32_t axis = tfl_opt_i32(x->tm, op, 1, 0);
    uint32_t od[MAX_RANK], orank;
    if (dims_of(x, o, od, &orank))
        return -1;
    if (axis < 0)
        axis += (int32_t)orank;
    if (axis < 0 || (uint32_t)axis >= orank || op->n_in > MAX_OP_INPUTS - 1)
        return fail(x, "axis %d out of range", axis);
    uint32_t pd[MAX_RANK];
    memcpy(pd, od, sizeof pd);
    pd[axis] = 1;
    ilist l = {{0}, 0};
    for (uint32_t k = 0; k < op->n_in; k++) {
        uint32_t src;
        if (tensor(x, op->in[k], &src) || reshaped(x, src, op->in[k], orank, pd, &l.v[l.n]))
            return -1;
        l.n++;
    }
    if (push_i32(x, &l, axis))
        return -1;
    return out1(x, ANEURALNETWORKS_CONCATENATION, &l);
}

/* UNPACK: SPLIT along the axis, then RESHAPE each part without it. */
static int unpack(xl *x, const tfl_op *op)
{
    int in = in_t(x, 0);
    int32_t axis = tfl_opt_i32(x->tm, op, 1, 0);
    uint32_t d[MAX_RANK], rank;
    if (dims_of(x, in, d, &rank))
        return -1;
    if (axis < 0)
        axis += (int32_t)rank;
    if (axis < 0 || (uint32_t)axis >= rank || d[axis] != op->n_out || op->n_out > MAX_OP_INPUTS)
        return fail(x, "axis %d does not split into %u outputs", axis, op->n_out);
    uint32_t pd[MAX_RANK], parts[MAX_OP_INPUTS];
    memcpy(pd, d, sizeof pd);
    pd[axis] = 1;
    ilist l = {{0}, 0};
    if (push_t(x, &l, in))
        return -1;
    if (op->n_out == 1) {
        parts[0] = l.v[0]; /* one part: the input itself */
    } else {
        if (push_i32(x, &l, axis) || push_i32(x, &l, (int32_t)op->n_out))
            return -1;
        for (uint32_t k = 0; k < op->n_out; k++)
            if (temp_like(x, in, rank, pd, &parts[k]))
                return -1;
        if (emit(x, ANEURALNETWORKS_SPLIT, &l, op->n_out, parts))
            return -1;
    }
    for (uint32_t k = 0; k < op->n_out; k++) {
        uint32_t od[MAX_RANK], orank, fin;
        if (dims_of(x, op->out[k], od, &orank))
            return -1;
        int32_t shape[MAX_RANK];
        for (uint32_t q = 0; q < orank; q++)
            shape[q] = (int32_t)od[q];
        if (orank == 0) {
            shape[0] = 1;
            orank = 1;
        }
        ilist r = {{parts[k]}, 1};
        if (push_i32_tensor(x, &r, shape, orank) || tensor(x, op->out[k], &fin) ||
            emit(x, ANEURALNETWORKS_RESHAPE, &r, 1, &fin))
            return -1;
    }
    return 0;
}

/* SPLIT_V: one SLICE per output (NNAPI's SPLIT makes equal parts only). */
static int split_v(xl *x, const tfl_op *op)
{
    int in = in_t(x, 0);
    int32_t sizes[MAX_OP_INPUTS], axis;
    uint32_t ns, na;
    if (const_ints(x, in_t(x, 1), sizes, MAX_OP_INPUTS, &ns) || const_ints(x, in_t(x, 2), &axis, 1, &na))
        return -1;
    uint32_t d[MAX_RANK], rank;
    if (dims_of(x, in, d, &rank))
        return -1;
    if (axis < 0)
        axis += (int32_t)rank;
    if (na != 1 || axis < 0 || (uint32_t)axis >= rank || ns != op->n_out)
        return fail(x, "bad axis or size_splits");
    int64_t known = 0;
    int unknown = -1;
    for (uint32_t k = 0; k < ns; k++) {
        if (sizes[k] == -1 && unknown < 0)
            unknown = (int)k;
        else if (sizes[k] < 0)
            return fail(x, "bad size_splits");
        else
            known += sizes[k];
    }
    if (unknown >= 0)
        sizes[unknown] = (int32_t)((int64_t)d[axis] - known);
    int32_t begin[MAX_RANK] = {0}, size[MAX_RANK];
    for (uint32_t q = 0; q < rank; q++)
        size[q] = (int32_t)d[q];
    for (uint32_t k = 0; k < ns; k++) {
        size[axis] = sizes[k];
        ilist l = {{0}, 0};
        uint32_t fin;
        if (push_t(x, &l, in) || push_i32_tensor(x, &l, begin, rank) || push_i32_tensor(x, &l, size, rank) ||
            tensor(x, op->out[k], &fin) || emit(x, ANEURALNETWORKS_SLICE, &l, 1, &fin))
            return -1;
        begin[axis] += sizes[k];
    }
    return 0;
}

/* GATHER along one axis with constant indices: the exact composition of
 * REVERSE_V2 and MIRROR_PAD. src is the operand gathered from. */
static int gather_axis(xl *x, uint32_t src, int like_ti, uint32_t rank, const uint32_t *dims, int32_t axis,
                       const int32_t *idx, uint32_t n_idx, uint32_t *dst, int final_ti)
{
    ilist l = {{src}, 1};
    if (push_i32(x, &l, axis) || push_i32_tensor(x, &l, idx, n_idx))
        return -1;
    if (final_ti >= 0) {
        if (tensor(x, final_ti, dst))
            return -1;
    } else {
        uint32_t nd[MAX_RANK];
        memcpy(nd, dims, rank * sizeof *nd);
        nd[axis] = n_idx;
        if (temp_like(x, like_ti, rank, nd, dst))
            return -1;
    }
    return emit(x, ANEURALNETWORKS_GATHER, &l, 1, dst);
}

static int reverse_v2(xl *x)
{
    int in = in_t(x, 0);
    int32_t axes[MAX_RANK];
    uint32_t na, d[MAX_RANK], rank;
    if (const_ints(x, in_t(x, 1), axes, MAX_RANK, &na) || dims_of(x, in, d, &rank))
        return -1;
    if (na == 1 && x->level >= ANEURALNETWORKS_FEATURE_LEVEL_7)
        return reverse_fl7(x); /* FL7's REVERSE takes one axis */
    uint32_t cur;
    if (tensor(x, in, &cur))
        return -1;
    if (na == 0) {
        ilist l = {{cur}, 1};
        return out1(x, ANEURALNETWORKS_CAST, &l); /* identity */
    }
    for (uint32_t k = 0; k < na; k++) {
        int32_t a = axes[k] < 0 ? axes[k] + (int32_t)rank : axes[k];
        if (a < 0 || (uint32_t)a >= rank)
            return fail(x, "axis %d out of range", axes[k]);
        int32_t *idx = block(x, (d[a] ? d[a] : 1) * sizeof *idx);
        if (idx == NULL)
            return fail(x, "out of memory");
        for (uint32_t i = 0; i < d[a]; i++)
            idx[i] = (int32_t)(d[a] - 1 - i);
        if (gather_axis(x, cur, in, rank, d, a, idx, d[a], &cur, k + 1 == na ? out_t(x, 0) : -1))
            return -1;
    }
    return 0;
}

static int mirror_pad(xl *x, const tfl_op *op)
{
    if (x->level >= ANEURALNETWORKS_FEATURE_LEVEL_7)
        return mirror_pad_fl7(x, op);
    int in = in_t(x, 0);
    int32_t pads[2 * MAX_RANK];
    uint32_t np, d[MAX_RANK], rank;
    if (const_ints(x, in_t(x, 1), pads, 2 * MAX_RANK, &np) || dims_of(x, in, d, &rank))
        return -1;
    if (np != 2 * rank)
        return fail(x, "paddings do not match the rank");
    int symmetric = tfl_opt_u8(x->tm, op, 0, 0) == 1;
    int last = -1;
    for (uint32_t a = 0; a < rank; a++)
        if (pads[2 * a] || pads[2 * a + 1])
            last = (int)a;
    uint32_t cur;
    if (tensor(x, in, &cur))
        return -1;
    if (last < 0) {
        ilist l = {{cur}, 1};
        return out1(x, ANEURALNETWORKS_CAST, &l); /* identity */
    }
    uint32_t cd[MAX_RANK];
    memcpy(cd, d, sizeof cd);
    for (uint32_t a = 0; a <= (uint32_t)last; a++) {
        int32_t before = pads[2 * a], after = pads[2 * a + 1], n = (int32_t)d[a];
        int32_t lim = symmetric ? n : n - 1;
        if (before < 0 || after < 0 || before > lim || after > lim)
            return fail(x, "padding %d,%d too large for dimension %d", before, after, n);
        if (!before && !after)
            continue;
        uint32_t m = (uint32_t)(before + n + after);
        int32_t *idx = block(x, m * sizeof *idx);
        if (idx == NULL)
            return fail(x, "out of memory");
        for (int32_t i = -before; i < n + after; i++) {
            int32_t j = i;
            if (i < 0)
                j = symmetric ? -i - 1 : -i;
            else if (i >= n)
                j = symmetric ? 2 * n - 1 - i : 2 * n - 2 - i;
            idx[i + before] = j;
        }
        if (gather_axis(x, cur, in, rank, cd, (int32_t)a, idx, m, &cur, a == (uint32_t)last ? out_t(x, 0) : -1))
            return -1;
        cd[a] = m;
    }
    return 0;
}

/* Element-wise compositions whose float results are bit-identical to
 * TFLite's: SQUARED_DIFFERENCE = (a-b)*(a-b), SQUARE = a*a, FLOOR_DIV =
 * floor(a/b), ADD_N = ((a+b)+c)+... */
static int float_only(xl *x, const char *what)
{
    int t = elem_type(x, in_t(x, 0));
    if (t != TFL_FLOAT32 && t != TFL_FLOAT16)
        return fail(x, "%s of %s has no exact NNAPI composition (only float is composed)", what, tfl_type_name(t));
    return 0;
}

static int push_fuse_none(xl *x, ilist *l) { return push_i32(x, l, ANEURALNETWORKS_FUSED_NONE); }

static int squared_difference(xl *x, int square)
{
    if (float_only(x, square ? "SQUARE" : "SQUARED_DIFFERENCE"))
        return -1;
    uint32_t diff, od[MAX_RANK], orank;
    if (dims_of(x, out_t(x, 0), od, &orank))
        return -1;
    if (square) {
        ilist l = {{0}, 0};
        if (push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 0)) || push_fuse_none(x, &l))
            return -1;
        return out1(x, ANEURALNETWORKS_MUL, &l);
    }
    ilist s = {{0}, 0};
    if (push_t(x, &s, in_t(x, 0)) || push_t(x, &s, in_t(x, 1)) || push_fuse_none(x, &s) ||
        temp_like(x, out_t(x, 0), orank, od, &diff) || emit(x, ANEURALNETWORKS_SUB, &s, 1, &diff))
        return -1;
    ilist m = {{diff, diff}, 2};
    if (push_fuse_none(x, &m))
        return -1;
    return out1(x, ANEURALNETWORKS_MUL, &m);
}

static int floor_div(xl *x)
{
    if (float_only(x, "FLOOR_DIV"))
        return -1;
    uint32_t q, od[MAX_RANK], orank;
    ilist l = {{0}, 0};
    if (dims_of(x, out_t(x, 0), od, &orank) || push_t(x, &l, in_t(x, 0)) || push_t(x, &l, in_t(x, 1)) ||
        push_fuse_none(x, &l) || temp_like(x, out_t(x, 0), orank, od, &q) ||
        emit(x, ANEURALNETWORKS_DIV, &l, 1, &q))
        return -1;
    ilist f = {{q}, 1};
    return out1(x, ANEURALNETWORKS_FLOOR, &f);
}

static int add_n(xl *x, const tfl_op *op)
{
    if (float_only(x, "ADD_N"))
        return -1;
    uint32_t acc, od[MAX_RANK], orank;
    if (op->n_in < 2)
        return fail(x, "ADD_N needs 2 or more inputs");
    if (dims_of(x, out_t(x, 0), od, &orank) || tensor(x, op->in[0], &acc))
        return -1;
    for (uint32_t k = 1; k < op->n_in; k++) {
        ilist l = {{acc}, 1};
        uint32_t next;
        if (push_t(x, &l, op->in[k]) || push_fuse_none(x, &l))
            return -1;
        if (k + 1 == op->n_in ? tensor(x, out_t(x, 0), &next) : temp_like(x, out_t(x, 0), orank, od, &next))
            return -1;
        if (emit(x, ANEURALNETWORKS_ADD, &l, 1, &next))
            return -1;
        acc = next;
    }
    return 0;
}

static int transpose_conv(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    int shape_t = in_t(x, 0), w = in_t(x, 1), in = in_t(x, 2), bias = in_t(x, 3);
    if (w < 0 || in < 0 || tens(x, w)->rank != 4 || tens(x, in)->rank != 4)
        return fail(x, "expects a 4-D input and filter");
    int32_t shape[4];
    uint32_t ns;
    if (const_ints(x, shape_t, shape, 4, &ns))
        return -1;
    if (ns != 4)
        return fail(x, "output_shape must hold 4 values");
    if (fold_hybrid_weights(x, in, w))
        return -1;
    int32_t pad = 0, fuse;
    if (padding_code(x, tfl_opt_u8(tm, op, 0, 0), &pad))
        return -1;
    ilist l = {{0}, 0};
    actplan p;
    if (push_t(x, &l, in) || push_t(x, &l, w) ||
        push_bias(x, &l, bias, in, w, (uint32_t)tens(x, w)->shape[0]) || push_i32_tensor(x, &l, shape, 4) ||
        push_i32(x, &l, pad) || push_i32(x, &l, tfl_opt_i32(tm, op, 1, 1)) ||
        push_i32(x, &l, tfl_opt_i32(tm, op, 2, 1)) ||
        plan_act(x, out_t(x, 0), tfl_opt_u8(tm, op, 3, 0), 1, &fuse, &p) || push_i32(x, &l, fuse) ||
        push_bool(x, &l, 0) || emit(x, ANEURALNETWORKS_TRANSPOSE_CONV_2D, &l, 1, &p.out))
        return -1;
    return finish_act(x, &p);
}

/* SVDF: NNAPI's is float only; TFLite's integer SVDF keeps an int16 state. */
static int svdf(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    for (uint32_t k = 0; k < op->n_in && k < 5; k++)
        if (op->in[k] >= 0 && elem_type(x, op->in[k]) != TFL_FLOAT32)
            return fail(x, "NNAPI's SVDF is float only; this one has %s input %u (TFLite's integer SVDF keeps "
                        "an int16 state, an operand type NNAPI's SVDF lacks)",
                        tfl_type_name(elem_type(x, op->in[k])), k);
    int state = in_t(x, 4), act = tfl_opt_u8(tm, op, 1, 0);
    if (state < 0 || !tens(x, state)->is_variable)
        return fail(x, "expects a variable state tensor as input 4");
    if (act < 0 || act > 3)
        return fail(x, "fused activation %d is not supported", act);
    ilist l = {{0}, 0};
    uint32_t outs[2], sd[MAX_RANK], sr;
    for (uint32_t k = 0; k < 3; k++)
        if (push_t(x, &l, op->in[k]))
            return -1;
    if ((in_t(x, 3) >= 0 ? push_t(x, &l, in_t(x, 3)) : push_omitted(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32)) ||
        push_t(x, &l, state) || push_i32(x, &l, tfl_opt_i32(tm, op, 0, 1)) || push_i32(x, &l, act) ||
        dims_of(x, state, sd, &sr) || temp_like(x, state, sr, sd, &outs[0]) || tensor(x, out_t(x, 0), &outs[1]))
        return -1;
    return emit(x, ANEURALNETWORKS_SVDF, &l, 2, outs);
}

/* BATCH_MATMUL: feature level 6's operation for operands of one rank; below
 * it, a constant right-hand side is composed from FL5 operations:
 * FULLY_CONNECTED over the left side's rows with the weights laid out [N, K]. */
static int batch_matmul(xl *x, const tfl_op *op)
{
    if (x->level >= ANEURALNETWORKS_FEATURE_LEVEL_6 && in_t(x, 0) >= 0 && in_t(x, 1) >= 0 &&
        tens(x, in_t(x, 0))->rank == tens(x, in_t(x, 1))->rank)
        return batch_matmul_fl6(x, op);
    const tfl_model *tm = x->tm;
    int a = in_t(x, 0), b = in_t(x, 1), o = out_t(x, 0);
    if (float_only(x, "BATCH_MATMUL"))
        return -1;
    if (b < 0 || !is_const(x, b) || elem_type(x, b) != TFL_FLOAT32)
        return fail(x, "a non-constant right-hand side needs NNAPI feature level %lld (BATCH_MATMUL; "
                    "translating for %lld, see --feature-level); only a constant float one is composed "
                    "from FULLY_CONNECTED", (long long)ANEURALNETWORKS_FEATURE_LEVEL_6, (long long)x->level);
    int adj_x = tfl_opt_bool(tm, op, 0, 0), adj_y = tfl_opt_bool(tm, op, 1, 0);
    uint32_t ad[MAX_RANK], ar, bd[MAX_RANK], br, od[MAX_RANK], orank;
    if (dims_of(x, a, ad, &ar) || dims_of(x, b, bd, &br) || dims_of(x, o, od, &orank))
        return -1;
    if (adj_x || ar < 2 || br < 2)
        return fail(x, "an adjoint left-hand side is not composed");
    size_t bbatch = 1;
    for (uint32_t d = 0; d + 2 < br; d++)
        bbatch *= bd[d];
    if (bbatch != 1)
        return fail(x, "a batched constant right-hand side is not composed");
    uint32_t k = bd[br - 2], n = bd[br - 1];
    if (adj_y) {
        k = bd[br - 1];
        n = bd[br - 2];
    }
    if (ad[ar - 1] != k)
        return fail(x, "inner dimensions differ");
    const void *data;
    size_t size;
    if (const_value(x, b, &data, &size))
        return -1;
    float *wt = block(x, (size_t)n * k * sizeof *wt);
    if (wt == NULL)
        return fail(x, "out of memory");
    const float *bv = data;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < k; j++)
            wt[(size_t)i * k + j] = adj_y ? bv[(size_t)i * k + j] : bv[(size_t)j * n + i];
    size_t rows = 1;
    for (uint32_t d = 0; d + 1 < ar; d++)
        rows *= ad[d];
    uint32_t in2[2] = {(uint32_t)rows, k}, w2[2] = {n, k}, o2[2] = {(uint32_t)rows, n};
    uint32_t src = 0, flat = 0, wi = 0, res = 0, fin = 0;
    float *zb = block(x, (size_t)n * sizeof *zb);
    if (zb == NULL)
        return fail(x, "out of memory");
    ANeuralNetworksOperandType wt_t = {ANEURALNETWORKS_TENSOR_FLOAT32, 2, w2, 0.0f, 0};
    ANeuralNetworksOperandType bt = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, &n, 0.0f, 0};
    uint32_t bi = 0;
    if (tensor(x, a, &src) || reshaped(x, src, a, 2, in2, &flat) || add_operand(x, &wt_t, &wi) ||
        add_operand(x, &bt, &bi))
        return -1;
    NN(ANeuralNetworksModel_setOperandValue(x->m, wi, wt, (size_t)n * k * sizeof *wt));
    NN(ANeuralNetworksModel_setOperandValue(x->m, bi, zb, (size_t)n * sizeof *zb));
    ilist l = {{flat, wi, bi}, 3};
    if (push_fuse_none(x, &l) || temp_like(x, o, 2, o2, &res) ||
        emit(x, ANEURALNETWORKS_FULLY_CONNECTED, &l, 1, &res))
        return -1;
    int32_t s[MAX_RANK];
    for (uint32_t d = 0; d < orank; d++)
        s[d] = (int32_t)od[d];
    ilist r = {{res}, 1};
    if (push_i32_tensor(x, &r, s, orank) || tensor(x, o, &fin))
        return -1;
    return emit(x, ANEURALNETWORKS_RESHAPE, &r, 1, &fin);
}

/* QUANTIZE between 8-bit types. TFLite requantizes with a fixed-point
 * multiplier; only where that is exact in float too (equal scales: a shift of
 * the zero point) is it composed, as DEQUANTIZE -> QUANTIZE. */
static int requantize(xl *x)
{
    int in = in_t(x, 0), o = out_t(x, 0);
    int it = elem_type(x, in), ot = elem_type(x, o);
    const tfl_tensor *ti = tens(x, in), *to = tens(x, o);
    if ((it != TFL_INT8 && it != TFL_UINT8) || (ot != TFL_INT8 && ot != TFL_UINT8))
        return fail(x, "requantizing %s to %s has no NNAPI equivalent (NNAPI QUANTIZE takes float input%s)",
                    tfl_type_name(it), tfl_type_name(ot),
                    it == TFL_INT16 || ot == TFL_INT16 ? "; int16 activations are not NNAPI operand types" : "");
    if (ti->n_scale != 1 || to->n_scale != 1 || ti->scale[0] != to->scale[0])
        return fail(x, "requantizing from scale %g to %g: TFLite's fixed-point rescaling has no exact NNAPI "
                    "composition", ti->n_scale ? ti->scale[0] : 0.0, to->n_scale ? to->scale[0] : 0.0);
    uint32_t d[MAX_RANK], rank, mid;
    ilist l = {{0}, 0};
    if (dims_of(x, in, d, &rank) || push_t(x, &l, in) ||
        temp_typed(x, ANEURALNETWORKS_TENSOR_FLOAT32, rank, d, 0.0f, 0, &mid) ||
        emit(x, ANEURALNETWORKS_DEQUANTIZE, &l, 1, &mid))
        return -1;
    ilist q = {{mid}, 1};
    return out1(x, ANEURALNETWORKS_QUANTIZE, &q);
}

/* CUSTOM TFLite_Detection_PostProcess = NNAPI DETECTION_POSTPROCESSING, with
 * the options from the operator's flexbuffer; quantized inputs are
 * dequantized first (as TFLite's kernel does), the float class and count
 * outputs come from NNAPI's int32 ones by CAST. */
static int detection_postprocess(xl *x, const tfl_op *op)
{
    static const char *const keys[] = {"max_detections", "max_classes_per_detection", "detections_per_class",
                                       "use_regular_nms", "nms_score_threshold", "nms_iou_threshold",
                                       "y_scale", "x_scale", "h_scale", "w_scale"};
    double v[10];
    const double defaults[10] = {-1, -1, 100, 0, -1, -1, -1, -1, -1, -1};
    for (int k = 0; k < 10; k++)
        if (!tfl_custom_number(op, keys[k], &v[k])) {
            if (defaults[k] < 0)
                return fail(x, "the custom options lack \"%s\"", keys[k]);
            v[k] = defaults[k];
        }
    if (op->n_in != 3 || op->n_out != 4)
        return fail(x, "expects 3 inputs and 4 outputs");
    if (v[0] < 1 || v[0] > 1e6 || v[1] < 1 || v[1] > 1e3 || v[2] < 1 || v[2] > 1e6)
        return fail(x, "detection counts out of range");
    int boxes_t = in_t(x, 0), scores_t = in_t(x, 1), anchors_t = in_t(x, 2);
    uint32_t bd[MAX_RANK], br, sd[MAX_RANK], sr, ad[MAX_RANK], ar;
    if (dims_of(x, boxes_t, bd, &br) || dims_of(x, scores_t, sd, &sr) || dims_of(x, anchors_t, ad, &ar))
        return -1;
    if (br != 3 || sr != 3 || ar != 2)
        return fail(x, "expects [batch, anchors, 4] boxes, [batch, anchors, classes] scores, [anchors, 4] anchors");
    if (is_const(x, anchors_t) && quantized(elem_type(x, anchors_t)) && fold_float(x, anchors_t, anchors_t))
        return -1;
    ilist l = {{0}, 0};
    const int ins[3] = {scores_t, boxes_t, anchors_t};
    const uint32_t *dd[3] = {sd, bd, ad}, rr[3] = {sr, br, ar};
    for (int k = 0; k < 3; k++) {
        int t = ins[k], et = elem_type(x, t);
        if (et == TFL_FLOAT32) {
            if (push_t(x, &l, t))
                return -1;
        } else if (et == TFL_UINT8 || et == TFL_INT8) {
            ilist q = {{0}, 0};
            uint32_t f;
            if (push_t(x, &q, t) || temp_typed(x, ANEURALNETWORKS_TENSOR_FLOAT32, rr[k], dd[k], 0.0f, 0, &f) ||
                emit(x, ANEURALNETWORKS_DEQUANTIZE, &q, 1, &f))
                return -1;
            l.v[l.n++] = f;
        } else {
            return fail(x, "input of type %s", tfl_type_name(et));
        }
    }
    int32_t max_det = (int32_t)v[0], per_det = (int32_t)v[1];
    int regular = v[3] != 0;
    if (push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, (float)v[6]) ||
        push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, (float)v[7]) ||
        push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, (float)v[8]) ||
        push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, (float)v[9]) || push_bool(x, &l, regular) ||
        push_i32(x, &l, max_det) || push_i32(x, &l, per_det) || push_i32(x, &l, (int32_t)v[2]) ||
        push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, (float)v[4]) ||
        push_float(x, &l, ANEURALNETWORKS_TENSOR_FLOAT32, (float)v[5]) || push_bool(x, &l, 0))
        return -1;
    /* TFLite's outputs: boxes, classes, scores, count; NNAPI's: scores, boxes, classes, count. */
    uint32_t slots = (uint32_t)(regular ? max_det : max_det * per_det), batch = bd[0];
    int32_t box_shape[3] = {(int32_t)batch, (int32_t)slots, 4}, two[2] = {(int32_t)batch, (int32_t)slots},
            one[1] = {(int32_t)batch};
    const int32_t *shapes[4] = {box_shape, two, two, one};
    const uint32_t ranks[4] = {3, 2, 2, 1};
    for (uint32_t k = 0; k < 4; k++) {
        int t = op->out[k];
        if (tens(x, t)->type != TFL_FLOAT32)
            return fail(x, "output %u is %s, expected float32", k, tfl_type_name(tens(x, t)->type));
        int32_t *s = block(x, sizeof box_shape);
        if (s == NULL)
            return fail(x, "out of memory");
        memcpy(s, shapes[k], ranks[k] * sizeof *s);
        x->ovr[t] = s;
        x->ovr_rank[t] = ranks[k];
    }
    uint32_t outs[4], cls = 0, cnt = 0, cd[2] = {batch, slots};
    if (tensor(x, op->out[2], &outs[0]) || tensor(x, op->out[0], &outs[1]) ||
        temp_typed(x, ANEURALNETWORKS_TENSOR_INT32, 2, cd, 0.0f, 0, &cls) ||
        temp_typed(x, ANEURALNETWORKS_TENSOR_INT32, 1, &batch, 0.0f, 0, &cnt))
        return -1;
    outs[2] = cls;
    outs[3] = cnt;
    if (emit(x, ANEURALNETWORKS_DETECTION_POSTPROCESSING, &l, 4, outs))
        return -1;
    uint32_t fc, fn;
    ilist c1 = {{cls}, 1}, c2 = {{cnt}, 1};
    if (tensor(x, op->out[1], &fc) || emit(x, ANEURALNETWORKS_CAST, &c1, 1, &fc) ||
        tensor(x, op->out[3], &fn))
        return -1;
    return emit(x, ANEURALNETWORKS_CAST, &c2, 1, &fn);
}

static int custom(xl *x, const tfl_op *op)
{
    if (!strcmp(op->custom_code, "TFLite_Detection_PostProcess"))
        return detection_postprocess(x, op);
    return fail(x, "custom operator \"%s\" has no NNAPI equivalent", op->custom_code);
}

static int translate_op(xl *x, const tfl_op *op)
{
    const tfl_model *tm = x->tm;
    int folded = fold_static(x, op);
    if (folded)
        return folded < 0 ? -1 : 0;
    if (op->code != TFL_OP_BATCH_TO_SPACE_ND)
        for (uint32_t k = 0; k < op->n_in; k++)
            if (op->in[k] >= 0 && x->dyn[op->in[k]])
                for (uint32_t j = 0; j < op->n_out; j++)
                    x->dyn[op->out[j]] = 1;
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
            return requantize(x);
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
    case TFL_OP_SPACE_TO_BATCH_ND: return space_batch(x, 1);
    case TFL_OP_BATCH_TO_SPACE_ND: return space_batch(x, 0);
    /* PACK, MIRROR_PAD, REVERSE_V2, BATCH_MATMUL: the feature level 6/7
     * operation where x->level allows it, else an FL5 composition. */
    case TFL_OP_PACK: return pack(x, op);
    case TFL_OP_UNPACK: return unpack(x, op);
    case TFL_OP_SPLIT_V: return split_v(x, op);
    case TFL_OP_REVERSE_V2: return reverse_v2(x);
    case TFL_OP_MIRROR_PAD: return mirror_pad(x, op);
    case TFL_OP_BATCH_MATMUL: return batch_matmul(x, op);
    case TFL_OP_SQUARED_DIFFERENCE: return squared_difference(x, 0);
    case TFL_OP_SQUARE: return squared_difference(x, 1);
    case TFL_OP_FLOOR_DIV: return floor_div(x);
    case TFL_OP_ADD_N: return add_n(x, op);
    case TFL_OP_TRANSPOSE_CONV: return transpose_conv(x, op);
    case TFL_OP_SVDF: return svdf(x, op);
    case TFL_OP_EMBEDDING_LOOKUP: return simple(x, ANEURALNETWORKS_EMBEDDING_LOOKUP, 2);
    case TFL_OP_REDUCE_ALL: return reduce(x, op, ANEURALNETWORKS_REDUCE_ALL);
    case TFL_OP_CUSTOM: return custom(x, op);
    case TFL_OP_FLOOR_MOD:
        return fail(x, "FLOOR_MOD of run-time values has no exact NNAPI composition (only static ones are folded)");
    case TFL_OP_SHAPE:
    case TFL_OP_RANK:
        return fail(x, "the input shape is dynamic; NNAPI has no SHAPE operation");
    default:
        if (op->custom_code != NULL)
            return custom(x, op);
        return fail(x, "builtin operator %s (%d) has no NNAPI equivalent in nnapi-run",
                    tfl_op_name(op->code), op->code);
    }
}

/* Appends a failure to the list of untranslatable operators: one line per
 * operator, grouped afterwards by name with their indices. */
typedef struct {
    int32_t op;
    char msg[320];
} failure;

static void report_failures(const tfl_model *tm, const failure *f, uint32_t n, char *err, size_t err_size)
{
    size_t len = 0;
    int w = snprintf(err, err_size, "%u of %u operators cannot be translated:", n, tm->n_ops);
    len = w > 0 ? (size_t)w : 0;
    /* Counts per operator name, in order of first appearance. */
    for (uint32_t i = 0; i < n && len < err_size; i++) {
        const char *name = tfl_op_name(tm->ops[f[i].op].code);
        const char *cc = tm->ops[f[i].op].custom_code;
        int seen = 0;
        for (uint32_t j = 0; j < i; j++)
            if (tm->ops[f[j].op].code == tm->ops[f[i].op].code &&
                (cc == NULL || !strcmp(cc, tm->ops[f[j].op].custom_code)))
                seen = 1;
        if (seen)
            continue;
        uint32_t count = 0;
        for (uint32_t j = i; j < n; j++)
            count += tm->ops[f[j].op].code == tm->ops[f[i].op].code &&
                     (cc == NULL || !strcmp(cc, tm->ops[f[j].op].custom_code));
        w = snprintf(err + len, err_size - len, "%s %s%s%s x%u (#", i ? ";" : "", name, cc ? " " : "",
                     cc ? cc : "", count);
        len += w > 0 ? (size_t)w : 0;
        int first = 1;
        for (uint32_t j = i; j < n && len < err_size; j++)
            if (tm->ops[f[j].op].code == tm->ops[f[i].op].code &&
                (cc == NULL || !strcmp(cc, tm->ops[f[j].op].custom_code))) {
                w = snprintf(err + len, err_size - len, "%s%d", first ? "" : " #", f[j].op);
                len += w > 0 ? (size_t)w : 0;
                first = 0;
            }
        if (len < err_size) {
            w = snprintf(err + len, err_size - len, ")");
            len += w > 0 ? (size_t)w : 0;
        }
    }
    for (uint32_t i = 0; i < n && len < err_size; i++) {
        w = snprintf(err + len, err_size - len, "\n  %s", f[i].msg);
        len += w > 0 ? (size_t)w : 0;
    }
}

/* A model output that is a model input, a constant or an output already
 * listed gets its own operand through an identity CAST (defined for every
 * tensor type since feature level 4): NNAPI operands cannot be both input and
 * output, nor listed twice, and a constant is no output. */
static int distinct_output(xl *x, int ti, const uint32_t *taken, uint32_t n_taken, uint32_t *idx)
{
    int need = is_const(x, ti);
    for (uint32_t i = 0; i < x->tm->n_inputs; i++)
        need |= x->tm->inputs[i] == ti;
    for (uint32_t i = 0; i < n_taken; i++)
        need |= taken[i] == (uint32_t)x->opnd[ti];
    if (!need) {
        *idx = (uint32_t)x->opnd[ti];
        return 0;
    }
    uint32_t d[MAX_RANK], rank, src;
    if (dims_of(x, ti, d, &rank) || tensor(x, ti, &src))
        return -1;
    if (rank == 0) {
        d[0] = 1;
        rank = 1;
    }
    ilist l = {{src}, 1};
    if (temp_like(x, ti, rank, d, idx))
        return -1;
    return emit(x, ANEURALNETWORKS_CAST, &l, 1, idx);
}

int nr_translate(const tfl_model *tm, int relaxed, int64_t feature_level, nr_translation *tr,
                 char *err, size_t err_size)
{
    memset(tr, 0, sizeof *tr);
    xl x = {tm, tr, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, -1, err, err_size,
            feature_level > 0 ? feature_level : ANeuralNetworks_getRuntimeFeatureLevel()};
    int rc = -1;
    failure *fails = NULL;
    uint32_t n_fail = 0;
    if (tm->n_subgraphs > 1)
        fprintf(stderr, "nnapi-run: note: the model has %u subgraphs; running the first\n", tm->n_subgraphs);
    size_t nt = tm->n_tensors ? tm->n_tensors : 1;
    x.opnd = malloc(nt * sizeof *x.opnd);
    x.folded = calloc(nt, sizeof *x.folded);
    x.ival = calloc(nt, sizeof *x.ival);
    x.ovr = calloc(nt, sizeof *x.ovr);
    x.ovr_rank = calloc(nt, sizeof *x.ovr_rank);
    x.dyn = calloc(nt, 1);
    fails = calloc(tm->n_ops ? tm->n_ops : 1, sizeof *fails);
    tr->input_tensor = calloc(tm->n_inputs ? tm->n_inputs : 1, sizeof *tr->input_tensor);
    tr->output_tensor = calloc(tm->n_outputs ? tm->n_outputs : 1, sizeof *tr->output_tensor);
    tr->output_desc = calloc(tm->n_outputs ? tm->n_outputs : 1, sizeof *tr->output_desc);
    if (x.opnd == NULL || x.folded == NULL || x.ival == NULL || x.ovr == NULL || x.ovr_rank == NULL || x.dyn == NULL ||
        fails == NULL || tr->input_tensor == NULL || tr->output_tensor == NULL || tr->output_desc == NULL) {
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
    /* Every operator is tried, so that one message names all that fail. */
    for (uint32_t i = 0; i < tm->n_ops; i++) {
        x.cur = (int)i;
        if (translate_op(&x, &tm->ops[i])) {
            fails[n_fail].op = (int32_t)i;
            snprintf(fails[n_fail].msg, sizeof fails[n_fail].msg, "%s", err);
            n_fail++;
        }
    }
    x.cur = -1;
    if (n_fail > 0) {
        report_failures(tm, fails, n_fail, err, err_size);
        goto io_done;
    }
    for (uint32_t i = 0; i < tm->n_outputs; i++) {
        int ti = tm->outputs[i];
        if (x.opnd[ti] < 0 && !is_const(&x, ti)) {
            fail(&x, "model output %u (%s) is not computed by any operator", i, tm->tensors[ti].name);
            goto io_done;
        }
        if (distinct_output(&x, ti, outs, i, &outs[i]))
            goto io_done;
        tr->output_tensor[i] = ti;
        tr->output_desc[i] = tm->tensors[ti];
        tr->output_desc[i].rank = t_rank(&x, ti);
        tr->output_desc[i].shape = (int32_t *)t_shape(&x, ti);
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
    free(x.ival);
    free(x.ovr);
    free(x.ovr_rank);
    free(x.dyn);
    free(fails);
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
    free(tr->output_desc);
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
