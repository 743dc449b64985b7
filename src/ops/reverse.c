/*
 * REVERSE (feature level 7): the input with the order of its elements along
 * one axis (input 1, a one-element TENSOR_INT32 in [0, rank)) reversed.
 */
#include <stdint.h>

#include "kernels/copy.h"
#include "ops/shape_common.h"

#define REVERSE_MAX_RANK 8
#define REVERSE_TYPES \
    SHP_TYPES({T_F32, FL7}, {T_F16, FL7}, {T_I32, FL7}, {T_QA8, FL7}, {T_QA8S, FL7})

static int reverse_prepare(nn_op_call *c);

static int reverse_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 2, 2, 1))
        return NN_BAD;
    const nn_tensor *in = c->in[0], *axis = c->in[1], *out = c->out[0];
    if (shp_check_type(c, in->type, REVERSE_TYPES) || shp_check_same_q(in, out) ||
        !shp_rank_in(in, 1, REVERSE_MAX_RANK) || !shp_rank_in(out, 1, REVERSE_MAX_RANK) ||
        nn_check_type(axis, T_I32) || !shp_rank_in(axis, 1, 1) ||
        (axis->rank == 1 && axis->dims[0] > 1))
        return NN_BAD;
    return shp_validate_shapes(c, reverse_prepare);
}

/* The axis, or false when its value is unknown. */
static bool reverse_axis(const nn_op_call *c, uint32_t *axis, int *err)
{
    const nn_tensor *in = c->in[0], *a = c->in[1];
    *err = NN_OK;
    if (!shp_i32_ready(a))
        return false;
    if (nn_tensor_count(a) != 1 || shp_i32(a, 0) < 0 || shp_i32(a, 0) >= (int32_t)in->rank) {
        *err = shp_value_error(a);
        return false;
    }
    *axis = (uint32_t)shp_i32(a, 0);
    return true;
}

static int reverse_prepare(nn_op_call *c)
{
    uint32_t axis;
    int err;
    if (!reverse_axis(c, &axis, &err) && err)
        return err;
    if (c->in[0]->rank > REVERSE_MAX_RANK)
        return nn_invalid("input 0 of rank %u, above %d", c->in[0]->rank, REVERSE_MAX_RANK);
    return nn_tensor_copy_shape(c->out[0], c->in[0]);
}

static int reverse_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    uint32_t axis;
    int err;
    if (!reverse_axis(c, &axis, &err))
        return err ? err : ANEURALNETWORKS_OP_FAILED;
    if (in->rank > REVERSE_MAX_RANK)
        return ANEURALNETWORKS_OP_FAILED;
    ptrdiff_t dst_strides[REVERSE_MAX_RANK], src_strides[REVERSE_MAX_RANK];
    nn_row_major_strides(in->dims, in->rank, dst_strides);
    nn_row_major_strides(in->dims, in->rank, src_strides);
    size_t esize = nn_type_size(in->type);
    /* Read the axis backwards: start at its last element, negative stride. */
    const uint8_t *src = (const uint8_t *)in->data +
                         (size_t)(in->dims[axis] - 1) * (size_t)src_strides[axis] * esize;
    src_strides[axis] = -src_strides[axis];
    nn_copy_strided(c->out[0]->data, dst_strides, src, src_strides, in->dims, in->rank, esize);
    return NN_OK;
}

const nn_op_def nn_op_REVERSE = {
    .code = ANEURALNETWORKS_REVERSE,
    .name = "REVERSE",
    .validate = reverse_validate,
    .prepare = reverse_prepare,
    .execute = reverse_execute,
};
