/*
 * TensorFlow Lite flatbuffer reader. Flatbuffer layout, in brief: the file
 * starts with a 32-bit offset to the root table; a table starts with a signed
 * 32-bit distance back to its vtable; the vtable holds its own size, the
 * table's size and one 16-bit offset per field (0 = field absent, use the
 * default). Tables, vectors and strings are referenced by unsigned 32-bit
 * offsets relative to where the offset is stored; a vector is a 32-bit length
 * followed by its elements. Everything is little-endian.
 */
#include "tflite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Field positions in the schema's tables. */
enum { MODEL_VERSION = 0, MODEL_OPCODES = 1, MODEL_SUBGRAPHS = 2, MODEL_BUFFERS = 4 };
enum { OPCODE_DEPRECATED = 0, OPCODE_CUSTOM = 1, OPCODE_BUILTIN = 3 };
enum { SG_TENSORS = 0, SG_INPUTS = 1, SG_OUTPUTS = 2, SG_OPERATORS = 3 };
enum { TENSOR_SHAPE = 0, TENSOR_TYPE = 1, TENSOR_BUFFER = 2, TENSOR_NAME = 3,
       TENSOR_QUANT = 4, TENSOR_VARIABLE = 5, TENSOR_SPARSITY = 6 };
enum { QUANT_SCALE = 2, QUANT_ZERO_POINT = 3, QUANT_DETAILS_TYPE = 4, QUANT_DIM = 6 };
enum { OP_OPCODE = 0, OP_INPUTS = 1, OP_OUTPUTS = 2, OP_OPTIONS = 4, OP_CUSTOM_OPTIONS = 5,
       OP_INTERMEDIATES = 8 };
enum { BUFFER_DATA = 0, BUFFER_OFFSET = 1, BUFFER_SIZE = 2 };

enum { TFL_OP_PLACEHOLDER = 127 };

typedef struct {
    const uint8_t *p;
    size_t n;
    int bad; /* set by any read outside the file */
    size_t past; /* the first such read's end, to tell a truncated file */
} rd;

static int in_range(rd *r, size_t off, size_t len)
{
    if (off > r->n || len > r->n - off) {
        if (!r->bad)
            r->past = off > SIZE_MAX - len ? SIZE_MAX : off + len;
        r->bad = 1;
        return 0;
    }
    return 1;
}

static uint8_t rd_u8(rd *r, size_t off) { return in_range(r, off, 1) ? r->p[off] : 0; }

static uint16_t rd_u16(rd *r, size_t off)
{
    if (!in_range(r, off, 2))
        return 0;
    return (uint16_t)(r->p[off] | (r->p[off + 1] << 8));
}

static uint32_t rd_u32(rd *r, size_t off)
{
    if (!in_range(r, off, 4))
        return 0;
    return (uint32_t)r->p[off] | ((uint32_t)r->p[off + 1] << 8) | ((uint32_t)r->p[off + 2] << 16) |
           ((uint32_t)r->p[off + 3] << 24);
}

static uint64_t rd_u64(rd *r, size_t off)
{
    return (uint64_t)rd_u32(r, off) | ((uint64_t)rd_u32(r, off + 4) << 32);
}

/* Follows the offset stored at off; 0 when off is 0 or the target is outside. */
static size_t rd_ref(rd *r, size_t off)
{
    if (off == 0)
        return 0;
    uint32_t v = rd_u32(r, off);
    size_t t = off + v;
    if (v == 0 || t < off || t >= r->n) {
        if (!r->bad)
            r->past = t < off ? SIZE_MAX : t + 1;
        r->bad = 1;
        return 0;
    }
    return t;
}

/* File offset of a table's field, or 0 when the field is absent. */
static size_t rd_field(rd *r, size_t table, unsigned field)
{
    if (table == 0)
        return 0;
    int32_t soff = (int32_t)rd_u32(r, table);
    int64_t vt = (int64_t)table - soff;
    if (vt < 0 || (uint64_t)vt + 4 > r->n) {
        r->bad = 1;
        return 0;
    }
    uint16_t vsize = rd_u16(r, (size_t)vt);
    size_t slot = 4 + 2 * (size_t)field;
    if (slot + 2 > vsize)
        return 0;
    uint16_t fo = rd_u16(r, (size_t)vt + slot);
    if (fo == 0)
        return 0;
    if (!in_range(r, table + fo, 1))
        return 0;
    return table + fo;
}

