/* Shape-only operations: RESHAPE, SQUEEZE, EXPAND_DIMS, RANK, FILL. */
#include <stdint.h>
#include <string.h>

#include "kernels/copy.h"
#include "ops/shape_common.h"

static int reshape_prepare(nn_op_call *c);
static int squeeze_prepare(nn_op_call *c);
static int expand_prepare(nn_op_call *c);
static int fill_prepare(nn_op_call *c);

#define RESHAPE_TYPES \
    SHP_TYPES({T_F32, FL1}, {T_QA8, FL1}, {T_F16, FL3}, {T_QA8S, FL4}, {T_I32, FL6})
#define SQUEEZE_TYPES SHP_TYPES({T_F32, FL2}, {T_QA8, FL2}, {T_F16, FL3}, {T_QA8S, FL4})
#define EXPAND_TYPES \
    SHP_TYPES({T_F32, FL3}, {T_F16, FL3}, {T_I32, FL3}, {T_QA8, FL3}, {T_QA8S, FL4})

/* Output = input bytes; shapes only differ. */
static int copy_input(nn_op_call *c)
{
    nn_tensor *in = c->in[0], *out = c->out[0];
    size_t bytes = nn_tensor_count(out) * nn_type_size(out->type);
    if (bytes != nn_tensor_count(in) * nn_type_size(in->type))
        return ANEURALNETWORKS_OP_FAILED;
    /* An omitted input (SQUEEZE lets omitted inputs through for its axes)
     * has no data; declared of unknown rank, it still counts an element. */
    if (in->omitted)
        return nn_because(ANEURALNETWORKS_OP_FAILED, "input 0 is omitted: it has no data");
    if (out->data != in->data)
        memmove(out->data, in->data, bytes);
    return NN_OK;
}

/* ---- RESHAPE ---- */

static int reshape_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 2, 2, 1) || shp_check_type(c, c->in[0]->type, RESHAPE_TYPES) ||
        !shp_rank_in(c->in[0], 1, 4) || nn_check_type(c->in[1], T_I32) ||
        shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    /* Android checks only the type of the shape tensor, and converters
     * hand over TensorFlow Lite's shape tensors as they are ([1, 4] in real
     * models): its elements, whatever its rank, are the new shape. */
    return shp_validate_shapes(c, reshape_prepare);
}

static int reshape_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0], *shape = c->in[1];
    if (shp_check_rank_at_prepare(in, 4))
        return NN_BAD;
    if (!shp_i32_ready(shape))
        return NN_OK;
    size_t n = nn_tensor_count(shape);
    if (n > UINT32_MAX)
        return shp_value_error(shape);
    size_t known = 1, infer = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        int32_t v = shp_i32(shape, i);
        if (v == -1 && infer == SIZE_MAX) {
            infer = i;
            continue;
        }
        if (v < 0 || (v > 0 && known > UINT32_MAX / (uint32_t)v))
            return shp_value_error(shape);
        known *= (uint32_t)v;
    }
    size_t total = nn_tensor_count(in);
    if (infer != SIZE_MAX ? known == 0 || total % known != 0 : known != total)
        return shp_value_error(shape);
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_set_rank(out, (uint32_t)n);
    if (rc != NN_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        out->dims[i] = i == infer ? (uint32_t)(total / known) : (uint32_t)shp_i32(shape, i);
    return NN_OK;
}

const nn_op_def nn_op_RESHAPE = {
    .code = ANEURALNETWORKS_RESHAPE,
    .name = "RESHAPE",
    .validate = reshape_validate,
    .prepare = reshape_prepare,
    .execute = copy_input,
};

/* ---- SQUEEZE ---- */

static int squeeze_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 1, 2, 1) || shp_check_type(c, c->in[0]->type, SQUEEZE_TYPES) ||
        !shp_rank_in(c->in[0], 1, 4) || shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    if (shp_present(c, 1) && (nn_check_type(c->in[1], T_I32) || !shp_rank_in(c->in[1], 1, 1)))
        return NN_BAD;
    return shp_validate_shapes(c, squeeze_prepare);
}

static int squeeze_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (shp_check_rank_at_prepare(in, 4))
        return NN_BAD;
    if (shp_present(c, 1) && !shp_i32_ready(c->in[1]))
        return NN_OK;
    nn_rank_buf buf;
    int rc = nn_rank_buf_get(&buf, in->rank * sizeof(bool));
    bool *drop = buf.p;
    if (rc == NN_OK && shp_present(c, 1)) {
        const nn_tensor *axes = c->in[1];
        memset(drop, 0, in->rank * sizeof *drop);
        size_t n = nn_tensor_count(axes);
        for (size_t i = 0; i < n && rc == NN_OK; i++) {
            uint32_t a;
            if (!shp_axis(shp_i32(axes, i), in->rank, &a) || in->dims[a] != 1)
                rc = shp_value_error(axes);
            else
                drop[a] = true;
        }
    } else if (rc == NN_OK) {
        for (uint32_t i = 0; i < in->rank; i++)
            drop[i] = in->dims[i] == 1;
    }
    if (rc == NN_OK)
        rc = shp_reduced_shape(in, drop, false, c->out[0]);
    nn_rank_buf_free(&buf);
    return rc;
}

