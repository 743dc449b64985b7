/* ANeuralNetworksModel_*: construction, validation and the finished state. */
#include <math.h>
#include <string.h>

#include "test_api.h"

static const uint32_t dims2[] = {2};

static ANeuralNetworksModel* new_model(void) {
    ANeuralNetworksModel* model = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&model));
    return model;
}

/* An operation the runtime must refuse: by addOperation, or at the latest by
 * finish (both are allowed to report it). */
static void check_refused(ANeuralNetworksModel* model, int add_rc, int line, const char* what) {
    if (add_rc == ANEURALNETWORKS_BAD_DATA) {
        nt_record(true, __FILE__, line, what);
        return;
    }
    if (add_rc != ANEURALNETWORKS_NO_ERROR) {
        nt_record_rc(add_rc, ANEURALNETWORKS_BAD_DATA, __FILE__, line, what);
        return;
    }
    nt_record_rc(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA, __FILE__, line,
                 what);
}

/* The model is still usable: a valid ADD over fresh operands builds and
 * finishes. first is the number of operands already in the model. */
static void check_still_usable(ANeuralNetworksModel* model, uint32_t first) {
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
    const ANeuralNetworksOperandType act_t = nt_scalar(ANEURALNETWORKS_INT32);
    const int32_t act = 0;
    const uint32_t ins[] = {first, first + 1, first + 2}, outs[] = {first + 3};
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &act_t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_setOperandValue(model, (int32_t)first + 2, &act, sizeof(act)));
    CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, outs));
    CHECK_OK(ANeuralNetworksModel_finish(model));
}

