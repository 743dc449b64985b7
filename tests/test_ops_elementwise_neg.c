/*
 * Validation of the element-wise operations through the public API: every
 * operation gets one valid model (which must build, so that a refusal below
 * is the operation's own) and invalid ones (wrong input count, wrong type
 * combination, bad rank, bad parameter) that addOperation or finish must
 * refuse with ANEURALNETWORKS_BAD_DATA. Values Android's runtime checks only
 * in its CPU executor (a constant fuse code out of range, the fixed output
 * quantization of LOGISTIC and TANH) are RUN_FAILS: the model builds and
 * compiles, and computing it returns ANEURALNETWORKS_OP_FAILED.
 */
#include <android/NeuralNetworks.h>
#include <string.h>

#include "test_util.h"

enum { TENSOR, CONST_I32, CONST_F32, CONST_F16 };

typedef struct opd {
    int32_t type;
    uint32_t rank;
    uint32_t dims[5];
    float scale;
    int32_t zero_point;
    int kind;    /* TENSOR: a model input or output; CONST_*: a constant scalar */
    double value;
} opd;

#define TEN(t, s, z) {(t), 2, {2, 2}, (s), (z), TENSOR, 0}
#define F32 TEN(ANEURALNETWORKS_TENSOR_FLOAT32, 0.0f, 0)
#define F16 TEN(ANEURALNETWORKS_TENSOR_FLOAT16, 0.0f, 0)
#define I32 TEN(ANEURALNETWORKS_TENSOR_INT32, 0.0f, 0)
#define B8 TEN(ANEURALNETWORKS_TENSOR_BOOL8, 0.0f, 0)
#define QA8(s, z) TEN(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, (s), (z))
#define QA8S(s, z) TEN(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, (s), (z))
#define F32_R5 {ANEURALNETWORKS_TENSOR_FLOAT32, 5, {1, 1, 1, 2, 2}, 0.0f, 0, TENSOR, 0}
#define QA8_R5 {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 5, {1, 1, 1, 2, 2}, 0.5f, 0, TENSOR, 0}
#define ACT(v) {ANEURALNETWORKS_INT32, 0, {0}, 0.0f, 0, CONST_I32, (v)}
#define SF32(v) {ANEURALNETWORKS_FLOAT32, 0, {0}, 0.0f, 0, CONST_F32, (v)}
#define SF16(v) {ANEURALNETWORKS_FLOAT16, 0, {0}, 0.0f, 0, CONST_F16, (v)}

#define MAX_OPDS 6

typedef struct model_case {
    int32_t op;
    const char *what;
    int expected;
    uint32_t n_in, n_out;
    opd in[MAX_OPDS];
    opd out[2];
} model_case;

#define OK ANEURALNETWORKS_NO_ERROR
#define BAD ANEURALNETWORKS_BAD_DATA
#define RUN_FAILS (-1) /* builds, compiles; compute returns OP_FAILED */

/* IEEE binary16 bits of the few values used here. */
static uint16_t half_bits(double v)
{
    return v == 1.0 ? 0x3c00 : 0;
}

