/*
 * Broadcasting binary arithmetic: ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, POW,
 * PRELU. One set of entry points serves all of them; the operation code
 * selects the row of the spec table below.
 */
#include <stdlib.h>

#include "kernels/blob.h"
#include "kernels/elementwise.h"
#include "kernels/quant.h"
#include "ops/elementwise_util.h"

#define F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define I32 ANEURALNETWORKS_TENSOR_INT32
#define QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED

static const nn_ew_type_level add_mul_types[] = {
    {F32, NN_FL1}, {QA8, NN_FL1}, {F16, NN_FL3}, {QA8S, NN_FL4}, {I32, NN_FL4}, {0, 0}};
static const nn_ew_type_level sub_types[] = {
    {F32, NN_FL2}, {F16, NN_FL3}, {QA8, NN_FL3}, {QA8S, NN_FL4}, {I32, NN_FL4}, {0, 0}};
static const nn_ew_type_level div_types[] = {{F32, NN_FL2}, {F16, NN_FL3}, {I32, NN_FL4}, {0, 0}};
static const nn_ew_type_level max_min_types[] = {
    {F32, NN_FL3}, {F16, NN_FL3}, {I32, NN_FL3}, {QA8, NN_FL3}, {QA8S, NN_FL4}, {0, 0}};
static const nn_ew_type_level pow_types[] = {{F32, NN_FL3}, {F16, NN_FL3}, {0, 0}};
static const nn_ew_type_level prelu_types[] = {
    {F32, NN_FL3}, {F16, NN_FL3}, {QA8, NN_FL3}, {QA8S, NN_FL4}, {0, 0}};

typedef struct binary_spec {
    int32_t code;
    nn_ew_arith op;
    const nn_ew_type_level *types;
    bool has_fuse;
    uint32_t max_rank;
} binary_spec;

static const binary_spec specs[] = {
    {ANEURALNETWORKS_ADD, NN_EW_ADD, add_mul_types, true, 4},
    {ANEURALNETWORKS_SUB, NN_EW_SUB, sub_types, true, 4},
    {ANEURALNETWORKS_MUL, NN_EW_MUL, add_mul_types, true, 4},
    {ANEURALNETWORKS_DIV, NN_EW_DIV, div_types, true, 4},
    {ANEURALNETWORKS_MAXIMUM, NN_EW_MAX, max_min_types, false, NN_ANY_RANK},
    {ANEURALNETWORKS_MINIMUM, NN_EW_MIN, max_min_types, false, NN_ANY_RANK},
    {ANEURALNETWORKS_POW, NN_EW_POW, pow_types, false, NN_ANY_RANK},
    {ANEURALNETWORKS_PRELU, NN_EW_PRELU, prelu_types, false, NN_ANY_RANK},
};

static const binary_spec *spec_of(int32_t code)
{
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (specs[i].code == code)
            return &specs[i];
    return NULL;
}

static int binary_validate(const nn_op_call *c)
{
    const binary_spec *s = spec_of(c->op_type);
    if (s == NULL)
        return ANEURALNETWORKS_BAD_DATA;
    uint32_t n_in = s->has_fuse ? 3 : 2;
    if (nn_check_counts(c, n_in, n_in, 1) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *a = c->in[0], *b = c->in[1], *o = c->out[0];
    if (nn_ew_check_type_level(c, a->type, s->types) != ANEURALNETWORKS_NO_ERROR ||
        nn_expect_type(c, false, 1, a->type) || nn_expect_type(c, true, 0, a->type))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(a, 1, s->max_rank) || nn_check_rank(b, 1, s->max_rank) ||
        nn_check_rank(o, 1, s->max_rank))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_quant(a) || nn_check_quant(b) || nn_check_quant(o))
        return ANEURALNETWORKS_BAD_DATA;
    if (s->has_fuse && nn_ew_check_fuse(c, c->in[2], a->type == I32) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    /* Android's validation of a quantized MUL, at model building. */
    if (c->op_type == ANEURALNETWORKS_MUL && nn_type_is_quant8(a->type) &&
        !(o->scale > a->scale * b->scale))
        return nn_invalid("output scale %g <= input1 scale * input2 scale %g", (double)o->scale,
                          (double)(a->scale * b->scale));
    return ANEURALNETWORKS_NO_ERROR;
}