/* Scalar fields with their schema defaults when absent. */
static uint8_t fld_u8(rd *r, size_t table, unsigned field, uint8_t def)
{
    size_t f = rd_field(r, table, field);
    return f ? rd_u8(r, f) : def;
}

static uint32_t fld_u32(rd *r, size_t table, unsigned field, uint32_t def)
{
    size_t f = rd_field(r, table, field);
    return f ? rd_u32(r, f) : def;
}

/* A vector field: returns the offset of its first element and its length, or
 * 0 with *len = 0 when absent. The whole vector is checked to lie in the file. */
static size_t rd_vec(rd *r, size_t table, unsigned field, size_t elem, uint32_t *len)
{
    *len = 0;
    size_t v = rd_ref(r, rd_field(r, table, field));
    if (v == 0)
        return 0;
    uint32_t n = rd_u32(r, v);
    if (!in_range(r, v + 4, (size_t)n * elem))
        return 0;
    *len = n;
    return v + 4;
}

/* The i-th table of a vector of tables. */
static size_t rd_vec_table(rd *r, size_t elems, uint32_t i) { return rd_ref(r, elems + 4 * (size_t)i); }

static char *rd_string(rd *r, size_t table, unsigned field)
{
    uint32_t n;
    size_t s = rd_vec(r, table, field, 1, &n);
    char *out = malloc((size_t)n + 1);
    if (out == NULL)
        return NULL;
    if (n > 0)
        memcpy(out, r->p + s, n);
    out[n] = '\0';
    return out;
}

static int32_t *rd_i32_vec(rd *r, size_t table, unsigned field, uint32_t *len, int *oom)
{
    size_t v = rd_vec(r, table, field, 4, len);
    int32_t *out = malloc(*len ? (size_t)*len * 4 : 1);
    if (out == NULL) {
        *oom = 1;
        *len = 0;
        return NULL;
    }
    for (uint32_t i = 0; i < *len; i++)
        out[i] = (int32_t)rd_u32(r, v + 4 * (size_t)i);
    return out;
}

static float bits_to_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int parse_quant(rd *r, size_t q, tfl_tensor *t)
{
    if (q == 0)
        return 0;
    if (fld_u8(r, q, QUANT_DETAILS_TYPE, 0) != 0)
        return -2; /* custom quantization: not representable in NNAPI */
    uint32_t ns, nz;
    size_t s = rd_vec(r, q, QUANT_SCALE, 4, &ns);
    size_t z = rd_vec(r, q, QUANT_ZERO_POINT, 8, &nz);
    t->quant_dim = (int32_t)fld_u32(r, q, QUANT_DIM, 0);
    if (ns == 0)
        return 0;
    t->scale = malloc((size_t)ns * sizeof(float));
    t->zero_point = calloc(ns, sizeof(int64_t));
    if (t->scale == NULL || t->zero_point == NULL)
        return -1;
    t->n_scale = ns;
    for (uint32_t i = 0; i < ns; i++) {
        t->scale[i] = bits_to_f32(rd_u32(r, s + 4 * (size_t)i));
        if (i < nz)
            t->zero_point[i] = (int64_t)rd_u64(r, z + 8 * (size_t)i);
    }
    return 0;
}

