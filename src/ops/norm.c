/* L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION and INSTANCE_NORMALIZATION,
 * computed in float32 (quantized L2 normalisation through real values). */
#include <math.h>
#include <string.h>

#include "ops/conv_common.h"
#include "util/threadpool.h"

static bool float_type(int32_t t)
{
    return t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
}

static int32_t scalar_type_for(int32_t t)
{
    return t == ANEURALNETWORKS_TENSOR_FLOAT16 ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32;
}

/* Common rank rule: up to 4-D, exactly 4-D before feature level 3. */
static int check_norm_rank(const nn_op_call *c, const nn_tensor *in)
{
    if (nn_check_rank(in, 1, 4))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t fl = c->feature_level;
    if (fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 && in->rank != 0 && in->rank != 4)
        return nn_invalid("input 0 of rank %u: ranks other than 4 need feature level 3", in->rank);
    return ANEURALNETWORKS_NO_ERROR;
}

static int prepare_same_shape(nn_op_call *c, uint32_t axis_idx)
{
    if (axis_idx) {
        uint32_t axis;
        bool known;
        int err = nn_read_axis(c, axis_idx, c->in[0]->rank, &axis, &known);
        if (err)
            return err;
    }
    c->scratch_bytes = 0;
    return nn_tensor_copy_shape(c->out[0], c->in[0]);
}

/* ---- L2_NORMALIZATION ---- */

static int validate_l2norm(const nn_op_call *c)
{
    if (nn_check_counts(c, 1, 2, 1))
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0], *out = c->out[0];
    int32_t t = in->type;
    if (!float_type(t) && !nn_type_is_quant8(t))
        return nn_invalid("the operation does not take %s", nn_type_name(t));
    if (nn_expect_type(c, true, 0, t) || nn_check_quant(in))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t fl = c->feature_level;
    if (!nn_conv_type_level_ok(c, t) ||
        (fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 && (t != ANEURALNETWORKS_TENSOR_FLOAT32 || c->n_in > 1)))
        return nn_invalid("%s or an axis input needs feature level 3", nn_type_name(t));
    if (check_norm_rank(c, in))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_type_is_quant8(t)) {
        int32_t zp = t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ? 128 : 0;
        if (nn_check_value(c, fabsf(out->scale - 1.0f / 128.0f) <= 1e-9f && out->zero_point == zp,
                           "output scale %g zero point %d, expected 1/128 and %d",
                           (double)out->scale, out->zero_point, zp))
            return ANEURALNETWORKS_BAD_DATA;
    }
    uint32_t axis;
    bool known;
    return nn_read_axis(c, 1, in->rank, &axis, &known);
}

static int prepare_l2norm(nn_op_call *c) { return prepare_same_shape(c, 1); }

typedef struct axis_job {
    const nn_tensor *in;
    nn_tensor *out;
    size_t len, inner;
    int32_t radius;
    float bias, alpha, beta;
} axis_job;

static void l2norm_slices(void *arg, size_t begin, size_t end)
{
    const axis_job *J = arg;
    const nn_tensor *in = J->in;
    bool quant = nn_type_is_quant8(in->type);
    for (size_t s = begin; s < end; s++) {
        size_t base = (s / J->inner) * J->len * J->inner + s % J->inner;
        double sum = 0.0;
        for (size_t i = 0; i < J->len; i++) {
            /* The quantized input's scale cancels out of x / |x|. */
            double v = quant ? nn_tensor_load_real(in, base + i * J->inner) / in->scale
                             : nn_tensor_load_real(in, base + i * J->inner);
            sum += v * v;
        }
        double norm = sqrt(sum);
        if (norm < 1e-6)
            norm = 1e-6;
        for (size_t i = 0; i < J->len; i++) {
            double v = quant ? nn_tensor_load_real(in, base + i * J->inner) / in->scale
                             : nn_tensor_load_real(in, base + i * J->inner);
            nn_tensor_store_real(J->out, base + i * J->inner, (float)(v / norm));
        }
    }
}

static int run_axis(nn_op_call *c, uint32_t axis_idx, nn_range_fn fn, axis_job *J)
{
    uint32_t axis = 0;
    bool known;
    int err = nn_read_axis(c, axis_idx, c->in[0]->rank, &axis, &known);
    if (err)
        return err;
    if (!known)
        return ANEURALNETWORKS_OP_FAILED;
    size_t outer;
    nn_axis_split(c->in[0], axis, &outer, &J->len, &J->inner);
    J->in = c->in[0];
    J->out = c->out[0];
    size_t slices = outer * J->inner;
    nn_parallel_for(slices, J->len ? 4096 / J->len + 1 : slices, fn, J);
    return ANEURALNETWORKS_NO_ERROR;
}

static int execute_l2norm(nn_op_call *c)
{
    axis_job J = {0};
    return run_axis(c, 1, l2norm_slices, &J);
}

/* ---- LOCAL_RESPONSE_NORMALIZATION ---- */

static int validate_lrn(const nn_op_call *c)
{
    if (nn_check_counts(c, 5, 6, 1))
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0];
    int32_t t = in->type;
    if (!float_type(t))
        return nn_invalid("the operation does not take %s", nn_type_name(t));
    if (nn_expect_type(c, true, 0, t) || !nn_conv_type_level_ok(c, t) || check_norm_rank(c, in))
        return ANEURALNETWORKS_BAD_DATA;
    int32_t fl = c->feature_level;
    if (fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 && c->n_in > 5)
        return nn_invalid("an axis input needs feature level 3");
    const nn_tensor *r = c->in[1];
    if (nn_expect_type(c, false, 1, ANEURALNETWORKS_INT32))
        return ANEURALNETWORKS_BAD_DATA;
    if (r->data && nn_scalar_i32(r) < 0)
        return nn_invalid("input 1 (radius) %d is negative", nn_scalar_i32(r));
    for (uint32_t i = 2; i <= 4; i++)
        if (nn_expect_type(c, false, i, scalar_type_for(t)))
            return ANEURALNETWORKS_BAD_DATA;
    uint32_t axis;
    bool known;
    return nn_read_axis(c, 5, in->rank, &axis, &known);
}