static void test_create_free(void) {
    CHECK_RC(ANeuralNetworksModel_create(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksModel_free(NULL);
    ANeuralNetworksModel* model = new_model();
    /* An unfinished model can be freed. */
    ANeuralNetworksModel_free(model);
}

static void test_add_operand(void) {
    ANeuralNetworksModel* model = new_model();
    if (!model) return;
    const ANeuralNetworksOperandType f32 = nt_scalar(ANEURALNETWORKS_FLOAT32);
    const uint32_t one = 1;
    CHECK_RC(ANeuralNetworksModel_addOperand(NULL, &f32), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperand(model, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);

    static const struct {
        int32_t type;
        uint32_t rank;
        bool dims;
        float scale;
        int32_t zp;
        const char* why;
    } bad[] = {
            {16, 0, false, 0, 0, "type past MODEL"},
            {-1, 0, false, 0, 0, "negative type"},
            {0x10000, 0, false, 0, 0, "unregistered extension type"},
            {ANEURALNETWORKS_INT32, 1, true, 0, 0, "scalar with a rank"},
            {ANEURALNETWORKS_TENSOR_FLOAT32, 1, false, 0, 0, "rank 1 but no dimensions"},
            {ANEURALNETWORKS_TENSOR_FLOAT32, 0, true, 0, 0, "rank 0 but dimensions"},
            {ANEURALNETWORKS_FLOAT32, 0, false, 1.0f, 0, "float scalar with a scale"},
            {ANEURALNETWORKS_INT32, 0, false, 0.5f, 0, "int scalar with a scale"},
            {ANEURALNETWORKS_TENSOR_FLOAT32, 1, true, 0, 1, "float tensor with a zero point"},
            {ANEURALNETWORKS_TENSOR_FLOAT16, 1, true, 0.5f, 0, "half tensor with a scale"},
            {ANEURALNETWORKS_BOOL, 0, false, 1.0f, 0, "bool with a scale"},
            {ANEURALNETWORKS_TENSOR_BOOL8, 1, true, 0, 2, "bool tensor with a zero point"},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, true, 0.0f, 0, "quant8 scale 0"},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, true, -1.0f, 0, "quant8 negative scale"},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, true, 1.0f, -1, "quant8 zero point -1"},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, true, 1.0f, 256, "quant8 zero point 256"},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, true, 1.0f, -129, "int8 zp -129"},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, true, 1.0f, 128, "int8 zp 128"},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, true, 0.0f, 0, "int8 scale 0"},
            {ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 1, true, 1.0f, 1, "symm8 zero point"},
            {ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 1, true, 0.0f, 0, "symm8 scale 0"},
            {ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 1, true, 1.0f, 1, "symm16 zero point"},
            {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 1, true, 1.0f, 65536, "quant16 zp 65536"},
            {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 1, true, 1.0f, -1, "quant16 zp -1"},
            {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 1, true, 1.0f, 0, "per-channel scale"},
            {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 1, true, 0.0f, 1, "per-channel zp"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const ANeuralNetworksOperandType t =
                nt_tensor(bad[i].type, bad[i].rank, bad[i].dims ? &one : NULL, bad[i].scale,
                          bad[i].zp);
        nt_record_rc(ANeuralNetworksModel_addOperand(model, &t), ANEURALNETWORKS_BAD_DATA,
                     __FILE__, __LINE__, bad[i].why);
    }
    const ANeuralNetworksOperandType nan_scale =
            nt_tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, &one, NAN, 0);
    CHECK_RC(ANeuralNetworksModel_addOperand(model, &nan_scale), ANEURALNETWORKS_BAD_DATA);

    /* Valid types, each in a fresh model so indexes stay predictable. */
    const uint32_t unknown_dims[] = {0, 3};
    static const struct {
        int32_t type;
        float scale;
        int32_t zp;
    } tensor_ok[] = {
            {ANEURALNETWORKS_TENSOR_FLOAT32, 0, 0},
            {ANEURALNETWORKS_TENSOR_INT32, 0, 0},
            {ANEURALNETWORKS_TENSOR_INT32, 0.25f, 0},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 0.5f, 0},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 0.5f, 255},
            {ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 0.5f, 0},
            {ANEURALNETWORKS_TENSOR_FLOAT16, 0, 0},
            {ANEURALNETWORKS_TENSOR_BOOL8, 0, 0},
            {ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 0, 0},
            {ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 0.5f, 65535},
            {ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 0.5f, 0},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 0.5f, -128},
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 0.5f, 127},
    };
    for (size_t i = 0; i < sizeof(tensor_ok) / sizeof(tensor_ok[0]); i++) {
        const ANeuralNetworksOperandType t =
                nt_tensor(tensor_ok[i].type, 2, unknown_dims, tensor_ok[i].scale, tensor_ok[i].zp);
        if (!CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)))
            fprintf(stderr, "    tensor type %d scale %g zp %d\n", tensor_ok[i].type,
                    (double)tensor_ok[i].scale, tensor_ok[i].zp);
    }
    static const int32_t scalars[] = {ANEURALNETWORKS_FLOAT32, ANEURALNETWORKS_INT32,
                                      ANEURALNETWORKS_UINT32,  ANEURALNETWORKS_BOOL,
                                      ANEURALNETWORKS_FLOAT16, ANEURALNETWORKS_MODEL};
    for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
        const ANeuralNetworksOperandType t = nt_scalar(scalars[i]);
        if (!CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)))
            fprintf(stderr, "    scalar type %d\n", scalars[i]);
    }
    /* Unknown rank (FL3+): a tensor type with no dimensions. */
    const ANeuralNetworksOperandType unknown_rank = nt_scalar(ANEURALNETWORKS_TENSOR_FLOAT32);
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &unknown_rank));
    ANeuralNetworksModel_free(model);

    /* After refused operands the model keeps working; the refused ones took
     * no index. */
    model = new_model();
    if (!model) return;
    const ANeuralNetworksOperandType bad_q =
            nt_tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, &one, 0.0f, 0);
    CHECK_RC(ANeuralNetworksModel_addOperand(model, &bad_q), ANEURALNETWORKS_BAD_DATA);
    check_still_usable(model, 0);
    CHECK_RC(ANeuralNetworksModel_addOperand(model, &f32), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(model);
}

