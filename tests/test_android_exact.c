/*
 * Android-exact results: the same call fails, with the same code, as it does
 * on Android's runtime (NeuralNetworks.cpp, ModelBuilder, the operation
 * validators, the CPU executor, MemoryBuilder, ExecutionBuilder). Each group
 * is one class of issue 15; each check names the Android behaviour it
 * follows. Public API only. Run with --vlog-child, the binary performs failing
 * calls for the log test, which runs it again with NNAPI_LINUX_VLOG=1.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <android/NeuralNetworks.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"

/* Android's NeuralNetworksOEM.h (deprecated, not in the NDK header). */
enum { OEM_SCALAR = 10000, TENSOR_OEM_BYTE = 10001, OEM_OPERATION = 10000 };

#define F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define I32 ANEURALNETWORKS_TENSOR_INT32
#define QA8 ANEURALNETWORKS_TENSOR_QUANT8_ASYMM
#define QS8C ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL

static int add_tensor(ANeuralNetworksModel *m, int32_t type, uint32_t rank, const uint32_t *dims,
                      float scale, int32_t zp)
{
    ANeuralNetworksOperandType t = {type, rank, rank ? dims : NULL, scale, zp};
    return ANeuralNetworksModel_addOperand(m, &t);
}

static int add_scalar(ANeuralNetworksModel *m, int32_t type)
{
    ANeuralNetworksOperandType t = {type, 0, NULL, 0.0f, 0};
    return ANeuralNetworksModel_addOperand(m, &t);
}

static int add_i32_const(ANeuralNetworksModel *m, int32_t index, int32_t v)
{
    int rc = add_scalar(m, ANEURALNETWORKS_INT32);
    return rc ? rc : ANeuralNetworksModel_setOperandValue(m, index, &v, sizeof v);
}

/* Float32 ADD of two [rank, dims] inputs with a constant fuse code: operands
 * 0, 1 inputs, 2 fuse code, 3 output of out_dims. Not finished. */
static ANeuralNetworksModel *add_model(uint32_t rank, const uint32_t *a_dims, const uint32_t *b_dims,
                                       const uint32_t *out_dims, int32_t fuse)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m))
        return NULL;
    uint32_t in[3] = {0, 1, 2}, out[1] = {3};
    if (add_tensor(m, F32, rank, a_dims, 0, 0) || add_tensor(m, F32, rank, b_dims, 0, 0) ||
        add_i32_const(m, 2, fuse) || add_tensor(m, F32, rank, out_dims, 0, 0) ||
        ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out) ||
        ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, in, 1, out)) {
        ANeuralNetworksModel_free(m);
        return NULL;
    }
    return m;
}

static const ANeuralNetworksDevice *cpu_device(void)
{
    ANeuralNetworksDevice *d = NULL;
    return ANeuralNetworks_getDevice(0, &d) == ANEURALNETWORKS_NO_ERROR ? d : NULL;
}

/* getSupportedOperationsForDevices on the CPU device for operation 0. */
static int supported0(const ANeuralNetworksModel *m, bool *ok)
{
    const ANeuralNetworksDevice *d = cpu_device();
    bool ops[4] = {false};
    int rc = ANeuralNetworksModel_getSupportedOperationsForDevices(m, &d, 1, ops);
    *ok = ops[0];
    return rc;
}

typedef struct io {
    const void *data;
    size_t bytes;
} io;

/* Compiles and computes a finished model: the first error. outs are
 * written. */
static int compile_and_compute(ANeuralNetworksModel *m, const io *ins, uint32_t n_in, io *outs,
                               uint32_t n_out, int *compile_rc)
{
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksExecution *e = NULL;
    int rc = ANeuralNetworksCompilation_create(m, &c);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(c);
    if (compile_rc)
        *compile_rc = rc;
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_create(c, &e);
    for (uint32_t i = 0; i < n_in && rc == ANEURALNETWORKS_NO_ERROR; i++)
        rc = ANeuralNetworksExecution_setInput(e, (int32_t)i, NULL, ins[i].data, ins[i].bytes);
    for (uint32_t i = 0; i < n_out && rc == ANEURALNETWORKS_NO_ERROR; i++)
        rc = ANeuralNetworksExecution_setOutput(e, (int32_t)i, NULL, (void *)outs[i].data,
                                                outs[i].bytes);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_compute(e);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    return rc;
}

