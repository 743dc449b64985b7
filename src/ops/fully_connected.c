/* FULLY_CONNECTED: out[B, U] = act(in[B, I] . weights[U, I]^T + bias). */
#include <string.h>

#include "kernels/fp16.h"
#include "kernels/gemm.h"
#include "kernels/quant.h"
#include "ops/conv_common.h"

static size_t align64(size_t v) { return (v + 63) & ~(size_t)63; }

static int validate_fc(const nn_op_call *c)
{
    if (nn_check_counts(c, 4, 4, 1))
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0], *w = c->in[1], *b = c->in[2], *out = c->out[0];
    int32_t t = in->type;
    if (t != ANEURALNETWORKS_TENSOR_FLOAT32 && t != ANEURALNETWORKS_TENSOR_FLOAT16 &&
        !nn_type_is_quant8(t))
        return nn_invalid("the operation does not take %s", nn_type_name(t));
    if (!nn_conv_type_level_ok(c, t) || nn_expect_type(c, false, 1, t) ||
        nn_expect_type(c, true, 0, t))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(in, 2, 4) || nn_check_rank(w, 2, 2) || nn_check_rank(out, 2, 2))
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_quant(in) || nn_check_quant(w) || nn_check_quant(out) ||
        nn_conv_check_act(c, c->in[3]))
        return ANEURALNETWORKS_BAD_DATA;
    if (!b->omitted) {
        int32_t bt = nn_type_is_quant8(t) ? ANEURALNETWORKS_TENSOR_INT32 : t;
        if (nn_expect_type(c, false, 2, bt) || nn_check_rank(b, 1, 1))
            return ANEURALNETWORKS_BAD_DATA;
        if (bt == ANEURALNETWORKS_TENSOR_INT32 && b->zero_point)
            return nn_invalid("input 2 (bias) zero point %d, expected 0", b->zero_point);
        /* Shapes that do not fit: Android's CPU executor checks them when
         * preparing the computation. */
        if (b->rank == 1 && w->rank == 2 && b->dims[0] && w->dims[0] &&
            nn_check_value(c, b->dims[0] == w->dims[0], "input 2 (bias) of %u elements for %u units",
                           b->dims[0], w->dims[0]))
            return ANEURALNETWORKS_BAD_DATA;
        if (bt == ANEURALNETWORKS_TENSOR_INT32 && nn_check_bias_scale(c, in, w, b))
            return ANEURALNETWORKS_BAD_DATA;
    }
    int32_t fl = c->feature_level;
    if (fl > 0 && fl < ANEURALNETWORKS_FEATURE_LEVEL_3 && t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM &&
        !(out->scale > in->scale * w->scale))
        return nn_invalid("output scale %g <= input scale * weights scale %g before feature "
                          "level 3", (double)out->scale, (double)(in->scale * w->scale));
    return ANEURALNETWORKS_NO_ERROR;
}