int tfl_parse(const uint8_t *data, size_t size, tfl_model *m, char *err, size_t err_size)
{
    memset(m, 0, sizeof *m);
    m->fb.p = data;
    m->fb.n = size;
    rd r = {data, size, 0, 0};
    int oom = 0;
    int32_t *opcodes = NULL;
    char **custom = NULL;
    uint32_t n_codes = 0;

    if (size < 8 || memcmp(data + 4, "TFL3", 4) != 0) {
        snprintf(err, err_size, "not a TensorFlow Lite model (no TFL3 identifier)");
        return -1;
    }
    /* The root offset sits at file offset 0, which rd_ref reads as "absent". */
    size_t root = rd_u32(&r, 0);
    if (root == 0 || root >= size)
        r.bad = 1;
    m->version = fld_u32(&r, root, MODEL_VERSION, 0);

    size_t codes = rd_vec(&r, root, MODEL_OPCODES, 4, &n_codes);
    opcodes = calloc(n_codes ? n_codes : 1, sizeof *opcodes);
    custom = calloc(n_codes ? n_codes : 1, sizeof *custom);
    if (opcodes == NULL || custom == NULL)
        goto oom;
    for (uint32_t i = 0; i < n_codes; i++) {
        size_t c = rd_vec_table(&r, codes, i);
        int32_t d = (int8_t)fld_u8(&r, c, OPCODE_DEPRECATED, 0);
        int32_t b = (int32_t)fld_u32(&r, c, OPCODE_BUILTIN, 0);
        /* Older writers set only the byte field; newer ones both, with the
         * byte field capped at the placeholder value. */
        opcodes[i] = b > d ? b : d;
        if (opcodes[i] == TFL_OP_CUSTOM) {
            custom[i] = rd_string(&r, c, OPCODE_CUSTOM);
            if (custom[i] == NULL)
                goto oom;
        }
    }

    uint32_t n_buffers;
    size_t buffers = rd_vec(&r, root, MODEL_BUFFERS, 4, &n_buffers);
    size_t subgraphs = rd_vec(&r, root, MODEL_SUBGRAPHS, 4, &m->n_subgraphs);
    if (r.bad) {
        snprintf(err, err_size, "the file is truncated: the model refers to byte %zu of a %zu-byte file", r.past,
                 size);
        goto fail;
    }
    if (m->n_subgraphs == 0) {
        snprintf(err, err_size, "malformed model: no subgraph");
        goto fail;
    }
    size_t sg = rd_vec_table(&r, subgraphs, 0);

    size_t tensors = rd_vec(&r, sg, SG_TENSORS, 4, &m->n_tensors);
    m->tensors = calloc(m->n_tensors ? m->n_tensors : 1, sizeof *m->tensors);
    if (m->tensors == NULL)
        goto oom;
    for (uint32_t i = 0; i < m->n_tensors; i++) {
        tfl_tensor *t = &m->tensors[i];
        size_t tt = rd_vec_table(&r, tensors, i);
        t->shape = rd_i32_vec(&r, tt, TENSOR_SHAPE, &t->rank, &oom);
        t->type = (int8_t)fld_u8(&r, tt, TENSOR_TYPE, 0);
        t->name = rd_string(&r, tt, TENSOR_NAME);
        if (oom || t->name == NULL)
            goto oom;
        t->is_variable = fld_u8(&r, tt, TENSOR_VARIABLE, 0) != 0;
        if (rd_field(&r, tt, TENSOR_SPARSITY) != 0) {
            snprintf(err, err_size, "tensor %u (%s) is sparse: not supported", i, t->name);
            goto fail;
        }
        int q = parse_quant(&r, rd_ref(&r, rd_field(&r, tt, TENSOR_QUANT)), t);
        if (q == -1)
            goto oom;
        if (q == -2) {
            snprintf(err, err_size, "tensor %u (%s) uses custom quantization: not supported", i, t->name);
            goto fail;
        }
        uint32_t b = fld_u32(&r, tt, TENSOR_BUFFER, 0);
        if (b >= n_buffers) {
            if (b != 0) {
                snprintf(err, err_size, "tensor %u refers to buffer %u of %u", i, b, n_buffers);
                goto fail;
            }
            continue;
        }
        size_t bt = rd_vec_table(&r, buffers, b);
        uint32_t dn;
        size_t d = rd_vec(&r, bt, BUFFER_DATA, 1, &dn);
        if (dn > 0) {
            t->data = data + d;
            t->data_size = dn;
        } else {
            /* Models over 2 GiB keep buffers after the flatbuffer. */
            size_t fo = rd_field(&r, bt, BUFFER_OFFSET), fs = rd_field(&r, bt, BUFFER_SIZE);
            uint64_t off = fo ? rd_u64(&r, fo) : 0, sz = fs ? rd_u64(&r, fs) : 0;
            if (off > 1 && sz > 0) {
                if (off > size || sz > size - off) {
                    snprintf(err, err_size, "the file is truncated: tensor %u's data ends at byte %llu of a "
                             "%zu-byte file", i, (unsigned long long)(off + sz), size);
                    goto fail;
                }
                t->data = data + off;
                t->data_size = (size_t)sz;
            }
        }
    }

    uint32_t n_ops;
    size_t ops = rd_vec(&r, sg, SG_OPERATORS, 4, &n_ops);
    m->ops = calloc(n_ops ? n_ops : 1, sizeof *m->ops);
    if (m->ops == NULL)
        goto oom;
    m->n_ops = n_ops;
    for (uint32_t i = 0; i < n_ops; i++) {
        tfl_op *op = &m->ops[i];
        size_t ot = rd_vec_table(&r, ops, i);
        uint32_t c = fld_u32(&r, ot, OP_OPCODE, 0);
        if (c >= n_codes) {
            snprintf(err, err_size, "operator %u: opcode index %u out of range", i, c);
            goto fail;
        }
        op->code = opcodes[c];
        if (custom[c] != NULL) {
            op->custom_code = strdup(custom[c]);
            if (op->custom_code == NULL)
                goto oom;
        }
        op->in = rd_i32_vec(&r, ot, OP_INPUTS, &op->n_in, &oom);
        op->out = rd_i32_vec(&r, ot, OP_OUTPUTS, &op->n_out, &oom);
        op->inter = rd_i32_vec(&r, ot, OP_INTERMEDIATES, &op->n_inter, &oom);
        if (oom)
            goto oom;
        op->options = rd_ref(&r, rd_field(&r, ot, OP_OPTIONS));
        uint32_t n_copt;
        size_t copt = rd_vec(&r, ot, OP_CUSTOM_OPTIONS, 1, &n_copt);
        if (n_copt > 0) {
            op->custom_options = data + copt;
            op->custom_options_size = n_copt;
        }
        for (uint32_t k = 0; k < op->n_in; k++)
            if (op->in[k] < -1 || op->in[k] >= (int32_t)m->n_tensors) {
                snprintf(err, err_size, "operator %u: input tensor %d out of range", i, op->in[k]);
                goto fail;
            }
        for (uint32_t k = 0; k < op->n_inter; k++)
            if (op->inter[k] < 0 || op->inter[k] >= (int32_t)m->n_tensors) {
                snprintf(err, err_size, "operator %u: intermediate tensor %d out of range", i, op->inter[k]);
                goto fail;
            }
        for (uint32_t k = 0; k < op->n_out; k++)
            if (op->out[k] < 0 || op->out[k] >= (int32_t)m->n_tensors) {
                snprintf(err, err_size, "operator %u: output tensor %d out of range", i, op->out[k]);
                goto fail;
            }
    }

    m->inputs = rd_i32_vec(&r, sg, SG_INPUTS, &m->n_inputs, &oom);
    m->outputs = rd_i32_vec(&r, sg, SG_OUTPUTS, &m->n_outputs, &oom);
    if (oom)
        goto oom;
    for (uint32_t k = 0; k < m->n_inputs; k++)
        if (m->inputs[k] < 0 || m->inputs[k] >= (int32_t)m->n_tensors)
            r.bad = 1;
    for (uint32_t k = 0; k < m->n_outputs; k++)
        if (m->outputs[k] < 0 || m->outputs[k] >= (int32_t)m->n_tensors)
            r.bad = 1;
    if (r.bad) {
        snprintf(err, err_size, "the file is truncated or damaged: the model refers to byte %zu of a %zu-byte "
                 "file", r.past, size);
        goto fail;
    }
    for (uint32_t i = 0; i < n_codes; i++)
        free(custom[i]);
    free(custom);
    free(opcodes);
    return 0;

oom:
    snprintf(err, err_size, "out of memory reading the model");
fail:
    for (uint32_t i = 0; custom != NULL && i < n_codes; i++)
        free(custom[i]);
    free(custom);
    free(opcodes);
    tfl_free(m);
    return -1;
}

