/*
 * Type conversions: CAST (raw values, quantization parameters ignored),
 * QUANTIZE (float -> quant8) and DEQUANTIZE (quant8 -> float).
 */
#include <math.h>
#include <string.h>

#include "kernels/fp16.h"
#include "ops/elementwise_util.h"

#define F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define F16 ANEURALNETWORKS_TENSOR_FLOAT16
#define I32 ANEURALNETWORKS_TENSOR_INT32
#define QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define QA8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
#define QS8 ANEURALNETWORKS_TENSOR_QUANT8_SYMM
#define QS8C ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL

/* Converted in blocks through float32, which holds every value of the
 * convertible types except large int32 (only cast to narrower types). */
#define BLOCK 256

/* Types CAST converts between (any pair). */
static const nn_ew_type_level cast_types[] = {
    {F16, NN_FL3}, {F32, NN_FL3}, {I32, NN_FL3}, {QA8, NN_FL3}, {0, 0}};
/* Types CAST copies to themselves. */
static const nn_ew_type_level cast_identity_types[] = {
    {F16, NN_FL3},
    {F32, NN_FL3},
    {I32, NN_FL3},
    {QA8, NN_FL3},
    {ANEURALNETWORKS_TENSOR_BOOL8, NN_FL4},
    {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, NN_FL4},
    {ANEURALNETWORKS_TENSOR_QUANT16_SYMM, NN_FL4},
    {QA8S, NN_FL4},
    {QS8, NN_FL4},
    {0, 0}};
static const nn_ew_type_level quantize_in_types[] = {{F32, NN_FL3}, {F16, NN_FL3}, {0, 0}};
static const nn_ew_type_level quantize_out_types[] = {{QA8, NN_FL3}, {QA8S, NN_FL4}, {0, 0}};
static const nn_ew_type_level dequantize_in_types[] = {
    {QA8, NN_FL1}, {QS8, NN_FL3}, {QS8C, NN_FL3}, {QA8S, NN_FL4}, {0, 0}};
static const nn_ew_type_level dequantize_out_types[] = {{F32, NN_FL1}, {F16, NN_FL3}, {0, 0}};

