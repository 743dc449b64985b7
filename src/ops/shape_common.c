#include "ops/shape_common.h"

#include <stdint.h>

int shp_check_type(const nn_op_call *c, int32_t type, const shp_type_level *list)
{
    for (; list->type >= 0; list++)
        if (list->type == type)
            return c->feature_level >= list->level
                           ? NN_OK
                           : nn_invalid("%s needs feature level %d", nn_type_name(type),
                                        (int)list->level);
    return nn_invalid("the operation does not take %s", nn_type_name(type));
}

int shp_check_opt_scalar(const nn_op_call *c, uint32_t idx, int32_t type, int32_t level)
{
    if (idx >= c->n_in)
        return NN_OK;
    if (c->feature_level < level)
        return nn_invalid("input %u needs feature level %d", idx, (int)level);
    const nn_tensor *t = c->in[idx];
    if (t->omitted)
        return NN_OK;
    return nn_expect_type(c, false, idx, type);
}

int shp_check_axis_value(const nn_op_call *c, uint32_t idx, uint32_t rank)
{
    const nn_tensor *t = c->in[idx];
    if (rank == 0 || t->data == NULL)
        return NN_OK;
    uint32_t a;
    int32_t v = nn_scalar_i32(t);
    return nn_check_value(c, shp_axis(v, rank, &a), "input %u (axis) %d is outside [-%u, %u)",
                          idx, v, rank, rank);
}

bool shp_opt_bool(const nn_op_call *c, uint32_t idx)
{
    if (!shp_present(c, idx) || c->in[idx]->data == NULL)
        return false;
    return nn_scalar_bool(c->in[idx]);
}

int shp_check_same_q(const nn_tensor *in, const nn_tensor *out)
{
    if (in->type != out->type)
        return nn_invalid("an output of type %s for an input of type %s",
                          out->type < 0 ? "(missing)" : nn_type_name(out->type),
                          in->type < 0 ? "(missing)" : nn_type_name(in->type));
    if (nn_type_is_quant8(in->type) &&
        (in->scale != out->scale || in->zero_point != out->zero_point))
        return nn_invalid("output scale %g and zero point %d, the input has %g and %d",
                          (double)out->scale, out->zero_point, (double)in->scale,
                          in->zero_point);
    return nn_check_quant(in);
}

bool shp_i32_ready(const nn_tensor *t)
{
    if (t->data == NULL || t->omitted)
        return false;
    return t->bytes >= nn_tensor_count(t) * sizeof(int32_t);
}

int shp_check_elements(const nn_tensor *t)
{
    /* Element counts stay within 32 bits so kernels may index with uint32_t. */
    size_t limit = UINT32_MAX, n = 1;
    for (uint32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] != 0 && n > limit / t->dims[i])
            return nn_invalid("the output would have more than %zu elements", limit);
        n *= t->dims[i] ? t->dims[i] : 1;
    }
    return NN_OK;
}

int shp_set_shape(nn_tensor *t, uint32_t rank, const uint32_t *dims)
{
    int rc = nn_tensor_set_shape(t, rank, dims);
    return rc != NN_OK ? rc : shp_check_elements(t);
}

int shp_axes_mask(const nn_tensor *axes, uint32_t rank, bool *mask)
{
    for (uint32_t i = 0; i < rank; i++)
        mask[i] = false;
    size_t n = nn_tensor_count(axes);
    for (size_t i = 0; i < n; i++) {
        uint32_t a;
        if (!shp_axis(shp_i32(axes, i), rank, &a))
            return NN_BAD;
        mask[a] = true;
    }
    return NN_OK;
}

int shp_reduced_shape(const nn_tensor *in, const bool *mask, bool keep_dims, nn_tensor *out)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < in->rank; i++)
        r += !mask[i] || keep_dims;
    int rc = nn_tensor_set_rank(out, r ? r : 1);
    if (rc != NN_OK)
        return rc;
    r = 0;
    for (uint32_t i = 0; i < in->rank; i++) {
        if (!mask[i])
            out->dims[r++] = in->dims[i];
        else if (keep_dims)
            out->dims[r++] = 1;
    }
    if (r == 0)
        out->dims[0] = 1;
    return NN_OK;
}

int shp_validate_shapes(const nn_op_call *c, int (*prepare)(nn_op_call *))
{
    for (uint32_t i = 0; i < c->n_in; i++) {
        const nn_tensor *t = c->in[i];
        if (!t->omitted && nn_type_is_tensor(t->type) && !nn_tensor_shape_known(t))
            return NN_OK;
    }
    if (c->n_out > NN_MAX_OUTPUTS)
        return NN_OK;
    /* Shape inference on copies of the outputs: with every input shape known,
     * it rejects incompatible shapes and bad constant values now. */
    nn_tensor outs[NN_MAX_OUTPUTS], *out_ptrs[NN_MAX_OUTPUTS];
    for (uint32_t i = 0; i < c->n_out; i++) {
        outs[i] = *c->out[i];
        nn_tensor_borrow_dims(&outs[i]);
        out_ptrs[i] = &outs[i];
    }
    nn_op_call copy = *c;
    copy.out = out_ptrs;
    copy.fails_at_execution = NULL;
    int rc = prepare(&copy);
    for (uint32_t i = 0; i < c->n_out; i++)
        nn_tensor_release_dims(&outs[i]);
    if (rc == ANEURALNETWORKS_OUT_OF_MEMORY)
        return rc;
    /* Android validates types and ranks only: shapes that do not fit each
     * other, and bad constant values, fail the computation. */
    return nn_check_value(c, rc != NN_BAD, "%s",
                          "the shapes or constant values do not fit the operation");
}