void tfl_free(tfl_model *m)
{
    for (uint32_t i = 0; m->tensors != NULL && i < m->n_tensors; i++) {
        free(m->tensors[i].name);
        free(m->tensors[i].shape);
        free(m->tensors[i].scale);
        free(m->tensors[i].zero_point);
    }
    for (uint32_t i = 0; m->ops != NULL && i < m->n_ops; i++) {
        free(m->ops[i].in);
        free(m->ops[i].out);
        free(m->ops[i].inter);
        free(m->ops[i].custom_code);
    }
    free(m->tensors);
    free(m->ops);
    free(m->inputs);
    free(m->outputs);
    memset(m, 0, sizeof *m);
}

static size_t opt_field(const tfl_model *m, const tfl_op *op, unsigned field, size_t size)
{
    rd r = {m->fb.p, m->fb.n, 0, 0};
    size_t f = rd_field(&r, op->options, field);
    if (f == 0 || !in_range(&r, f, size))
        return 0;
    return f;
}

int32_t tfl_opt_i32(const tfl_model *m, const tfl_op *op, unsigned field, int32_t def)
{
    rd r = {m->fb.p, m->fb.n, 0, 0};
    size_t f = opt_field(m, op, field, 4);
    return f ? (int32_t)rd_u32(&r, f) : def;
}

