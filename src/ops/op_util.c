#include <string.h>

#include "kernels/copy.h"
#include "kernels/elementwise.h"
#include "kernels/fp16.h"
#include "ops/op.h"

_Static_assert(NN_COPY_MAX_RANK >= NN_MAX_RANK && NN_EW_MAX_RANK >= NN_MAX_RANK,
               "kernels must take tensors of every rank the runtime accepts");

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

void nn_tensor_copy_shape(nn_tensor *dst, const nn_tensor *src)
{
    dst->rank = src->rank;
    memcpy(dst->dims, src->dims, sizeof dst->dims);
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
    if (rank > NN_MAX_RANK)
        return ANEURALNETWORKS_BAD_DATA;
    for (uint32_t i = 0; i < rank; i++) {
        uint32_t da = i < rank - a->rank ? 1 : a->dims[i - (rank - a->rank)];
        uint32_t db = i < rank - b->rank ? 1 : b->dims[i - (rank - b->rank)];
        if (da == db || db == 1)
            out->dims[i] = da;
        else if (da == 1)
            out->dims[i] = db;
        else
            return ANEURALNETWORKS_BAD_DATA;
    }
    out->rank = rank;
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
