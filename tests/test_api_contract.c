/*
 * API contract tests: every public function against the return codes, state
 * rules and multithreading notes of the NNAPI feature-level-5 specification.
 * This file holds the shared fixtures and main; each API area has its own
 * file (test_api_model.c, test_api_execution.c, ...).
 */
#include <string.h>

#include "test_api.h"

ANeuralNetworksOperandType nt_tensor(int32_t code, uint32_t rank, const uint32_t* dims,
                                     float scale, int32_t zero_point) {
    ANeuralNetworksOperandType t = {
            .type = code,
            .dimensionCount = rank,
            .dimensions = dims,
            .scale = scale,
            .zeroPoint = zero_point,
    };
    return t;
}

ANeuralNetworksOperandType nt_scalar(int32_t code) {
    return nt_tensor(code, 0, NULL, 0.0f, 0);
}

ANeuralNetworksModel* nt_add_model(const ANeuralNetworksOperandType* in,
                                   const ANeuralNetworksOperandType* out, int32_t act,
                                   bool finish) {
    ANeuralNetworksModel* model = NULL;
    if (!CHECK_OK(ANeuralNetworksModel_create(&model))) return NULL;
    const ANeuralNetworksOperandType act_type = nt_scalar(ANEURALNETWORKS_INT32);
    const uint32_t ins[] = {0, 1, 2}, outs[] = {3}, model_ins[] = {0, 1};
    bool ok = CHECK_OK(ANeuralNetworksModel_addOperand(model, in)) &&
              CHECK_OK(ANeuralNetworksModel_addOperand(model, in)) &&
              CHECK_OK(ANeuralNetworksModel_addOperand(model, &act_type)) &&
              CHECK_OK(ANeuralNetworksModel_addOperand(model, out)) &&
              CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 2, &act, sizeof(act))) &&
              CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1,
                                                         outs)) &&
              CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, model_ins, 1,
                                                                     outs));
    if (ok && finish) ok = CHECK_OK(ANeuralNetworksModel_finish(model));
    if (!ok) {
        ANeuralNetworksModel_free(model);
        return NULL;
    }
    return model;
}

ANeuralNetworksModel* nt_add_model_f32(uint32_t n) {
    const uint32_t dims[] = {n};
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0);
    return nt_add_model(&t, &t, ANEURALNETWORKS_FUSED_NONE, true);
}

ANeuralNetworksCompilation* nt_compile(ANeuralNetworksModel* model) {
    if (!model) return NULL;
    ANeuralNetworksCompilation* compilation = NULL;
    if (!CHECK_OK(ANeuralNetworksCompilation_create(model, &compilation))) return NULL;
    if (!CHECK_OK(ANeuralNetworksCompilation_finish(compilation))) {
        ANeuralNetworksCompilation_free(compilation);
        return NULL;
    }
    return compilation;
}

const ANeuralNetworksDevice* nt_cpu_device(void) {
    uint32_t count = 0;
    if (ANeuralNetworks_getDeviceCount(&count) != ANEURALNETWORKS_NO_ERROR) return NULL;
    for (uint32_t i = 0; i < count; i++) {
        ANeuralNetworksDevice* device = NULL;
        int32_t type = -1;
        if (ANeuralNetworks_getDevice(i, &device) == ANEURALNETWORKS_NO_ERROR && device &&
            ANeuralNetworksDevice_getType(device, &type) == ANEURALNETWORKS_NO_ERROR &&
            type == ANEURALNETWORKS_DEVICE_CPU)
            return device;
    }
    return NULL;
}

ANeuralNetworksCompilation* nt_compile_cpu(ANeuralNetworksModel* model) {
    const ANeuralNetworksDevice* device = nt_cpu_device();
    if (!CHECK(device != NULL) || !model) return NULL;
    ANeuralNetworksCompilation* compilation = NULL;
    if (!CHECK_OK(ANeuralNetworksCompilation_createForDevices(model, &device, 1, &compilation)))
        return NULL;
    if (!CHECK_OK(ANeuralNetworksCompilation_finish(compilation))) {
        ANeuralNetworksCompilation_free(compilation);
        return NULL;
    }
    return compilation;
}

