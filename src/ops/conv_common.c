#include "ops/conv_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/conv_direct.h"
#include "kernels/fp16.h"
#include "kernels/quant.h"

static void layout_none(nn_conv_layout *l)
{
    for (int i = 0; i < 4; i++)
        l->pad[i] = -1;
    l->padding_code = l->stride_w = l->stride_h = l->filter_w = l->filter_h = -1;
    l->groups = l->multiplier = l->act = l->nchw = l->dil_w = l->dil_h = l->out_shape = -1;
}

static void set_pads(nn_conv_layout *l, int first)
{
    for (int i = 0; i < 4; i++)
        l->pad[i] = first + i;
}

int nn_conv_layout_of(const nn_op_call *c, int kind, nn_conv_layout *l)
{
    const int n = (int)c->n_in;
    layout_none(l);
    bool implicit;
    switch (kind) {
    case NN_CONV_PLAIN:
        if (n == 10)
            implicit = c->in[7]->type == ANEURALNETWORKS_BOOL;
        else if (n == 7 || n == 8)
            implicit = true;
        else if (n == 11 || n == 13)
            implicit = false;
        else
            return nn_invalid("%d inputs, expected 7, 8, 10, 11 or 13", n);
        if (implicit) {
            l->padding_code = 3;
            l->stride_w = 4, l->stride_h = 5, l->act = 6;
            l->nchw = n > 7 ? 7 : -1;
            if (n > 8)
                l->dil_w = 8, l->dil_h = 9;
        } else {
            set_pads(l, 3);
            l->stride_w = 7, l->stride_h = 8, l->act = 9;
            l->nchw = n > 10 ? 10 : -1;
            if (n > 11)
                l->dil_w = 11, l->dil_h = 12;
        }
        return ANEURALNETWORKS_NO_ERROR;
    case NN_CONV_DEPTHWISE:
        if (n == 11)
            implicit = c->in[8]->type == ANEURALNETWORKS_BOOL;
        else if (n == 8 || n == 9)
            implicit = true;
        else if (n == 12 || n == 14)
            implicit = false;
        else
            return nn_invalid("%d inputs, expected 8, 9, 11, 12 or 14", n);
        if (implicit) {
            l->padding_code = 3;
            l->stride_w = 4, l->stride_h = 5, l->multiplier = 6, l->act = 7;
            l->nchw = n > 8 ? 8 : -1;
            if (n > 9)
                l->dil_w = 9, l->dil_h = 10;
        } else {
            set_pads(l, 3);
            l->stride_w = 7, l->stride_h = 8, l->multiplier = 9, l->act = 10;
            l->nchw = n > 11 ? 11 : -1;
            if (n > 12)
                l->dil_w = 12, l->dil_h = 13;
        }
        return ANEURALNETWORKS_NO_ERROR;
    case NN_CONV_GROUPED:
        if (n == 9) {
            l->padding_code = 3;
            l->stride_w = 4, l->stride_h = 5, l->groups = 6, l->act = 7, l->nchw = 8;
        } else if (n == 12) {
            set_pads(l, 3);
            l->stride_w = 7, l->stride_h = 8, l->groups = 9, l->act = 10, l->nchw = 11;
        } else {
            return nn_invalid("%d inputs, expected 9 or 12", n);
        }
        return ANEURALNETWORKS_NO_ERROR;
    case NN_CONV_TRANSPOSE:
        if (n == 9) {
            l->out_shape = 3, l->padding_code = 4;
            l->stride_w = 5, l->stride_h = 6, l->act = 7, l->nchw = 8;
        } else if (n == 11) {
            set_pads(l, 3);
            l->stride_w = 7, l->stride_h = 8, l->act = 9, l->nchw = 10;
        } else {
            return nn_invalid("%d inputs, expected 9 or 11", n);
        }
        return ANEURALNETWORKS_NO_ERROR;
    case NN_CONV_POOL:
        if (n == 7 || n == 8) {
            l->padding_code = 1;
            l->stride_w = 2, l->stride_h = 3, l->filter_w = 4, l->filter_h = 5, l->act = 6;
            l->nchw = n > 7 ? 7 : -1;
        } else if (n == 10 || n == 11) {
            set_pads(l, 1);
            l->stride_w = 5, l->stride_h = 6, l->filter_w = 7, l->filter_h = 8, l->act = 9;
            l->nchw = n > 10 ? 10 : -1;
        } else {
            return nn_invalid("%d inputs, expected 7, 8, 10 or 11", n);
        }
        return ANEURALNETWORKS_NO_ERROR;
    default:
        return ANEURALNETWORKS_BAD_DATA;
    }
}