/* ---- 1. NULL operand lists ---- */

static void test_null_lists(void)
{
    /* NeuralNetworks.cpp: ANeuralNetworksModel_addOperation and
     * _identifyInputsAndOutputs return UNEXPECTED_NULL when inputs or outputs
     * is NULL, whatever the counts. */
    ANeuralNetworksModel *m = NULL;
    uint32_t d[1] = {2}, in[3] = {0, 1, 2}, out[1] = {3};
    CHECK_OK(ANeuralNetworksModel_create(&m));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_i32_const(m, 2, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 0, NULL, 1, out),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 0, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out));
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 0, NULL, 1, out),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, in, 0, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    /* The refused calls changed nothing: the model still builds. */
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    ANeuralNetworksModel_free(m);
}

/* ---- 2. an operand written by two operations ---- */

static void test_written_twice(void)
{
    /* ModelBuilder::addOperation validates the operation alone; the graph
     * (each operand written once, never a constant) is validated by finish,
     * which then leaves the model invalid. */
    ANeuralNetworksModel *m = NULL;
    uint32_t d[1] = {2}, in[3] = {0, 1, 2}, out[1] = {3};
    CHECK_OK(ANeuralNetworksModel_create(&m));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_i32_const(m, 2, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_MUL, 3, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, in, 1, out));
    CHECK_RC(ANeuralNetworksModel_finish(m), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(add_tensor(m, F32, 1, d, 0, 0), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(m);

    /* An operation writing a constant: also refused by finish only. */
    CHECK_OK(ANeuralNetworksModel_create(&m));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_i32_const(m, 2, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    static const float two[2] = {1, 2};
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 1, two, sizeof two));
    uint32_t to_const[1] = {1}, one_in[1] = {0};
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, to_const));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, one_in, 1, out));
    CHECK_RC(ANeuralNetworksModel_finish(m), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(m);
}

/* ---- 3. values Android checks only when computing ---- */

static void test_fuse_code_at_compute(void)
{
    /* ADD with the constant fuse code 999: Android's validation does not see
     * operand values; the CPU driver reports the operation supported, the
     * model compiles, and computing it fails. */
    uint32_t d[1] = {2};
    ANeuralNetworksModel *m = add_model(1, d, d, d, 999);
    CHECK(m != NULL);
    if (m == NULL)
        return;
    CHECK_OK(ANeuralNetworksModel_finish(m));
    bool ok = false;
    CHECK_OK(supported0(m, &ok));
    CHECK(ok);
    float a[2] = {1, 2}, b[2] = {3, 4}, r[2] = {0, 0};
    io ins[2] = {{a, sizeof a}, {b, sizeof b}}, outs[1] = {{r, sizeof r}};
    int compile_rc = -1;
    CHECK_RC(compile_and_compute(m, ins, 2, outs, 1, &compile_rc), ANEURALNETWORKS_OP_FAILED);
    CHECK_RC(compile_rc, ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksModel_free(m);

    /* The same model with fuse code 0 computes (the failure above is the
     * value's). */
    m = add_model(1, d, d, d, 0);
    CHECK(m != NULL);
    if (m == NULL)
        return;
    CHECK_OK(ANeuralNetworksModel_finish(m));
    CHECK_OK(compile_and_compute(m, ins, 2, outs, 1, NULL));
    CHECK(r[0] == 4.0f && r[1] == 6.0f);
    ANeuralNetworksModel_free(m);
}

/* Quantized FULLY_CONNECTED [1,2] x [1,2]^T with the given bias scale. */
static ANeuralNetworksModel *fc_model(float bias_scale)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m))
        return NULL;
    uint32_t din[2] = {1, 2}, dw[2] = {1, 2}, db[1] = {1}, dout[2] = {1, 1};
    static const uint8_t w[2] = {132, 132};
    static const int32_t bias[1] = {0};
    uint32_t in[4] = {0, 1, 2, 3}, out[1] = {4}, model_in[1] = {0};
    if (add_tensor(m, QA8, 2, din, 0.5f, 128) || add_tensor(m, QA8, 2, dw, 0.25f, 128) ||
        ANeuralNetworksModel_setOperandValue(m, 1, w, sizeof w) ||
        add_tensor(m, I32, 1, db, bias_scale, 0) ||
        ANeuralNetworksModel_setOperandValue(m, 2, bias, sizeof bias) ||
        add_i32_const(m, 3, 0) || add_tensor(m, QA8, 2, dout, 1.0f, 128) ||
        ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_FULLY_CONNECTED, 4, in, 1, out) ||
        ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, model_in, 1, out) ||
        ANeuralNetworksModel_finish(m)) {
        ANeuralNetworksModel_free(m);
        return NULL;
    }
    return m;
}

