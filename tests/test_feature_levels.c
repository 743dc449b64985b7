/*
 * Feature levels 6-8.
 *
 * 1. What each level added is refused below it: the operations' validate
 *    functions are called (internal interface, nn_internal) with the level
 *    just under and at the one that introduced them, as the runtime would
 *    for a device or runtime of that level.
 * 2. BATCH_MATMUL beyond the conformance vectors, through the public API:
 *    broadcast batch dimensions with adj_x/adj_y, int32 sums that wrap, and
 *    an int8 product deeper than the GEMM's int32 accumulators allow; the
 *    expected values come from a naive loop in this file.
 * 3. REVERSE is limited to rank 8; MIRROR_PAD takes higher ranks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op.h"
#include "test_util.h"

#define FL5 ANEURALNETWORKS_FEATURE_LEVEL_5
#define FL6 ANEURALNETWORKS_FEATURE_LEVEL_6
#define FL7 ANEURALNETWORKS_FEATURE_LEVEL_7

/* ---- 1. validation by feature level ---- */

static nn_tensor tensor(int32_t type, uint32_t rank, const uint32_t *dims, float scale,
                        int32_t zero_point)
{
    nn_tensor t;
    memset(&t, 0, sizeof t);
    t.type = type;
    /* Returned by value: validate_at points dims at the copy's own storage. */
    t.rank = rank;
    if (rank)
        memcpy(t.dims_inline, dims, rank * sizeof dims[0]);
    t.scale = scale;
    t.zero_point = zero_point;
    return t;
}

static nn_tensor scalar(int32_t type, void *value, size_t bytes)
{
    nn_tensor t = tensor(type, 0, NULL, 0.0f, 0);
    t.data = value;
    t.bytes = bytes;
    t.constant = true;
    return t;
}

/* validate of op with the given operands at a feature level. */
static int validate_at(int32_t op, int32_t level, nn_tensor *in, uint32_t n_in, nn_tensor *out)
{
    nn_tensor placeholder = tensor(-1, 0, NULL, 0.0f, 0);
    nn_tensor *ins[NN_VALIDATE_SLOTS], *outs[NN_VALIDATE_SLOTS];
    for (uint32_t i = 0; i < NN_VALIDATE_SLOTS; i++)
        ins[i] = outs[i] = &placeholder;
    for (uint32_t i = 0; i < n_in; i++) {
        in[i].dims = in[i].dims_inline;
        ins[i] = &in[i];
    }
    out->dims = out->dims_inline;
    outs[0] = out;
    nn_op_call c = {.op_type = op, .n_in = n_in, .n_out = 1, .in = ins, .out = outs,
                    .feature_level = level};
    const nn_op_def *def = nn_op_lookup(op);
    return def ? def->validate(&c) : -1;
}

/* Refused one level below `level` (and at FL5 for everything), accepted at it. */
static void check_level(const char *what, int32_t op, int32_t level, nn_tensor *in,
                        uint32_t n_in, nn_tensor *out)
{
    int32_t below = level == FL6 ? FL5 : level - 1;
    char name[160];
    snprintf(name, sizeof name, "%s below its feature level", what);
    nt_record_rc(validate_at(op, below, in, n_in, out), ANEURALNETWORKS_BAD_DATA, __FILE__,
                 __LINE__, name);
    snprintf(name, sizeof name, "%s at its feature level", what);
    nt_record_rc(validate_at(op, level, in, n_in, out), ANEURALNETWORKS_NO_ERROR, __FILE__,
                 __LINE__, name);
}