static void test_set_operand_value(void) {
    ANeuralNetworksModel* model = new_model();
    if (!model) return;
    const ANeuralNetworksOperandType f32 = nt_scalar(ANEURALNETWORKS_FLOAT32);
    const uint32_t partial[] = {2, 0};
    const ANeuralNetworksOperandType t_partial =
            nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 2, partial, 0, 0);
    const ANeuralNetworksOperandType t_norank = nt_scalar(ANEURALNETWORKS_TENSOR_FLOAT32);
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &f32));       /* 0 */
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t_partial)); /* 1 */
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t_norank));  /* 2 */
    char buffer[20] = {0};

    CHECK_RC(ANeuralNetworksModel_setOperandValue(NULL, 0, buffer, sizeof(float)),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 0, NULL, sizeof(float)),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 0, buffer, sizeof(buffer)),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 0, buffer, 2), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 3, buffer, sizeof(float)),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, -1, buffer, sizeof(float)),
             ANEURALNETWORKS_BAD_DATA);
    /* Constants must be fully specified. */
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 1, buffer, 16), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 2, buffer, 16), ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 0, buffer, sizeof(float)));
    /* NULL with length 0 marks an omitted optional operand. */
    const ANeuralNetworksOperandType t2 = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t2)); /* 3 */
    CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 3, NULL, 0));
    ANeuralNetworksModel_free(model);

    model = new_model();
    if (!model) return;
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &f32));
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 0, buffer, 3), ANEURALNETWORKS_BAD_DATA);
    /* Still settable after the refusal (an operand nothing writes would make
     * the model invalid). */
    CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 0, buffer, sizeof(float)));
    check_still_usable(model, 1);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(model, 0, buffer, sizeof(float)),
             ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(model);
}

/* in0 + constant: operand 1 holds n floats given by setOperandValue. */
static ANeuralNetworksModel* const_add_model(uint32_t n, const float* constant) {
    const uint32_t dims[] = {n};
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0);
    const ANeuralNetworksOperandType act_t = nt_scalar(ANEURALNETWORKS_INT32);
    const int32_t act = 0;
    const uint32_t ins[] = {0, 1, 2}, outs[] = {3}, model_ins[] = {0};
    ANeuralNetworksModel* model = new_model();
    if (!model) return NULL;
    bool ok = CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)) &&
              CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)) &&
              CHECK_OK(ANeuralNetworksModel_addOperand(model, &act_t)) &&
              CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)) &&
              CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 1, constant,
                                                            n * sizeof(float))) &&
              CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 2, &act, sizeof(act))) &&
              CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1,
                                                         outs)) &&
              CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, model_ins, 1,
                                                                     outs));
    if (!ok) {
        ANeuralNetworksModel_free(model);
        return NULL;
    }
    return model;
}

/* Runs in0 + constant and checks out == in + expected_constant. */
static void run_const_add(ANeuralNetworksModel* model, uint32_t n, const float* expected_constant) {
    if (!CHECK_OK(ANeuralNetworksModel_finish(model))) return;
    ANeuralNetworksCompilation* compilation = nt_compile(model);
    if (!compilation) return;
    float in[64], out[64];
    for (uint32_t i = 0; i < n; i++) {
        in[i] = (float)(i * 3);
        out[i] = -1.0f;
    }
    ANeuralNetworksExecution* execution = NULL;
    if (CHECK_OK(ANeuralNetworksExecution_create(compilation, &execution))) {
        CHECK_OK(ANeuralNetworksExecution_setInput(execution, 0, NULL, in, n * sizeof(float)));
        CHECK_OK(ANeuralNetworksExecution_setOutput(execution, 0, NULL, out, n * sizeof(float)));
        if (CHECK_OK(ANeuralNetworksExecution_compute(execution)))
            CHECK(nt_sum_ok(in, expected_constant, out, n));
        ANeuralNetworksExecution_free(execution);
    }
    ANeuralNetworksCompilation_free(compilation);
}

