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
        return NN_BAD;
    const nn_tensor *t = c->in[idx];
    if (t->omitted)
        return NN_OK;
    return t->type == type ? NN_OK : NN_BAD;
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
        return NN_BAD;
    if (nn_type_is_quant8(in->type) &&
        (in->scale != out->scale || in->zero_point != out->zero_point))
        return NN_BAD;
    return nn_check_quant(in);
}

bool shp_i32_ready(const nn_tensor *t)
{
    if (t->data == NULL || t->omitted)
        return false;
    return t->bytes >= nn_tensor_count(t) * sizeof(int32_t);
}

int shp_set_shape(nn_tensor *t, uint32_t rank, const uint32_t *dims)
{
    if (rank > NN_MAX_RANK)
        return NN_BAD;
    /* Element counts stay within 32 bits so kernels may index with uint32_t. */
    size_t limit = UINT32_MAX, n = 1;
    for (uint32_t i = 0; i < rank; i++) {
        if (dims[i] != 0 && n > limit / dims[i])
            return NN_BAD;
        n *= dims[i] ? dims[i] : 1;
    }
    uint32_t tmp[NN_MAX_RANK] = {0};
    memcpy(tmp, dims, rank * sizeof dims[0]);
    t->rank = rank;
    memcpy(t->dims, tmp, sizeof tmp);
    return NN_OK;
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
    uint32_t dims[NN_MAX_RANK], r = 0;
    for (uint32_t i = 0; i < in->rank; i++) {
        if (!mask[i])
            dims[r++] = in->dims[i];
        else if (keep_dims)
            dims[r++] = 1;
    }
    if (r == 0)
        dims[r++] = 1;
    return shp_set_shape(out, r, dims);
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
        out_ptrs[i] = &outs[i];
    }
    nn_op_call copy = *c;
    copy.out = out_ptrs;
    copy.fails_at_execution = NULL;
    /* Android validates types and ranks only: shapes that do not fit each
     * other, and bad constant values, fail the computation. */
    return nn_check_value(c, prepare(&copy) != NN_BAD, "%s",
                          "the shapes or constant values do not fit the operation");
}