static void test_levels(void)
{
    const uint32_t d23[] = {2, 3}, d32[] = {3, 2}, d22[] = {2, 2}, d223[] = {2, 2, 3};
    const uint32_t d1[] = {1}, d6[] = {6}, d42[] = {4, 2}, d2[] = {2};
    bool no = false;
    int32_t axis0 = 0, mode = 0;
    int32_t shape6[] = {6}, rev_axis[] = {1}, pads[] = {1, 1, 0, 0};

    nn_tensor bmm_in[] = {tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 2, d23, 0, 0),
                          tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 2, d32, 0, 0),
                          scalar(ANEURALNETWORKS_BOOL, &no, 1), scalar(ANEURALNETWORKS_BOOL, &no, 1)};
    nn_tensor bmm_out = tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 2, d22, 0, 0);
    check_level("BATCH_MATMUL float32", ANEURALNETWORKS_BATCH_MATMUL, FL6, bmm_in, 4, &bmm_out);
    bmm_in[0].type = bmm_in[1].type = bmm_out.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    bmm_in[0].scale = bmm_in[1].scale = bmm_out.scale = 0.5f;
    check_level("BATCH_MATMUL int8", ANEURALNETWORKS_BATCH_MATMUL, FL6, bmm_in, 4, &bmm_out);
    /* Unsigned 8-bit is not among its types at any level. */
    bmm_in[0].type = bmm_in[1].type = bmm_out.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    CHECK_RC(validate_at(ANEURALNETWORKS_BATCH_MATMUL, FL7, bmm_in, 4, &bmm_out),
             ANEURALNETWORKS_BAD_DATA);

    nn_tensor pack_in[] = {scalar(ANEURALNETWORKS_INT32, &axis0, 4),
                           tensor(ANEURALNETWORKS_TENSOR_INT32, 2, d23, 0, 0),
                           tensor(ANEURALNETWORKS_TENSOR_INT32, 2, d23, 0, 0)};
    nn_tensor pack_out = tensor(ANEURALNETWORKS_TENSOR_INT32, 3, d223, 0, 0);
    check_level("PACK", ANEURALNETWORKS_PACK, FL6, pack_in, 3, &pack_out);

    nn_tensor reshape_in[] = {tensor(ANEURALNETWORKS_TENSOR_INT32, 2, d23, 0, 0),
                              tensor(ANEURALNETWORKS_TENSOR_INT32, 1, d1, 0, 0)};
    reshape_in[1].data = shape6;
    reshape_in[1].bytes = sizeof shape6;
    reshape_in[1].constant = true;
    nn_tensor reshape_out = tensor(ANEURALNETWORKS_TENSOR_INT32, 1, d6, 0, 0);
    check_level("RESHAPE int32", ANEURALNETWORKS_RESHAPE, FL6, reshape_in, 2, &reshape_out);

    nn_tensor mp_in[] = {tensor(ANEURALNETWORKS_TENSOR_FLOAT16, 2, d22, 0, 0),
                         tensor(ANEURALNETWORKS_TENSOR_INT32, 2, d22, 0, 0),
                         scalar(ANEURALNETWORKS_INT32, &mode, 4)};
    mp_in[1].data = pads;
    mp_in[1].bytes = sizeof pads;
    mp_in[1].constant = true;
    nn_tensor mp_out = tensor(ANEURALNETWORKS_TENSOR_FLOAT16, 2, d42, 0, 0);
    check_level("MIRROR_PAD", ANEURALNETWORKS_MIRROR_PAD, FL7, mp_in, 3, &mp_out);

    nn_tensor rev_in[] = {tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, d23, 0.25f, 3),
                          tensor(ANEURALNETWORKS_TENSOR_INT32, 1, d1, 0, 0)};
    rev_in[1].data = rev_axis;
    rev_in[1].bytes = sizeof rev_axis;
    rev_in[1].constant = true;
    nn_tensor rev_out = tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, d23, 0.25f, 3);
    check_level("REVERSE", ANEURALNETWORKS_REVERSE, FL7, rev_in, 2, &rev_out);

    nn_tensor rsqrt_in = tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, d2, 0.5f, 0);
    nn_tensor rsqrt_out = tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, d2, 0.25f, 1);
    check_level("RSQRT int8", ANEURALNETWORKS_RSQRT, FL7, &rsqrt_in, 1, &rsqrt_out);
    rsqrt_in.type = rsqrt_out.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    check_level("RSQRT uint8", ANEURALNETWORKS_RSQRT, FL7, &rsqrt_in, 1, &rsqrt_out);
    /* What was already there stays valid at FL5. */
    rsqrt_in.type = rsqrt_out.type = ANEURALNETWORKS_TENSOR_FLOAT32;
    CHECK_RC(validate_at(ANEURALNETWORKS_RSQRT, FL5, &rsqrt_in, 1, &rsqrt_out),
             ANEURALNETWORKS_NO_ERROR);
}

/* ---- 2. BATCH_MATMUL through the public API ---- */

typedef struct bmm_case {
    int32_t type;
    uint32_t rank;
    uint32_t x_dims[4], y_dims[4], out_dims[4];
    bool adj_x, adj_y;
    bool adj_as_inputs; /* adj_x, adj_y given at execution, not as constants */
    float x_scale, y_scale, out_scale;
    int32_t x_zero, y_zero, out_zero;
} bmm_case;

