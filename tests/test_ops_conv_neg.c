/*
 * Validation of the convolution, pooling, fully-connected, softmax and
 * normalisation operations through the public API. Each operation gets one
 * valid model (which must build, so that a refusal below is the operation's
 * own) and invalid variants (wrong shapes, types, paddings, strides, layouts,
 * quantization parameters) that addOperation or finish must refuse with
 * ANEURALNETWORKS_BAD_DATA. Values Android's runtime checks only in its CPU
 * executor (a quantized bias scale, a fixed output quantization, a constant
 * fused activation code out of range, shapes that do not fit each other) are
 * RUN_FAILS: the model builds and
 * compiles, and computing it returns ANEURALNETWORKS_OP_FAILED.
 */
#include <android/NeuralNetworks.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

enum { IN, CONST, SCALAR };

typedef struct opd {
    int32_t type;
    uint32_t rank;
    uint32_t dims[4];
    float scale;
    int32_t zero_point;
    int kind;     /* IN: model input; CONST: zero-filled constant tensor; SCALAR: constant */
    double value; /* SCALAR value */
} opd;

#define T4(t, a, b, c, d, s, z, k) {(t), 4, {(a), (b), (c), (d)}, (s), (z), (k), 0}
#define T2(t, a, b, s, z, k) {(t), 2, {(a), (b)}, (s), (z), (k), 0}
#define T1(t, a, s, z, k) {(t), 1, {(a)}, (s), (z), (k), 0}
#define I(v) {ANEURALNETWORKS_INT32, 0, {0}, 0.0f, 0, SCALAR, (v)}
#define F(v) {ANEURALNETWORKS_FLOAT32, 0, {0}, 0.0f, 0, SCALAR, (v)}
#define H(v) {ANEURALNETWORKS_FLOAT16, 0, {0}, 0.0f, 0, SCALAR, (v)}
#define B(v) {ANEURALNETWORKS_BOOL, 0, {0}, 0.0f, 0, SCALAR, (v)}

#define TF32 ANEURALNETWORKS_TENSOR_FLOAT32
#define TF16 ANEURALNETWORKS_TENSOR_FLOAT16
#define TI32 ANEURALNETWORKS_TENSOR_INT32
#define TQ8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define TQ8S ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED

#define MAX_IN 14

typedef struct model_case {
    int32_t op;
    const char *what;
    int expected;
    uint32_t n_in;
    opd in[MAX_IN];
    opd out;
} model_case;

#define OK ANEURALNETWORKS_NO_ERROR
#define BAD ANEURALNETWORKS_BAD_DATA
#define RUN_FAILS (-2) /* builds, compiles; compute returns OP_FAILED */

/* Conv-shaped inputs used by several cases. */
#define CIN T4(TF32, 1, 4, 4, 2, 0, 0, IN)
#define CFILT T4(TF32, 3, 2, 2, 2, 0, 0, CONST)
#define CBIAS T1(TF32, 3, 0, 0, CONST)
#define COUT T4(TF32, 1, 4, 4, 3, 0, 0, IN)
#define POOL_IN T4(TF32, 1, 4, 4, 2, 0, 0, IN)
#define QIN T4(TQ8, 1, 4, 4, 2, 0.5f, 128, IN)