static void test_bias_scale_at_compute(void)
{
    /* Android's CPU executor checks bias scale == input scale * filter
     * scale when it prepares the operation, not in validation. */
    ANeuralNetworksModel *m = fc_model(0.25f);
    CHECK(m != NULL);
    if (m == NULL)
        return;
    bool ok = false;
    CHECK_OK(supported0(m, &ok));
    CHECK(ok);
    uint8_t x[2] = {130, 132}, y[1] = {0};
    io ins[1] = {{x, sizeof x}}, outs[1] = {{y, sizeof y}};
    int compile_rc = -1;
    CHECK_RC(compile_and_compute(m, ins, 1, outs, 1, &compile_rc), ANEURALNETWORKS_OP_FAILED);
    CHECK_RC(compile_rc, ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksModel_free(m);
    /* With bias scale 0.125 = 0.5 * 0.25: inputs {1, 2}, weights {1, 1}:
     * 1 + 2 = 3, over output scale 1 plus zero point 128 = 131. */
    m = fc_model(0.125f);
    CHECK(m != NULL);
    if (m == NULL)
        return;
    CHECK_OK(compile_and_compute(m, ins, 1, outs, 1, NULL));
    CHECK_EQ_INT(y[0], 131);
    ANeuralNetworksModel_free(m);
}

static void test_box_scale_at_compute(void)
{
    /* ROI_ALIGN on quant8 with QUANT16_ASYMM regions of scale 0.5: Android's
     * validation checks the regions' type; the 0.125 scale is checked by the
     * CPU executor. */
    for (int good = 0; good < 2; good++) {
        ANeuralNetworksModel *m = NULL;
        CHECK_OK(ANeuralNetworksModel_create(&m));
        uint32_t dfeat[4] = {1, 2, 2, 1}, droi[2] = {1, 4}, dbatch[1] = {1},
                 dout[4] = {1, 1, 1, 1};
        static const uint16_t roi[4] = {0, 0, 16, 16};
        static const int32_t batch[1] = {0};
        static const float ratio = 1.0f;
        static const uint8_t nhwc = 0;
        CHECK_OK(add_tensor(m, QA8, 4, dfeat, 1.0f, 0));
        CHECK_OK(add_tensor(m, ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 2, droi,
                            good ? 0.125f : 0.5f, 0));
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 1, roi, sizeof roi));
        CHECK_OK(add_tensor(m, I32, 1, dbatch, 0, 0));
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 2, batch, sizeof batch));
        CHECK_OK(add_i32_const(m, 3, 1));
        CHECK_OK(add_i32_const(m, 4, 1));
        CHECK_OK(add_scalar(m, ANEURALNETWORKS_FLOAT32));
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 5, &ratio, sizeof ratio));
        CHECK_OK(add_scalar(m, ANEURALNETWORKS_FLOAT32));
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 6, &ratio, sizeof ratio));
        CHECK_OK(add_i32_const(m, 7, 1));
        CHECK_OK(add_i32_const(m, 8, 1));
        CHECK_OK(add_scalar(m, ANEURALNETWORKS_BOOL));
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 9, &nhwc, sizeof nhwc));
        CHECK_OK(add_tensor(m, QA8, 4, dout, 1.0f, 0));
        uint32_t in[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, out[1] = {10}, model_in[1] = {0};
        CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ROI_ALIGN, 10, in, 1, out));
        CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, model_in, 1, out));
        CHECK_OK(ANeuralNetworksModel_finish(m));
        uint8_t feat[4] = {7, 7, 7, 7}, res[1] = {0};
        io ins[1] = {{feat, sizeof feat}}, outs[1] = {{res, sizeof res}};
        CHECK_RC(compile_and_compute(m, ins, 1, outs, 1, NULL),
                 good ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OP_FAILED);
        if (good)
            CHECK_EQ_INT(res[0], 7);
        ANeuralNetworksModel_free(m);
    }
}