static int add_operand(ANeuralNetworksModel *m, int32_t index, const opd *o)
{
    ANeuralNetworksOperandType t = {o->type, o->rank, o->rank ? o->dims : NULL, o->scale,
                                    o->zero_point};
    int rc = ANeuralNetworksModel_addOperand(m, &t);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    if (o->kind == CONST_I32) {
        int32_t v = (int32_t)o->value;
        return ANeuralNetworksModel_setOperandValue(m, index, &v, sizeof v);
    }
    if (o->kind == CONST_F32) {
        float v = (float)o->value;
        return ANeuralNetworksModel_setOperandValue(m, index, &v, sizeof v);
    }
    if (o->kind == CONST_F16) {
        uint16_t v = half_bits(o->value);
        return ANeuralNetworksModel_setOperandValue(m, index, &v, sizeof v);
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static size_t opd_bytes(const opd *o)
{
    size_t n = o->type == ANEURALNETWORKS_TENSOR_FLOAT16 ? 2
               : o->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ||
                               o->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ||
                               o->type == ANEURALNETWORKS_TENSOR_BOOL8
                       ? 1
                       : 4;
    for (uint32_t d = 0; d < o->rank; d++)
        n *= o->dims[d];
    return n;
}

/* Compiles the model and computes it on zero inputs: the first error. */
static int compute(ANeuralNetworksModel *m, const model_case *c)
{
    static uint8_t zeros[256];
    uint8_t out[2][256];
    ANeuralNetworksCompilation *comp = NULL;
    ANeuralNetworksExecution *e = NULL;
    int rc = ANeuralNetworksCompilation_create(m, &comp);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(comp);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_create(comp, &e);
    int32_t k = 0;
    for (uint32_t i = 0; i < c->n_in && rc == ANEURALNETWORKS_NO_ERROR; i++)
        if (c->in[i].kind == TENSOR)
            rc = ANeuralNetworksExecution_setInput(e, k++, NULL, zeros, opd_bytes(&c->in[i]));
    for (uint32_t i = 0; i < c->n_out && rc == ANEURALNETWORKS_NO_ERROR; i++)
        rc = ANeuralNetworksExecution_setOutput(e, (int32_t)i, NULL, out[i], opd_bytes(&c->out[i]));
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_compute(e);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(comp);
    return rc;
}

/* The first error of building and finishing the one-operation model (and,
 * for RUN_FAILS, of compiling and computing it). */
static int build(const model_case *c)
{
    ANeuralNetworksModel *m = NULL;
    int rc = ANeuralNetworksModel_create(&m);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    uint32_t ins[MAX_OPDS], outs[2], model_ins[MAX_OPDS];
    uint32_t n_model_ins = 0, next = 0;
    for (uint32_t i = 0; i < c->n_in && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        rc = add_operand(m, (int32_t)next, &c->in[i]);
        if (c->in[i].kind == TENSOR)
            model_ins[n_model_ins++] = next;
        ins[i] = next++;
    }
    for (uint32_t i = 0; i < c->n_out && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        rc = add_operand(m, (int32_t)next, &c->out[i]);
        outs[i] = next++;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksModel_addOperation(m, c->op, c->n_in, ins, c->n_out, outs);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksModel_identifyInputsAndOutputs(m, n_model_ins, model_ins, c->n_out,
                                                           outs);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksModel_finish(m);
    if (rc == ANEURALNETWORKS_NO_ERROR && c->expected == RUN_FAILS)
        rc = compute(m, c);
    ANeuralNetworksModel_free(m);
    return rc;
}

#define N(...) __VA_ARGS__
#define CASE(OP, WHAT, EXP, NI, NO, IN, OUT)                                                   \
    {ANEURALNETWORKS_##OP, #OP ": " WHAT, EXP, NI, NO, {N IN}, {N OUT}}

/* Shared shapes of the unary float math operations. */
#define UNARY_FLOAT_CASES(OP)                                                                  \
    CASE(OP, "valid float32", OK, 1, 1, (F32), (F32)),                                         \
        CASE(OP, "quant8 input", BAD, 1, 1, (QA8(0.5f, 0)), (QA8(0.5f, 0))),                   \
        CASE(OP, "output type differs", BAD, 1, 1, (F32), (F16)),                              \
        CASE(OP, "two inputs", BAD, 2, 1, (F32, F32), (F32))

#define COMPARE_CASES(OP)                                                                      \
    CASE(OP, "valid float32", OK, 2, 1, (F32, F32), (B8)),                                     \
        CASE(OP, "input types differ", BAD, 2, 1, (F32, I32), (B8)),                           \
        CASE(OP, "float output", BAD, 2, 1, (F32, F32), (F32)),                                \
        CASE(OP, "one input", BAD, 1, 1, (F32), (B8))

#define RELU_CASES(OP)                                                                         \
    CASE(OP, "valid quant8", OK, 1, 1, (QA8(0.5f, 10)), (QA8(0.5f, 10))),                      \
        CASE(OP, "output scale differs", BAD, 1, 1, (QA8(0.5f, 10)), (QA8(0.25f, 10))),        \
        CASE(OP, "int32 input", BAD, 1, 1, (I32), (I32)),                                      \
        CASE(OP, "rank 5", BAD, 1, 1, (F32_R5), (F32_R5))

static const model_case cases[] = {
    CASE(ADD, "valid float32", OK, 3, 1, (F32, F32, ACT(0)), (F32)),
    CASE(ADD, "valid quant8 with free scales", OK, 3, 1,
         (QA8(0.5f, 1), QA8(0.25f, 2), ACT(1)), (QA8(1.0f, 3))),
    CASE(ADD, "two inputs", BAD, 2, 1, (F32, F32), (F32)),
    CASE(ADD, "float32 + int32", BAD, 3, 1, (F32, I32, ACT(0)), (F32)),
    CASE(ADD, "fuse code 7", RUN_FAILS, 3, 1, (F32, F32, ACT(7)), (F32)),
    CASE(ADD, "int32 with relu", BAD, 3, 1, (I32, I32, ACT(1)), (I32)),
    CASE(ADD, "rank 5", BAD, 3, 1, (F32_R5, F32_R5, ACT(0)), (F32_R5)),
    CASE(ADD, "float activation operand", BAD, 3, 1, (F32, F32, SF32(0)), (F32)),
    CASE(ADD, "bool8", BAD, 3, 1, (B8, B8, ACT(0)), (B8)),

    CASE(SUB, "valid float16", OK, 3, 1, (F16, F16, ACT(3)), (F16)),
    CASE(SUB, "float32 - float16", BAD, 3, 1, (F32, F16, ACT(0)), (F32)),
    CASE(SUB, "fuse code -1", RUN_FAILS, 3, 1, (F32, F32, ACT(-1)), (F32)),
    CASE(SUB, "output type differs", BAD, 3, 1, (QA8S(0.5f, 0), QA8S(0.5f, 0), ACT(0)),
         (QA8(0.5f, 0))),

    CASE(MUL, "valid int32", OK, 3, 1, (I32, I32, ACT(0)), (I32)),
    CASE(MUL, "output type differs", BAD, 3, 1, (F32, F32, ACT(0)), (I32)),
    CASE(MUL, "four inputs", BAD, 4, 1, (F32, F32, ACT(0), ACT(0)), (F32)),
    CASE(MUL, "int32 with relu6", BAD, 3, 1, (I32, I32, ACT(3)), (I32)),
    /* Android's validation of a quantized MUL wants output scale >
     * input1 scale * input2 scale, checked when the model is built. */
    CASE(MUL, "quant8 output scale above the product", OK, 3, 1,
         (QA8(0.5f, 0), QA8(0.5f, 0), ACT(0)), (QA8(0.5f, 0))),
    CASE(MUL, "quant8 output scale equal to the product", BAD, 3, 1,
         (QA8(0.5f, 0), QA8(0.5f, 0), ACT(0)), (QA8(0.25f, 0))),
    CASE(MUL, "signed quant8 output scale below the product", BAD, 3, 1,
         (QA8S(0.5f, 0), QA8S(0.5f, 0), ACT(0)), (QA8S(0.125f, 0))),

    CASE(DIV, "valid float32", OK, 3, 1, (F32, F32, ACT(2)), (F32)),
    CASE(DIV, "quant8", BAD, 3, 1, (QA8(0.5f, 0), QA8(0.5f, 0), ACT(0)), (QA8(0.5f, 0))),
    CASE(DIV, "fuse code 4", RUN_FAILS, 3, 1, (F32, F32, ACT(4)), (F32)),

    CASE(MAXIMUM, "valid quant8 signed", OK, 2, 1, (QA8S(0.5f, 0), QA8S(0.25f, 1)),
         (QA8S(1.0f, -3))),
    CASE(MAXIMUM, "three inputs", BAD, 3, 1, (F32, F32, F32), (F32)),
    CASE(MAXIMUM, "input types differ", BAD, 2, 1, (F32, F16), (F32)),
    CASE(MINIMUM, "valid int32", OK, 2, 1, (I32, I32), (I32)),
    CASE(MINIMUM, "output type differs", BAD, 2, 1, (I32, I32), (F32)),
    CASE(MINIMUM, "bool8", BAD, 2, 1, (B8, B8), (B8)),

    CASE(POW, "valid float32", OK, 2, 1, (F32, F32), (F32)),
    CASE(POW, "int32", BAD, 2, 1, (I32, I32), (I32)),
    CASE(POW, "one input", BAD, 1, 1, (F32), (F32)),

    CASE(PRELU, "valid quant8", OK, 2, 1, (QA8(0.5f, 128), QA8(0.25f, 50)), (QA8(0.5f, 120))),
    CASE(PRELU, "alpha type differs", BAD, 2, 1, (F32, F16), (F32)),
    CASE(PRELU, "int32", BAD, 2, 1, (I32, I32), (I32)),

    UNARY_FLOAT_CASES(EXP),
    UNARY_FLOAT_CASES(LOG),
    CASE(RSQRT, "valid float32", OK, 1, 1, (F32), (F32)),
    CASE(RSQRT, "valid quant8 (feature level 7)", OK, 1, 1, (QA8(0.5f, 0)), (QA8(0.25f, 3))),
    CASE(RSQRT, "valid quant8 signed (feature level 7)", OK, 1, 1, (QA8S(0.5f, 0)),
         (QA8S(0.25f, -3))),
    CASE(RSQRT, "int32 input", BAD, 1, 1, (I32), (I32)),
    CASE(RSQRT, "output type differs", BAD, 1, 1, (F32), (F16)),
    CASE(RSQRT, "two inputs", BAD, 2, 1, (F32, F32), (F32)),
    UNARY_FLOAT_CASES(SIN),
    UNARY_FLOAT_CASES(SQRT),
    UNARY_FLOAT_CASES(FLOOR),
    CASE(FLOOR, "rank 5", BAD, 1, 1, (F32_R5), (F32_R5)),
    CASE(ABS, "valid int32", OK, 1, 1, (I32), (I32)),
    CASE(ABS, "quant8", BAD, 1, 1, (QA8(0.5f, 0)), (QA8(0.5f, 0))),
    CASE(ABS, "output type differs", BAD, 1, 1, (F16), (F32)),
    CASE(NEG, "valid float16", OK, 1, 1, (F16), (F16)),
    CASE(NEG, "bool8", BAD, 1, 1, (B8), (B8)),
    CASE(NEG, "no input", BAD, 0, 1, (F32), (F32)),

    RELU_CASES(RELU),
    RELU_CASES(RELU1),
    RELU_CASES(RELU6),
    CASE(LOGISTIC, "valid quant8", OK, 1, 1, (QA8(0.1f, 128)), (QA8(1.0f / 256, 0))),
    CASE(LOGISTIC, "output scale 1/128", RUN_FAILS, 1, 1, (QA8(0.1f, 128)), (QA8(1.0f / 128, 0))),
    CASE(LOGISTIC, "signed output zero point 0", RUN_FAILS, 1, 1, (QA8S(0.1f, 0)),
         (QA8S(1.0f / 256, 0))),
    CASE(LOGISTIC, "rank 5", BAD, 1, 1, (F32_R5), (F32_R5)),
    CASE(TANH, "valid quant8", OK, 1, 1, (QA8(0.1f, 128)), (QA8(1.0f / 128, 128))),
    CASE(TANH, "output zero point 0", RUN_FAILS, 1, 1, (QA8(0.1f, 128)), (QA8(1.0f / 128, 0))),
    CASE(TANH, "int32", BAD, 1, 1, (I32), (I32)),
    CASE(ELU, "valid float16", OK, 2, 1, (F16, SF16(1.0)), (F16)),
    CASE(ELU, "float32 alpha for float16", BAD, 2, 1, (F16, SF32(1.0)), (F16)),
    CASE(ELU, "no alpha", BAD, 1, 1, (F32), (F32)),
    CASE(ELU, "quant8", BAD, 2, 1, (QA8(0.5f, 0), SF32(1.0)), (QA8(0.5f, 0))),
    CASE(HARD_SWISH, "valid quant8 signed", OK, 1, 1, (QA8S(0.1f, 3)), (QA8S(0.05f, -2))),
    CASE(HARD_SWISH, "int32", BAD, 1, 1, (I32), (I32)),
    CASE(HARD_SWISH, "output type differs", BAD, 1, 1, (F32), (F16)),

    COMPARE_CASES(EQUAL),
    COMPARE_CASES(NOT_EQUAL),
    COMPARE_CASES(GREATER),
    COMPARE_CASES(GREATER_EQUAL),
    COMPARE_CASES(LESS),
    COMPARE_CASES(LESS_EQUAL),
    CASE(LOGICAL_AND, "valid", OK, 2, 1, (B8, B8), (B8)),
    CASE(LOGICAL_AND, "float32 inputs", BAD, 2, 1, (F32, F32), (B8)),
    CASE(LOGICAL_AND, "one input", BAD, 1, 1, (B8), (B8)),
    CASE(LOGICAL_OR, "valid", OK, 2, 1, (B8, B8), (B8)),
    CASE(LOGICAL_OR, "int32 inputs", BAD, 2, 1, (I32, I32), (B8)),
    CASE(LOGICAL_OR, "int32 output", BAD, 2, 1, (B8, B8), (I32)),
    CASE(LOGICAL_NOT, "valid", OK, 1, 1, (B8), (B8)),
    CASE(LOGICAL_NOT, "float32 input", BAD, 1, 1, (F32), (F32)),
    CASE(LOGICAL_NOT, "two inputs", BAD, 2, 1, (B8, B8), (B8)),

    CASE(SELECT, "valid float32", OK, 3, 1, (B8, F32, F32), (F32)),
    CASE(SELECT, "float32 mask", BAD, 3, 1, (F32, F32, F32), (F32)),
    CASE(SELECT, "two inputs", BAD, 2, 1, (B8, F32), (F32)),
    CASE(SELECT, "choices differ in type", BAD, 3, 1, (B8, F32, I32), (F32)),

    CASE(CAST, "valid float32 to quant8", OK, 1, 1, (F32), (QA8(1.0f, 0))),
    CASE(CAST, "float32 to bool8", BAD, 1, 1, (F32), (B8)),
    CASE(CAST, "two inputs", BAD, 2, 1, (F32, F32), (F32)),
    CASE(QUANTIZE, "valid", OK, 1, 1, (F32), (QA8(0.5f, 3))),
    CASE(QUANTIZE, "int32 input", BAD, 1, 1, (I32), (QA8(0.5f, 3))),
    CASE(QUANTIZE, "float32 output", BAD, 1, 1, (F32), (F32)),
    CASE(DEQUANTIZE, "valid", OK, 1, 1, (QA8(0.5f, 3)), (F32)),
    CASE(DEQUANTIZE, "float32 input", BAD, 1, 1, (F32), (F32)),
    CASE(DEQUANTIZE, "int32 output", BAD, 1, 1, (QA8(0.5f, 3)), (I32)),
    CASE(DEQUANTIZE, "rank 5", BAD, 1, 1, (QA8_R5), (F32_R5)),
};

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const model_case *c = &cases[i];
        int rc = build(c);
        int want = c->expected == RUN_FAILS ? ANEURALNETWORKS_OP_FAILED : c->expected;
        if (!nt_record_rc(rc, want, __FILE__, __LINE__, c->what))
            fprintf(stderr, "    (case %zu)\n", i);
    }
    return nt_summary();
}