static int binary_prepare(nn_op_call *c)
{
    const binary_spec *s = spec_of(c->op_type);
    if (s == NULL)
        return ANEURALNETWORKS_BAD_DATA;
    /* The fuse code may be a model input, known only now. */
    if (s->has_fuse &&
        nn_ew_check_fuse(c, c->in[2], c->in[0]->type == I32) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    return nn_ew_prepare_broadcast(c, s->max_rank);
}

/* Integer parameters of a quant8 operation with the given fuse code. */
static void quant_params(const binary_spec *s, const nn_op_call *c, int32_t fuse,
                         nn_ew_qparams *p)
{
    const nn_tensor *a = c->in[0], *b = c->in[1], *o = c->out[0];
    int32_t lo, hi;
    nn_quant_activation_range(fuse, o->type, o->scale, o->zero_point, &lo, &hi);
    nn_ew_qparams_init(p, s->op, a->scale, a->zero_point, b->scale, b->zero_point, o->scale,
                       o->zero_point, lo, hi);
}

/* The result for every pair of 8-bit inputs; the memory may be a blob of
 * the compilation cache (kernels/blob.h). */
typedef struct pair_table {
    uint8_t *table;
    bool owned;
} pair_table;

/* Quant8 operations get their pair table here, when the fuse code is a
 * constant (it nearly always is). */
static int binary_plan(nn_op_call *c, void **state)
{
    *state = NULL;
    const binary_spec *s = spec_of(c->op_type);
    if (s == NULL || !nn_type_is_quant8(c->out[0]->type))
        return ANEURALNETWORKS_NO_ERROR;
    if (s->has_fuse && c->in[2]->data == NULL)
        return ANEURALNETWORKS_NO_ERROR;
    int32_t fuse = s->has_fuse ? nn_scalar_i32(c->in[2]) : ANEURALNETWORKS_FUSED_NONE;
    /* MUL's vector rows (one requantization) are faster than the table;
     * ADD's and SUB's three requantizations are not (bench/bench_qops). */
    if (s->op == NN_EW_MUL && nn_ew_q8_vector_row(NN_EW_MUL, c->out[0]->type == QA8S) != NULL)
        return ANEURALNETWORKS_NO_ERROR;
    pair_table *t = malloc(sizeof *t);
    bool filled;
    if (t == NULL || (t->table = nn_blob_acquire(NN_EW_PAIR_TABLE_SIZE, &filled, &t->owned)) == NULL) {
        free(t);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    if (!filled) {
        nn_ew_qparams p;
        quant_params(s, c, fuse, &p);
        nn_ew_q8_pair_table(s->op, c->out[0]->type == QA8S, &p, t->table);
    }
    *state = t;
    return ANEURALNETWORKS_NO_ERROR;
}

static void binary_release(void *state)
{
    pair_table *t = state;
    if (t->owned)
        free(t->table);
    free(t);
}

static int binary_execute(nn_op_call *c)
{
    const binary_spec *s = spec_of(c->op_type);
    if (s == NULL)
        return ANEURALNETWORKS_OP_FAILED;
    const nn_tensor *a = c->in[0], *b = c->in[1];
    nn_tensor *o = c->out[0];
    int32_t fuse = s->has_fuse ? nn_scalar_i32(c->in[2]) : ANEURALNETWORKS_FUSED_NONE;
    nn_ew_geom g;
    nn_ew_geom_init(&g, a->rank, a->dims, b->rank, b->dims);
    switch (o->type) {
    case F32: {
        nn_ew_fparams p;
        nn_float_activation_range(fuse, &p.lo, &p.hi);
        nn_ew_run(&g, nn_ew_f32_row(s->op), &p, a->data, 4, b->data, 4, o->data, 4);
        break;
    }
    case F16: {
        nn_ew_f16params p = {.f32 = nn_ew_f32_row(s->op)};
        nn_float_activation_range(fuse, &p.f.lo, &p.f.hi);
        nn_ew_run(&g, nn_ew_f16_row(), &p, a->data, 2, b->data, 2, o->data, 2);
        break;
    }
    case I32: {
        nn_ew_fparams unused = {0.0f, 0.0f};
        nn_ew_run(&g, nn_ew_i32_row(s->op), &unused, a->data, 4, b->data, 4, o->data, 4);
        break;
    }
    case QA8:
    case QA8S:
        if (c->state != NULL) {
            const pair_table *t = c->state;
            nn_ew_run(&g, nn_ew_q8_table_row(), t->table, a->data, 1, b->data, 1, o->data, 1);
        } else {
            nn_ew_qparams p;
            quant_params(s, c, fuse, &p);
            nn_ew_run(&g, nn_ew_q8_row(s->op, o->type == QA8S), &p, a->data, 1, b->data, 1,
                      o->data, 1);
        }
        break;
    default:
        return ANEURALNETWORKS_OP_FAILED;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

#define BINARY_OP(NAME)                                                                        \
    const nn_op_def nn_op_##NAME = {                                                           \
        .code = ANEURALNETWORKS_##NAME,                                                        \
        .name = #NAME,                                                                         \
        .validate = binary_validate,                                                           \
        .prepare = binary_prepare,                                                             \
        .execute = binary_execute,                                                             \
        .plan = binary_plan,                                                                   \
        .release = binary_release,                                                             \
    };

BINARY_OP(ADD)
BINARY_OP(SUB)
BINARY_OP(MUL)
BINARY_OP(DIV)
BINARY_OP(MAXIMUM)
BINARY_OP(MINIMUM)
BINARY_OP(POW)
BINARY_OP(PRELU)