static void test_value_copy_semantics(void) {
    /* Values up to MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES bytes are copied:
     * changing the caller's buffer afterwards does not change the model. */
    enum { SMALL = ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES / sizeof(float) };
    float small[SMALL], small_orig[SMALL];
    for (uint32_t i = 0; i < SMALL; i++) small[i] = small_orig[i] = (float)(i + 1);
    ANeuralNetworksModel* model = const_add_model(SMALL, small);
    if (model) {
        for (uint32_t i = 0; i < SMALL; i++) small[i] = 1000.0f;
        run_const_add(model, SMALL, small_orig);
        ANeuralNetworksModel_free(model);
    }

    /* Larger values are referenced; the buffer outlives the model. */
    static float large[64];
    for (uint32_t i = 0; i < 64; i++) large[i] = (float)(100 + i);
    model = const_add_model(64, large);
    if (model) {
        run_const_add(model, 64, large);
        ANeuralNetworksModel_free(model);
    }
}

static void test_per_channel_params(void) {
    ANeuralNetworksModel* model = new_model();
    if (!model) return;
    const uint32_t dims[] = {2, 3};
    const ANeuralNetworksOperandType pc =
            nt_tensor(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 2, dims, 0, 0);
    const ANeuralNetworksOperandType f = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 2, dims, 0, 0);
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &pc)); /* 0 */
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &f));  /* 1 */
    const float scales[3] = {0.5f, 1.0f, 2.0f};
    const float bad_scales[3] = {0.5f, 0.0f, 2.0f};
    const ANeuralNetworksSymmPerChannelQuantParams ok = {1, 3, scales};
    const ANeuralNetworksSymmPerChannelQuantParams wrong_count = {1, 2, scales};
    const ANeuralNetworksSymmPerChannelQuantParams wrong_dim = {2, 3, scales};
    const ANeuralNetworksSymmPerChannelQuantParams zero_scale = {1, 3, bad_scales};
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(NULL, 0, &ok),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 0, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 2, &ok),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, -1, &ok),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 1, &ok),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 0, &wrong_count),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 0, &wrong_dim),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 0, &zero_scale),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 0, &ok));
    ANeuralNetworksModel_free(model);

    /* Every per-channel operand needs its parameters before finish. */
    const uint32_t d2[] = {2};
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, d2, 0, 0);
    model = nt_add_model(&t, &t, 0, false);
    if (!model) return;
    const ANeuralNetworksOperandType pc1 =
            nt_tensor(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 1, d2, 0, 0);
    const int8_t values[2] = {1, 2};
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &pc1)); /* 4 */
    CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 4, values, sizeof(values)));
    CHECK_RC(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(model);

    model = nt_add_model(&t, &t, 0, true);
    if (!model) return;
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, 0, &ok),
             ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(model);
}

static void test_set_operand_value_from_model(void) {
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
    ANeuralNetworksModel* referenced = nt_add_model(&t, &t, 0, false);
    ANeuralNetworksModel* model = new_model();
    if (!referenced || !model) {
        ANeuralNetworksModel_free(referenced);
        ANeuralNetworksModel_free(model);
        return;
    }
    const ANeuralNetworksOperandType model_t = nt_scalar(ANEURALNETWORKS_MODEL);
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &model_t));
    /* The referenced model must be finished. */
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(model, 0, referenced),
             ANEURALNETWORKS_BAD_STATE);
    CHECK_OK(ANeuralNetworksModel_finish(referenced));
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(NULL, 0, referenced),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(model, 0, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(model, -1, referenced),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(model, 1, referenced),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksModel_setOperandValueFromModel(model, 0, referenced));
    ANeuralNetworksModel_free(model);
    /* A finished model refuses modification. */
    model = nt_add_model(&t, &t, 0, true);
    if (model) {
        CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(model, 0, referenced),
                 ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksModel_free(model);
    }
    ANeuralNetworksModel_free(referenced);
}

