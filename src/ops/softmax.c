/* SOFTMAX and LOG_SOFTMAX along one axis, computed in float32; quantized
 * SOFTMAX as TensorFlow Lite computes it (a float table of exponentials). */
#include <math.h>
#include <string.h>

#include "kernels/float_ops.h"
#include "kernels/fp16.h"
#include "kernels/qops.h"
#include "kernels/quant.h"
#include "ops/conv_common.h"
#include "util/threadpool.h"

static int softmax_validate_kind(const nn_op_call *c, bool log)
{
    if (nn_check_counts(c, log ? 3 : 2, 3, 1))
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0], *beta = c->in[1], *out = c->out[0];
    int32_t t = in->type;
    bool ok = t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16 ||
              (!log && nn_type_is_quant8(t));
    if (!ok)
        return nn_invalid("the operation does not take %s", nn_type_name(t));
    if (!nn_conv_type_level_ok(c, t) || nn_expect_type(c, true, 0, t) || nn_check_quant(in))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t bt = t == ANEURALNETWORKS_TENSOR_FLOAT16 ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32;
    if (nn_expect_type(c, false, 1, bt))
        return ANEURALNETWORKS_BAD_DATA;
    if (beta->data && !(nn_scalar_f32(beta) > 0.0f))
        return nn_invalid("input 1 (beta) %g is not positive", (double)nn_scalar_f32(beta));
    if (nn_check_rank(in, 1, log ? NN_ANY_RANK : 4))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t fl = c->feature_level;
    if (!log && fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 &&
        ((in->rank != 0 && in->rank != 2 && in->rank != 4) || c->n_in > 2))
        return nn_invalid("rank %u or an axis input needs feature level 3", in->rank);
    if (nn_type_is_quant8(t)) {
        int32_t zp = t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ? 0 : -128;
        if (nn_check_value(c, fabsf(out->scale - 1.0f / 256.0f) <= 1e-9f && out->zero_point == zp,
                           "output scale %g zero point %d, expected 1/256 and %d",
                           (double)out->scale, out->zero_point, zp))
            return ANEURALNETWORKS_BAD_DATA;
    }
    uint32_t axis;
    bool known;
    return nn_read_axis(c, 2, in->rank, &axis, &known);
}

static int validate_softmax(const nn_op_call *c) { return softmax_validate_kind(c, false); }
static int validate_log_softmax(const nn_op_call *c) { return softmax_validate_kind(c, true); }

static int prepare_softmax(nn_op_call *c)
{
    uint32_t axis;
    bool known;
    int err = nn_read_axis(c, 2, c->in[0]->rank, &axis, &known);
    if (err)
        return err;
    c->scratch_bytes = 0;
    return nn_tensor_copy_shape(c->out[0], c->in[0]);
}

typedef struct sm_job {
    const nn_tensor *in;
    nn_tensor *out;
    size_t len, inner;
    float beta;
    bool log;
    float table[256]; /* quantized: table[255 - d] = exp(-in_scale * beta * d) */
} sm_job;

/* TFLite's quantized softmax, bit for bit: exponentials of the distances to
 * the slice's maximum from a float32 table, summed in float32 in order, and
 * the probabilities rounded to the 1/256 output steps (uint8 by adding one
 * half and truncating, int8 to nearest). The NNAPI specification fixes only
 * the output scale and zero point. */
static void softmax_q8_slice(const sm_job *J, size_t base)
{
    bool sgn = J->in->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    const uint8_t *in = J->in->data;
    uint8_t *out = J->out->data;
    if (J->len == 0)
        return;
    /* A contiguous row: the vector kernels (kernels/qops.h) for the maximum
     * and the outputs; the sum stays in order, as TFLite adds. */
    bool row = J->inner == 1;
    int32_t mx = INT32_MIN;
    if (row) {
        mx = nn_q8_max(in + base, sgn, J->len);
    } else {
        for (size_t i = 0; i < J->len; i++) {
            uint8_t b = in[base + i * J->inner];
            int32_t v = sgn ? (int8_t)b : b;
            mx = v > mx ? v : mx;
        }
    }
    const float *e = J->table + 255 - mx;
    float sum = 0.0f;
    for (size_t i = 0; i < J->len; i++) {
        uint8_t b = in[base + i * J->inner];
        sum += e[sgn ? (int8_t)b : b];
    }
    float inv = 1.0f / (sum * J->out->scale);
    if (row) {
        nn_q8_softmax_out(e, inv, in + base, sgn, J->out->zero_point, out + base, J->len);
        return;
    }
    for (size_t i = 0; i < J->len; i++)
        nn_q8_softmax_out_c(e, inv, in + base + i * J->inner, sgn, J->out->zero_point,
                            out + base + i * J->inner, 1);
}

