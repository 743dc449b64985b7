#include <stdlib.h>
#include <string.h>

#include "kernels/copy.h"
#include "kernels/elementwise.h"
#include "kernels/fp16.h"
#include "ops/op.h"

bool nn_type_is_tensor(int32_t type)
{
    switch (type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_TENSOR_INT32:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case NN_TENSOR_OEM_BYTE:
        return true;
    default:
        return false;
    }
}

bool nn_type_is_quant8(int32_t type)
{
    return type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ||
           type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
}

size_t nn_type_size(int32_t type)
{
    switch (type) {
    case ANEURALNETWORKS_FLOAT32:
    case ANEURALNETWORKS_INT32:
    case ANEURALNETWORKS_UINT32:
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_TENSOR_INT32:
        return 4;
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_FLOAT16:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
        return 2;
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_BOOL:
    case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case NN_TENSOR_OEM_BYTE:
        return 1;
    default:
        return 0;
    }
}

const char *nn_type_name(int32_t type)
{
    static const char *const names[] = {
        "FLOAT32", "INT32", "UINT32", "TENSOR_FLOAT32", "TENSOR_INT32",
        "TENSOR_QUANT8_ASYMM", "BOOL", "TENSOR_QUANT16_SYMM", "TENSOR_FLOAT16",
        "TENSOR_BOOL8", "FLOAT16", "TENSOR_QUANT8_SYMM_PER_CHANNEL",
        "TENSOR_QUANT16_ASYMM", "TENSOR_QUANT8_SYMM", "TENSOR_QUANT8_ASYMM_SIGNED", "MODEL",
    };
    if (type == NN_OEM_SCALAR)
        return "OEM_SCALAR";
    if (type == NN_TENSOR_OEM_BYTE)
        return "TENSOR_OEM_BYTE";
    if (type < 0 || (size_t)type >= sizeof names / sizeof names[0])
        return "UNKNOWN";
    return names[type];
}

size_t nn_tensor_count(const nn_tensor *t)
{
    return nn_dims_product(t, 0, t->rank);
}

size_t nn_dims_product(const nn_tensor *t, uint32_t begin, uint32_t end)
{
    size_t n = 1;
    for (uint32_t i = begin; i < end && i < t->rank; i++)
        n *= t->dims[i];
    return n;
}

bool nn_tensor_shape_known(const nn_tensor *t)
{
    if (nn_type_is_tensor(t->type) && t->rank == 0)
        return false;
    for (uint32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0)
            return false;
    return true;
}

int nn_tensor_set_rank(nn_tensor *t, uint32_t rank)
{
    uint32_t keep = t->rank < rank ? t->rank : rank;
    uint32_t *own = NULL;
    if (rank <= NN_INLINE_RANK) {
        own = t->dims_inline;
    } else if (t->dims_heap != NULL && t->dims_heap_cap >= rank) {
        own = t->dims_heap;
    } else {
        own = malloc((size_t)rank * sizeof *own);
        if (own == NULL)
            return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "no memory for %u dimensions", rank);
    }
    if (keep && t->dims != own)
        memmove(own, t->dims, keep * sizeof *own);
    if (rank > keep)
        memset(own + keep, 0, (rank - keep) * sizeof *own);
    if (rank > NN_INLINE_RANK && own != t->dims_heap) {
        free(t->dims_heap);
        t->dims_heap = own;
        t->dims_heap_cap = rank;
    }
    t->dims = own;
    t->rank = rank;
    return ANEURALNETWORKS_NO_ERROR;
}

void nn_tensor_set_small_rank(nn_tensor *t, uint32_t rank)
{
    /* Inline storage: no allocation, no failure. */
    int rc = rank <= NN_INLINE_RANK ? nn_tensor_set_rank(t, rank) : ANEURALNETWORKS_BAD_DATA;
    (void)rc;
}

int nn_tensor_set_shape(nn_tensor *t, uint32_t rank, const uint32_t *dims)
{
    /* dims may be t's own storage, which set_rank may replace. */
    uint32_t small[NN_INLINE_RANK];
    uint32_t *copy = small;
    if (rank > NN_INLINE_RANK) {
        copy = malloc((size_t)rank * sizeof *copy);
        if (copy == NULL)
            return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "no memory for %u dimensions", rank);
    }
    if (rank)
        memcpy(copy, dims, rank * sizeof *copy);
    int rc = nn_tensor_set_rank(t, rank);
    if (rc == ANEURALNETWORKS_NO_ERROR && rank)
        memcpy(t->dims, copy, rank * sizeof *copy);
    if (copy != small)
        free(copy);
    return rc;
}

int nn_tensor_copy_shape(nn_tensor *dst, const nn_tensor *src)
{
    if (dst == src)
        return ANEURALNETWORKS_NO_ERROR;
    return nn_tensor_set_shape(dst, src->rank, src->dims);
}

void nn_tensor_borrow_dims(nn_tensor *t)
{
    t->dims_heap = NULL;
    t->dims_heap_cap = 0;
}

int nn_tensor_own_dims(nn_tensor *t)
{
    nn_tensor_borrow_dims(t);
    const uint32_t *src = t->dims;
    uint32_t rank = t->rank;
    t->rank = 0;
    t->dims = NULL;
    int rc = nn_tensor_set_rank(t, rank);
    if (rc == ANEURALNETWORKS_NO_ERROR && rank)
        memcpy(t->dims, src, rank * sizeof *src);
    return rc;
}