static void test_reshape_shape_tensor_rank(void)
{
    /* Android checks the shape tensor's type only; TFLite's delegate hands
     * over [1, 4] shape tensors of real models: its elements are the shape. */
    ANeuralNetworksModel *m = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t din[2] = {2, 2}, dshape[2] = {1, 2}, dout[2] = {1, 4};
    static const int32_t shape[2] = {1, 4};
    CHECK_OK(add_tensor(m, F32, 2, din, 0, 0));
    CHECK_OK(add_tensor(m, I32, 2, dshape, 0, 0));
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 1, shape, sizeof shape));
    CHECK_OK(add_tensor(m, F32, 2, dout, 0, 0));
    uint32_t in[2] = {0, 1}, out[1] = {2}, model_in[1] = {0};
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_RESHAPE, 2, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, model_in, 1, out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    float x[4] = {1, 2, 3, 4}, y[4] = {0};
    io ins[1] = {{x, sizeof x}}, outs[1] = {{y, sizeof y}};
    CHECK_OK(compile_and_compute(m, ins, 1, outs, 1, NULL));
    CHECK(memcmp(x, y, sizeof x) == 0);
    ANeuralNetworksModel_free(m);
}

static void test_dequantize_channel_params_later(void)
{
    /* Per-channel parameters may be set after addOperation: Android's
     * DEQUANTIZE validation looks at the type; finish wants the parameters. */
    for (int set_params = 0; set_params < 2; set_params++) {
        ANeuralNetworksModel *m = NULL;
        CHECK_OK(ANeuralNetworksModel_create(&m));
        uint32_t d[2] = {1, 2}, in[1] = {0}, out[1] = {1};
        CHECK_OK(add_tensor(m, QS8C, 2, d, 0, 0));
        CHECK_OK(add_tensor(m, F32, 2, d, 0, 0));
        CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_DEQUANTIZE, 1, in, 1, out));
        static const float scales[2] = {0.5f, 2.0f};
        ANeuralNetworksSymmPerChannelQuantParams cq = {1, 2, scales};
        if (set_params)
            CHECK_OK(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m, 0, &cq));
        CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, in, 1, out));
        CHECK_RC(ANeuralNetworksModel_finish(m),
                 set_params ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA);
        if (set_params) {
            int8_t x[2] = {4, -3};
            float y[2] = {0, 0};
            io ins[1] = {{x, sizeof x}}, outs[1] = {{y, sizeof y}};
            CHECK_OK(compile_and_compute(m, ins, 1, outs, 1, NULL));
            CHECK(y[0] == 2.0f && y[1] == -6.0f);
        }
        ANeuralNetworksModel_free(m);
    }
}

/* ---- 4. OEM operands and OEM_OPERATION ---- */

static void test_oem(void)
{
    /* ModelBuilder accepts the deprecated OEM types (with any quantization,
     * "historically allowed") and OEM_OPERATION, whose validation passes;
     * no device here supports OEM_OPERATION, so getSupportedOperations says
     * false and compiling fails as when no device supports an operation. */
    ANeuralNetworksModel *m = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t d[1] = {4};
    ANeuralNetworksOperandType oem_scalar = {OEM_SCALAR, 0, NULL, 0.5f, 3};
    CHECK_OK(ANeuralNetworksModel_addOperand(m, &oem_scalar));
    CHECK_OK(add_tensor(m, TENSOR_OEM_BYTE, 1, d, 0.25f, 1));
    CHECK_OK(add_tensor(m, TENSOR_OEM_BYTE, 1, d, 0, 0));
    /* An OEM scalar has no defined size: any length is taken. */
    static const uint8_t blob[7] = {1, 2, 3, 4, 5, 6, 7};
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 0, blob, sizeof blob));
    static const uint8_t bytes[4] = {1, 2, 3, 4};
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 2, bytes, 3), ANEURALNETWORKS_BAD_DATA);
    uint32_t in[2] = {0, 1}, out[1] = {2}, model_in[1] = {1};
    CHECK_OK(ANeuralNetworksModel_addOperation(m, OEM_OPERATION, 2, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, model_in, 1, out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    bool ok = true;
    CHECK_OK(supported0(m, &ok));
    CHECK(!ok);
    ANeuralNetworksCompilation *c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(m, &c));
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksCompilation_free(c);
    const ANeuralNetworksDevice *dev = cpu_device();
    c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_createForDevices(m, &dev, 1, &c));
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);

    /* Operation codes between RANK and OEM_OPERATION stay unknown. */
    CHECK_OK(ANeuralNetworksModel_create(&m));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    uint32_t zero[1] = {0};
    CHECK_RC(ANeuralNetworksModel_addOperation(m, 9999, 1, zero, 1, zero),
             ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(m);
}