static void softmax_slices(void *arg, size_t begin, size_t end)
{
    const sm_job *J = arg;
    for (size_t s = begin; s < end; s++) {
        size_t o = s / J->inner, in = s % J->inner;
        size_t base = o * J->len * J->inner + in;
        if (nn_type_is_quant8(J->in->type)) {
            softmax_q8_slice(J, base);
            continue;
        }
        /* A contiguous float32 row: the vector kernel (kernels/float_ops.h). */
        if (J->in->type == ANEURALNETWORKS_TENSOR_FLOAT32 && J->inner == 1 &&
            nn_softmax_f32_row((const float *)J->in->data + base, (float *)J->out->data + base,
                               J->len, J->beta, J->log))
            continue;
        float mx = -INFINITY;
        for (size_t i = 0; i < J->len; i++) {
            float v = nn_tensor_load_real(J->in, base + i * J->inner);
            mx = v > mx ? v : mx;
        }
        double sum = 0.0;
        for (size_t i = 0; i < J->len; i++)
            sum += exp((double)(nn_tensor_load_real(J->in, base + i * J->inner) - mx) * J->beta);
        double lsum = log(sum);
        for (size_t i = 0; i < J->len; i++) {
            double z = (double)(nn_tensor_load_real(J->in, base + i * J->inner) - mx) * J->beta;
            float v = J->log ? (float)(z - lsum) : (float)(exp(z) / sum);
            nn_tensor_store_real(J->out, base + i * J->inner, v);
        }
    }
}

static int execute_kind(nn_op_call *c, bool log)
{
    uint32_t axis = 0;
    bool known;
    int err = nn_read_axis(c, 2, c->in[0]->rank, &axis, &known);
    if (err)
        return err;
    if (!known)
        return ANEURALNETWORKS_OP_FAILED;
    size_t outer, len, inner;
    nn_axis_split(c->in[0], axis, &outer, &len, &inner);
    sm_job J = {.in = c->in[0], .out = c->out[0], .len = len, .inner = inner,
                .beta = nn_scalar_f32(c->in[1]), .log = log};
    if (nn_type_is_quant8(c->in[0]->type)) {
        float scale = -c->in[0]->scale * J.beta;
        /* The maximum's own term is exactly 1 even for an infinite beta
         * (inf * 0 would be NaN), so the sum is at least 1. */
        J.table[255] = 1.0f;
        for (int d = 1; d < 256; d++)
            J.table[255 - d] = expf(scale * (float)d);
    }
    size_t slices = outer * inner;
    nn_parallel_for(slices, len ? 4096 / len + 1 : slices, softmax_slices, &J);
    return ANEURALNETWORKS_NO_ERROR;
}

static int execute_softmax(nn_op_call *c) { return execute_kind(c, false); }
static int execute_log_softmax(nn_op_call *c) { return execute_kind(c, true); }

const nn_op_def nn_op_SOFTMAX = {
    .code = ANEURALNETWORKS_SOFTMAX, .name = "SOFTMAX", .validate = validate_softmax,
    .prepare = prepare_softmax, .execute = execute_softmax,
};
const nn_op_def nn_op_LOG_SOFTMAX = {
    .code = ANEURALNETWORKS_LOG_SOFTMAX, .name = "LOG_SOFTMAX", .validate = validate_log_softmax,
    .prepare = prepare_softmax, .execute = execute_log_softmax,
};