float tfl_opt_f32(const tfl_model *m, const tfl_op *op, unsigned field, float def)
{
    rd r = {m->fb.p, m->fb.n, 0, 0};
    size_t f = opt_field(m, op, field, 4);
    return f ? bits_to_f32(rd_u32(&r, f)) : def;
}

int tfl_opt_u8(const tfl_model *m, const tfl_op *op, unsigned field, int def)
{
    rd r = {m->fb.p, m->fb.n, 0, 0};
    size_t f = opt_field(m, op, field, 1);
    return f ? rd_u8(&r, f) : def;
}

int tfl_opt_bool(const tfl_model *m, const tfl_op *op, unsigned field, int def)
{
    rd r = {m->fb.p, m->fb.n, 0, 0};
    size_t f = opt_field(m, op, field, 1);
    return f ? rd_u8(&r, f) != 0 : def;
}

int tfl_opt_i32_vec(const tfl_model *m, const tfl_op *op, unsigned field, int32_t *out, int max)
{
    rd r = {m->fb.p, m->fb.n, 0, 0};
    uint32_t n;
    size_t v = rd_vec(&r, op->options, field, 4, &n);
    if (v == 0 || r.bad || n > (uint32_t)max)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        out[i] = (int32_t)rd_u32(&r, v + 4 * (size_t)i);
    return (int)n;
}

/* ---- FlexBuffers (custom operator options) ----
 * The root is at the end: the last byte is its byte width, the one before its
 * packed type (type << 2 | log2 bit width), the root value precedes them. A map
 * value is an offset back to its values; before the values come the offset
 * of the keys vector, its byte width and the element count; after the values,
 * one packed type byte per value. Keys are offsets back to C strings. */
enum { FLEX_INT = 1, FLEX_UINT = 2, FLEX_FLOAT = 3, FLEX_INDIRECT_INT = 6, FLEX_INDIRECT_UINT = 7,
       FLEX_INDIRECT_FLOAT = 8, FLEX_MAP = 9, FLEX_BOOL = 26 };

static int flex_read(const uint8_t *p, size_t n, size_t off, unsigned width, int is_signed, int is_float,
                     double *out)
{
    if (off > n || width > n - off || (width != 1 && width != 2 && width != 4 && width != 8))
        return 0;
    uint64_t u = 0;
    for (unsigned i = 0; i < width; i++)
        u |= (uint64_t)p[off + i] << (8 * i);
    if (is_float) {
        if (width == 4) {
            float f = bits_to_f32((uint32_t)u);
            *out = f;
        } else if (width == 8) {
            double d;
            memcpy(&d, &u, sizeof d);
            *out = d;
        } else {
            return 0;
        }
    } else if (is_signed) {
        unsigned shift = 64 - 8 * width;
        *out = (double)((int64_t)(u << shift) >> shift);
    } else {
        *out = (double)u;
    }
    return 1;
}

/* Follows a backward offset stored at off (width bytes). */
static int flex_back(const uint8_t *p, size_t n, size_t off, unsigned width, size_t *target)
{
    double d;
    if (!flex_read(p, n, off, width, 0, 0, &d) || d > (double)off)
        return 0;
    *target = off - (size_t)d;
    return 1;
}