static int unary_shape_checks(const nn_op_call *c, uint32_t max_rank)
{
    if (nn_check_counts(c, 1, 1, 1) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_check_rank(c->in[0], 1, max_rank) || nn_check_rank(c->out[0], 1, max_rank))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

/* ---- CAST ---- */

static int cast_validate(const nn_op_call *c)
{
    if (unary_shape_checks(c, NN_ANY_RANK) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    int32_t ti = c->in[0]->type, to = c->out[0]->type;
    if (ti == to)
        return nn_ew_check_type_level(c, ti, cast_identity_types);
    if (nn_ew_check_type_level(c, ti, cast_types) || nn_ew_check_type_level(c, to, cast_types))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

static void load_block(int32_t type, const void *src, float *dst, size_t n)
{
    switch (type) {
    case F32:
        memcpy(dst, src, n * sizeof *dst);
        break;
    case F16:
        nn_f16_to_f32_array(src, dst, n);
        break;
    case I32:
        for (size_t i = 0; i < n; i++)
            dst[i] = (float)((const int32_t *)src)[i];
        break;
    default: /* QA8: the raw byte value */
        for (size_t i = 0; i < n; i++)
            dst[i] = (float)((const uint8_t *)src)[i];
        break;
    }
}

/* Truncation toward zero as a C cast, saturated so that out-of-range values
 * and NaN have a defined result. */
static inline int32_t to_i32(float v)
{
    if (v >= 2147483648.0f)
        return INT32_MAX;
    if (v > -2147483648.0f)
        return (int32_t)v;
    return v != v ? 0 : INT32_MIN;
}

static inline uint8_t to_u8(float v)
{
    if (v >= 255.0f)
        return 255;
    return v > 0.0f ? (uint8_t)v : 0;
}

static void store_block(int32_t type, const float *src, void *dst, size_t n)
{
    switch (type) {
    case F32:
        memcpy(dst, src, n * sizeof *src);
        break;
    case F16:
        nn_f32_to_f16_array(src, dst, n);
        break;
    case I32:
        for (size_t i = 0; i < n; i++)
            ((int32_t *)dst)[i] = to_i32(src[i]);
        break;
    default: /* QA8 */
        for (size_t i = 0; i < n; i++)
            ((uint8_t *)dst)[i] = to_u8(src[i]);
        break;
    }
}

static int cast_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    size_t n = nn_tensor_count(in);
    size_t si = nn_type_size(in->type), so = nn_type_size(out->type);
    if (in->type == out->type) {
        memcpy(out->data, in->data, n * si);
        return ANEURALNETWORKS_NO_ERROR;
    }
    const char *src = in->data;
    char *dst = out->data;
    float tmp[BLOCK];
    for (size_t off = 0; off < n; off += BLOCK) {
        size_t m = n - off < BLOCK ? n - off : BLOCK;
        load_block(in->type, src + off * si, tmp, m);
        store_block(out->type, tmp, dst + off * so, m);
    }
    return ANEURALNETWORKS_NO_ERROR;
}

/* ---- QUANTIZE ---- */

static int quantize_validate(const nn_op_call *c)
{
    if (unary_shape_checks(c, NN_ANY_RANK) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    if (nn_ew_check_type_level(c, c->in[0]->type, quantize_in_types) ||
        nn_ew_check_type_level(c, c->out[0]->type, quantize_out_types) ||
        nn_check_quant(c->out[0]))
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

/* q = clamp(round(x / scale) + zp), rounding half away from zero. */
#define QUANTIZE_LOOP(T, LOAD)                                                                 \
    for (size_t i = 0; i < n; i++) {                                                           \
        float q = roundf((LOAD) / scale) + zp;                                                 \
        q = q < qmin ? qmin : (q > qmax ? qmax : q);                                           \
        ((T *)out->data)[i] = (T)(q == q ? q : 0.0f);                                          \
    }

static int quantize_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    size_t n = nn_tensor_count(in);
    const float scale = out->scale, zp = (float)out->zero_point;
    bool is_signed = out->type == QA8S;
    const float qmin = is_signed ? -128.0f : 0.0f, qmax = is_signed ? 127.0f : 255.0f;
    const float *f = in->data;
    const uint16_t *h = in->data;
    if (in->type == F32) {
        if (is_signed)
            QUANTIZE_LOOP(int8_t, f[i])
        else
            QUANTIZE_LOOP(uint8_t, f[i])
    } else {
        if (is_signed)
            QUANTIZE_LOOP(int8_t, nn_f16_to_f32(h[i]))
        else
            QUANTIZE_LOOP(uint8_t, nn_f16_to_f32(h[i]))
    }
    return ANEURALNETWORKS_NO_ERROR;
}

/* ---- DEQUANTIZE ---- */

static int dequantize_validate(const nn_op_call *c)
{
    if (unary_shape_checks(c, 4) != ANEURALNETWORKS_NO_ERROR)
        return ANEURALNETWORKS_BAD_DATA;
    const nn_tensor *in = c->in[0];
    if (nn_ew_check_type_level(c, in->type, dequantize_in_types) ||
        nn_ew_check_type_level(c, c->out[0]->type, dequantize_out_types) || nn_check_quant(in))
        return ANEURALNETWORKS_BAD_DATA;
    /* Per-channel parameters may still be set after addOperation (finish
     * requires them), as on Android. */
    return ANEURALNETWORKS_NO_ERROR;
}

static int dequantize_prepare(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    if (in->type == QS8C) {
        const nn_channel_quant *cq = in->channel_quant;
        if (cq == NULL || cq->channel_dim >= in->rank ||
            cq->scale_count != in->dims[cq->channel_dim])
            return ANEURALNETWORKS_BAD_DATA;
    }
    return nn_ew_prepare_same_shape(c);
}

/* Dequantizes n values that share one scale and zero point into float or
 * half output at element offset off. */
static void dequantize_run(const nn_tensor *in, nn_tensor *out, size_t off, size_t n,
                           float scale, int32_t zp)
{
    const uint8_t *u = (const uint8_t *)in->data + off;
    const int8_t *s = (const int8_t *)in->data + off;
    bool is_unsigned = in->type == QA8;
    if (out->type == F32) {
        float *o = (float *)out->data + off;
        if (is_unsigned)
            for (size_t i = 0; i < n; i++)
                o[i] = (float)((int32_t)u[i] - zp) * scale;
        else
            for (size_t i = 0; i < n; i++)
                o[i] = (float)((int32_t)s[i] - zp) * scale;
        return;
    }
    uint16_t *o = (uint16_t *)out->data + off;
    for (size_t i = 0; i < n; i++) {
        int32_t q = is_unsigned ? (int32_t)u[i] : (int32_t)s[i];
        o[i] = nn_f32_to_f16((float)(q - zp) * scale);
    }
}

static int dequantize_execute(nn_op_call *c)
{
    const nn_tensor *in = c->in[0];
    nn_tensor *out = c->out[0];
    if (in->type != QS8C) {
        int32_t zp = in->type == QS8 ? 0 : in->zero_point;
        dequantize_run(in, out, 0, nn_tensor_count(in), in->scale, zp);
        return ANEURALNETWORKS_NO_ERROR;
    }
    const nn_channel_quant *cq = in->channel_quant;
    size_t outer = nn_dims_product(in, 0, cq->channel_dim);
    size_t channels = in->dims[cq->channel_dim];
    size_t inner = nn_dims_product(in, cq->channel_dim + 1, in->rank);
    for (size_t o = 0; o < outer; o++)
        for (size_t ch = 0; ch < channels; ch++)
            dequantize_run(in, out, (o * channels + ch) * inner, inner, cq->scales[ch], 0);
    return ANEURALNETWORKS_NO_ERROR;
}

const nn_op_def nn_op_CAST = {
    .code = ANEURALNETWORKS_CAST,
    .name = "CAST",
    .validate = cast_validate,
    .prepare = nn_ew_prepare_same_shape,
    .execute = cast_execute,
};

const nn_op_def nn_op_QUANTIZE = {
    .code = ANEURALNETWORKS_QUANTIZE,
    .name = "QUANTIZE",
    .validate = quantize_validate,
    .prepare = nn_ew_prepare_same_shape,
    .execute = quantize_execute,
};

const nn_op_def nn_op_DEQUANTIZE = {
    .code = ANEURALNETWORKS_DEQUANTIZE,
    .name = "DEQUANTIZE",
    .validate = dequantize_validate,
    .prepare = dequantize_prepare,
    .execute = dequantize_execute,
};
