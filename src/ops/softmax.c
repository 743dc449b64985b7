/* SOFTMAX and LOG_SOFTMAX along one axis, computed in float32. */
#include <math.h>
#include <string.h>

#include "kernels/fp16.h"
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
    if (!ok || !nn_conv_type_level_ok(c, t) || out->type != t || nn_check_quant(in))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t bt = t == ANEURALNETWORKS_TENSOR_FLOAT16 ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32;
    if (beta->type != bt)
        return ANEURALNETWORKS_BAD_DATA;
    if (beta->data && !(nn_scalar_f32(beta) > 0.0f))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(in, 1, log ? NN_MAX_RANK : 4))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t fl = c->feature_level;
    if (!log && fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 &&
        ((in->rank != 0 && in->rank != 2 && in->rank != 4) || c->n_in > 2))
        return ANEURALNETWORKS_BAD_DATA;
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
    nn_tensor_copy_shape(c->out[0], c->in[0]);
    c->scratch_bytes = 0;
    return ANEURALNETWORKS_NO_ERROR;
}

typedef struct sm_job {
    const nn_tensor *in;
    nn_tensor *out;
    size_t len, inner;
    float beta;
    bool log;
} sm_job;

static void softmax_slices(void *arg, size_t begin, size_t end)
{
    const sm_job *J = arg;
    for (size_t s = begin; s < end; s++) {
        size_t o = s / J->inner, in = s % J->inner;
        size_t base = o * J->len * J->inner + in;
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
