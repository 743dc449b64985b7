/*
 * Unary element-wise math and activations: ABS, EXP, LOG, NEG, RSQRT, SIN,
 * SQRT, FLOOR, RELU, RELU1, RELU6, LOGISTIC, TANH, ELU, HARD_SWISH.
 * Quantized inputs have only 256 possible values, so the quantized path maps
 * bytes through a table of results built once per compilation.
 */
#include <stdlib.h>

#include "kernels/elementwise.h"
#include "ops/elementwise_util.h"

#define F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define I32 ANEURALNETWORKS_TENSOR_INT32
#define QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED

static const nn_ew_type_level float_types[] = {{F32, NN_FL3}, {F16, NN_FL3}, {0, 0}};
static const nn_ew_type_level abs_types[] = {{F32, NN_FL3}, {F16, NN_FL3}, {I32, NN_FL4}, {0, 0}};
static const nn_ew_type_level neg_types[] = {{F32, NN_FL3}, {F16, NN_FL3}, {I32, NN_FL3}, {0, 0}};
static const nn_ew_type_level rsqrt_types[] = {{F32, NN_FL3},
                                              {F16, NN_FL3},
                                              {QA8, ANEURALNETWORKS_FEATURE_LEVEL_7},
                                              {QA8S, ANEURALNETWORKS_FEATURE_LEVEL_7},
                                              {0, 0}};
static const nn_ew_type_level floor_types[] = {{F32, NN_FL1}, {F16, NN_FL3}, {0, 0}};
static const nn_ew_type_level relu_types[] = {
    {F32, NN_FL1}, {QA8, NN_FL1}, {F16, NN_FL3}, {QA8S, NN_FL4}, {0, 0}};
static const nn_ew_type_level tanh_types[] = {
    {F32, NN_FL1}, {F16, NN_FL3}, {QA8, NN_FL3}, {QA8S, NN_FL4}, {0, 0}};
static const nn_ew_type_level elu_types[] = {{F32, NN_FL4}, {F16, NN_FL4}, {0, 0}};
static const nn_ew_type_level hard_swish_types[] = {
    {F32, NN_FL4}, {F16, NN_FL4}, {QA8, NN_FL4}, {QA8S, NN_FL4}, {0, 0}};

/* How a quantized output's scale and zero point relate to the input's. */
typedef enum out_quant {
    OUT_SAME,     /* must equal the input's */
    OUT_LOGISTIC, /* fixed: 1/256 with zero point 0 (unsigned) or -128 (signed) */
    OUT_TANH,     /* fixed: 1/128 with zero point 128 (unsigned) or 0 (signed) */
    OUT_FREE,
} out_quant;

typedef struct unary_spec {
    int32_t code;
    nn_ew_unary op;
    const nn_ew_type_level *types;
    uint32_t max_rank;
    out_quant quant;
} unary_spec;

static const unary_spec specs[] = {
    {ANEURALNETWORKS_ABS, NN_EW_ABS, abs_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_EXP, NN_EW_EXP, float_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_LOG, NN_EW_LOG, float_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_NEG, NN_EW_NEG, neg_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_RSQRT, NN_EW_RSQRT, rsqrt_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_SIN, NN_EW_SIN, float_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_SQRT, NN_EW_SQRT, float_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_FLOOR, NN_EW_FLOOR, floor_types, 4, OUT_FREE},
    {ANEURALNETWORKS_RELU, NN_EW_RELU, relu_types, 4, OUT_SAME},
    {ANEURALNETWORKS_RELU1, NN_EW_RELU1, relu_types, 4, OUT_SAME},
    {ANEURALNETWORKS_RELU6, NN_EW_RELU6, relu_types, 4, OUT_SAME},
    {ANEURALNETWORKS_LOGISTIC, NN_EW_LOGISTIC, relu_types, 4, OUT_LOGISTIC},
    {ANEURALNETWORKS_TANH, NN_EW_TANH, tanh_types, 4, OUT_TANH},
    {ANEURALNETWORKS_ELU, NN_EW_ELU, elu_types, NN_ANY_RANK, OUT_FREE},
    {ANEURALNETWORKS_HARD_SWISH, NN_EW_HARD_SWISH, hard_swish_types, NN_ANY_RANK, OUT_FREE},
};

static const unary_spec *spec_of(int32_t code)
{
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (specs[i].code == code)
            return &specs[i];
    return NULL;
}