/* A model with ADD's four operands (f32 [2] x2, INT32 act constant, f32 [2])
 * and nothing else. */
static ANeuralNetworksModel* add_operands_only(void) {
    ANeuralNetworksModel* model = new_model();
    if (!model) return NULL;
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
    const ANeuralNetworksOperandType act_t = nt_scalar(ANEURALNETWORKS_INT32);
    const int32_t act = 0;
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &act_t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 2, &act, sizeof(act)));
    return model;
}

static void test_add_operation(void) {
    const uint32_t ins[] = {0, 1, 2}, outs[] = {3};
    ANeuralNetworksModel* model = add_operands_only();
    if (!model) return;
    CHECK_RC(ANeuralNetworksModel_addOperation(NULL, ANEURALNETWORKS_ADD, 3, ins, 1, outs),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, NULL, 1, outs),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperation(model, -1, 3, ins, 1, outs),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_REVERSE + 1, 3, ins, 1, outs),
             ANEURALNETWORKS_BAD_DATA);
    const uint32_t ins_oob[] = {0, 1, 7};
    CHECK_RC(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins_oob, 1, outs),
             ANEURALNETWORKS_BAD_DATA);
    const uint32_t outs_oob[] = {4};
    CHECK_RC(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs_oob),
             ANEURALNETWORKS_BAD_DATA);
    /* The refused operations left no trace: the valid one still works. */
    CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, outs));
    CHECK_OK(ANeuralNetworksModel_finish(model));
    CHECK_RC(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs),
             ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(model);

    /* Operations the runtime must refuse at addOperation or finish. */
    int rc;
    model = add_operands_only();
    if (model) {
        const uint32_t two[] = {0, 1};
        rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 2, two, 1, outs);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, two, 1, outs);
        check_refused(model, rc, __LINE__, "ADD with 2 inputs");
        ANeuralNetworksModel_free(model);
    }
    model = add_operands_only();
    if (model) {
        const uint32_t q_dims[] = {2};
        const ANeuralNetworksOperandType q =
                nt_tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, q_dims, 0.5f, 0);
        CHECK_OK(ANeuralNetworksModel_addOperand(model, &q)); /* 4 */
        const uint32_t mixed[] = {0, 4, 2};
        rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, mixed, 1, outs);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, mixed, 1, outs);
        check_refused(model, rc, __LINE__, "ADD of float32 and quant8");
        ANeuralNetworksModel_free(model);
    }
    model = add_operands_only();
    if (model) {
        /* Operand 3 written by two operations. */
        const uint32_t in2[] = {0, 1};
        CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs));
        rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, in2, 1, outs);
        check_refused(model, rc, __LINE__, "operand written by two operations");
        ANeuralNetworksModel_free(model);
    }
    model = add_operands_only();
    if (model) {
        /* The output is a constant. */
        const float c[2] = {1, 2};
        const uint32_t in2[] = {0, 1};
        CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 3, c, sizeof(c)));
        rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, in2, 1, outs);
        check_refused(model, rc, __LINE__, "operation writing a constant");
        ANeuralNetworksModel_free(model);
    }
}

static void test_identify(void) {
    const uint32_t ins[] = {0, 1, 2}, outs[] = {3};
    ANeuralNetworksModel* model = add_operands_only();
    if (!model) return;
    CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs));
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(NULL, 2, ins, 1, outs),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, NULL, 1, outs),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    const uint32_t oob[] = {0, 9};
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, oob, 1, outs),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, &oob[1]),
             ANEURALNETWORKS_BAD_DATA);
    const uint32_t in_and_out[] = {3, 0};
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 2, in_and_out),
             ANEURALNETWORKS_BAD_DATA);
    const uint32_t dup_in[] = {0, 1, 0};
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 3, dup_in, 1, outs),
             ANEURALNETWORKS_BAD_DATA);
    const uint32_t dup_out[] = {3, 3};
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 2, dup_out),
             ANEURALNETWORKS_BAD_DATA);
    /* Operand 2 is a constant: it cannot be a model input. */
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 3, ins, 1, outs),
             ANEURALNETWORKS_BAD_DATA);
    /* After the refusals, a correct call succeeds. */
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, outs));
    CHECK_OK(ANeuralNetworksModel_finish(model));
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, outs),
             ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(model);
}

