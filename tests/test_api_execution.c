/* ANeuralNetworksExecution_* and bursts: argument checks, the preparation /
 * computation / completed states, the four ways to compute, reusable
 * executions, padding, dynamic output shapes, timing and timeouts. */
#include <string.h>

#include "test_api.h"

enum { N = 4 };
static const float A[N] = {1, 2, 3, 4};
static const float B[N] = {10, 20, 30, 40};

static void test_create(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    ANeuralNetworksExecution* execution = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(NULL, &execution), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_create(f.compilation, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksExecution_free(NULL);

    /* An unfinished compilation cannot run; the out-pointer is cleared. */
    ANeuralNetworksCompilation* unfinished = NULL;
    if (CHECK_OK(ANeuralNetworksCompilation_create(f.model, &unfinished))) {
        execution = (ANeuralNetworksExecution*)&execution;
        CHECK_RC(ANeuralNetworksExecution_create(unfinished, &execution),
                 ANEURALNETWORKS_BAD_STATE);
        CHECK(execution == NULL);
        ANeuralNetworksBurst* burst = (ANeuralNetworksBurst*)&burst;
        CHECK_RC(ANeuralNetworksBurst_create(unfinished, &burst), ANEURALNETWORKS_BAD_STATE);
        CHECK(burst == NULL);
        ANeuralNetworksCompilation_free(unfinished);
    }
    /* A created execution that never ran can be freed. */
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &execution)))
        ANeuralNetworksExecution_free(execution);
    nt_fixture_free(&f);
}

static void test_set_io_arguments(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    ANeuralNetworksExecution* e = NULL;
    if (!CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        nt_fixture_free(&f);
        return;
    }
    float buffer[16] = {0};
    const size_t raw = N * sizeof(float);
    const uint32_t one = 1, wrong_dims[] = {N + 1}, rank2[] = {1, N}, same_dims[] = {N};
    const ANeuralNetworksOperandType invalid1 =
            nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, NULL, 0, 0);
    const ANeuralNetworksOperandType invalid2 =
            nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 0, &one, 0, 0);
    const ANeuralNetworksOperandType other_code =
            nt_tensor(ANEURALNETWORKS_TENSOR_INT32, 1, same_dims, 0, 0);
    const ANeuralNetworksOperandType other_dims =
            nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, wrong_dims, 0, 0);
    const ANeuralNetworksOperandType other_rank =
            nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 2, rank2, 0, 0);
    const ANeuralNetworksOperandType same =
            nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, same_dims, 0, 0);

    /* Inputs. */
    CHECK_RC(ANeuralNetworksExecution_setInput(NULL, 0, NULL, buffer, raw),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, NULL, raw),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, buffer, raw + 4),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, buffer, raw - 4),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 2, NULL, buffer, raw), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 999, NULL, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, -1, NULL, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &invalid1, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &invalid2, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &other_code, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &other_dims, buffer, raw + 4),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &other_rank, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    /* After the refusals the input can still be set, once. */
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, &same, A, raw));
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, A, raw), ANEURALNETWORKS_BAD_STATE);

    /* Outputs. */
    float out[N] = {0};
    CHECK_RC(ANeuralNetworksExecution_setOutput(NULL, 0, NULL, out, raw),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, NULL, raw),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, buffer, raw + 4),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, buffer, raw - 4),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 1, NULL, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, -1, NULL, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, &invalid1, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, &invalid2, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, &other_code, buffer, raw),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, &other_dims, buffer, raw + 4),
             ANEURALNETWORKS_BAD_DATA);

    /* Computing with input 1 unset fails and leaves the execution in the
     * preparation state: it can be completed and run. */
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, raw));
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, raw), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, B, raw));
    if (CHECK_OK(ANeuralNetworksExecution_compute(e))) CHECK(nt_sum_ok(A, B, out, N));
    ANeuralNetworksExecution_free(e);

    CHECK_RC(ANeuralNetworksExecution_compute(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksEvent* event = NULL;
    CHECK_RC(ANeuralNetworksExecution_startCompute(NULL, &event), ANEURALNETWORKS_UNEXPECTED_NULL);
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_RC(ANeuralNetworksExecution_startCompute(e, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
        ANeuralNetworksExecution_free(e);
    }
    nt_fixture_free(&f);
}

/* Everything that needs the preparation state, on an execution that has been
 * scheduled and is not reusable. */
static void check_too_late(ANeuralNetworksExecution* e, ANeuralNetworksCompilation* c,
                           float* out, const char* mode) {
    const size_t raw = N * sizeof(float);
    const int failed_before = nt_failed;
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, A, raw), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, raw), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(e, 1000000), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setReusable(e, true), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_enableInputAndOutputPadding(e, true),
             ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksEvent* event = (ANeuralNetworksEvent*)&event;
    CHECK_RC(ANeuralNetworksExecution_startCompute(e, &event), ANEURALNETWORKS_BAD_STATE);
    CHECK(event == NULL);
    event = (ANeuralNetworksEvent*)&event;
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, &event),
             ANEURALNETWORKS_BAD_STATE);
    CHECK(event == NULL);
    ANeuralNetworksBurst* burst = NULL;
    if (CHECK_OK(ANeuralNetworksBurst_create(c, &burst))) {
        CHECK_RC(ANeuralNetworksExecution_burstCompute(e, burst), ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksBurst_free(burst);
    }
    if (nt_failed != failed_before) fprintf(stderr, "    (state checks after %s compute)\n", mode);
}

