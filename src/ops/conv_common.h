/*
 * Shared parts of the convolution and pooling family: reading the
 * padding/stride/dilation/layout parameters of every signature, output
 * geometry, type checks, and layout / float16 staging of tensors.
 */
#ifndef NN_OPS_CONV_COMMON_H
#define NN_OPS_CONV_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/gemm.h"
#include "ops/op.h"

enum { NN_CONV_PLAIN, NN_CONV_DEPTHWISE, NN_CONV_GROUPED, NN_CONV_TRANSPOSE, NN_CONV_POOL };

/* Where each parameter sits in the operation's input list; -1 = absent. */
typedef struct nn_conv_layout {
    int pad[4];       /* left, right, top, bottom (explicit padding) */
    int padding_code; /* implicit padding */
    int stride_w, stride_h;
    int filter_w, filter_h; /* pools */
    int groups, multiplier;
    int act;
    int nchw;
    int dil_w, dil_h;
    int out_shape; /* transpose, implicit */
} nn_conv_layout;

/* Parameter values, -1 where the operand's value is not known. */
typedef struct nn_conv_params {
    int32_t pad_l, pad_r, pad_t, pad_b;
    int32_t padding_code; /* 0 for explicit padding */
    int32_t stride_w, stride_h;
    int32_t filter_w, filter_h;
    int32_t dil_w, dil_h;
    int32_t groups, multiplier;
    int32_t act;
    int32_t nchw; /* 0 / 1 */
    bool known;   /* every value present */
} nn_conv_params;

/* Geometry in NHWC terms. */
typedef struct nn_conv_geom {
    uint32_t n, in_h, in_w, in_c;
    uint32_t out_h, out_w, out_c;
    uint32_t f_h, f_w;
    int32_t pad_t, pad_l;
    int32_t stride_h, stride_w, dil_h, dil_w;
} nn_conv_geom;

/* Chooses the signature of op kind from the input count (and, where the
 * count is ambiguous, from the type of the operand that tells them apart).
 * BAD_DATA if the count fits no signature. */
int nn_conv_layout_of(const nn_op_call *c, int kind, nn_conv_layout *l);

/* Reads the parameters, validating types and any known values. */
int nn_conv_read_params(const nn_op_call *c, const nn_conv_layout *l, nn_conv_params *p);

/* Output size along one dimension; BAD_DATA when it would be < 1. */
int nn_conv_out_size(const nn_conv_params *p, bool height, uint32_t in, uint32_t f, uint32_t *out,
                     int32_t *pad_head);

/* True when a * b * c * d * es fits comfortably in size_t (scratch sizes). */
bool nn_conv_size_ok(size_t a, size_t b, size_t c, size_t d, size_t es);

/* NHWC dims of a 4-D tensor given the layout flag. */
void nn_conv_nhwc_dims(const nn_tensor *t, bool nchw, uint32_t d[4]);
/* Sets a 4-D tensor's dims from NHWC values and the layout flag. */
void nn_conv_set_dims(nn_tensor *t, bool nchw, const uint32_t d[4]);

/* True when the feature level allows the tensor type (FLOAT16 needs FL3,
 * QUANT8_ASYMM_SIGNED FL4). */
bool nn_conv_type_level_ok(const nn_op_call *c, int32_t type);

/* Checks filter/bias types of a convolution against input type.
 * channel_dim is where per-channel filter scales run (0, or 3 for depthwise). */
int nn_conv_check_weights(const nn_op_call *c, const nn_tensor *in, const nn_tensor *filter,
                          const nn_tensor *bias, uint32_t channel_dim);

/* Per-tensor quantized bias: scale must be input scale x filter scale. */
int nn_check_bias_scale(const nn_op_call *c, const nn_tensor *in, const nn_tensor *filter,
                        const nn_tensor *bias);

/* Activation check: value in FuseCode range when known. */
int nn_conv_check_act(const nn_op_call *c, const nn_tensor *t);

/* ---- staging: float16 and NCHW inputs become float32 / NHWC buffers ---- */

/* Copies src (NCHW or NHWC, float32 / float16 / 8-bit) into dst as NHWC,
 * converting float16 to float32 (so dst elements are 4 bytes for float
 * types, 1 byte for 8-bit types). */
void nn_conv_stage_in(const nn_tensor *src, bool nchw, void *dst);
/* Inverse: NHWC staging buffer (float32 or 8-bit) into the output tensor. */
void nn_conv_stage_out(const void *src, bool nchw, nn_tensor *dst);
/* Bytes a staged copy of t needs (0 when t can be used in place). */
size_t nn_conv_stage_bytes(const nn_tensor *t, bool nchw);

/* Float value i of a FLOAT32 or FLOAT16 tensor. */
float nn_tensor_f32_at(const nn_tensor *t, size_t i);

/* ---- convolution weights, prepared once per compilation when constant ---- */

typedef struct nn_conv_weights {
    uint32_t groups;
    bool quant;
    nn_sgemm_packed **fpack; /* float: one per group */
    float *fbias;            /* float: Cout (zeros when absent) */
    nn_qgemm_packed **qpack; /* quant: one per group */
    int32_t *qbias;          /* quant: Cout */
    int32_t *mult, *shift;   /* quant: Cout requantization, in qbias's allocation */
    struct nn_sconv_direct_weights *fdirect; /* float, few input channels: conv_direct.h */
} nn_conv_weights;

/* Builds weights for filter [Cout, fh, fw, Cg] split into groups (rows are
 * Cout, k = fh*fw*Cg), with bias and the requantization to out. */
int nn_conv_weights_build(const nn_tensor *in, const nn_tensor *filter, const nn_tensor *bias,
                          const nn_tensor *out, uint32_t groups, nn_conv_weights **w);
void nn_conv_weights_free(nn_conv_weights *w);

/* Per-output-channel requantization multipliers: s_in * s_f[c] / s_out. */
int nn_conv_requant_params(const nn_tensor *in, const nn_tensor *filter, const nn_tensor *out,
                           uint32_t channels, int32_t *mult, int32_t *shift);

/* ---- axis-wise operations (softmax, normalisations) ---- */

/* outer x len x inner view of t around axis (in [0, rank)). */
void nn_axis_split(const nn_tensor *t, uint32_t axis, size_t *outer, size_t *len, size_t *inner);
/* Reads the optional INT32 axis input idx (default -1) for a tensor of the
 * given rank; BAD_DATA when outside [-rank, rank). known=false when the
 * value or the rank is not known yet. */
int nn_read_axis(const nn_op_call *c, uint32_t idx, uint32_t rank, uint32_t *axis, bool *known);
/* Element i of a float or quant8 tensor as a real value, and the inverse
 * (quantizing with rounding and saturation). */
float nn_tensor_load_real(const nn_tensor *t, size_t i);
void nn_tensor_store_real(nn_tensor *t, size_t i, float v);

#endif
