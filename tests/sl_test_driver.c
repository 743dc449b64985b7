/*
 * libnnapi_test_driver.so: an NNAPI Support Library driver for the runtime's
 * tests. It reports one ACCELERATOR device of its own name, supports only a
 * chosen subset of operations and can be told to fail; it computes with the
 * runtime's CPU code (built into it), so its results are exact.
 *
 * NNAPI_TEST_DRIVER_OPS   "even" (even operation codes), "all" (default), or
 *                         a comma-separated list of operation codes
 * NNAPI_TEST_DRIVER_FAIL  "compile": every Compilation_finish fails;
 *                         "execute": every computation fails (OP_FAILED)
 * Both are read when the runtime loads the driver. IF and WHILE count as
 * supported only when every operation of the subgraphs they run is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

#define TEST_DEVICE_NAME "nnapi_linux-test-npu"
#define MAX_CODE 256

static NnApiSLDriverImplFL8 table;
static bool op_allowed[MAX_CODE];
static bool fail_compile, fail_execute;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int test_getName(const ANeuralNetworksDevice *d, const char **name)
{
    int rc = nn_cpu_sl_table()->base.ANeuralNetworksDevice_getName(d, name);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *name = TEST_DEVICE_NAME;
    return rc;
}

static int test_getType(const ANeuralNetworksDevice *d, int32_t *type)
{
    int rc = nn_cpu_sl_table()->base.ANeuralNetworksDevice_getType(d, type);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *type = ANEURALNETWORKS_DEVICE_ACCELERATOR;
    return rc;
}

static bool allowed(int32_t code)
{
    return code >= 0 && code < MAX_CODE && op_allowed[code];
}

/* Whether every operation of m, and of the models its operands refer to, is
 * in the subset (depth bounds hostile self-reference, impossible here). */
static bool model_allowed(const ANeuralNetworksModel *m, unsigned depth)
{
    if (depth > NN_MAX_CONTROL_FLOW_DEPTH)
        return false;
    for (uint32_t k = 0; k < m->n_operations; k++)
        if (!allowed(m->operations[k].type))
            return false;
    for (uint32_t o = 0; o < m->n_operands; o++)
        if (m->operands[o].lifetime == NN_LIFETIME_SUBGRAPH &&
            !model_allowed(m->operands[o].subgraph, depth + 1))
            return false;
    return true;
}

static int test_getSupported(const ANeuralNetworksModel *m,
                             const ANeuralNetworksDevice *const *devices, uint32_t n,
                             bool *supported)
{
    int rc = nn_cpu_sl_table()->base.ANeuralNetworksModel_getSupportedOperationsForDevices(
            m, devices, n, supported);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    for (uint32_t k = 0; k < m->n_operations; k++) {
        const nn_operation *op = &m->operations[k];
        bool ok = allowed(op->type);
        if (ok && (op->type == ANEURALNETWORKS_IF || op->type == ANEURALNETWORKS_WHILE))
            for (uint32_t i = 0; i < op->n_in && ok; i++) {
                const nn_operand *o = &m->operands[op->in[i]];
                if (o->lifetime == NN_LIFETIME_SUBGRAPH)
                    ok = model_allowed(o->subgraph, 1);
            }
        supported[k] &= ok;
    }
    return rc;
}

static int test_finish(ANeuralNetworksCompilation *c)
{
    if (fail_compile)
        return ANEURALNETWORKS_OP_FAILED;
    return nn_cpu_sl_table()->base.ANeuralNetworksCompilation_finish(c);
}

static int test_compute(ANeuralNetworksExecution *e)
{
    if (fail_execute)
        return ANEURALNETWORKS_OP_FAILED;
    return nn_cpu_sl_table()->base.ANeuralNetworksExecution_compute(e);
}

static int test_burstCompute(ANeuralNetworksExecution *e, ANeuralNetworksBurst *b)
{
    if (fail_execute)
        return ANEURALNETWORKS_OP_FAILED;
    return nn_cpu_sl_table()->base.ANeuralNetworksExecution_burstCompute(e, b);
}

static int test_startComputeWithDependencies(ANeuralNetworksExecution *e,
                                             const ANeuralNetworksEvent *const *deps,
                                             uint32_t n_deps, uint64_t duration,
                                             ANeuralNetworksEvent **event)
{
    if (fail_execute)
        return ANEURALNETWORKS_OP_FAILED;
    return nn_cpu_sl_table()->base.ANeuralNetworksExecution_startComputeWithDependencies(
            e, deps, n_deps, duration, event);
}

static void parse_ops(const char *spec)
{
    if (spec == NULL || spec[0] == '\0' || strcmp(spec, "all") == 0) {
        for (int c = 0; c < MAX_CODE; c++)
            op_allowed[c] = true;
        return;
    }
    if (strcmp(spec, "even") == 0) {
        for (int c = 0; c < MAX_CODE; c += 2)
            op_allowed[c] = true;
        return;
    }
    const char *p = spec;
    while (*p) {
        char *end;
        long code = strtol(p, &end, 10);
        if (end == p || code < 0 || code >= MAX_CODE) {
            fprintf(stderr, "sl_test_driver: NNAPI_TEST_DRIVER_OPS=%s: bad list\n", spec);
            return;
        }
        op_allowed[code] = true;
        p = *end == ',' ? end + 1 : end;
    }
}

static void init(void)
{
    table = *nn_cpu_sl_table();
    NnApiSLDriverImplFL5 *t = &table.base;
    t->ANeuralNetworksDevice_getName = test_getName;
    t->ANeuralNetworksDevice_getType = test_getType;
    t->ANeuralNetworksModel_getSupportedOperationsForDevices = test_getSupported;
    t->ANeuralNetworksCompilation_finish = test_finish;
    t->ANeuralNetworksExecution_compute = test_compute;
    t->ANeuralNetworksExecution_burstCompute = test_burstCompute;
    t->ANeuralNetworksExecution_startComputeWithDependencies = test_startComputeWithDependencies;
    parse_ops(getenv("NNAPI_TEST_DRIVER_OPS"));
    const char *fail = getenv("NNAPI_TEST_DRIVER_FAIL");
    fail_compile = fail && strcmp(fail, "compile") == 0;
    fail_execute = fail && strcmp(fail, "execute") == 0;
}

NN_API NnApiSLDriverImpl *ANeuralNetworks_getSLDriverImpl(void)
{
    pthread_once(&once, init);
    return &table.base.base;
}
