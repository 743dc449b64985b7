/*
 * PACK (feature level 6): N tensors of one shape [d0, ..., dR-1] stacked into
 * one of rank R + 1 with N at position `axis` (input 0, in [0, R]). Output
 * slice i along the axis is input i + 1.
 */
#include <stdint.h>
#include <string.h>

#include "ops/shape_common.h"

#define PACK_TYPES SHP_TYPES({T_F32, FL6}, {T_F16, FL6}, {T_I32, FL6}, {T_QA8, FL6}, {T_QA8S, FL6})

static int pack_prepare(nn_op_call *c);

static int pack_validate(const nn_op_call *c)
{
    if (c->n_in < 2 || c->n_out != 1)
        return nn_invalid("%u inputs and %u outputs, expected at least 2 inputs and 1 output",
                          c->n_in, c->n_out);
    if (nn_check_type(c->in[0], ANEURALNETWORKS_INT32))
        return NN_BAD;
    const nn_tensor *first = c->in[1], *out = c->out[0];
    if (shp_check_type(c, first->type, PACK_TYPES) || shp_check_same_q(first, out) ||
        !shp_rank_in(first, 1, NN_ANY_RANK - 1) || !shp_rank_in(out, 2, NN_ANY_RANK))
        return NN_BAD;
    for (uint32_t i = 2; i < c->n_in; i++) {
        const nn_tensor *t = c->in[i];
        if (shp_check_same_q(first, t))
            return NN_BAD;
        if (t->rank && first->rank && t->rank != first->rank)
            return nn_invalid("input %u of rank %u, input 1 has rank %u", i, t->rank, first->rank);
    }
    if (c->in[0]->data && first->rank) {
        int32_t axis = nn_scalar_i32(c->in[0]);
        if (axis < 0 || axis > (int32_t)first->rank)
            return nn_invalid("input 0 (axis) %d is outside [0, %u]", axis, first->rank);
    }
    return shp_validate_shapes(c, pack_prepare);
}

static int pack_prepare(nn_op_call *c)
{
    const nn_tensor *first = c->in[1];
    if (c->in[0]->data == NULL)
        return NN_OK;
    int32_t axis = nn_scalar_i32(c->in[0]);
    uint32_t r = first->rank;
    if (r < 1 || r == UINT32_MAX || axis < 0 || axis > (int32_t)r)
        return NN_BAD;
    for (uint32_t i = 2; i < c->n_in; i++) {
        const nn_tensor *t = c->in[i];
        if (t->rank != r || memcmp(t->dims, first->dims, r * sizeof t->dims[0]) != 0)
            return NN_BAD;
    }
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_set_rank(out, r + 1);
    if (rc != NN_OK)
        return rc;
    for (uint32_t i = 0, j = 0; i <= r; i++)
        out->dims[i] = i == (uint32_t)axis ? c->n_in - 1 : first->dims[j++];
    return shp_check_elements(out);
}

static int pack_execute(nn_op_call *c)
{
    const nn_tensor *first = c->in[1];
    uint32_t axis = (uint32_t)nn_scalar_i32(c->in[0]);
    uint32_t n = c->n_in - 1;
    size_t outer = nn_dims_product(first, 0, axis);
    size_t slice = nn_dims_product(first, axis, first->rank) * nn_type_size(first->type);
    uint8_t *dst = c->out[0]->data;
    for (size_t o = 0; o < outer; o++)
        for (uint32_t i = 0; i < n; i++) {
            memcpy(dst, (const uint8_t *)c->in[i + 1]->data + o * slice, slice);
            dst += slice;
        }
    return NN_OK;
}

const nn_op_def nn_op_PACK = {
    .code = ANEURALNETWORKS_PACK,
    .name = "PACK",
    .validate = pack_validate,
    .prepare = pack_prepare,
    .execute = pack_execute,
};