static void test_relax(void) {
    CHECK_RC(ANeuralNetworksModel_relaxComputationFloat32toFloat16(NULL, true),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
    ANeuralNetworksModel* model = nt_add_model(&t, &t, 0, false);
    if (!model) return;
    CHECK_OK(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, false));
    CHECK_OK(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, true));
    CHECK_OK(ANeuralNetworksModel_finish(model));
    /* A relaxed model still computes (small integers are exact in fp16). */
    ANeuralNetworksCompilation* compilation = nt_compile(model);
    if (compilation) {
        const float a[2] = {1, -2}, b[2] = {3, 8};
        float out[2] = {0};
        ANeuralNetworksExecution* e = nt_execution_f32(compilation, a, b, out, 2);
        if (e && CHECK_OK(ANeuralNetworksExecution_compute(e))) CHECK(nt_sum_ok(a, b, out, 2));
        ANeuralNetworksExecution_free(e);
        ANeuralNetworksCompilation_free(compilation);
    }
    CHECK_RC(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, true),
             ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, false),
             ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(model);
}

static void test_finish(void) {
    CHECK_RC(ANeuralNetworksModel_finish(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);

    /* An empty model is invalid; the refused model can still be freed. */
    ANeuralNetworksModel* model = new_model();
    if (model) {
        CHECK_RC(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA);
        ANeuralNetworksModel_free(model);
    }

    /* Inputs and outputs were never identified. */
    model = add_operands_only();
    if (model) {
        const uint32_t ins[] = {0, 1, 2}, outs[] = {3};
        CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs));
        CHECK_RC(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA);
        ANeuralNetworksModel_free(model);
    }

    /* An operation input that nothing writes. */
    model = add_operands_only();
    if (model) {
        const ANeuralNetworksOperandType t =
                nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
        CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)); /* 4: never written */
        const uint32_t ins[] = {0, 4, 2}, outs[] = {3}, model_ins[] = {0};
        CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1, outs));
        CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, model_ins, 1, outs));
        CHECK_RC(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA);
        ANeuralNetworksModel_free(model);
    }

    /* A cycle: 4 = ADD(0, 5), 5 = ADD(4, 1). */
    model = add_operands_only();
    if (model) {
        const ANeuralNetworksOperandType t =
                nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
        CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)); /* 4 */
        CHECK_OK(ANeuralNetworksModel_addOperand(model, &t)); /* 5 */
        const uint32_t a_in[] = {0, 5, 2}, a_out[] = {4};
        const uint32_t b_in[] = {4, 1, 2}, b_out[] = {5};
        const uint32_t c_in[] = {5, 1, 2}, c_out[] = {3};
        const uint32_t model_ins[] = {0, 1};
        int rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, a_in, 1, a_out);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, b_in, 1, b_out);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, c_in, 1, c_out);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, model_ins, 1, c_out);
        check_refused(model, rc, __LINE__, "cyclic graph");
        ANeuralNetworksModel_free(model);
    }

    /* Finishing twice. */
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims2, 0, 0);
    model = nt_add_model(&t, &t, 0, true);
    if (model) {
        CHECK_RC(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksModel_free(model);
    }
}

void nt_test_model(void) {
    test_create_free();
    test_add_operand();
    test_set_operand_value();
    test_value_copy_semantics();
    test_per_channel_params();
    test_set_operand_value_from_model();
    test_add_operation();
    test_identify();
    test_relax();
    test_finish();
}