/* Reads INT32 input idx into *v (-1 when not known); min: smallest valid value. */
static int read_int(const nn_op_call *c, int idx, int32_t def, int32_t min, int32_t max,
                    int32_t *v, bool *known)
{
    if (idx < 0) {
        *v = def;
        return ANEURALNETWORKS_NO_ERROR;
    }
    const nn_tensor *t = c->in[idx];
    if (t->type != ANEURALNETWORKS_INT32)
        return nn_invalid("input %d of type %s, expected INT32", idx, nn_type_name(t->type));
    if (!t->data || t->bytes < sizeof(int32_t)) {
        *v = -1;
        *known = false;
        return ANEURALNETWORKS_NO_ERROR;
    }
    *v = nn_scalar_i32(t);
    if (*v < min || *v > max)
        return nn_invalid("input %d is %d, expected %d to %d", idx, *v, min, max);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_conv_read_params(const nn_op_call *c, const nn_conv_layout *l, nn_conv_params *p)
{
    memset(p, 0, sizeof *p);
    p->known = true;
    int32_t *pads[4] = {&p->pad_l, &p->pad_r, &p->pad_t, &p->pad_b};
    int err = ANEURALNETWORKS_NO_ERROR;
    for (int i = 0; i < 4 && !err; i++)
        err = read_int(c, l->pad[i], 0, 0, INT32_MAX, pads[i], &p->known);
    if (!err)
        err = read_int(c, l->padding_code, 0, 1, 2, &p->padding_code, &p->known);
    if (!err)
        err = read_int(c, l->stride_w, 1, 1, INT32_MAX, &p->stride_w, &p->known);
    if (!err)
        err = read_int(c, l->stride_h, 1, 1, INT32_MAX, &p->stride_h, &p->known);
    if (!err)
        err = read_int(c, l->filter_w, 1, 1, INT32_MAX, &p->filter_w, &p->known);
    if (!err)
        err = read_int(c, l->filter_h, 1, 1, INT32_MAX, &p->filter_h, &p->known);
    if (!err)
        err = read_int(c, l->dil_w, 1, 1, INT32_MAX, &p->dil_w, &p->known);
    if (!err)
        err = read_int(c, l->dil_h, 1, 1, INT32_MAX, &p->dil_h, &p->known);
    if (!err)
        err = read_int(c, l->groups, 1, 1, INT32_MAX, &p->groups, &p->known);
    if (!err)
        err = read_int(c, l->multiplier, 1, 1, INT32_MAX, &p->multiplier, &p->known);
    if (!err)
        err = read_int(c, l->act, 0, INT32_MIN, INT32_MAX, &p->act, &p->known);
    if (!err && p->act != -1 && l->act >= 0) {
        err = nn_check_fuse_code(c, p->act);
        if (p->act < 0 || p->act > 3)
            p->act = 0; /* validation goes on as if no activation were fused */
    }
    if (err)
        return err;
    if (l->nchw >= 0) {
        const nn_tensor *t = c->in[l->nchw];
        if (nn_expect_type(c, false, (uint32_t)l->nchw, ANEURALNETWORKS_BOOL))
            return ANEURALNETWORKS_BAD_DATA;
        if (t->data && t->bytes >= 1) {
            p->nchw = nn_scalar_bool(t) ? 1 : 0;
        } else if (t->omitted) {
            p->nchw = 0;
        } else {
            p->nchw = -1;
            p->known = false;
        }
    }
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_conv_out_size(const nn_conv_params *p, bool height, uint32_t in, uint32_t f, uint32_t *out,
                     int32_t *pad_head)
{
    int64_t s = height ? p->stride_h : p->stride_w;
    int64_t d = height ? p->dil_h : p->dil_w;
    int64_t eff = ((int64_t)f - 1) * d + 1;
    int64_t o;
    if (p->padding_code == ANEURALNETWORKS_PADDING_SAME) {
        o = ((int64_t)in + s - 1) / s;
        int64_t total = (o - 1) * s + eff - (int64_t)in;
        *pad_head = total > 0 ? (int32_t)(total / 2) : 0;
    } else if (p->padding_code == ANEURALNETWORKS_PADDING_VALID) {
        int64_t span = (int64_t)in - eff + 1;
        o = span > 0 ? (span + s - 1) / s : 0;
        *pad_head = 0;
    } else {
        int64_t head = height ? p->pad_t : p->pad_l;
        int64_t tail = height ? p->pad_b : p->pad_r;
        int64_t span = (int64_t)in + head + tail - eff;
        o = span >= 0 ? span / s + 1 : 0;
        *pad_head = (int32_t)head;
    }
    if (o < 1 || o > UINT32_MAX)
        return ANEURALNETWORKS_BAD_DATA;
    *out = (uint32_t)o;
    return ANEURALNETWORKS_NO_ERROR;
}

bool nn_conv_size_ok(size_t a, size_t b, size_t c, size_t d, size_t es)
{
    size_t v;
    return !__builtin_mul_overflow(a, b, &v) && !__builtin_mul_overflow(v, c, &v) &&
           !__builtin_mul_overflow(v, d, &v) && !__builtin_mul_overflow(v, es, &v) &&
           v <= SIZE_MAX / 8;
}

void nn_conv_nhwc_dims(const nn_tensor *t, bool nchw, uint32_t d[4])
{
    d[0] = t->dims[0];
    if (nchw) {
        d[1] = t->dims[2];
        d[2] = t->dims[3];
        d[3] = t->dims[1];
    } else {
        d[1] = t->dims[1];
        d[2] = t->dims[2];
        d[3] = t->dims[3];
    }
}

void nn_conv_set_dims(nn_tensor *t, bool nchw, const uint32_t d[4])
{
    nn_tensor_set_small_rank(t, 4);
    t->dims[0] = d[0];
    if (nchw) {
        t->dims[1] = d[3];
        t->dims[2] = d[1];
        t->dims[3] = d[2];
    } else {
        t->dims[1] = d[1];
        t->dims[2] = d[2];
        t->dims[3] = d[3];
    }
}

bool nn_conv_type_level_ok(const nn_op_call *c, int32_t type)
{
    int32_t fl = c->feature_level;
    if (fl <= 0)
        return true;
    int32_t need = 0;
    if (type == ANEURALNETWORKS_TENSOR_FLOAT16 || type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL)
        need = ANEURALNETWORKS_FEATURE_LEVEL_3;
    if (type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED)
        need = ANEURALNETWORKS_FEATURE_LEVEL_4;
    if (fl >= need)
        return true;
    nn_reason("%s needs feature level %d", nn_type_name(type), (int)need);
    return false;
}

int nn_conv_check_weights(const nn_op_call *c, const nn_tensor *in, const nn_tensor *filter,
                          const nn_tensor *bias, uint32_t channel_dim)
{
    int32_t t = in->type;
    if (t != ANEURALNETWORKS_TENSOR_FLOAT32 && t != ANEURALNETWORKS_TENSOR_FLOAT16 &&
        !nn_type_is_quant8(t))
        return nn_invalid("input of type %s", nn_type_name(t));
    if (!nn_conv_type_level_ok(c, t) || !nn_conv_type_level_ok(c, filter->type))
        return nn_invalid("input %s or filter %s above the feature level", nn_type_name(t),
                          nn_type_name(filter->type));
    if (nn_check_rank(in, 4, 4) || nn_check_rank(filter, 4, 4) || nn_check_rank(bias, 1, 1))
        return nn_invalid("input, filter and bias of ranks %u, %u, %u, expected 4, 4, 1",
                          in->rank, filter->rank, bias->rank);
    if (nn_check_quant(in))
        return ANEURALNETWORKS_BAD_DATA;
    if (!nn_type_is_quant8(t)) {
        if (filter->type != t || bias->type != t)
            return nn_invalid("filter %s and bias %s for a %s input", nn_type_name(filter->type),
                              nn_type_name(bias->type), nn_type_name(t));
        return ANEURALNETWORKS_NO_ERROR;
    }
    if (bias->type != ANEURALNETWORKS_TENSOR_INT32 || bias->zero_point != 0)
        return nn_invalid("bias %s with zero point %d, expected TENSOR_INT32 and 0",
                          nn_type_name(bias->type), bias->zero_point);
    if (filter->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL) {
        const nn_channel_quant *q = filter->channel_quant;
        if (!q)
            return nn_invalid("per-channel filter without channel quantization parameters");
        if (q->channel_dim != channel_dim || filter->zero_point != 0)
            return nn_invalid("per-channel filter on dimension %u with zero point %d, expected "
                              "dimension %u and 0", q->channel_dim, filter->zero_point,
                              channel_dim);
        if (filter->rank == 4 && filter->dims[channel_dim] && q->scale_count != filter->dims[channel_dim])
            return nn_invalid("%u filter scales for %u channels", q->scale_count,
                              filter->dims[channel_dim]);
        for (uint32_t i = 0; i < q->scale_count; i++)
            if (!(q->scales[i] > 0.0f))
                return nn_invalid("filter scale %u is %g", i, (double)q->scales[i]);
        return ANEURALNETWORKS_NO_ERROR;
    }
    if (filter->type != t)
        return nn_invalid("filter of type %s for a %s input", nn_type_name(filter->type),
                          nn_type_name(t));
    if (nn_check_quant(filter))
        return ANEURALNETWORKS_BAD_DATA;
    return nn_check_bias_scale(c, in, filter, bias);
}

int nn_check_bias_scale(const nn_op_call *c, const nn_tensor *in, const nn_tensor *filter,
                        const nn_tensor *bias)
{
    /* bias scale = input scale x filter scale up to rounding of the product;
     * Android's CPU executor checks it when computing. */
    double prod = (double)(in->scale * filter->scale), bs = bias->scale;
    double lo = prod < bs ? prod : bs;
    return nn_check_value(c, fabs(prod - bs) <= 1e-6 * lo,
                          "bias scale %g != input scale * filter scale %g", bs, prod);
}

int nn_conv_check_act(const nn_op_call *c, const nn_tensor *t)
{
    if (t->type != ANEURALNETWORKS_INT32)
        return nn_invalid("fused activation of type %s, expected INT32", nn_type_name(t->type));
    if (t->data)
        return nn_check_fuse_code(c, nn_scalar_i32(t));
    return ANEURALNETWORKS_NO_ERROR;
}

float nn_tensor_f32_at(const nn_tensor *t, size_t i)
{
    if (t->type == ANEURALNETWORKS_TENSOR_FLOAT16)
        return nn_f16_to_f32(((const uint16_t *)t->data)[i]);
    return ((const float *)t->data)[i];
}

size_t nn_conv_stage_bytes(const nn_tensor *t, bool nchw)
{
    size_t count = nn_tensor_count(t);
    if (t->type == ANEURALNETWORKS_TENSOR_FLOAT16)
        return count * sizeof(float);
    if (!nchw)
        return 0;
    return count * (t->type == ANEURALNETWORKS_TENSOR_FLOAT32 ? sizeof(float) : 1);
}

/* Moves element (n, c, p) between NCHW position src_idx and NHWC position
 * dst_idx (or the reverse), converting float16 to float32 on the way in and
 * back on the way out. Loops run over whole planes so reads stay contiguous. */
static void stage_copy(const void *src, int32_t src_type, void *dst, int32_t dst_type, bool nchw,
                       const uint32_t d[4], bool to_nhwc)
{
    size_t hw = (size_t)d[1] * d[2], ch = d[3], count = d[0] * hw * ch;
    bool half_in = src_type == ANEURALNETWORKS_TENSOR_FLOAT16;
    bool half_out = dst_type == ANEURALNETWORKS_TENSOR_FLOAT16;
    size_t es = (src_type == ANEURALNETWORKS_TENSOR_FLOAT32 || half_in || half_out) ? 4 : 1;
    if (!nchw) {
        if (half_in)
            nn_f16_to_f32_array(src, dst, count);
        else if (half_out)
            nn_f32_to_f16_array(src, dst, count);
        else
            memcpy(dst, src, count * es);
        return;
    }
    for (size_t n = 0; n < d[0]; n++)
        for (size_t c = 0; c < ch; c++)
            for (size_t p = 0; p < hw; p++) {
                size_t a = (n * ch + c) * hw + p; /* NCHW */
                size_t b = (n * hw + p) * ch + c; /* NHWC */
                size_t si = to_nhwc ? a : b, di = to_nhwc ? b : a;
                if (half_in)
                    ((float *)dst)[di] = nn_f16_to_f32(((const uint16_t *)src)[si]);
                else if (half_out)
                    ((uint16_t *)dst)[di] = nn_f32_to_f16(((const float *)src)[si]);
                else if (es == 4)
                    ((float *)dst)[di] = ((const float *)src)[si];
                else
                    ((uint8_t *)dst)[di] = ((const uint8_t *)src)[si];
            }
}

void nn_conv_stage_in(const nn_tensor *src, bool nchw, void *dst)
{
    uint32_t d[4];
    nn_conv_nhwc_dims(src, nchw, d);
    int32_t dst_type = src->type == ANEURALNETWORKS_TENSOR_FLOAT16 ? ANEURALNETWORKS_TENSOR_FLOAT32 : src->type;
    stage_copy(src->data, src->type, dst, dst_type, nchw, d, true);
}

void nn_conv_stage_out(const void *src, bool nchw, nn_tensor *dst)
{
    uint32_t d[4];
    nn_conv_nhwc_dims(dst, nchw, d);
    int32_t src_type = dst->type == ANEURALNETWORKS_TENSOR_FLOAT16 ? ANEURALNETWORKS_TENSOR_FLOAT32 : dst->type;
    stage_copy(src, src_type, dst->data, dst->type, nchw, d, false);
}

int nn_conv_requant_params(const nn_tensor *in, const nn_tensor *filter, const nn_tensor *out,
                           uint32_t channels, int32_t *mult, int32_t *shift)
{
    /* TFLite's uint8 convolutions multiply the two scales in float32 before
     * dividing in double (GetQuantizedConvolutionMultipler); its int8 ones
     * work in double throughout. The last bit of the product moves the
     * multiplier by a unit, enough to flip an output value now and then. */
    bool per_channel = filter->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
    bool float_product = in->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM && !per_channel;
    if (!per_channel) {
        /* One scale for the whole filter: one multiplier, filled in (a
         * compilation spent a tenth of its time recomputing it per channel). */
        if (channels == 0)
            return ANEURALNETWORKS_NO_ERROR;
        double m = float_product ? (double)(in->scale * filter->scale) / (double)out->scale
                                 : (double)in->scale * filter->scale / (double)out->scale;
        int32_t m0;
        int sh;
        nn_quantize_multiplier(m, &m0, &sh);
        for (uint32_t ch = 0; ch < channels; ch++) {
            mult[ch] = m0;
            shift[ch] = sh;
        }
        return ANEURALNETWORKS_NO_ERROR;
    }
    for (uint32_t ch = 0; ch < channels; ch++) {
        int sh;
        nn_quantize_multiplier((double)in->scale * filter->channel_quant->scales[ch] /
                                   (double)out->scale,
                               &mult[ch], &sh);
        shift[ch] = sh;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

void nn_conv_weights_free(nn_conv_weights *w)
{
    if (!w)
        return;
    for (uint32_t g = 0; g < w->groups; g++) {
        if (w->fpack)
            nn_sgemm_packed_free(w->fpack[g]);
        if (w->qpack)
            nn_qgemm_packed_free(w->qpack[g]);
    }
    free(w->fpack);
    free(w->qpack);
    free(w->fbias);
    free(w->qbias);
    nn_sconv_direct_free(w->fdirect);
    free(w);
}

int nn_conv_weights_build(const nn_tensor *in, const nn_tensor *filter, const nn_tensor *bias,
                          const nn_tensor *out, uint32_t groups, nn_conv_weights **wp)
{
    *wp = NULL;
    uint32_t cout = filter->dims[0];
    size_t k = nn_dims_product(filter, 1, 4);
    if (groups == 0 || cout % groups)
        return ANEURALNETWORKS_BAD_DATA;
    uint32_t mg = cout / groups;
    nn_conv_weights *w = calloc(1, sizeof *w);
    if (!w)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    w->groups = groups;
    w->quant = nn_type_is_quant8(in->type);
    size_t nb = cout ? cout : 1;
    if (!w->quant) {
        w->fpack = calloc(groups, sizeof *w->fpack);
        w->fbias = malloc(nb * sizeof(float));
        float *tmp = NULL;
        const float *f = filter->data;
        if (filter->type == ANEURALNETWORKS_TENSOR_FLOAT16) {
            tmp = malloc((k * cout + 1) * sizeof(float));
            if (tmp)
                nn_f16_to_f32_array(filter->data, tmp, k * cout);
            f = tmp;
        }
        if (!w->fpack || !w->fbias || !f) {
            free(tmp);
            nn_conv_weights_free(w);
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        }
        for (uint32_t g = 0; g < groups; g++) {
            w->fpack[g] = nn_sgemm_pack(mg, k, f + (size_t)g * mg * k, k);
            if (!w->fpack[g]) {
                free(tmp);
                nn_conv_weights_free(w);
                return ANEURALNETWORKS_OUT_OF_MEMORY;
            }
        }
        free(tmp);
        if (bias && bias->data && bias->type == ANEURALNETWORKS_TENSOR_FLOAT32)
            memcpy(w->fbias, bias->data, (size_t)cout * sizeof(float));
        else if (bias && bias->data)
            for (uint32_t i = 0; i < cout; i++)
                w->fbias[i] = nn_tensor_f32_at(bias, i);
        else
            memset(w->fbias, 0, nb * sizeof(float));
        *wp = w;
        return ANEURALNETWORKS_NO_ERROR;
    }
    w->qpack = calloc(groups, sizeof *w->qpack);
    /* One plain allocation, not a cache blob: small 64-byte aligned blocks
     * between the large packings fragmented the heap so that every cold
     * compilation faulted its packings in afresh (2.2 -> 3.6 ms). */
    w->qbias = malloc(3 * nb * sizeof(int32_t));
    if (!w->qpack || !w->qbias) {
        nn_conv_weights_free(w);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    w->mult = w->qbias + nb;
    w->shift = w->mult + nb;
    nn_q8_matrix b = {.ld = k,
                      .is_signed = filter->type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
                      .zero = filter->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL
                                  ? 0
                                  : filter->zero_point};
    for (uint32_t g = 0; g < groups; g++) {
        b.data = (const uint8_t *)filter->data + (size_t)g * mg * k;
        w->qpack[g] = nn_qgemm_pack(mg, k, &b);
        if (!w->qpack[g]) {
            nn_conv_weights_free(w);
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        }
    }
    if (bias && bias->data)
        memcpy(w->qbias, bias->data, (size_t)cout * sizeof(int32_t));
    else
        memset(w->qbias, 0, nb * sizeof(int32_t));
    nn_conv_requant_params(in, filter, out, cout, w->mult, w->shift);
    *wp = w;
    return ANEURALNETWORKS_NO_ERROR;
}

/* outer x len x inner view of a tensor around axis (already normalised). */
void nn_axis_split(const nn_tensor *t, uint32_t axis, size_t *outer, size_t *len, size_t *inner)
{
    *outer = nn_dims_product(t, 0, axis);
    *len = t->dims[axis];
    *inner = nn_dims_product(t, axis + 1, t->rank);
}

/* Reads the optional axis input idx; BAD_DATA when out of [-rank, rank). */
int nn_read_axis(const nn_op_call *c, uint32_t idx, uint32_t rank, uint32_t *axis, bool *known)
{
    int32_t a = -1;
    *known = true;
    if (idx < c->n_in && !c->in[idx]->omitted) {
        const nn_tensor *t = c->in[idx];
        if (nn_expect_type(c, false, idx, ANEURALNETWORKS_INT32))
            return ANEURALNETWORKS_BAD_DATA;
        if (!t->data) {
            *known = false;
            return ANEURALNETWORKS_NO_ERROR;
        }
        a = nn_scalar_i32(t);
    }
    if (rank == 0) {
        *known = false;
        return ANEURALNETWORKS_NO_ERROR;
    }
    if (a < -(int32_t)rank || a >= (int32_t)rank) {
        /* A value: Android's operations check the axis when they prepare. */
        *known = false;
        return nn_check_value(c, false, "input %u (axis) %d is outside [-%u, %u)", idx, a, rank,
                              rank);
    }
    *axis = (uint32_t)(a < 0 ? a + (int32_t)rank : a);
    return ANEURALNETWORKS_NO_ERROR;
}

float nn_tensor_load_real(const nn_tensor *t, size_t i)
{
    switch (t->type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
        return ((const float *)t->data)[i];
    case ANEURALNETWORKS_TENSOR_FLOAT16:
        return nn_f16_to_f32(((const uint16_t *)t->data)[i]);
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
        return (float)(((const uint8_t *)t->data)[i] - t->zero_point) * t->scale;
    default:
        return (float)(((const int8_t *)t->data)[i] - t->zero_point) * t->scale;
    }
}

void nn_tensor_store_real(nn_tensor *t, size_t i, float v)
{
    switch (t->type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
        ((float *)t->data)[i] = v;
        break;
    case ANEURALNETWORKS_TENSOR_FLOAT16:
        ((uint16_t *)t->data)[i] = nn_f32_to_f16(v);
        break;
    default: {
        int32_t lo, hi;
        nn_quant8_range(t->type, &lo, &hi);
        int32_t q = nn_quantize_value(v, t->scale, t->zero_point, lo, hi);
        if (t->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
            ((uint8_t *)t->data)[i] = (uint8_t)q;
        else
            ((int8_t *)t->data)[i] = (int8_t)q;
    }
    }
}