void nn_tensor_move(nn_tensor *dst, nn_tensor *src)
{
    *dst = *src;
    if (src->dims == src->dims_inline)
        dst->dims = dst->dims_inline;
    nn_tensor_borrow_dims(src);
}

int nn_rank_buf_get(nn_rank_buf *b, size_t bytes)
{
    b->p = b->inline_space;
    if (bytes <= sizeof b->inline_space)
        return ANEURALNETWORKS_NO_ERROR;
    b->p = malloc(bytes);
    if (b->p != NULL)
        return ANEURALNETWORKS_NO_ERROR;
    b->p = b->inline_space;
    return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "no memory for %zu bytes of per-dimension state",
                      bytes);
}

void nn_rank_buf_free(nn_rank_buf *b)
{
    if (b->p != b->inline_space)
        free(b->p);
    b->p = b->inline_space;
}

void nn_tensor_release_dims(nn_tensor *t)
{
    if (t->dims == t->dims_heap) {
        t->dims = NULL;
        t->rank = 0;
    }
    free(t->dims_heap);
    nn_tensor_borrow_dims(t);
}

int32_t nn_scalar_i32(const nn_tensor *t)
{
    int32_t v;
    memcpy(&v, t->data, sizeof v);
    return v;
}

float nn_scalar_f32(const nn_tensor *t)
{
    if (t->type == ANEURALNETWORKS_FLOAT16) {
        uint16_t h;
        memcpy(&h, t->data, sizeof h);
        return nn_f16_to_f32(h);
    }
    float v;
    memcpy(&v, t->data, sizeof v);
    return v;
}

bool nn_scalar_bool(const nn_tensor *t)
{
    return *(const uint8_t *)t->data != 0;
}

int nn_broadcast_shape(const nn_tensor *a, const nn_tensor *b, nn_tensor *out)
{
    uint32_t rank = a->rank > b->rank ? a->rank : b->rank;
    for (uint32_t i = 0; i < rank; i++) {
        uint32_t da = i < rank - a->rank ? 1 : a->dims[i - (rank - a->rank)];
        uint32_t db = i < rank - b->rank ? 1 : b->dims[i - (rank - b->rank)];
        if (da != db && da != 1 && db != 1)
            return nn_invalid("dimension %u: %u and %u do not broadcast", i, da, db);
    }
    int rc = nn_tensor_set_rank(out, rank);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    for (uint32_t i = 0; i < rank; i++) {
        uint32_t da = i < rank - a->rank ? 1 : a->dims[i - (rank - a->rank)];
        uint32_t db = i < rank - b->rank ? 1 : b->dims[i - (rank - b->rank)];
        out->dims[i] = da == 1 ? db : da;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_check_counts(const nn_op_call *c, uint32_t min_in, uint32_t max_in, uint32_t n_out)
{
    if (c->n_in < min_in || c->n_in > max_in || c->n_out != n_out)
        return nn_invalid("%u inputs and %u outputs, expected %u to %u inputs and %u outputs",
                          c->n_in, c->n_out, min_in, max_in, n_out);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_check_type(const nn_tensor *t, int32_t type)
{
    if (t->type != type)
        return nn_invalid("operand of type %s, expected %s", nn_type_name(t->type),
                          nn_type_name(type));
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_expect_type(const nn_op_call *c, bool is_output, uint32_t idx, int32_t type)
{
    const nn_tensor *t = is_output ? c->out[idx] : c->in[idx];
    if (t->type == type)
        return ANEURALNETWORKS_NO_ERROR;
    return nn_invalid("%s %u of type %s, expected %s", is_output ? "output" : "input", idx,
                      t->type < 0 ? "(missing)" : nn_type_name(t->type), nn_type_name(type));
}

int nn_expect_same_quant(const nn_op_call *c, uint32_t out_idx, uint32_t in_idx)
{
    const nn_tensor *o = c->out[out_idx], *in = c->in[in_idx];
    if (o->scale == in->scale && o->zero_point == in->zero_point)
        return ANEURALNETWORKS_NO_ERROR;
    return nn_invalid("output %u scale %g and zero point %d, input %u has %g and %d", out_idx,
                      (double)o->scale, o->zero_point, in_idx, (double)in->scale,
                      in->zero_point);
}

int nn_check_rank(const nn_tensor *t, uint32_t min_rank, uint32_t max_rank)
{
    if (t->rank == 0 && nn_type_is_tensor(t->type))
        return ANEURALNETWORKS_NO_ERROR;
    if (t->rank < min_rank || t->rank > max_rank)
        return nn_invalid("operand of rank %u, expected %u to %u", t->rank, min_rank, max_rank);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_check_quant(const nn_tensor *t)
{
    bool ok = true;
    if (t->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
        ok = t->scale > 0.0f && t->zero_point >= 0 && t->zero_point <= 255;
    else if (t->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED)
        ok = t->scale > 0.0f && t->zero_point >= -128 && t->zero_point <= 127;
    if (!ok)
        return nn_invalid("%s operand with scale %g and zero point %d", nn_type_name(t->type),
                          (double)t->scale, t->zero_point);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_check_fuse_code(const nn_op_call *c, int32_t code)
{
    return nn_check_value(c, code >= ANEURALNETWORKS_FUSED_NONE && code <= ANEURALNETWORKS_FUSED_RELU6,
                          "fused activation code %d", code);
}