bool nt_bind_f32(ANeuralNetworksExecution* execution, const float* a, const float* b, float* out,
                 uint32_t n) {
    const size_t bytes = n * sizeof(float);
    return CHECK_OK(ANeuralNetworksExecution_setInput(execution, 0, NULL, a, bytes)) &&
           CHECK_OK(ANeuralNetworksExecution_setInput(execution, 1, NULL, b, bytes)) &&
           CHECK_OK(ANeuralNetworksExecution_setOutput(execution, 0, NULL, out, bytes));
}

ANeuralNetworksExecution* nt_execution_f32(ANeuralNetworksCompilation* compilation, const float* a,
                                           const float* b, float* out, uint32_t n) {
    if (!compilation) return NULL;
    ANeuralNetworksExecution* execution = NULL;
    if (!CHECK_OK(ANeuralNetworksExecution_create(compilation, &execution))) return NULL;
    if (!nt_bind_f32(execution, a, b, out, n)) {
        ANeuralNetworksExecution_free(execution);
        return NULL;
    }
    return execution;
}

bool nt_sum_ok(const float* a, const float* b, const float* out, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        if (out[i] != a[i] + b[i]) {
            fprintf(stderr, "    element %u: %g + %g gave %g\n", i, (double)a[i], (double)b[i],
                    (double)out[i]);
            return false;
        }
    }
    return true;
}

bool nt_fixture_f32(nt_fixture* f, uint32_t n, bool for_cpu) {
    f->model = nt_add_model_f32(n);
    f->compilation = for_cpu ? nt_compile_cpu(f->model) : nt_compile(f->model);
    if (!f->compilation) {
        ANeuralNetworksModel_free(f->model);
        f->model = NULL;
        return false;
    }
    return true;
}

void nt_fixture_free(nt_fixture* f) {
    ANeuralNetworksCompilation_free(f->compilation);
    ANeuralNetworksModel_free(f->model);
    f->compilation = NULL;
    f->model = NULL;
}

const char* const nt_mode_names[NT_MODES] = {"sync", "async", "burst", "fenced"};

int nt_run(ANeuralNetworksExecution* execution, ANeuralNetworksCompilation* compilation,
           nt_mode mode) {
    ANeuralNetworksEvent* event = NULL;
    ANeuralNetworksBurst* burst = NULL;
    int rc;
    switch (mode) {
        case NT_SYNC:
            return ANeuralNetworksExecution_compute(execution);
        case NT_ASYNC:
            rc = ANeuralNetworksExecution_startCompute(execution, &event);
            break;
        case NT_BURST:
            rc = ANeuralNetworksBurst_create(compilation, &burst);
            if (rc == ANEURALNETWORKS_NO_ERROR)
                rc = ANeuralNetworksExecution_burstCompute(execution, burst);
            ANeuralNetworksBurst_free(burst);
            return rc;
        case NT_FENCED:
        default:
            rc = ANeuralNetworksExecution_startComputeWithDependencies(execution, NULL, 0, 0,
                                                                       &event);
            break;
    }
    if (rc != ANEURALNETWORKS_NO_ERROR) return rc;
    rc = ANeuralNetworksEvent_wait(event);
    ANeuralNetworksEvent_free(event);
    return rc;
}

int main(int argc, char** argv) {
    static const struct {
        const char* name;
        void (*run)(void);
    } areas[] = {
            {"device", nt_test_device},
            {"model", nt_test_model},
            {"compilation", nt_test_compilation},
            {"execution", nt_test_execution},
            {"memory", nt_test_memory},
            {"event", nt_test_event},
            {"threads", nt_test_threads},
    };
    for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
        /* Optional arguments select areas by name. */
        bool selected = argc < 2;
        for (int a = 1; a < argc; a++) selected = selected || strcmp(argv[a], areas[i].name) == 0;
        if (!selected) continue;
        const int before_failed = nt_failed, before_passed = nt_passed;
        areas[i].run();
        printf("[%s] %d ok, %d not ok\n", areas[i].name, nt_passed - before_passed,
               nt_failed - before_failed);
    }
    return nt_summary();
}