static void test_compute_modes(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    for (int mode = 0; mode < NT_MODES; mode++) {
        float out[N] = {0};
        ANeuralNetworksExecution* e = nt_execution_f32(f.compilation, A, B, out, N);
        if (!e) continue;
        if (mode == NT_ASYNC || mode == NT_FENCED) {
            /* The state rules hold while the computation may still run. */
            ANeuralNetworksEvent* event = NULL;
            int rc = mode == NT_ASYNC
                             ? ANeuralNetworksExecution_startCompute(e, &event)
                             : ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0,
                                                                                     &event);
            if (CHECK_OK(rc)) {
                float other[N];
                check_too_late(e, f.compilation, other, nt_mode_names[mode]);
                if (CHECK_OK(ANeuralNetworksEvent_wait(event))) CHECK(nt_sum_ok(A, B, out, N));
                /* Waiting again on a signaled event returns at once. */
                CHECK_OK(ANeuralNetworksEvent_wait(event));
                ANeuralNetworksEvent_free(event);
            }
        } else if (nt_record_rc(nt_run(e, f.compilation, (nt_mode)mode), 0, __FILE__, __LINE__,
                                nt_mode_names[mode])) {
            CHECK(nt_sum_ok(A, B, out, N));
        }
        float other[N];
        check_too_late(e, f.compilation, other, nt_mode_names[mode]);
        ANeuralNetworksExecution_free(e);
    }
    nt_fixture_free(&f);
}

static void test_quant8_and_activation(void) {
    /* QUANT8_ASYMM, scale 0.5, zero point 10 everywhere: q = 2x + 10. */
    const uint32_t dims[] = {4};
    const ANeuralNetworksOperandType q =
            nt_tensor(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, dims, 0.5f, 10);
    ANeuralNetworksModel* model = nt_add_model(&q, &q, ANEURALNETWORKS_FUSED_NONE, true);
    ANeuralNetworksCompilation* compilation = nt_compile(model);
    if (compilation) {
        const uint8_t a[4] = {20, 30, 10, 0};    /* 5, 10, 0, -5 */
        const uint8_t b[4] = {14, 10, 12, 255};  /* 2, 0, 1, 122.5 */
        const uint8_t want[4] = {24, 30, 12, 245}; /* 7, 10, 1, 117.5 */
        uint8_t out[4] = {0};
        ANeuralNetworksExecution* e = NULL;
        if (CHECK_OK(ANeuralNetworksExecution_create(compilation, &e))) {
            CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof(a)));
            CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, b, sizeof(b)));
            CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof(out)));
            if (CHECK_OK(ANeuralNetworksExecution_compute(e))) {
                if (!CHECK(memcmp(out, want, sizeof(out)) == 0))
                    fprintf(stderr, "    quant8 ADD gave %u %u %u %u\n", out[0], out[1], out[2],
                            out[3]);
            }
            ANeuralNetworksExecution_free(e);
        }
    }
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);

    /* float32 with a fused RELU6. */
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0);
    model = nt_add_model(&t, &t, ANEURALNETWORKS_FUSED_RELU6, true);
    compilation = nt_compile(model);
    if (compilation) {
        const float a[4] = {-3, 2, 5, 0.5f}, b[4] = {1, 1, 5, 0.25f};
        const float want[4] = {0, 3, 6, 0.75f};
        float out[4] = {0};
        ANeuralNetworksExecution* e = nt_execution_f32(compilation, a, b, out, 4);
        if (e && CHECK_OK(ANeuralNetworksExecution_compute(e)))
            CHECK(memcmp(out, want, sizeof(out)) == 0);
        ANeuralNetworksExecution_free(e);
    }
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
}