static size_t count_of(uint32_t rank, const uint32_t *dims)
{
    size_t n = 1;
    for (uint32_t i = 0; i < rank; i++)
        n *= dims[i];
    return n;
}

static size_t elem_size(int32_t type)
{
    return type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ? 1 : 4;
}

/* Compiles and runs one BATCH_MATMUL; NO_ERROR or the failing call's code. */
static int run_bmm(const bmm_case *k, const void *x, const void *y, void *out)
{
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksExecution *e = NULL;
    int rc = ANeuralNetworksModel_create(&m);
    ANeuralNetworksOperandType tx = {k->type, k->rank, k->x_dims, k->x_scale, k->x_zero};
    ANeuralNetworksOperandType ty = {k->type, k->rank, k->y_dims, k->y_scale, k->y_zero};
    ANeuralNetworksOperandType to = {k->type, k->rank, k->out_dims, k->out_scale, k->out_zero};
    ANeuralNetworksOperandType tb = {ANEURALNETWORKS_BOOL, 0, NULL, 0.0f, 0};
    const uint32_t ins[] = {0, 1, 2, 3}, outs[] = {4}, model_ins[] = {0, 1, 2, 3};
    bool adj_x = k->adj_x, adj_y = k->adj_y;
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &tx);
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &ty);
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &tb);
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &tb);
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &to);
    if (!rc && !k->adj_as_inputs) rc = ANeuralNetworksModel_setOperandValue(m, 2, &adj_x, 1);
    if (!rc && !k->adj_as_inputs) rc = ANeuralNetworksModel_setOperandValue(m, 3, &adj_y, 1);
    if (!rc) rc = ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_BATCH_MATMUL, 4, ins, 1, outs);
    if (!rc)
        rc = ANeuralNetworksModel_identifyInputsAndOutputs(m, k->adj_as_inputs ? 4 : 2, model_ins,
                                                           1, outs);
    if (!rc) rc = ANeuralNetworksModel_finish(m);
    if (!rc) rc = ANeuralNetworksCompilation_create(m, &c);
    if (!rc) rc = ANeuralNetworksCompilation_finish(c);
    if (!rc) rc = ANeuralNetworksExecution_create(c, &e);
    size_t es = elem_size(k->type);
    if (!rc) rc = ANeuralNetworksExecution_setInput(e, 0, NULL, x, count_of(k->rank, k->x_dims) * es);
    if (!rc) rc = ANeuralNetworksExecution_setInput(e, 1, NULL, y, count_of(k->rank, k->y_dims) * es);
    if (!rc)
        rc = ANeuralNetworksExecution_setOutput(e, 0, NULL, out, count_of(k->rank, k->out_dims) * es);
    if (!rc && k->adj_as_inputs) rc = ANeuralNetworksExecution_setInput(e, 2, NULL, &adj_x, 1);
    if (!rc && k->adj_as_inputs) rc = ANeuralNetworksExecution_setInput(e, 3, NULL, &adj_y, 1);
    if (!rc) rc = ANeuralNetworksExecution_compute(e);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    return rc;
}

/* Reference: element (b, i, j) as a 64-bit sum, batch dims broadcast. */
static int64_t ref_bmm(const bmm_case *k, const void *x, const void *y, size_t b, size_t i,
                       size_t j, double *real)
{
    uint32_t r = k->rank;
    size_t xr = k->x_dims[r - 2], xc = k->x_dims[r - 1], yr = k->y_dims[r - 2],
           yc = k->y_dims[r - 1];
    size_t depth = k->adj_x ? xr : xc;
    /* Batch coordinates of b in the output, mapped onto each input. */
    size_t xb = 0, yb = 0, xs = 1, ys = 1, rest = b;
    for (uint32_t d = r - 2; d-- > 0;) {
        size_t coord = rest % k->out_dims[d];
        rest /= k->out_dims[d];
        xb += (k->x_dims[d] == 1 ? 0 : coord) * xs;
        yb += (k->y_dims[d] == 1 ? 0 : coord) * ys;
        xs *= k->x_dims[d];
        ys *= k->y_dims[d];
    }
    int64_t acc = 0;
    double facc = 0.0;
    for (size_t p = 0; p < depth; p++) {
        size_t xi = xb * xr * xc + (k->adj_x ? p * xc + i : i * xc + p);
        size_t yi = yb * yr * yc + (k->adj_y ? j * yc + p : p * yc + j);
        if (k->type == ANEURALNETWORKS_TENSOR_FLOAT32) {
            facc += (double)((const float *)x)[xi] * ((const float *)y)[yi];
        } else if (k->type == ANEURALNETWORKS_TENSOR_INT32) {
            acc += (int64_t)((const int32_t *)x)[xi] * ((const int32_t *)y)[yi];
        } else {
            acc += (int64_t)(((const int8_t *)x)[xi] - k->x_zero) *
                   (((const int8_t *)y)[yi] - k->y_zero);
        }
    }
    *real = facc;
    return acc;
}