/* ---- 5. memory descriptors ---- */

static void test_memory_desc_scalar_role(void)
{
    /* MemoryBuilder takes roles on scalar operands; their dimensions are
     * empty, so setDimensions takes rank 0 only. ADD's fuse code as a model
     * input gets its value from such a memory. */
    ANeuralNetworksModel *m = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t d[1] = {2}, in[3] = {0, 1, 2}, out[1] = {3};
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_scalar(m, ANEURALNETWORKS_INT32));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 3, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    ANeuralNetworksCompilation *c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(m, &c));
    CHECK_OK(ANeuralNetworksCompilation_finish(c));

    ANeuralNetworksMemoryDesc *desc = NULL;
    CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc));
    CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 2, 1.0f));
    uint32_t one[1] = {1};
    CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, one), ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksMemoryDesc_setDimensions(desc, 0, NULL));
    CHECK_OK(ANeuralNetworksMemoryDesc_finish(desc));
    ANeuralNetworksMemory *mem = NULL;
    CHECK_OK(ANeuralNetworksMemory_createFromDesc(desc, &mem));
    ANeuralNetworksMemoryDesc_free(desc);

    /* Dimensions set first leave no room for a scalar role. */
    CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc));
    CHECK_OK(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, one));
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 2, 1.0f), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemoryDesc_free(desc);

    /* Fill the scalar memory with RELU (1) from an fd memory and compute. */
    int fd = memfd_create("nn_exact", MFD_CLOEXEC);
    int32_t relu = ANEURALNETWORKS_FUSED_RELU;
    CHECK(fd >= 0 && write(fd, &relu, sizeof relu) == (ssize_t)sizeof relu);
    ANeuralNetworksMemory *src = NULL;
    CHECK_OK(ANeuralNetworksMemory_createFromFd(sizeof relu, PROT_READ | PROT_WRITE, fd, 0, &src));
    CHECK_OK(ANeuralNetworksMemory_copy(src, mem));
    ANeuralNetworksExecution *e = NULL;
    float a[2] = {1, -5}, b[2] = {2, 1}, r[2] = {-1, -1};
    CHECK_OK(ANeuralNetworksExecution_create(c, &e));
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof a));
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, b, sizeof b));
    CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 2, NULL, mem, 0, 0));
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, r, sizeof r));
    CHECK_OK(ANeuralNetworksExecution_compute(e));
    CHECK(r[0] == 3.0f && r[1] == 0.0f);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksMemory_free(src);
    if (fd >= 0)
        close(fd);
    ANeuralNetworksMemory_free(mem);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