static void test_reusable(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    CHECK_RC(ANeuralNetworksExecution_setReusable(NULL, true), ANEURALNETWORKS_UNEXPECTED_NULL);
    for (int mode = 0; mode < NT_MODES; mode++) {
        float a[N], out[N];
        memcpy(a, A, sizeof(a));
        ANeuralNetworksExecution* e = NULL;
        if (!CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) continue;
        CHECK_OK(ANeuralNetworksExecution_setReusable(e, true));
        nt_bind_f32(e, a, B, out, N);
        for (int round = 0; round < 3; round++) {
            /* Between computations the bound buffers may change. */
            for (int i = 0; i < N; i++) a[i] = (float)(round * 100 + i);
            memset(out, 0, sizeof(out));
            if (nt_record_rc(nt_run(e, f.compilation, (nt_mode)mode), 0, __FILE__, __LINE__,
                             nt_mode_names[mode]))
                CHECK(nt_sum_ok(a, B, out, N));
        }
        /* A reusable execution still cannot be modified once it ran. */
        CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof(a)),
                 ANEURALNETWORKS_BAD_STATE);
        CHECK_RC(ANeuralNetworksExecution_setReusable(e, false), ANEURALNETWORKS_BAD_STATE);
        CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(e, 1000), ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksExecution_free(e);
    }
    /* setReusable(false) keeps the single-use default. */
    float out[N];
    ANeuralNetworksExecution* e = NULL;
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_OK(ANeuralNetworksExecution_setReusable(e, false));
        nt_bind_f32(e, A, B, out, N);
        CHECK_OK(ANeuralNetworksExecution_compute(e));
        CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksExecution_free(e);
    }
    nt_fixture_free(&f);
}

static void test_padding(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    const size_t raw = N * sizeof(float);
    float a[16], b[16], out[16];
    memcpy(a, A, raw);
    memcpy(b, B, raw);
    CHECK_RC(ANeuralNetworksExecution_enableInputAndOutputPadding(NULL, true),
             ANEURALNETWORKS_UNEXPECTED_NULL);

    ANeuralNetworksExecution* e = NULL;
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, a, raw));
        CHECK_RC(ANeuralNetworksExecution_enableInputAndOutputPadding(e, true),
                 ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksExecution_free(e);
    }
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, raw));
        CHECK_RC(ANeuralNetworksExecution_enableInputAndOutputPadding(e, false),
                 ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksExecution_free(e);
    }
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_OK(ANeuralNetworksExecution_enableInputAndOutputPadding(e, true));
        /* Longer than the raw size is padding; shorter is still refused. */
        CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, a, raw - 4),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof(a)));
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, b, raw + 4));
        CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, raw - 4),
                 ANEURALNETWORKS_BAD_DATA);
        for (int i = 0; i < 16; i++) out[i] = -7.0f;
        CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof(out)));
        if (CHECK_OK(ANeuralNetworksExecution_compute(e))) CHECK(nt_sum_ok(A, B, out, N));
        ANeuralNetworksExecution_free(e);
    }
    /* Disabling again keeps the exact-length rule. */
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_OK(ANeuralNetworksExecution_enableInputAndOutputPadding(e, true));
        CHECK_OK(ANeuralNetworksExecution_enableInputAndOutputPadding(e, false));
        CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof(a)),
                 ANEURALNETWORKS_BAD_DATA);
        ANeuralNetworksExecution_free(e);
    }
    nt_fixture_free(&f);
}

/* ADD whose input dims and/or output dims are unknown in the model. */
static ANeuralNetworksModel* dynamic_model(bool dynamic_input, bool unknown_output_rank) {
    const uint32_t known[] = {N}, unknown[] = {0};
    const ANeuralNetworksOperandType in =
            nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dynamic_input ? unknown : known, 0, 0);
    const ANeuralNetworksOperandType out =
            unknown_output_rank ? nt_scalar(ANEURALNETWORKS_TENSOR_FLOAT32)
                                : nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, unknown, 0, 0);
    return nt_add_model(&in, &out, 0, true);
}