static void check_bmm(const char *what, const bmm_case *k, uint32_t seed)
{
    size_t nx = count_of(k->rank, k->x_dims), ny = count_of(k->rank, k->y_dims),
           no = count_of(k->rank, k->out_dims), es = elem_size(k->type);
    unsigned char *x = malloc(nx * es), *y = malloc(ny * es), *out = malloc(no * es);
    if (!CHECK(x && y && out)) {
        free(x), free(y), free(out);
        return;
    }
    srand(seed);
    for (size_t i = 0; i < nx + ny; i++) {
        unsigned char *dst = i < nx ? x + i * es : y + (i - nx) * es;
        if (k->type == ANEURALNETWORKS_TENSOR_FLOAT32) {
            float v = (float)(rand() % 2001 - 1000) / 250.0f;
            memcpy(dst, &v, 4);
        } else if (k->type == ANEURALNETWORKS_TENSOR_INT32) {
            /* Large enough that some sums leave the int32 range. */
            int32_t v = (int32_t)(rand() % 200001 - 100000) * 1000;
            memcpy(dst, &v, 4);
        } else {
            *(int8_t *)dst = (int8_t)(rand() % 5 - 2);
        }
    }
    int rc = run_bmm(k, x, y, out);
    nt_record_rc(rc, ANEURALNETWORKS_NO_ERROR, __FILE__, __LINE__, what);
    uint32_t r = k->rank;
    size_t m = k->out_dims[r - 2], n = k->out_dims[r - 1];
    size_t bad = 0;
    for (size_t o = 0; rc == 0 && o < no; o++) {
        double real;
        int64_t acc = ref_bmm(k, x, y, o / (m * n), o / n % m, o % n, &real);
        if (k->type == ANEURALNETWORKS_TENSOR_FLOAT32) {
            float got;
            memcpy(&got, out + o * 4, 4);
            bad += fabs(got - real) > 1e-4 * (1.0 + fabs(real));
        } else if (k->type == ANEURALNETWORKS_TENSOR_INT32) {
            int32_t got;
            memcpy(&got, out + o * 4, 4);
            bad += got != (int32_t)(uint32_t)(uint64_t)acc;
        } else {
            double q = (double)acc * k->x_scale * k->y_scale / k->out_scale + k->out_zero;
            q = q < -128 ? -128 : q > 127 ? 127 : q;
            bad += fabs(((int8_t *)out)[o] - round(q)) > 1;
        }
    }
    if (!nt_record(rc == 0 && bad == 0, __FILE__, __LINE__, what))
        fprintf(stderr, "    (%zu of %zu elements differ)\n", bad, no);
    free(x), free(y), free(out);
}