static int check_out_quant(const nn_op_call *c, const unary_spec *s,
                           const nn_tensor *out)
{
    if (!nn_type_is_quant8(out->type))
        return ANEURALNETWORKS_NO_ERROR;
    bool is_signed = out->type == QA8S;
    switch (s->quant) {
    case OUT_SAME:
        return nn_expect_same_quant(c, 0, 0);
    case OUT_LOGISTIC:
        return nn_check_value(c, out->scale == 1.0f / 256.0f &&
                                         out->zero_point == (is_signed ? -128 : 0),
                              "output scale %g zero point %d, expected 1/256 and %d",
                              (double)out->scale, out->zero_point, is_signed ? -128 : 0);
    case OUT_TANH:
        return nn_check_value(c, out->scale == 1.0f / 128.0f &&
                                         out->zero_point == (is_signed ? 0 : 128),
                              "output scale %g zero point %d, expected 1/128 and %d",
                              (double)out->scale, out->zero_point, is_signed ? 0 : 128);
    case OUT_FREE:
        break;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static int unary_validate(const nn_op_call *c)
{
    const unary_spec *s = spec_of(c->op_type);
    if (s == NULL)
        return ANEURALNETWORKS_BAD_DATA;
    uint32_t n_in = s->op == NN_EW_ELU ? 2 : 1;
    if (nn_check_counts(c, n_in, n_in, 1) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0], *out = c->out[0];
    if (nn_ew_check_type_level(c, in->type, s->types) != ANEURALNETWORKS_NO_ERROR ||
        nn_expect_type(c, true, 0, in->type))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(in, 1, s->max_rank) || nn_check_rank(out, 1, s->max_rank))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_quant(in) || nn_check_quant(out) || check_out_quant(c, s, out))
        return ANEURALNETWORKS_BAD_DATA;
    if (s->op == NN_EW_ELU) {
        int32_t alpha_type = in->type == F16 ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32;
        if (nn_expect_type(c, false, 1, alpha_type))
            return ANEURALNETWORKS_BAD_DATA;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static void build_table(const unary_spec *s, const nn_op_call *c, uint8_t table[256])
{
    const nn_tensor *in = c->in[0], *out = c->out[0];
    nn_ew_unary_q8_table(s->op, 0.0f, in->type == QA8S, in->scale, in->zero_point, out->scale,
                         out->zero_point, table);
}

static int unary_plan(nn_op_call *c, void **state)
{
    *state = NULL;
    const unary_spec *s = spec_of(c->op_type);
    if (s == NULL || !nn_type_is_quant8(c->in[0]->type))
        return ANEURALNETWORKS_NO_ERROR;
    uint8_t *table = malloc(256);
    if (table == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    build_table(s, c, table);
    *state = table;
    return ANEURALNETWORKS_NO_ERROR;
}

static void unary_release(void *state)
{
    free(state);
}

static int unary_execute(nn_op_call *c)
{
    const unary_spec *s = spec_of(c->op_type);
    if (s == NULL)
        return ANEURALNETWORKS_OP_FAILED;
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    size_t n = nn_tensor_count(in);
    float param = s->op == NN_EW_ELU ? nn_scalar_f32(c->in[1]) : 0.0f;
    switch (in->type) {
    case F32:
        nn_ew_unary_f32(s->op, param, in->data, out->data, n);
        break;
    case F16:
        nn_ew_unary_f16(s->op, param, in->data, out->data, n);
        break;
    case I32:
        nn_ew_unary_i32(s->op, in->data, out->data, n);
        break;
    case QA8:
    case QA8S: {
        /* Without a plan (state NULL) the table is built here. */
        uint8_t local[256];
        const uint8_t *table = c->state;
        if (table == NULL) {
            build_table(s, c, local);
            table = local;
        }
        nn_ew_lookup8(table, in->data, out->data, n);
        break;
    }
    default:
        return ANEURALNETWORKS_OP_FAILED;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

#define UNARY_OP(NAME)                                                                         \
    const nn_op_def nn_op_##NAME = {                                                           \
        .code = ANEURALNETWORKS_##NAME,                                                        \
        .name = #NAME,                                                                         \
        .validate = unary_validate,                                                            \
        .prepare = nn_ew_prepare_same_shape,                                                   \
        .execute = unary_execute,                                                              \
        .plan = unary_plan,                                                                    \
        .release = unary_release,                                                              \
    };

UNARY_OP(ABS)
UNARY_OP(EXP)
UNARY_OP(LOG)
UNARY_OP(NEG)
UNARY_OP(RSQRT)
UNARY_OP(SIN)
UNARY_OP(SQRT)
UNARY_OP(FLOOR)
UNARY_OP(RELU)
UNARY_OP(RELU1)
UNARY_OP(RELU6)
UNARY_OP(LOGISTIC)
UNARY_OP(TANH)
UNARY_OP(ELU)
UNARY_OP(HARD_SWISH)
