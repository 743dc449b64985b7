/*
 * Times the model-size-dependent parts of the runtime through the public
 * API: building, finishing, compiling and running a chain of 100,000 ADDs;
 * identifying 200,000 model inputs; compiling IF nested to the documented
 * limit (1000 levels) and refusing 100,000 levels; and starting 10,000
 * asynchronous computations at once. Prints one line per case.
 * Usage: bench_graph [operations in the chain]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "android/NeuralNetworks.h"
#include "bench_util.h"

static const uint32_t dim1[1] = {1};
static const ANeuralNetworksOperandType f32_1 = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dim1, 0, 0};
static const ANeuralNetworksOperandType b8_1 = {ANEURALNETWORKS_TENSOR_BOOL8, 1, dim1, 0, 0};
static const ANeuralNetworksOperandType i32 = {ANEURALNETWORKS_INT32, 0, NULL, 0, 0};
static const ANeuralNetworksOperandType model_t = {ANEURALNETWORKS_MODEL, 0, NULL, 0, 0};

static int fail(const char *what, int rc)
{
    fprintf(stderr, "bench_graph: %s failed (%d)\n", what, rc);
    exit(1);
}

/* y = x + 1 + 1 ... (n ADDs). */
static ANeuralNetworksModel *chain(uint32_t n)
{
    ANeuralNetworksModel *m = NULL;
    static const float one = 1.0f;
    static const int32_t none = 0;
    int rc = ANeuralNetworksModel_create(&m);
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
    rc |= ANeuralNetworksModel_addOperand(m, &i32);
    rc |= ANeuralNetworksModel_setOperandValue(m, 1, &one, sizeof one);
    rc |= ANeuralNetworksModel_setOperandValue(m, 2, &none, sizeof none);
    uint32_t prev = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t out = 3 + k, in[3] = {prev, 1, 2};
        rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
        rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, &out);
        prev = out;
    }
    uint32_t input = 0;
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &prev);
    if (rc)
        fail("building the chain", rc);
    return m;
}

