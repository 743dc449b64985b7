#include "ops/elementwise_util.h"

int nn_ew_check_type_level(const nn_op_call *c, int32_t type, const nn_ew_type_level *list)
{
    for (; list->level != 0; list++)
        if (list->type == type)
            return c->feature_level >= list->level
                           ? ANEURALNETWORKS_NO_ERROR
                           : nn_invalid("%s needs feature level %d", nn_type_name(type),
                                        (int)list->level);
    return nn_invalid("the operation does not take %s", nn_type_name(type));
}

int nn_ew_check_fuse(const nn_op_call *c, const nn_tensor *act, bool integer_tensor)
{
    if (act->type != ANEURALNETWORKS_INT32)
        return nn_invalid("fused activation of type %s, expected INT32", nn_type_name(act->type));
    if (act->data == NULL)
        return ANEURALNETWORKS_NO_ERROR;
    int32_t v = nn_scalar_i32(act);
    if (v < ANEURALNETWORKS_FUSED_NONE || v > ANEURALNETWORKS_FUSED_RELU6)
        return nn_check_fuse_code(c, v);
    if (integer_tensor && v != ANEURALNETWORKS_FUSED_NONE)
        return nn_invalid("fused activation %d on a TENSOR_INT32 operation", v);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_ew_prepare_broadcast(nn_op_call *c, uint32_t max_rank)
{
    const nn_tensor *a = c->in[0], *b = c->in[1];
    if (a->rank > max_rank || b->rank > max_rank)
        return ANEURALNETWORKS_BAD_DATA;
    return nn_broadcast_shape(a, b, c->out[0]);
}

int nn_ew_prepare_same_shape(nn_op_call *c)
{
    return nn_tensor_copy_shape(c->out[0], c->in[0]);
}

bool nn_ew_same_quant(const nn_tensor *a, const nn_tensor *b)
{
    return a->scale == b->scale && a->zero_point == b->zero_point;
}