static void check_output_shape(ANeuralNetworksExecution* e, int expected_rc, uint32_t dim) {
    uint32_t rank = 0, dims[4] = {0};
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank), expected_rc);
    CHECK_EQ_INT(rank, 1);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), expected_rc);
    CHECK_EQ_INT(dims[0], dim);
}

static void test_output_shapes(void) {
    /* Fully specified output: the getters need the completed state. */
    nt_fixture f;
    if (nt_fixture_f32(&f, N, false)) {
        float out[N];
        uint32_t rank = 0, dims[4] = {0};
        ANeuralNetworksExecution* e = nt_execution_f32(f.compilation, A, B, out, N);
        if (e) {
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank),
                     ANEURALNETWORKS_BAD_STATE);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims),
                     ANEURALNETWORKS_BAD_STATE);
            CHECK_OK(ANeuralNetworksExecution_compute(e));
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(NULL, 0, &rank),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, 0, NULL),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(NULL, 0, dims),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, NULL),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, 1, &rank),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, -1, &rank),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 999, dims),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, -1, dims),
                     ANEURALNETWORKS_BAD_DATA);
            check_output_shape(e, ANEURALNETWORKS_NO_ERROR, N);
            ANeuralNetworksExecution_free(e);
        }
        nt_fixture_free(&f);
    }

    for (int unknown_rank = 0; unknown_rank < 2; unknown_rank++) {
        ANeuralNetworksModel* model = dynamic_model(false, unknown_rank);
        ANeuralNetworksCompilation* compilation = nt_compile(model);
        if (compilation) {
            /* A big enough buffer: the shape is deduced. */
            float out[N];
            ANeuralNetworksExecution* e = nt_execution_f32(compilation, A, B, out, N);
            if (e) {
                if (CHECK_OK(ANeuralNetworksExecution_compute(e))) {
                    CHECK(nt_sum_ok(A, B, out, N));
                    check_output_shape(e, ANEURALNETWORKS_NO_ERROR, N);
                }
                ANeuralNetworksExecution_free(e);
            }
            /* Too small: OUTPUT_INSUFFICIENT_SIZE, and the getters report the
             * needed shape with the same code. */
            float small[N - 1];
            if (CHECK_OK(ANeuralNetworksExecution_create(compilation, &e))) {
                CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, A, sizeof(A)));
                CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, B, sizeof(B)));
                CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, small, sizeof(small)));
                CHECK_RC(ANeuralNetworksExecution_compute(e),
                         ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
                check_output_shape(e, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE, N);
                ANeuralNetworksExecution_free(e);
            }
            /* Fenced computations need fully specified outputs. */
            e = nt_execution_f32(compilation, A, B, out, N);
            if (e) {
                ANeuralNetworksEvent* event = (ANeuralNetworksEvent*)&event;
                CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0,
                                                                               &event),
                         ANEURALNETWORKS_BAD_DATA);
                CHECK(event == NULL);
                ANeuralNetworksExecution_free(e);
            }
            /* ...unless setOutput gives the full type. */
            const uint32_t dims[] = {N};
            const ANeuralNetworksOperandType full =
                    nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0);
            if (CHECK_OK(ANeuralNetworksExecution_create(compilation, &e))) {
                CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, A, sizeof(A)));
                CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, B, sizeof(B)));
                CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, &full, out, sizeof(out)));
                memset(out, 0, sizeof(out));
                if (CHECK_OK(nt_run(e, compilation, NT_FENCED))) CHECK(nt_sum_ok(A, B, out, N));
                ANeuralNetworksExecution_free(e);
            }
        }
        ANeuralNetworksCompilation_free(compilation);
        ANeuralNetworksModel_free(model);
    }

    /* Unknown input dims: setInput must give them. */
    ANeuralNetworksModel* model = dynamic_model(true, false);
    ANeuralNetworksCompilation* compilation = nt_compile(model);
    if (compilation) {
        const float a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
        float out[3] = {0};
        const uint32_t three[] = {3};
        const ANeuralNetworksOperandType t3 =
                nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, three, 0, 0);
        ANeuralNetworksExecution* e = NULL;
        if (CHECK_OK(ANeuralNetworksExecution_create(compilation, &e))) {
            CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof(a)),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, &t3, a, sizeof(a)));
            CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, &t3, b, sizeof(b)));
            CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof(out)));
            if (CHECK_OK(ANeuralNetworksExecution_compute(e))) {
                CHECK(nt_sum_ok(a, b, out, 3));
                check_output_shape(e, ANEURALNETWORKS_NO_ERROR, 3);
            }
            ANeuralNetworksExecution_free(e);
        }
    }
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
}