static void bench_chain(uint32_t n)
{
    double t0 = bench_seconds(CLOCK_MONOTONIC);
    ANeuralNetworksModel *m = chain(n);
    double t1 = bench_seconds(CLOCK_MONOTONIC);
    int rc = ANeuralNetworksModel_finish(m);
    double t2 = bench_seconds(CLOCK_MONOTONIC);
    ANeuralNetworksCompilation *c = NULL;
    rc |= ANeuralNetworksCompilation_create(m, &c);
    rc |= ANeuralNetworksCompilation_finish(c);
    double t3 = bench_seconds(CLOCK_MONOTONIC);
    float x = 0.0f, y = 0.0f;
    ANeuralNetworksExecution *e = NULL;
    rc |= ANeuralNetworksExecution_create(c, &e);
    rc |= ANeuralNetworksExecution_setInput(e, 0, NULL, &x, sizeof x);
    rc |= ANeuralNetworksExecution_setOutput(e, 0, NULL, &y, sizeof y);
    rc |= ANeuralNetworksExecution_compute(e);
    double t4 = bench_seconds(CLOCK_MONOTONIC);
    if (rc || y != (float)n)
        fail("the chain", rc);
    printf("chain of %u ADDs: build %.3f s, model finish %.3f s, compile %.3f s, run %.3f s, "
           "total %.3f s\n",
           n, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

static void bench_inputs(uint32_t n)
{
    ANeuralNetworksModel *m = NULL;
    int rc = ANeuralNetworksModel_create(&m);
    uint32_t *idx = malloc((size_t)n * sizeof *idx);
    if (idx == NULL)
        fail("allocating", 0);
    for (uint32_t i = 0; i < n; i++) {
        rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
        idx[i] = i;
    }
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
    double t0 = bench_seconds(CLOCK_MONOTONIC);
    uint32_t out = n;
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, n, idx, 1, &out);
    double t1 = bench_seconds(CLOCK_MONOTONIC);
    if (rc)
        fail("identifyInputsAndOutputs", rc);
    printf("identifyInputsAndOutputs with %u inputs: %.3f s\n", n, t1 - t0);
    free(idx);
    ANeuralNetworksModel_free(m);
}

/* IF nested `levels` deep around y = x + 1: build, compile and (within the
 * limit) run it. */
static void bench_nesting(uint32_t levels)
{
    ANeuralNetworksModel **models = calloc((size_t)levels + 1, sizeof *models);
    if (models == NULL)
        fail("allocating", 0);
    double t0 = bench_seconds(CLOCK_MONOTONIC);
    models[0] = chain(1);
    int rc = ANeuralNetworksModel_finish(models[0]);
    static const uint8_t yes = 1;
    for (uint32_t k = 1; k <= levels && rc == 0; k++) {
        ANeuralNetworksModel *m = NULL;
        rc |= ANeuralNetworksModel_create(&m);
        rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
        rc |= ANeuralNetworksModel_addOperand(m, &b8_1);
        rc |= ANeuralNetworksModel_addOperand(m, &model_t);
        rc |= ANeuralNetworksModel_addOperand(m, &model_t);
        rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
        rc |= ANeuralNetworksModel_setOperandValue(m, 1, &yes, sizeof yes);
        rc |= ANeuralNetworksModel_setOperandValueFromModel(m, 2, models[k - 1]);
        rc |= ANeuralNetworksModel_setOperandValueFromModel(m, 3, models[k - 1]);
        uint32_t in[4] = {1, 2, 3, 0}, out = 4, input = 0;
        rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_IF, 4, in, 1, &out);
        rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &out);
        rc |= ANeuralNetworksModel_finish(m);
        models[k] = m;
    }
    if (rc)
        fail("building the nested IF", rc);
    double t1 = bench_seconds(CLOCK_MONOTONIC);
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksCompilation_create(models[levels], &c);
    int finish = ANeuralNetworksCompilation_finish(c);
    double t2 = bench_seconds(CLOCK_MONOTONIC);
    double run = 0.0;
    if (finish == ANEURALNETWORKS_NO_ERROR) {
        float x = 1.0f, y = 0.0f;
        ANeuralNetworksExecution *e = NULL;
        rc |= ANeuralNetworksExecution_create(c, &e);
        rc |= ANeuralNetworksExecution_setInput(e, 0, NULL, &x, sizeof x);
        rc |= ANeuralNetworksExecution_setOutput(e, 0, NULL, &y, sizeof y);
        rc |= ANeuralNetworksExecution_compute(e);
        run = bench_seconds(CLOCK_MONOTONIC) - t2;
        if (rc || y != 2.0f)
            fail("running the nested IF", rc);
        ANeuralNetworksExecution_free(e);
    }
    printf("IF nested %u deep: build %.3f s, compile %.3f s (%s), run %.3f s\n", levels, t1 - t0,
           t2 - t1, finish == 0 ? "NO_ERROR" : "BAD_DATA: beyond the limit", run);
    ANeuralNetworksCompilation_free(c);
    for (uint32_t k = 0; k <= levels; k++)
        ANeuralNetworksModel_free(models[k]);
    free(models);
}

static void bench_in_flight(uint32_t n)
{
    ANeuralNetworksModel *m = chain(1);
    ANeuralNetworksCompilation *c = NULL;
    int rc = ANeuralNetworksModel_finish(m);
    rc |= ANeuralNetworksCompilation_create(m, &c);
    rc |= ANeuralNetworksCompilation_finish(c);
    float *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
    ANeuralNetworksExecution **e = calloc(n, sizeof *e);
    ANeuralNetworksEvent **ev = calloc(n, sizeof *ev);
    if (rc || !x || !y || !e || !ev)
        fail("preparing the computations", rc);
    double t0 = bench_seconds(CLOCK_MONOTONIC);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        rc |= ANeuralNetworksExecution_create(c, &e[i]);
        rc |= ANeuralNetworksExecution_setInput(e[i], 0, NULL, &x[i], sizeof x[i]);
        rc |= ANeuralNetworksExecution_setOutput(e[i], 0, NULL, &y[i], sizeof y[i]);
        rc |= ANeuralNetworksExecution_startCompute(e[i], &ev[i]);
    }
    for (uint32_t i = 0; i < n && rc == 0; i++)
        rc |= ANeuralNetworksEvent_wait(ev[i]);
    double t1 = bench_seconds(CLOCK_MONOTONIC);
    if (rc)
        fail("the computations", rc);
    printf("%u asynchronous computations started at once: %.3f s to complete all\n", n, t1 - t0);
    for (uint32_t i = 0; i < n; i++) {
        ANeuralNetworksEvent_free(ev[i]);
        ANeuralNetworksExecution_free(e[i]);
    }
    free(x);
    free(y);
    free(e);
    free(ev);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
    bench_chain(n);
    bench_inputs(200000);
    bench_nesting(1000);
    bench_nesting(100000);
    bench_in_flight(10000);
    return 0;
}