const nn_op_def nn_op_SQUEEZE = {
    .code = ANEURALNETWORKS_SQUEEZE,
    .name = "SQUEEZE",
    .validate = squeeze_validate,
    .prepare = squeeze_prepare,
    .execute = copy_input,
    .optional_inputs = true,
};

/* ---- EXPAND_DIMS ---- */

static int expand_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 2, 2, 1) || shp_check_type(c, c->in[0]->type, EXPAND_TYPES) ||
        nn_check_type(c->in[1], ANEURALNETWORKS_INT32) || shp_check_same_q(c->in[0], c->out[0]))
        return NN_BAD;
    /* Android's CPU executor checks the axis when it runs EXPAND_DIMS. */
    const nn_tensor *in = c->in[0];
    if (in->rank > 0 && in->rank < UINT32_MAX && shp_check_axis_value(c, 1, in->rank + 1))
        return NN_BAD;
    return shp_validate_shapes(c, expand_prepare);
}

static int expand_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (c->in[1]->data == NULL)
        return NN_OK;
    uint32_t a;
    if (in->rank == UINT32_MAX || !shp_axis(nn_scalar_i32(c->in[1]), in->rank + 1, &a))
        return shp_value_error(c->in[1]);
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_set_rank(out, in->rank + 1);
    if (rc != NN_OK)
        return rc;
    for (uint32_t i = 0, r = 0; i <= in->rank; i++) {
        if (i == a)
            out->dims[r++] = 1;
        if (i < in->rank)
            out->dims[r++] = in->dims[i];
    }
    return NN_OK;
}

const nn_op_def nn_op_EXPAND_DIMS = {
    .code = ANEURALNETWORKS_EXPAND_DIMS,
    .name = "EXPAND_DIMS",
    .validate = expand_validate,
    .prepare = expand_prepare,
    .execute = copy_input,
};

/* ---- RANK ---- */

static int rank_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 1, 1, 1) || c->feature_level < FL4 ||
        !nn_type_is_tensor(c->in[0]->type) || nn_check_type(c->out[0], ANEURALNETWORKS_INT32))
        return NN_BAD;
    return NN_OK;
}

static int rank_prepare(nn_op_call *c)
{
    return nn_tensor_set_rank(c->out[0], 0);
}

static int rank_execute(nn_op_call *c)
{
    int32_t r = (int32_t)c->in[0]->rank;
    memcpy(c->out[0]->data, &r, sizeof r);
    return NN_OK;
}

const nn_op_def nn_op_RANK = {
    .code = ANEURALNETWORKS_RANK,
    .name = "RANK",
    .validate = rank_validate,
    .prepare = rank_prepare,
    .execute = rank_execute,
};

/* ---- FILL ---- */

static int fill_value_type(int32_t out_type)
{
    switch (out_type) {
    case T_F32:
        return ANEURALNETWORKS_FLOAT32;
    case T_F16:
        return ANEURALNETWORKS_FLOAT16;
    case T_I32:
        return ANEURALNETWORKS_INT32;
    default:
        return -1;
    }
}

static int fill_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 2, 2, 1) || nn_check_type(c->in[0], T_I32) ||
        !shp_rank_in(c->in[0], 1, 1))
        return NN_BAD;
    if (c->feature_level < FL4)
        return nn_invalid("FILL needs feature level 4");
    if (fill_value_type(c->out[0]->type) < 0)
        return nn_invalid("an output of type %s", nn_type_name(c->out[0]->type));
    if (nn_expect_type(c, false, 1, fill_value_type(c->out[0]->type)))
        return NN_BAD;
    return shp_validate_shapes(c, fill_prepare);
}

static int fill_prepare(nn_op_call *c)
{
    const nn_tensor *shape = c->in[0];
    if (!shp_i32_ready(shape))
        return NN_OK;
    size_t n = nn_tensor_count(shape);
    if (n == 0 || n > UINT32_MAX)
        return shp_value_error(shape);
    for (size_t i = 0; i < n; i++)
        if (shp_i32(shape, i) < 0)
            return shp_value_error(shape);
    nn_tensor *out = c->out[0];
    int rc = nn_tensor_set_rank(out, (uint32_t)n);
    if (rc != NN_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        out->dims[i] = (uint32_t)shp_i32(shape, i);
    return shp_check_elements(out);
}

static int fill_execute(nn_op_call *c)
{
    nn_tensor *out = c->out[0];
    nn_fill_elems(out->data, nn_tensor_count(out), c->in[1]->data, nn_type_size(out->type));
    return NN_OK;
}

const nn_op_def nn_op_FILL = {
    .code = ANEURALNETWORKS_FILL,
    .name = "FILL",
    .validate = fill_validate,
    .prepare = fill_prepare,
    .execute = fill_execute,
};