static void test_memory_desc_per_channel_role(void)
{
    /* MemoryBuilder takes roles on TENSOR_QUANT8_SYMM_PER_CHANNEL operands
     * (a CONV_2D filter given as a model input); the per-channel parameters
     * of every role must agree. */
    ANeuralNetworksModel *m = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t din[4] = {1, 1, 1, 1}, df[4] = {2, 1, 1, 1}, db[1] = {2}, dout[4] = {1, 1, 1, 2};
    static const float scales[2] = {0.5f, 0.25f};
    ANeuralNetworksSymmPerChannelQuantParams cq = {0, 2, scales};
    static const int32_t bias[2] = {0, 0};
    CHECK_OK(add_tensor(m, QA8, 4, din, 1.0f, 0));
    CHECK_OK(add_tensor(m, QS8C, 4, df, 0, 0));
    CHECK_OK(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m, 1, &cq));
    CHECK_OK(add_tensor(m, I32, 1, db, 0, 0));
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, 2, bias, sizeof bias));
    for (int32_t i = 3; i <= 6; i++)
        CHECK_OK(add_i32_const(m, i, i == 3 ? ANEURALNETWORKS_PADDING_VALID : i == 6 ? 0 : 1));
    CHECK_OK(add_tensor(m, QA8, 4, dout, 1.0f, 0));
    uint32_t in[7] = {0, 1, 2, 3, 4, 5, 6}, out[1] = {7}, model_in[2] = {0, 1};
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_CONV_2D, 7, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, model_in, 1, out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    ANeuralNetworksCompilation *c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(m, &c));
    CHECK_OK(ANeuralNetworksCompilation_finish(c));
    ANeuralNetworksMemoryDesc *desc = NULL;
    CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc));
    CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 1, 1.0f));
    CHECK_OK(ANeuralNetworksMemoryDesc_finish(desc));
    ANeuralNetworksMemory *mem = NULL;
    CHECK_OK(ANeuralNetworksMemory_createFromDesc(desc, &mem));
    ANeuralNetworksMemoryDesc_free(desc);
    /* The input role of the input tensor (QUANT8_ASYMM) does not fit with it. */
    CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc));
    CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 1, 1.0f));
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 0, 1.0f), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemoryDesc_free(desc);

    /* Filter values {4, 8}: outputs 3 * 4 * 0.5 = 6 and 3 * 8 * 0.25 = 6. */
    int fd = memfd_create("nn_exact", MFD_CLOEXEC);
    int8_t filt[2] = {4, 8};
    CHECK(fd >= 0 && write(fd, filt, sizeof filt) == (ssize_t)sizeof filt);
    ANeuralNetworksMemory *src = NULL;
    CHECK_OK(ANeuralNetworksMemory_createFromFd(sizeof filt, PROT_READ, fd, 0, &src));
    CHECK_OK(ANeuralNetworksMemory_copy(src, mem));
    ANeuralNetworksExecution *e = NULL;
    uint8_t x[1] = {3}, y[2] = {0, 0};
    CHECK_OK(ANeuralNetworksExecution_create(c, &e));
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, x, sizeof x));
    CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 1, NULL, mem, 0, 0));
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, y, sizeof y));
    CHECK_OK(ANeuralNetworksExecution_compute(e));
    CHECK(y[0] == 6 && y[1] == 6);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksMemory_free(src);
    if (fd >= 0)
        close(fd);
    ANeuralNetworksMemory_free(mem);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* ---- 7. unspecified and inconsistent dimensions ---- */

static void test_inconsistent_shapes(void)
{
    /* Fully specified shapes that do not broadcast: Android's ADD validation
     * checks types and ranks; the model compiles and computing fails. */
    uint32_t d2[2] = {2, 2}, d3[2] = {3, 3};
    ANeuralNetworksModel *m = add_model(2, d2, d3, d2, 0);
    CHECK(m != NULL);
    if (m != NULL) {
        CHECK_OK(ANeuralNetworksModel_finish(m));
        float a[4] = {0}, b[9] = {0}, r[4] = {0};
        io ins[2] = {{a, sizeof a}, {b, sizeof b}}, outs[1] = {{r, sizeof r}};
        int compile_rc = -1;
        CHECK_RC(compile_and_compute(m, ins, 2, outs, 1, &compile_rc), ANEURALNETWORKS_OP_FAILED);
        CHECK_RC(compile_rc, ANEURALNETWORKS_NO_ERROR);
        ANeuralNetworksModel_free(m);
    }
    /* A declared output shape that is not what the inputs make. */
    uint32_t d23[2] = {2, 3};
    m = add_model(2, d23, d23, d2, 0);
    CHECK(m != NULL);
    if (m != NULL) {
        CHECK_OK(ANeuralNetworksModel_finish(m));
        float a[6] = {0}, b[6] = {0}, r[4] = {0};
        io ins[2] = {{a, sizeof a}, {b, sizeof b}}, outs[1] = {{r, sizeof r}};
        int compile_rc = -1;
        CHECK_RC(compile_and_compute(m, ins, 2, outs, 1, &compile_rc), ANEURALNETWORKS_OP_FAILED);
        CHECK_RC(compile_rc, ANEURALNETWORKS_NO_ERROR);
        ANeuralNetworksModel_free(m);
    }
}

static void test_omitted_input_type(void)
{
    /* ExecutionBuilder::setInput checks a given type even for an omitted
     * (NULL, 0) input: it must fit the operand's and be fully specified. */
    uint32_t d[1] = {2};
    ANeuralNetworksModel *m = add_model(1, d, d, d, 0);
    CHECK(m != NULL);
    if (m == NULL)
        return;
    CHECK_OK(ANeuralNetworksModel_finish(m));
    ANeuralNetworksCompilation *c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(m, &c));
    CHECK_OK(ANeuralNetworksCompilation_finish(c));
    ANeuralNetworksExecution *e = NULL;
    CHECK_OK(ANeuralNetworksExecution_create(c, &e));
    uint32_t unknown[1] = {0};
    ANeuralNetworksOperandType less = {F32, 1, unknown, 0, 0};
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &less, NULL, 0), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksOperandType no_rank = {F32, 0, NULL, 0, 0};
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &no_rank, NULL, 0), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksOperandType same = {F32, 1, d, 0, 0};
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, &same, NULL, 0));
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

