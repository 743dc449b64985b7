/*
 * Comparisons and boolean logic: EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL,
 * LESS, LESS_EQUAL (broadcasting, bool8 result), LOGICAL_AND, LOGICAL_OR,
 * LOGICAL_NOT and SELECT.
 */
#include "kernels/elementwise.h"
#include "ops/elementwise_util.h"

#define F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define I32 ANEURALNETWORKS_TENSOR_INT32
#define QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
#define B8 ANEURALNETWORKS_TENSOR_BOOL8

static const nn_ew_type_level compare_types[] = {
    {B8, NN_FL3}, {F16, NN_FL3}, {F32, NN_FL3}, {I32, NN_FL3}, {QA8, NN_FL3}, {QA8S, NN_FL4},
    {0, 0}};
static const nn_ew_type_level logical_types[] = {{B8, NN_FL3}, {0, 0}};
static const nn_ew_type_level select_types[] = {
    {F16, NN_FL3}, {F32, NN_FL3}, {I32, NN_FL3}, {QA8, NN_FL3}, {QA8S, NN_FL4}, {0, 0}};

static nn_ew_cmp cmp_of(int32_t code)
{
    switch (code) {
    case ANEURALNETWORKS_NOT_EQUAL:
        return NN_EW_NE;
    case ANEURALNETWORKS_GREATER:
        return NN_EW_GT;
    case ANEURALNETWORKS_GREATER_EQUAL:
        return NN_EW_GE;
    case ANEURALNETWORKS_LESS:
        return NN_EW_LT;
    case ANEURALNETWORKS_LESS_EQUAL:
        return NN_EW_LE;
    case ANEURALNETWORKS_LOGICAL_AND:
        return NN_EW_AND;
    case ANEURALNETWORKS_LOGICAL_OR:
        return NN_EW_OR;
    default:
        return NN_EW_EQ;
    }
}

static int compare_validate(const nn_op_call *c)
{
    bool logical =
        c->op_type == ANEURALNETWORKS_LOGICAL_AND || c->op_type == ANEURALNETWORKS_LOGICAL_OR;
    if (nn_check_counts(c, 2, 2, 1) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *a = c->in[0], *b = c->in[1], *o = c->out[0];
    if (nn_ew_check_type_level(c, a->type, logical ? logical_types : compare_types) ||
        nn_expect_type(c, false, 1, a->type) || nn_expect_type(c, true, 0, B8))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(a, 1, NN_ANY_RANK) || nn_check_rank(b, 1, NN_ANY_RANK) ||
        nn_check_rank(o, 1, NN_ANY_RANK))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_quant(a) || nn_check_quant(b))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

static int compare_prepare(nn_op_call *c)
{
    return nn_ew_prepare_broadcast(c, NN_ANY_RANK);
}

static int compare_execute(nn_op_call *c)
{
    const nn_tensor *a = c->in[0], *b = c->in[1];
    nn_ew_row_fn fn = nn_ew_cmp_row(cmp_of(c->op_type), a->type);
    if (fn == NULL)
        return ANEURALNETWORKS_OP_FAILED;
    nn_ew_cmpparams p = {a->scale, b->scale, a->zero_point, b->zero_point};
    size_t size = nn_type_size(a->type);
    nn_ew_geom g;
    nn_ew_geom_init(&g, a->rank, a->dims, b->rank, b->dims);
    nn_ew_run(&g, fn, &p, a->data, size, b->data, size, c->out[0]->data, 1);
    return ANEURALNETWORKS_NO_ERROR;
}

static int not_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 1, 1, 1) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0], *out = c->out[0];
    if (nn_ew_check_type_level(c, in->type, logical_types) || nn_expect_type(c, true, 0, B8))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(in, 1, NN_ANY_RANK) || nn_check_rank(out, 1, NN_ANY_RANK))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

static int not_execute(nn_op_call *c)
{
    nn_ew_not_bool8(c->in[0]->data, c->out[0]->data, nn_tensor_count(c->in[0]));
    return ANEURALNETWORKS_NO_ERROR;
}

static int select_validate(const nn_op_call *c)
{
    if (nn_check_counts(c, 3, 3, 1) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *x = c->in[1], *y = c->in[2], *o = c->out[0];
    if (nn_expect_type(c, false, 0, B8) || nn_ew_check_type_level(c, x->type, select_types) ||
        nn_expect_type(c, false, 2, x->type) || nn_expect_type(c, true, 0, x->type))
        return ANEURALNETWORKS_BAD_DATA;
    for (uint32_t i = 0; i < 3; i++)
        if (nn_check_rank(c->in[i], 1, NN_ANY_RANK))
            return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_quant(x) || nn_check_quant(y) || nn_check_quant(o))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

static bool same_shape(const nn_tensor *a, const nn_tensor *b)
{
    if (a->rank != b->rank)
        return false;
    for (uint32_t i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    return true;
}

static int select_prepare(nn_op_call *c)
{
    /* No broadcasting: all three inputs have one shape. */
    if (!same_shape(c->in[0], c->in[1]) || !same_shape(c->in[1], c->in[2]))
        return ANEURALNETWORKS_BAD_DATA;
    return nn_tensor_copy_shape(c->out[0], c->in[1]);
}

static int select_execute(nn_op_call *c)
{
    const nn_tensor *mask = c->in[0], *x = c->in[1], *y = c->in[2];
    nn_tensor *o = c->out[0];
    size_t n = nn_tensor_count(o);
    if (nn_type_is_quant8(o->type) && !(nn_ew_same_quant(x, o) && nn_ew_same_quant(y, o))) {
        bool is_signed = o->type == QA8S;
        uint8_t tx[256], ty[256];
        nn_ew_requant_q8_table(is_signed, x->scale, x->zero_point, o->scale, o->zero_point, tx);
        nn_ew_requant_q8_table(is_signed, y->scale, y->zero_point, o->scale, o->zero_point, ty);
        nn_ew_select_q8(mask->data, x->data, tx, y->data, ty, o->data, n);
    } else {
        nn_ew_select(mask->data, x->data, y->data, o->data, n, nn_type_size(o->type));
    }
    return ANEURALNETWORKS_NO_ERROR;
}

#define COMPARE_OP(NAME)                                                                       \
    const nn_op_def nn_op_##NAME = {                                                           \
        .code = ANEURALNETWORKS_##NAME,                                                        \
        .name = #NAME,                                                                         \
        .validate = compare_validate,                                                          \
        .prepare = compare_prepare,                                                            \
        .execute = compare_execute,                                                            \
    };

COMPARE_OP(EQUAL)
COMPARE_OP(NOT_EQUAL)
COMPARE_OP(GREATER)
COMPARE_OP(GREATER_EQUAL)
COMPARE_OP(LESS)
COMPARE_OP(LESS_EQUAL)
COMPARE_OP(LOGICAL_AND)
COMPARE_OP(LOGICAL_OR)

const nn_op_def nn_op_LOGICAL_NOT = {
    .code = ANEURALNETWORKS_LOGICAL_NOT,
    .name = "LOGICAL_NOT",
    .validate = not_validate,
    .prepare = nn_ew_prepare_same_shape,
    .execute = not_execute,
};

const nn_op_def nn_op_SELECT = {
    .code = ANEURALNETWORKS_SELECT,
    .name = "SELECT",
    .validate = select_validate,
    .prepare = select_prepare,
    .execute = select_execute,
};