static int prepare_lrn(nn_op_call *c) { return prepare_same_shape(c, 5); }

static void lrn_slices(void *arg, size_t begin, size_t end)
{
    const axis_job *J = arg;
    const int64_t len = (int64_t)J->len;
    for (size_t s = begin; s < end; s++) {
        size_t base = (s / J->inner) * J->len * J->inner + s % J->inner;
        for (int64_t d = 0; d < len; d++) {
            int64_t lo = d - J->radius < 0 ? 0 : d - J->radius;
            int64_t hi = d + J->radius >= len ? len - 1 : d + J->radius;
            float sq = 0.0f;
            for (int64_t k = lo; k <= hi; k++) {
                float v = nn_tensor_load_real(J->in, base + (size_t)k * J->inner);
                sq += v * v;
            }
            float x = nn_tensor_load_real(J->in, base + (size_t)d * J->inner);
            nn_tensor_store_real(J->out, base + (size_t)d * J->inner,
                                 x / powf(J->bias + J->alpha * sq, J->beta));
        }
    }
}

static int execute_lrn(nn_op_call *c)
{
    axis_job J = {.radius = nn_scalar_i32(c->in[1]), .bias = nn_scalar_f32(c->in[2]),
                  .alpha = nn_scalar_f32(c->in[3]), .beta = nn_scalar_f32(c->in[4])};
    return run_axis(c, 5, lrn_slices, &J);
}

/* ---- INSTANCE_NORMALIZATION ---- */

static int validate_instance(const nn_op_call *c)
{
    if (nn_check_counts(c, 5, 5, 1))
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0];
    int32_t t = in->type;
    if (!float_type(t))
        return nn_invalid("the operation does not take %s", nn_type_name(t));
    if (nn_expect_type(c, true, 0, t) || nn_check_rank(in, 4, 4))
        return ANEURALNETWORKS_BAD_DATA;
    for (uint32_t i = 1; i <= 3; i++)
        if (nn_expect_type(c, false, i, scalar_type_for(t)))
            return ANEURALNETWORKS_BAD_DATA;
    return c->in[4]->type == ANEURALNETWORKS_BOOL ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA;
}

static int prepare_instance(nn_op_call *c)
{
    if (c->in[0]->rank != 4)
        return ANEURALNETWORKS_BAD_DATA;
    return prepare_same_shape(c, 0);
}

typedef struct inst_job {
    const nn_tensor *in;
    nn_tensor *out;
    bool nchw;
    size_t hw, ch;
    float gamma, beta, eps;
} inst_job;

static void instance_slices(void *arg, size_t begin, size_t end)
{
    const inst_job *J = arg;
    for (size_t s = begin; s < end; s++) {
        size_t n = s / J->ch, c = s % J->ch;
        size_t base = J->nchw ? s * J->hw : n * J->hw * J->ch + c;
        size_t step = J->nchw ? 1 : J->ch;
        double sum = 0.0;
        for (size_t p = 0; p < J->hw; p++)
            sum += nn_tensor_load_real(J->in, base + p * step);
        double mean = J->hw ? sum / (double)J->hw : 0.0;
        double var = 0.0;
        for (size_t p = 0; p < J->hw; p++) {
            double d = nn_tensor_load_real(J->in, base + p * step) - mean;
            var += d * d;
        }
        var = J->hw ? var / (double)J->hw : 0.0;
        double scale = J->gamma / sqrt(var + J->eps);
        for (size_t p = 0; p < J->hw; p++) {
            double x = nn_tensor_load_real(J->in, base + p * step);
            nn_tensor_store_real(J->out, base + p * step, (float)((x - mean) * scale + J->beta));
        }
    }
}

static int execute_instance(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    inst_job J = {.in = in, .out = c->out[0], .nchw = nn_scalar_bool(c->in[4]),
                  .gamma = nn_scalar_f32(c->in[1]), .beta = nn_scalar_f32(c->in[2]),
                  .eps = nn_scalar_f32(c->in[3])};
    uint32_t d[4];
    nn_conv_nhwc_dims(in, J.nchw, d);
    J.hw = (size_t)d[1] * d[2];
    J.ch = d[3];
    size_t slices = (size_t)d[0] * d[3];
    nn_parallel_for(slices, J.hw ? 4096 / J.hw + 1 : slices, instance_slices, &J);
    return ANEURALNETWORKS_NO_ERROR;
}

const nn_op_def nn_op_L2_NORMALIZATION = {
    .code = ANEURALNETWORKS_L2_NORMALIZATION, .name = "L2_NORMALIZATION",
    .validate = validate_l2norm, .prepare = prepare_l2norm, .execute = execute_l2norm,
};
const nn_op_def nn_op_LOCAL_RESPONSE_NORMALIZATION = {
    .code = ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, .name = "LOCAL_RESPONSE_NORMALIZATION",
    .validate = validate_lrn, .prepare = prepare_lrn, .execute = execute_lrn,
};
const nn_op_def nn_op_INSTANCE_NORMALIZATION = {
    .code = ANEURALNETWORKS_INSTANCE_NORMALIZATION, .name = "INSTANCE_NORMALIZATION",
    .validate = validate_instance, .prepare = prepare_instance, .execute = execute_instance,
};