static void test_unspecified_rank_output(void)
{
    /* An output of unspecified rank, given a type at setOutput whose
     * dimensions are not what the computation makes: compute OP_FAILED. */
    ANeuralNetworksModel *m = NULL;
    uint32_t d[1] = {2};
    CHECK_OK(ANeuralNetworksModel_create(&m));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_tensor(m, F32, 1, d, 0, 0));
    CHECK_OK(add_i32_const(m, 2, 0));
    CHECK_OK(add_tensor(m, F32, 0, NULL, 0, 0));
    uint32_t in[3] = {0, 1, 2}, out[1] = {3};
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, in, 1, out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    ANeuralNetworksCompilation *c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(m, &c));
    CHECK_OK(ANeuralNetworksCompilation_finish(c));
    for (int right = 0; right < 2; right++) {
        ANeuralNetworksExecution *e = NULL;
        float a[2] = {1, 2}, b[2] = {3, 4}, r[4] = {0};
        uint32_t wrong_dims[2] = {1, 2};
        ANeuralNetworksOperandType wrong = {F32, 2, wrong_dims, 0, 0},
                                   fits = {F32, 1, d, 0, 0};
        CHECK_OK(ANeuralNetworksExecution_create(c, &e));
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof a));
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, b, sizeof b));
        CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, right ? &fits : &wrong, r,
                                                    2 * sizeof(float)));
        CHECK_RC(ANeuralNetworksExecution_compute(e),
                 right ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OP_FAILED);
        if (right)
            CHECK(r[0] == 4.0f && r[1] == 6.0f);
        ANeuralNetworksExecution_free(e);
    }
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* ---- 10. every error says why under NNAPI_LINUX_VLOG ---- */

/* Failing calls whose log lines the parent checks. */
static int vlog_child(void)
{
    uint32_t d[1] = {2};
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    add_tensor(m, QA8, 1, d, 0.5f, 0);
    add_tensor(m, QA8, 1, d, 0.5f, 0);
    add_i32_const(m, 2, 0);
    add_tensor(m, QA8, 1, d, 0.25f, 0);
    uint32_t in[3] = {0, 1, 2}, out[1] = {3};
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_MUL, 3, in, 1, out);
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 0, NULL);
    ANeuralNetworksOperandType bad = {QA8, 1, d, 0.0f, 0};
    ANeuralNetworksModel_addOperand(m, &bad);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksModel *fc = fc_model(0.25f);
    float x[2] = {0};
    uint8_t y[1];
    io ins[1] = {{x, 2}}, outs[1] = {{y, 1}};
    compile_and_compute(fc, ins, 1, outs, 1, NULL);
    ANeuralNetworksModel_free(fc);

    /* An operand written twice; an OEM operation no device runs; a short
     * input buffer. */
    ANeuralNetworksModel_create(&m);
    add_tensor(m, F32, 1, d, 0, 0);
    add_tensor(m, F32, 1, d, 0, 0);
    add_i32_const(m, 2, 0);
    add_tensor(m, F32, 1, d, 0, 0);
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out);
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_MUL, 3, in, 1, out);
    ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, in, 1, out);
    ANeuralNetworksModel_finish(m);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksModel_create(&m);
    add_tensor(m, TENSOR_OEM_BYTE, 1, d, 0, 0);
    add_tensor(m, TENSOR_OEM_BYTE, 1, d, 0, 0);
    uint32_t oem_in[1] = {0}, oem_out[1] = {1};
    ANeuralNetworksModel_addOperation(m, OEM_OPERATION, 1, oem_in, 1, oem_out);
    ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, oem_in, 1, oem_out);
    ANeuralNetworksModel_finish(m);
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksCompilation_create(m, &c);
    ANeuralNetworksCompilation_finish(c);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksModel *add = add_model(1, d, d, d, 0);
    ANeuralNetworksModel_finish(add);
    ANeuralNetworksCompilation_create(add, &c);
    ANeuralNetworksCompilation_finish(c);
    ANeuralNetworksExecution *e = NULL;
    ANeuralNetworksExecution_create(c, &e);
    ANeuralNetworksExecution_setInput(e, 0, NULL, x, sizeof(float));
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(add);
    return 0;
}