static const model_case cases[] = {
    /* CONV_2D, implicit padding: in, filter, bias, padding, stride w/h, act. */
    {ANEURALNETWORKS_CONV_2D, "conv valid", OK, 7, {CIN, CFILT, CBIAS, I(1), I(1), I(1), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv filter depth != input depth", RUN_FAILS, 7,
     {CIN, T4(TF32, 3, 2, 2, 5, 0, 0, CONST), CBIAS, I(1), I(1), I(1), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv int32 bias for float", BAD, 7,
     {CIN, CFILT, T1(TI32, 3, 0, 0, CONST), I(1), I(1), I(1), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv padding code 3", BAD, 7, {CIN, CFILT, CBIAS, I(3), I(1), I(1), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv stride 0", BAD, 7, {CIN, CFILT, CBIAS, I(1), I(0), I(1), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv activation 7", RUN_FAILS, 7, {CIN, CFILT, CBIAS, I(1), I(1), I(1), I(7)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv negative explicit padding", BAD, 10,
     {CIN, CFILT, CBIAS, I(0), I(-1), I(0), I(0), I(1), I(1), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv rank-3 input", BAD, 7,
     {{TF32, 3, {4, 4, 2}, 0, 0, IN, 0}, CFILT, CBIAS, I(1), I(1), I(1), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv layout flag not BOOL", BAD, 8,
     {CIN, CFILT, CBIAS, I(1), I(1), I(1), I(0), I(0)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv dilation 0", BAD, 10,
     {CIN, CFILT, CBIAS, I(1), I(1), I(1), I(0), B(0), I(0), I(1)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv 9 inputs", BAD, 9,
     {CIN, CFILT, CBIAS, I(1), I(1), I(1), I(0), B(0), I(1)}, COUT},
    {ANEURALNETWORKS_CONV_2D, "conv output type differs", BAD, 7,
     {CIN, CFILT, CBIAS, I(1), I(1), I(1), I(0)}, T4(TF16, 1, 4, 4, 3, 0, 0, IN)},
    {ANEURALNETWORKS_CONV_2D, "conv quant filter signedness differs", BAD, 7,
     {QIN, T4(TQ8S, 3, 2, 2, 2, 0.5f, 0, CONST), T1(TI32, 3, 0.25f, 0, CONST), I(1), I(1), I(1), I(0)},
     T4(TQ8, 1, 4, 4, 3, 1.0f, 128, IN)},
    {ANEURALNETWORKS_CONV_2D, "conv quant float bias", BAD, 7,
     {QIN, T4(TQ8, 3, 2, 2, 2, 0.5f, 128, CONST), T1(TF32, 3, 0, 0, CONST),
      I(1), I(1), I(1), I(0)},
     T4(TQ8, 1, 4, 4, 3, 1.0f, 128, IN)},
    {ANEURALNETWORKS_CONV_2D, "conv quant bias not int32", BAD, 7,
     {QIN, T4(TQ8, 3, 2, 2, 2, 0.5f, 128, CONST), T1(TQ8, 3, 0.25f, 0, CONST), I(1), I(1), I(1), I(0)},
     T4(TQ8, 1, 4, 4, 3, 1.0f, 128, IN)},

    {ANEURALNETWORKS_CONV_2D, "conv quant valid", OK, 7,
     {QIN, T4(TQ8, 3, 2, 2, 2, 0.5f, 128, CONST), T1(TI32, 3, 0.25f, 0, CONST), I(1), I(1), I(1), I(0)},
     T4(TQ8, 1, 4, 4, 3, 1.0f, 128, IN)},
    {ANEURALNETWORKS_CONV_2D, "conv quant bias scale != in x filter", RUN_FAILS, 7,
     {QIN, T4(TQ8, 3, 2, 2, 2, 0.5f, 128, CONST), T1(TI32, 3, 0.3f, 0, CONST), I(1), I(1), I(1), I(0)},
     T4(TQ8, 1, 4, 4, 3, 1.0f, 128, IN)},
    {ANEURALNETWORKS_FULLY_CONNECTED, "fc quant bias scale != in x weights", RUN_FAILS, 4,
     {T2(TQ8, 2, 4, 0.5f, 0, IN), T2(TQ8, 3, 4, 0.5f, 0, CONST), T1(TI32, 3, 0.5f, 0, CONST), I(0)},
     T2(TQ8, 2, 3, 1.0f, 0, IN)},

    /* DEPTHWISE_CONV_2D: in, filter [1,h,w,C*m], bias, padding, strides, multiplier, act. */
    {ANEURALNETWORKS_DEPTHWISE_CONV_2D, "depthwise valid", OK, 8,
     {CIN, T4(TF32, 1, 2, 2, 4, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1), I(1), I(2), I(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_DEPTHWISE_CONV_2D, "depthwise multiplier mismatch", RUN_FAILS, 8,
     {CIN, T4(TF32, 1, 2, 2, 4, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1), I(1), I(3), I(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_DEPTHWISE_CONV_2D, "depthwise filter dim 0 is 2", RUN_FAILS, 8,
     {CIN, T4(TF32, 2, 2, 2, 4, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1), I(1), I(2), I(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_DEPTHWISE_CONV_2D, "depthwise bias size", RUN_FAILS, 8,
     {CIN, T4(TF32, 1, 2, 2, 4, 0, 0, CONST), T1(TF32, 3, 0, 0, CONST), I(1), I(1), I(1), I(2), I(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_DEPTHWISE_CONV_2D, "depthwise multiplier 0", BAD, 8,
     {CIN, T4(TF32, 1, 2, 2, 4, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1), I(1), I(0), I(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},

    /* GROUPED_CONV_2D, implicit: in, filter, bias, padding, strides, groups, act, layout. */
    {ANEURALNETWORKS_GROUPED_CONV_2D, "grouped valid", OK, 9,
     {T4(TF32, 1, 4, 4, 4, 0, 0, IN), T4(TF32, 4, 2, 2, 2, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1),
      I(1), I(2), I(0), B(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_GROUPED_CONV_2D, "grouped groups do not divide", RUN_FAILS, 9,
     {T4(TF32, 1, 4, 4, 4, 0, 0, IN), T4(TF32, 4, 2, 2, 2, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1),
      I(1), I(3), I(0), B(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_GROUPED_CONV_2D, "grouped layout not BOOL", BAD, 9,
     {T4(TF32, 1, 4, 4, 4, 0, 0, IN), T4(TF32, 4, 2, 2, 2, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1),
      I(1), I(2), I(0), I(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_GROUPED_CONV_2D, "grouped 8 inputs", BAD, 8,
     {T4(TF32, 1, 4, 4, 4, 0, 0, IN), T4(TF32, 4, 2, 2, 2, 0, 0, CONST), T1(TF32, 4, 0, 0, CONST), I(1), I(1),
      I(1), I(2), I(0)},
     T4(TF32, 1, 4, 4, 4, 0, 0, IN)},

    /* TRANSPOSE_CONV_2D, explicit: in, filter, bias, 4 pads, strides, act, layout. */
    {ANEURALNETWORKS_TRANSPOSE_CONV_2D, "transpose valid", OK, 11,
     {T4(TF32, 1, 2, 2, 1, 0, 0, IN), T4(TF32, 1, 3, 3, 1, 0, 0, CONST), T1(TF32, 1, 0, 0, CONST), I(0), I(0),
      I(0), I(0), I(1), I(1), I(0), B(0)},
     T4(TF32, 1, 4, 4, 1, 0, 0, IN)},
    {ANEURALNETWORKS_TRANSPOSE_CONV_2D, "transpose filter depth mismatch", RUN_FAILS, 11,
     {T4(TF32, 1, 2, 2, 1, 0, 0, IN), T4(TF32, 1, 3, 3, 2, 0, 0, CONST), T1(TF32, 1, 0, 0, CONST), I(0), I(0),
      I(0), I(0), I(1), I(1), I(0), B(0)},
     T4(TF32, 1, 4, 4, 1, 0, 0, IN)},
    {ANEURALNETWORKS_TRANSPOSE_CONV_2D, "transpose 10 inputs", BAD, 10,
     {T4(TF32, 1, 2, 2, 1, 0, 0, IN), T4(TF32, 1, 3, 3, 1, 0, 0, CONST), T1(TF32, 1, 0, 0, CONST), I(0), I(0),
      I(0), I(0), I(1), I(1), I(0)},
     T4(TF32, 1, 4, 4, 1, 0, 0, IN)},
    {ANEURALNETWORKS_TRANSPOSE_CONV_2D, "transpose negative stride", BAD, 11,
     {T4(TF32, 1, 2, 2, 1, 0, 0, IN), T4(TF32, 1, 3, 3, 1, 0, 0, CONST), T1(TF32, 1, 0, 0, CONST), I(0), I(0),
      I(0), I(0), I(-1), I(1), I(0), B(0)},
     T4(TF32, 1, 4, 4, 1, 0, 0, IN)},

    /* FULLY_CONNECTED: in, weights, bias, act. */
    {ANEURALNETWORKS_FULLY_CONNECTED, "fc valid", OK, 4,
     {T2(TF32, 2, 4, 0, 0, IN), T2(TF32, 3, 4, 0, 0, CONST), T1(TF32, 3, 0, 0, CONST), I(0)},
     T2(TF32, 2, 3, 0, 0, IN)},
    {ANEURALNETWORKS_FULLY_CONNECTED, "fc rank-4 weights", BAD, 4,
     {T2(TF32, 2, 4, 0, 0, IN), T4(TF32, 1, 1, 3, 4, 0, 0, CONST), T1(TF32, 3, 0, 0, CONST), I(0)},
     T2(TF32, 2, 3, 0, 0, IN)},
    /* Android's CPU executor checks the bias size when it prepares FULLY_CONNECTED (issue 15). */
    {ANEURALNETWORKS_FULLY_CONNECTED, "fc bias size", RUN_FAILS, 4,
     {T2(TF32, 2, 4, 0, 0, IN), T2(TF32, 3, 4, 0, 0, CONST), T1(TF32, 5, 0, 0, CONST), I(0)},
     T2(TF32, 2, 3, 0, 0, IN)},
    {ANEURALNETWORKS_FULLY_CONNECTED, "fc quant output signed", BAD, 4,
     {T2(TQ8, 2, 4, 0.5f, 0, IN), T2(TQ8, 3, 4, 0.5f, 0, CONST), T1(TI32, 3, 0.25f, 0, CONST), I(0)},
     T2(TQ8S, 2, 3, 1.0f, 0, IN)},
    {ANEURALNETWORKS_FULLY_CONNECTED, "fc weights type differs", BAD, 4,
     {T2(TF32, 2, 4, 0, 0, IN), T2(TF16, 3, 4, 0, 0, CONST), T1(TF32, 3, 0, 0, CONST), I(0)},
     T2(TF32, 2, 3, 0, 0, IN)},
    {ANEURALNETWORKS_FULLY_CONNECTED, "fc 5 inputs", BAD, 5,
     {T2(TF32, 2, 4, 0, 0, IN), T2(TF32, 3, 4, 0, 0, CONST), T1(TF32, 3, 0, 0, CONST), I(0), I(0)},
     T2(TF32, 2, 3, 0, 0, IN)},

    /* Pools, implicit: in, padding, strides, filter w/h, act. */
    {ANEURALNETWORKS_AVERAGE_POOL_2D, "avg pool valid", OK, 7,
     {POOL_IN, I(1), I(1), I(1), I(2), I(2), I(0)}, POOL_IN},
    {ANEURALNETWORKS_AVERAGE_POOL_2D, "avg pool filter 0", BAD, 7,
     {POOL_IN, I(1), I(1), I(1), I(0), I(2), I(0)}, POOL_IN},
    {ANEURALNETWORKS_AVERAGE_POOL_2D, "avg pool quant output scale differs", BAD, 7,
     {QIN, I(1), I(1), I(1), I(2), I(2), I(0)}, T4(TQ8, 1, 4, 4, 2, 0.25f, 128, IN)},
    {ANEURALNETWORKS_AVERAGE_POOL_2D, "avg pool 9 inputs", BAD, 9,
     {POOL_IN, I(1), I(1), I(1), I(2), I(2), I(0), B(0), I(0)}, POOL_IN},
    {ANEURALNETWORKS_MAX_POOL_2D, "max pool valid", OK, 7, {POOL_IN, I(2), I(1), I(1), I(2), I(2), I(0)}, POOL_IN},
    {ANEURALNETWORKS_MAX_POOL_2D, "max pool stride 0", BAD, 7,
     {POOL_IN, I(2), I(0), I(1), I(2), I(2), I(0)}, POOL_IN},
    {ANEURALNETWORKS_MAX_POOL_2D, "max pool layout not BOOL", BAD, 8,
     {POOL_IN, I(2), I(1), I(1), I(2), I(2), I(0), I(1)}, POOL_IN},
    {ANEURALNETWORKS_L2_POOL_2D, "l2 pool valid", OK, 7, {POOL_IN, I(1), I(1), I(1), I(2), I(2), I(0)}, POOL_IN},
    {ANEURALNETWORKS_L2_POOL_2D, "l2 pool quant input", BAD, 7,
     {QIN, I(1), I(1), I(1), I(2), I(2), I(0)}, QIN},
    {ANEURALNETWORKS_L2_POOL_2D, "l2 pool rank-2 input", BAD, 7,
     {T2(TF32, 4, 4, 0, 0, IN), I(1), I(1), I(1), I(2), I(2), I(0)}, T2(TF32, 4, 4, 0, 0, IN)},

    /* SOFTMAX: in, beta, axis. */
    {ANEURALNETWORKS_SOFTMAX, "softmax valid", OK, 2, {T2(TF32, 2, 5, 0, 0, IN), F(1.0)}, T2(TF32, 2, 5, 0, 0, IN)},
    {ANEURALNETWORKS_SOFTMAX, "softmax beta 0", BAD, 2, {T2(TF32, 2, 5, 0, 0, IN), F(0.0)}, T2(TF32, 2, 5, 0, 0, IN)},
    /* Android's SOFTMAX checks the axis value in prepare (issue 15). */
    {ANEURALNETWORKS_SOFTMAX, "softmax axis 2 of rank 2", RUN_FAILS, 3,
     {T2(TF32, 2, 5, 0, 0, IN), F(1.0), I(2)}, T2(TF32, 2, 5, 0, 0, IN)},
    {ANEURALNETWORKS_SOFTMAX, "softmax quant output scale", RUN_FAILS, 2,
     {T2(TQ8, 2, 5, 0.5f, 0, IN), F(1.0)}, T2(TQ8, 2, 5, 0.5f, 0, IN)},
    {ANEURALNETWORKS_SOFTMAX, "softmax float16 beta for float32", BAD, 2,
     {T2(TF32, 2, 5, 0, 0, IN), H(1.0)}, T2(TF32, 2, 5, 0, 0, IN)},
    {ANEURALNETWORKS_LOG_SOFTMAX, "log softmax valid", OK, 3,
     {T2(TF32, 2, 5, 0, 0, IN), F(1.0), I(-1)}, T2(TF32, 2, 5, 0, 0, IN)},
    {ANEURALNETWORKS_LOG_SOFTMAX, "log softmax quant", BAD, 3,
     {T2(TQ8, 2, 5, 0.5f, 0, IN), F(1.0), I(-1)}, T2(TQ8, 2, 5, 1.0f / 256, 0, IN)},
    /* Android's LOG_SOFTMAX checks the axis value in prepare (issue 15). */
    {ANEURALNETWORKS_LOG_SOFTMAX, "log softmax axis -3", RUN_FAILS, 3,
     {T2(TF32, 2, 5, 0, 0, IN), F(1.0), I(-3)}, T2(TF32, 2, 5, 0, 0, IN)},

    /* Normalisations. */
    {ANEURALNETWORKS_L2_NORMALIZATION, "l2 norm valid", OK, 1, {POOL_IN}, POOL_IN},
    {ANEURALNETWORKS_L2_NORMALIZATION, "l2 norm quant output zero point", RUN_FAILS, 1,
     {QIN}, T4(TQ8, 1, 4, 4, 2, 1.0f / 128, 0, IN)},
    /* Android's L2_NORMALIZATION checks the axis value in prepare (issue 15). */
    {ANEURALNETWORKS_L2_NORMALIZATION, "l2 norm axis 4", RUN_FAILS, 2, {POOL_IN, I(4)}, POOL_IN},
    {ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, "lrn valid", OK, 5,
     {POOL_IN, I(1), F(1.0), F(1.0), F(0.5)}, POOL_IN},
    {ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, "lrn int32 bias", BAD, 5,
     {POOL_IN, I(1), I(1), F(1.0), F(0.5)}, POOL_IN},
    {ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, "lrn negative radius", BAD, 5,
     {POOL_IN, I(-1), F(1.0), F(1.0), F(0.5)}, POOL_IN},
    {ANEURALNETWORKS_INSTANCE_NORMALIZATION, "instance norm valid", OK, 5,
     {POOL_IN, F(1.0), F(0.0), F(0.001), B(0)}, POOL_IN},
    {ANEURALNETWORKS_INSTANCE_NORMALIZATION, "instance norm float16 gamma", BAD, 5,
     {POOL_IN, H(1.0), F(0.0), F(0.001), B(0)}, POOL_IN},
    {ANEURALNETWORKS_INSTANCE_NORMALIZATION, "instance norm rank 2", BAD, 5,
     {T2(TF32, 4, 4, 0, 0, IN), F(1.0), F(0.0), F(0.001), B(0)}, T2(TF32, 4, 4, 0, 0, IN)},
    {ANEURALNETWORKS_INSTANCE_NORMALIZATION, "instance norm quant", BAD, 5,
     {QIN, F(1.0), F(0.0), F(0.001), B(0)}, QIN},
};

static size_t type_bytes(int32_t type)
{
    switch (type) {
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_FLOAT16:
        return 2;
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_BOOL:
        return 1;
    default:
        return 4;
    }
}

/* Adds operand o as index idx; sets constant values. 0 on success. */
static int add_operand(ANeuralNetworksModel *m, uint32_t idx, const opd *o)
{
    ANeuralNetworksOperandType t = {o->type, o->rank, o->rank ? o->dims : NULL, o->scale, o->zero_point};
    if (ANeuralNetworksModel_addOperand(m, &t) != ANEURALNETWORKS_NO_ERROR)
        return -1;
    if (o->kind == SCALAR) {
        unsigned char buf[4] = {0};
        if (o->type == ANEURALNETWORKS_FLOAT32) {
            float v = (float)o->value;
            memcpy(buf, &v, 4);
        } else if (o->type == ANEURALNETWORKS_FLOAT16) {
            uint16_t h = o->value == 1.0 ? 0x3c00 : 0;
            memcpy(buf, &h, 2);
        } else if (o->type == ANEURALNETWORKS_BOOL) {
            buf[0] = o->value != 0.0;
        } else {
            int32_t v = (int32_t)o->value;
            memcpy(buf, &v, 4);
        }
        return ANeuralNetworksModel_setOperandValue(m, idx, buf, type_bytes(o->type)) ? -1 : 0;
    }
    if (o->kind == CONST) {
        size_t n = type_bytes(o->type);
        for (uint32_t i = 0; i < o->rank; i++)
            n *= o->dims[i];
        void *data = calloc(n, 1);
        if (!data)
            return -1;
        int rc = ANeuralNetworksModel_setOperandValue(m, idx, data, n);
        free(data);
        return rc ? -1 : 0;
    }
    return 0;
}

static size_t opd_bytes(const opd *o)
{
    size_t n = type_bytes(o->type);
    for (uint32_t i = 0; i < o->rank; i++)
        n *= o->dims[i];
    return n;
}

/* Compiles the finished model and computes it on zero inputs. */
static int compute(ANeuralNetworksModel *m, const model_case *c)
{
    ANeuralNetworksCompilation *comp = NULL;
    ANeuralNetworksExecution *e = NULL;
    void *bufs[MAX_IN + 1] = {0};
    int rc = ANeuralNetworksCompilation_create(m, &comp);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(comp);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_create(comp, &e);
    int32_t k = 0;
    for (uint32_t i = 0; i < c->n_in && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        if (c->in[i].kind != IN)
            continue;
        bufs[i] = calloc(opd_bytes(&c->in[i]), 1);
        rc = bufs[i] ? ANeuralNetworksExecution_setInput(e, k++, NULL, bufs[i], opd_bytes(&c->in[i]))
                     : -1;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        bufs[MAX_IN] = calloc(opd_bytes(&c->out), 1);
        rc = bufs[MAX_IN] ? ANeuralNetworksExecution_setOutput(e, 0, NULL, bufs[MAX_IN],
                                                               opd_bytes(&c->out))
                          : -1;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_compute(e);
    for (uint32_t i = 0; i <= MAX_IN; i++)
        free(bufs[i]);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(comp);
    return rc;
}

/* Builds the case; returns the first non-NO_ERROR code of addOperation or
 * finish (and, for RUN_FAILS, of compiling and computing), or -1 when the
 * scaffolding itself failed. */
static int build(const model_case *c)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m) != ANEURALNETWORKS_NO_ERROR)
        return -1;
    uint32_t ins[MAX_IN], model_in[MAX_IN], n_model_in = 0;
    int rc = -1;
    for (uint32_t i = 0; i < c->n_in; i++) {
        if (add_operand(m, i, &c->in[i]))
            goto done;
        ins[i] = i;
        if (c->in[i].kind == IN)
            model_in[n_model_in++] = i;
    }
    uint32_t out = c->n_in;
    if (add_operand(m, out, &c->out))
        goto done;
    rc = ANeuralNetworksModel_addOperation(m, c->op, c->n_in, ins, 1, &out);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        goto done;
    if (ANeuralNetworksModel_identifyInputsAndOutputs(m, n_model_in, model_in, 1, &out) != ANEURALNETWORKS_NO_ERROR) {
        rc = -1;
        goto done;
    }
    rc = ANeuralNetworksModel_finish(m);
    if (rc == ANEURALNETWORKS_NO_ERROR && c->expected == RUN_FAILS)
        rc = compute(m, c);
done:
    ANeuralNetworksModel_free(m);
    return rc;
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = build(&cases[i]);
        int want = cases[i].expected == RUN_FAILS ? ANEURALNETWORKS_OP_FAILED : cases[i].expected;
        if (!nt_record(rc == want, __FILE__, __LINE__, cases[i].what))
            fprintf(stderr, "    %s: got %d, expected %d\n", cases[i].what, rc, want);
    }
    return nt_summary();
}