int tfl_custom_number(const tfl_op *op, const char *key, double *out)
{
    const uint8_t *p = op->custom_options;
    size_t n = op->custom_options_size;
    if (p == NULL || n < 3)
        return 0;
    unsigned root_width = p[n - 1], root_type = p[n - 2];
    if (root_width > n - 2 || (root_type >> 2) != FLEX_MAP)
        return 0;
    size_t values, keys;
    double count, kw;
    if (!flex_back(p, n, n - 2 - root_width, root_width, &values))
        return 0;
    unsigned width = 1u << (root_type & 3);
    if (values < 3 * (size_t)width || !flex_read(p, n, values - width, width, 0, 0, &count) ||
        !flex_read(p, n, values - 2 * width, width, 0, 0, &kw) ||
        !flex_back(p, n, values - 3 * width, width, &keys))
        return 0;
    size_t cnt = (size_t)count;
    if (count > (double)n || (kw != 1 && kw != 2 && kw != 4 && kw != 8) ||
        values + cnt * (width + 1) > n)
        return 0;
    for (size_t i = 0; i < cnt; i++) {
        size_t ks;
        if (!flex_back(p, n, keys + i * (size_t)kw, (unsigned)kw, &ks))
            return 0;
        size_t len = strlen(key);
        if (ks + len >= n || memcmp(p + ks, key, len) != 0 || p[ks + len] != '\0')
            continue;
        size_t at = values + i * width;
        unsigned t = p[values + cnt * width + i];
        unsigned type = t >> 2, vw = 1u << (t & 3);
        switch (type) {
        case FLEX_INT: return flex_read(p, n, at, width, 1, 0, out);
        case FLEX_UINT:
        case FLEX_BOOL: return flex_read(p, n, at, width, 0, 0, out);
        case FLEX_FLOAT: return flex_read(p, n, at, width, 0, 1, out);
        case FLEX_INDIRECT_INT:
        case FLEX_INDIRECT_UINT:
        case FLEX_INDIRECT_FLOAT: {
            size_t v;
            if (!flex_back(p, n, at, width, &v))
                return 0;
            return flex_read(p, n, v, vw, type == FLEX_INDIRECT_INT, type == FLEX_INDIRECT_FLOAT, out);
        }
        default: return 0;
        }
    }
    return 0;
}

static const char *const op_names[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEPTH_TO_SPACE",
    "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED", "HASHTABLE_LOOKUP",
    "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION",
    "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE", "RESIZE_BILINEAR",
    "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL",
    "CUSTOM", "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER",
    "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV", "SQUEEZE",
    "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2",
    "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM",
    "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL",
    "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
    "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT",
    "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT",
    "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD",
    "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS",
    "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND", "COS", "WHERE", "RANK", "ELU",
    "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF",
    "WHILE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2",
    "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM",
    "CALL_ONCE", "BROADCAST_TO", "RFFT2D", "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE",
    "HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE",
    "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE", "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL",
    "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1",
};

const char *tfl_op_name(int code)
{
    if (code >= 0 && (size_t)code < sizeof op_names / sizeof op_names[0])
        return op_names[code];
    return "(unknown operator)";
}

const char *tfl_type_name(int type)
{
    static const char *const names[] = {"float32", "float16", "int32", "uint8", "int64", "string",
                                        "bool", "int16", "complex64", "int8", "float64"};
    if (type >= 0 && (size_t)type < sizeof names / sizeof names[0])
        return names[type];
    return "(unknown type)";
}

size_t tfl_type_size(int type)
{
    switch (type) {
    case TFL_FLOAT32: case TFL_INT32: return 4;
    case TFL_FLOAT16: case TFL_INT16: return 2;
    case TFL_UINT8: case TFL_INT8: case TFL_BOOL: return 1;
    case TFL_INT64: case TFL_FLOAT64: case TFL_COMPLEX64: return 8;
    default: return 0;
    }
}

size_t tfl_numel(const tfl_tensor *t)
{
    size_t n = 1;
    for (uint32_t i = 0; i < t->rank; i++) {
        if (t->shape[i] < 0)
            return 0;
        if (t->shape[i] != 0 && n > SIZE_MAX / (size_t)t->shape[i])
            return 0;
        n *= (size_t)t->shape[i];
    }
    return n;
}