static void test_vlog_reasons(const char *self)
{
    /* A cross build's tests run under an emulator, which the child needs too
     * (tests/CMakeLists.txt sets NN_TEST_EMULATOR there). */
    const char *emulator = getenv("NN_TEST_EMULATOR");
    if (!emulator)
        emulator = "";
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "NNAPI_LINUX_VLOG=1 %s '%s' --vlog-child 2>&1", emulator, self);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (p == NULL)
        return;
    static char log[65536];
    size_t n = fread(log, 1, sizeof log - 1, p);
    log[n] = '\0';
    CHECK(pclose(p) == 0);
    int failed_before = nt_failed;
    /* One line naming the call, the operation and the reason. */
    CHECK(strstr(log, "addOperation(MUL #0): output scale 0.25 <= input1 scale * input2 "
                      "scale 0.25") != NULL);
    CHECK(strstr(log, "addOperation: outputs is NULL") != NULL);
    CHECK(strstr(log, "addOperand(#4): TENSOR_QUANT8_ASYMM with scale 0 and zero point 0") !=
          NULL);
    CHECK(strstr(log, "operation 0 (FULLY_CONNECTED) will fail at execution: bias scale 0.25 != "
                      "input scale * filter scale 0.125") != NULL);
    CHECK(strstr(log, "compute: FULLY_CONNECTED fails: bias scale 0.25") != NULL);
    CHECK(strstr(log, "finish: operand 3 is written twice (again by operation 1, MUL)") != NULL);
    CHECK(strstr(log, "Compilation_finish: operation 0 (OEM_OPERATION) is supported by no "
                      "device") != NULL);
    CHECK(strstr(log, "Execution_setInput(0): length 4, the operand needs 8 bytes") != NULL);
    if (nt_failed != failed_before)
        fprintf(stderr, "--- log of the child:\n%s---\n", log);
    /* Every line is one of ours. */
    for (const char *line = log; *line != '\0';) {
        CHECK(strncmp(line, "nnapi-linux: ", 13) == 0);
        const char *next = strchr(line, '\n');
        line = next ? next + 1 : line + strlen(line);
    }

    /* Without VLOG the same calls print nothing. */
    snprintf(cmd, sizeof cmd, "NNAPI_LINUX_VLOG= %s '%s' --vlog-child 2>&1", emulator, self);
    p = popen(cmd, "r");
    CHECK(p != NULL);
    if (p == NULL)
        return;
    n = fread(log, 1, sizeof log - 1, p);
    CHECK(pclose(p) == 0);
    CHECK_EQ_INT(n, 0);
}

/* Runs one group and prints how many checks it made. */
static void group(const char *name, void (*fn)(void))
{
    int before = nt_passed + nt_failed;
    fn();
    printf("  %-48s %d checks\n", name, nt_passed + nt_failed - before);
}

static const char *self_path;

static void test_vlog(void)
{
    test_vlog_reasons(self_path);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--vlog-child") == 0)
        return vlog_child();
    self_path = argv[0];
    group("1 NULL operand lists", test_null_lists);
    group("2 operand written twice", test_written_twice);
    group("3 fuse code checked at compute", test_fuse_code_at_compute);
    group("3 bias scale checked at compute", test_bias_scale_at_compute);
    group("3 box scale checked at compute", test_box_scale_at_compute);
    group("3 RESHAPE shape tensor of rank 2", test_reshape_shape_tensor_rank);
    group("3 DEQUANTIZE channel parameters after addOperation",
          test_dequantize_channel_params_later);
    group("4 OEM operands and OEM_OPERATION", test_oem);
    group("5 memory descriptor: scalar role", test_memory_desc_scalar_role);
    group("5 memory descriptor: per-channel role", test_memory_desc_per_channel_role);
    group("7 inconsistent shapes compile, compute fails", test_inconsistent_shapes);
    group("7 omitted input with a less specific type", test_omitted_input_type);
    group("7 unspecified-rank output given wrong dims", test_unspecified_rank_output);
    group("10 VLOG reasons", test_vlog);
    return nt_summary();
}