static void test_batch_matmul(void)
{
    /* X [2,1,2,3] . Y [1,3,3,4]: each side's size-1 batch dimension repeats. */
    bmm_case bc = {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .rank = 4,
                   .x_dims = {2, 1, 2, 3}, .y_dims = {1, 3, 3, 4}, .out_dims = {2, 3, 2, 4}};
    check_bmm("float32, broadcast batches", &bc, 1);
    bmm_case adj = {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .rank = 3, .adj_x = true,
                    .adj_y = true, .x_dims = {1, 7, 5}, .y_dims = {3, 6, 7}, .out_dims = {3, 5, 6}};
    check_bmm("float32, adj_x and adj_y, broadcast", &adj, 2);
    /* Shapes that only fit with the adjoints, whose values come at execution. */
    adj.adj_as_inputs = true;
    check_bmm("float32, adj_x and adj_y as model inputs", &adj, 7);
    bmm_case big = {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .rank = 3, .adj_y = true,
                    .x_dims = {4, 37, 64}, .y_dims = {4, 29, 64}, .out_dims = {4, 37, 29}};
    check_bmm("float32, packed GEMM sizes", &big, 3);
    bmm_case i32 = {.type = ANEURALNETWORKS_TENSOR_INT32, .rank = 2, .adj_x = true,
                    .x_dims = {9, 4}, .y_dims = {9, 3}, .out_dims = {4, 3}};
    check_bmm("int32, wrapping sums", &i32, 4);
    bmm_case q8 = {.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, .rank = 3,
                   .x_dims = {2, 5, 40}, .y_dims = {1, 40, 6}, .out_dims = {2, 5, 6},
                   .x_scale = 0.5f, .y_scale = 0.25f, .out_scale = 0.125f,
                   .x_zero = 1, .y_zero = -1, .out_zero = -3};
    check_bmm("int8, broadcast", &q8, 5);
    bmm_case deep = {.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, .rank = 2, .adj_y = true,
                     .x_dims = {2, 70000}, .y_dims = {3, 70000}, .out_dims = {2, 3},
                     .x_scale = 0.5f, .y_scale = 0.5f, .out_scale = 64.0f,
                     .x_zero = 0, .y_zero = 0, .out_zero = 0};
    check_bmm("int8, depth beyond the int32 GEMM", &deep, 6);

    /* Incompatible batch dimensions (2 vs 3) and inner dimensions: Android's
     * validation checks types and ranks, its CPU executor the dimensions, so
     * the model builds and compiles and computing it fails (issue 15). */
    float buf[64] = {0};
    bmm_case clash = {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .rank = 3,
                      .x_dims = {2, 2, 2}, .y_dims = {3, 2, 2}, .out_dims = {3, 2, 2}};
    CHECK_RC(run_bmm(&clash, buf, buf, buf), ANEURALNETWORKS_OP_FAILED);
    bmm_case depth = {.type = ANEURALNETWORKS_TENSOR_FLOAT32, .rank = 2,
                      .x_dims = {2, 3}, .y_dims = {2, 3}, .out_dims = {2, 3}};
    CHECK_RC(run_bmm(&depth, buf, buf, buf), ANEURALNETWORKS_OP_FAILED);
}

/* ---- 3. ranks ---- */

static int add_unary_model(int32_t op, uint32_t rank, int32_t second_value, bool mirror)
{
    ANeuralNetworksModel *m = NULL;
    uint32_t dims[32], pad_dims[2] = {rank, 2}, one = 1;
    for (uint32_t i = 0; i < rank; i++)
        dims[i] = 2;
    int32_t pads[2 * 32] = {0};
    ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_FLOAT32, rank, dims, 0.0f, 0};
    ANeuralNetworksOperandType ta = {ANEURALNETWORKS_TENSOR_INT32, mirror ? 2 : 1,
                                     mirror ? pad_dims : &one, 0.0f, 0};
    ANeuralNetworksOperandType ts = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
    const uint32_t ins[] = {0, 1, 3}, outs[] = {2};
    int rc = ANeuralNetworksModel_create(&m);
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &t);
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &ta);
    if (!rc) rc = ANeuralNetworksModel_addOperand(m, &t);
    if (!rc && mirror) rc = ANeuralNetworksModel_addOperand(m, &ts);
    if (!rc && mirror) rc = ANeuralNetworksModel_setOperandValue(m, 1, pads, 2 * rank * sizeof pads[0]);
    if (!rc && !mirror) rc = ANeuralNetworksModel_setOperandValue(m, 1, &second_value, 4);
    if (!rc && mirror) rc = ANeuralNetworksModel_setOperandValue(m, 3, &second_value, 4);
    if (!rc) rc = ANeuralNetworksModel_addOperation(m, op, mirror ? 3 : 2, ins, 1, outs);
    ANeuralNetworksModel_free(m);
    return rc;
}

static void test_ranks(void)
{
    CHECK_RC(add_unary_model(ANEURALNETWORKS_REVERSE, 8, 7, false), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(add_unary_model(ANEURALNETWORKS_REVERSE, 9, 0, false), ANEURALNETWORKS_BAD_DATA);
    /* A constant axis out of range is a value: Android checks it when
     * computing, so addOperation takes it (issue 15). */
    CHECK_RC(add_unary_model(ANEURALNETWORKS_REVERSE, 3, 3, false), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(add_unary_model(ANEURALNETWORKS_MIRROR_PAD, 12, 1, true), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(add_unary_model(ANEURALNETWORKS_MIRROR_PAD, 2, 2, true), ANEURALNETWORKS_BAD_DATA);
}

int main(void)
{
    test_levels();
    test_batch_matmul();
    test_ranks();
    return nt_summary();
}