static int fc_shape(const nn_op_call *c, size_t *batch, uint32_t *units, uint32_t *isz)
{
    const nn_tensor *in = c->in[0], *w = c->in[1], *b = c->in[2];
    if (in->rank < 1 || w->rank != 2)
        return ANEURALNETWORKS_BAD_DATA;
    *units = w->dims[0];
    *isz = w->dims[1];
    if (*isz == 0)
        return ANEURALNETWORKS_BAD_DATA;
    size_t count = nn_tensor_count(in);
    if (count % *isz)
        return ANEURALNETWORKS_BAD_DATA;
    if (!b->omitted && b->rank == 1 && b->dims[0] != *units)
        return ANEURALNETWORKS_BAD_DATA;
    *batch = count / *isz;
    if (!nn_conv_size_ok(*batch, *isz, 1, 1, sizeof(float)) || !nn_conv_size_ok(*batch, *units, 1, 1, sizeof(float)))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

static int prepare_fc(nn_op_call *c)
{
    size_t batch;
    uint32_t units, isz;
    int err = fc_shape(c, &batch, &units, &isz);
    if (err)
        return err;
    if (batch > UINT32_MAX)
        return ANEURALNETWORKS_BAD_DATA;
    nn_tensor *out = c->out[0];
    nn_tensor_set_small_rank(out, 2);
    out->dims[0] = (uint32_t)batch;
    out->dims[1] = units;
    c->scratch_bytes = 0;
    if (c->in[0]->type == ANEURALNETWORKS_TENSOR_FLOAT16)
        c->scratch_bytes = align64(batch * isz * sizeof(float)) + align64(batch * units * sizeof(float));
    return ANEURALNETWORKS_NO_ERROR;
}

/* The weights as a [U, 1, 1, I] filter, so the convolution packing applies. */
static int fc_weights(const nn_op_call *c, nn_conv_weights **w)
{
    nn_tensor f = *c->in[1];
    nn_tensor_borrow_dims(&f);
    nn_tensor_set_small_rank(&f, 4);
    f.dims[3] = f.dims[1];
    f.dims[1] = f.dims[2] = 1;
    const nn_tensor *b = c->in[2]->omitted ? NULL : c->in[2];
    int err = nn_conv_weights_build(c->in[0], &f, b, c->out[0], 1, w);
    /* TFLite's FULLY_CONNECTED multiplies the scales in float32 for int8
     * too (GetQuantizedConvolutionMultipler), unlike its int8 CONV_2D. */
    if (!err && (*w)->quant) {
        int shift;
        nn_quantize_multiplier((double)(c->in[0]->scale * f.scale) / (double)c->out[0]->scale,
                               &(*w)->mult[0], &shift);
        (*w)->shift[0] = shift;
    }
    return err;
}

static int plan_fc(nn_op_call *c, void **state)
{
    *state = NULL;
    const nn_tensor *w = c->in[1], *b = c->in[2];
    if (!w->constant || !w->data || !nn_tensor_shape_known(w) || (!b->omitted && (!b->constant || !b->data)))
        return ANEURALNETWORKS_NO_ERROR;
    nn_conv_weights *cw;
    int err = fc_weights(c, &cw);
    if (!err)
        *state = cw;
    return err;
}

static void release_fc(void *state) { nn_conv_weights_free(state); }

static int execute_fc(nn_op_call *c)
{
    size_t batch;
    uint32_t units, isz;
    int err = fc_shape(c, &batch, &units, &isz);
    if (err)
        return err;
    nn_conv_weights *w = c->state, *own = NULL;
    if (!w) {
        err = fc_weights(c, &own);
        if (err)
            return err;
        w = own;
    }
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    int32_t act = nn_scalar_i32(c->in[3]);
    if (w->quant) {
        /* Ties up as TFLite's FULLY_CONNECTED (kernels/quant.h). */
        nn_requant rq = {.mult = w->mult, .shift = w->shift, .rounding = NN_ROUND_UP,
                         .per_channel = false,
                         .out_zero = out->zero_point,
                         .out_signed = out->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED};
        nn_quant_activation_range(act, out->type, out->scale, out->zero_point, &rq.lo, &rq.hi);
        nn_q8_matrix a = {.data = in->data, .ld = isz,
                          .is_signed = in->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
                          .zero = in->zero_point};
        nn_qgemm_prepacked(batch, &a, w->qpack[0], w->qbias, &rq, out->data, units);
    } else {
        float lo, hi;
        nn_float_activation_range(act, &lo, &hi);
        const float *a = in->data;
        float *o = out->data;
        bool half = in->type == ANEURALNETWORKS_TENSOR_FLOAT16;
        if (half) {
            float *ain = c->scratch;
            nn_f16_to_f32_array(in->data, ain, batch * isz);
            a = ain;
            o = (float *)((uint8_t *)c->scratch + align64(batch * isz * sizeof(float)));
        }
        nn_sgemm_prepacked(batch, a, isz, w->fpack[0], w->fbias, lo, hi, o, units);
        if (half)
            nn_f32_to_f16_array(o, out->data, batch * units);
    }
    nn_conv_weights_free(own);
    return ANEURALNETWORKS_NO_ERROR;
}

const nn_op_def nn_op_FULLY_CONNECTED = {
    .code = ANEURALNETWORKS_FULLY_CONNECTED, .name = "FULLY_CONNECTED", .validate = validate_fc,
    .prepare = prepare_fc, .execute = execute_fc, .plan = plan_fc, .release = release_fc,
    .optional_inputs = true,
};