static void test_timing(void) {
    nt_fixture plain, cpu;
    if (nt_fixture_f32(&plain, N, false)) {
        float out[N];
        ANeuralNetworksExecution* e = nt_execution_f32(plain.compilation, A, B, out, N);
        if (e) {
            /* Timing needs a compilation for exactly one device. */
            CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(e, true), ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(e, false),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_OK(ANeuralNetworksExecution_compute(e));
            uint64_t d = 0;
            CHECK_OK(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_IN_DRIVER,
                                                          &d));
            CHECK(d == UINT64_MAX);
            ANeuralNetworksExecution_free(e);
        }
        nt_fixture_free(&plain);
    }
    if (!nt_fixture_f32(&cpu, N, true)) return;
    CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(NULL, true),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    for (int mode = 0; mode < NT_MODES; mode++) {
        for (int measure = 0; measure < 2; measure++) {
            float out[N];
            ANeuralNetworksExecution* e = nt_execution_f32(cpu.compilation, A, B, out, N);
            if (!e) continue;
            uint64_t d = 0;
            if (measure) CHECK_OK(ANeuralNetworksExecution_setMeasureTiming(e, true));
            CHECK_RC(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_ON_HARDWARE,
                                                          &d),
                     ANEURALNETWORKS_BAD_STATE);
            if (!nt_record_rc(nt_run(e, cpu.compilation, (nt_mode)mode), 0, __FILE__, __LINE__,
                              nt_mode_names[mode])) {
                ANeuralNetworksExecution_free(e);
                continue;
            }
            CHECK(nt_sum_ok(A, B, out, N));
            CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(e, true), ANEURALNETWORKS_BAD_STATE);
            CHECK_RC(ANeuralNetworksExecution_getDuration(NULL, 0, &d),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_getDuration(e, 0, NULL),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_getDuration(e, -1, &d), ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_getDuration(e, 4, &d), ANEURALNETWORKS_BAD_DATA);
            uint64_t durations[4];
            for (int32_t code = 0; code < 4; code++) {
                durations[code] = UINT64_MAX - 1;
                CHECK_OK(ANeuralNetworksExecution_getDuration(e, code, &durations[code]));
                CHECK(durations[code] != UINT64_MAX - 1);
            }
            if (!measure) {
                for (int code = 0; code < 4; code++) CHECK(durations[code] == UINT64_MAX);
            } else {
                /* The CPU device measures the time in the driver; time on
                 * the hardware is part of it. */
                CHECK(durations[ANEURALNETWORKS_DURATION_IN_DRIVER] != UINT64_MAX);
                if (durations[ANEURALNETWORKS_DURATION_ON_HARDWARE] != UINT64_MAX)
                    CHECK(durations[ANEURALNETWORKS_DURATION_ON_HARDWARE] <=
                          durations[ANEURALNETWORKS_DURATION_IN_DRIVER]);
                if (durations[ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE] != UINT64_MAX &&
                    durations[ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER] != UINT64_MAX)
                    CHECK(durations[ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE] <=
                          durations[ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER]);
            }
            ANeuralNetworksExecution_free(e);
        }
    }
    nt_fixture_free(&cpu);
}

static void test_timeouts(void) {
    CHECK_RC(ANeuralNetworksExecution_setTimeout(NULL, 1000000000), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(NULL, 1000000000),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    nt_fixture plain, cpu;
    if (nt_fixture_f32(&plain, N, false)) {
        float out[N];
        ANeuralNetworksExecution* e = nt_execution_f32(plain.compilation, A, B, out, N);
        if (e) {
            CHECK_RC(ANeuralNetworksExecution_setTimeout(e, 1000000000), ANEURALNETWORKS_BAD_DATA);
            CHECK_OK(ANeuralNetworksExecution_setLoopTimeout(e, 1000000000));
            /* Longer than the maximum is clamped, not refused. */
            CHECK_OK(ANeuralNetworksExecution_setLoopTimeout(e, UINT64_MAX));
            ANeuralNetworksEvent* event = (ANeuralNetworksEvent*)&event;
            CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 1000000000,
                                                                           &event),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK(event == NULL);
            if (CHECK_OK(ANeuralNetworksExecution_compute(e))) CHECK(nt_sum_ok(A, B, out, N));
            ANeuralNetworksExecution_free(e);
        }
        nt_fixture_free(&plain);
    }
    if (!nt_fixture_f32(&cpu, N, true)) return;
    for (int mode = 0; mode < NT_MODES; mode++) {
        float out[N];
        ANeuralNetworksExecution* e = nt_execution_f32(cpu.compilation, A, B, out, N);
        if (!e) continue;
        CHECK_OK(ANeuralNetworksExecution_setTimeout(e, UINT64_MAX));
        CHECK_OK(ANeuralNetworksExecution_setTimeout(e, 0));
        CHECK_OK(ANeuralNetworksExecution_setTimeout(e, 10000000000ull));
        if (nt_record_rc(nt_run(e, cpu.compilation, (nt_mode)mode), 0, __FILE__, __LINE__,
                         nt_mode_names[mode]))
            CHECK(nt_sum_ok(A, B, out, N));
        CHECK_RC(ANeuralNetworksExecution_setTimeout(e, 1000), ANEURALNETWORKS_BAD_STATE);
        ANeuralNetworksExecution_free(e);
    }
    /* A fenced computation with its own timeout duration. */
    float out[N];
    ANeuralNetworksExecution* e = nt_execution_f32(cpu.compilation, A, B, out, N);
    if (e) {
        ANeuralNetworksEvent* event = NULL;
        if (CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0,
                                                                           10000000000ull, &event))) {
            if (CHECK_OK(ANeuralNetworksEvent_wait(event))) CHECK(nt_sum_ok(A, B, out, N));
            ANeuralNetworksEvent_free(event);
        }
        ANeuralNetworksExecution_free(e);
    }
    nt_fixture_free(&cpu);
}

static void test_burst(void) {
    nt_fixture f, other;
    if (!nt_fixture_f32(&f, N, false)) return;
    ANeuralNetworksBurst* burst = NULL;
    CHECK_RC(ANeuralNetworksBurst_create(NULL, &burst), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksBurst_create(f.compilation, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksBurst_free(NULL);
    if (!CHECK_OK(ANeuralNetworksBurst_create(f.compilation, &burst))) {
        nt_fixture_free(&f);
        return;
    }
    float out[N];
    ANeuralNetworksExecution* e = nt_execution_f32(f.compilation, A, B, out, N);
    if (e) {
        CHECK_RC(ANeuralNetworksExecution_burstCompute(NULL, burst),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksExecution_burstCompute(e, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
        ANeuralNetworksExecution_free(e);
    }
    /* The burst and the execution must come from the same compilation. */
    if (nt_fixture_f32(&other, N, false)) {
        e = nt_execution_f32(other.compilation, A, B, out, N);
        if (e) {
            CHECK_RC(ANeuralNetworksExecution_burstCompute(e, burst), ANEURALNETWORKS_BAD_DATA);
            /* The refusal did not consume the execution. */
            if (CHECK_OK(ANeuralNetworksExecution_compute(e))) CHECK(nt_sum_ok(A, B, out, N));
            ANeuralNetworksExecution_free(e);
        }
        nt_fixture_free(&other);
    }
    /* A sequence of executions on one burst. */
    for (int i = 0; i < 5; i++) {
        float a[N];
        for (int k = 0; k < N; k++) a[k] = (float)(i * 10 + k);
        memset(out, 0, sizeof(out));
        e = nt_execution_f32(f.compilation, a, B, out, N);
        if (!e) continue;
        if (CHECK_OK(ANeuralNetworksExecution_burstCompute(e, burst)))
            CHECK(nt_sum_ok(a, B, out, N));
        ANeuralNetworksExecution_free(e);
    }
    ANeuralNetworksBurst_free(burst);
    nt_fixture_free(&f);
}

void nt_test_execution(void) {
    test_create();
    test_set_io_arguments();
    test_compute_modes();
    test_quant8_and_activation();
    test_reusable();
    test_padding();
    test_output_shapes();
    test_timing();
    test_timeouts();
    test_burst();
}
