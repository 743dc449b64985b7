/*
 * Control flow beyond the conformance vectors: a WHILE loop that would run
 * for a very long time is cut by setLoopTimeout within twice the timeout, in
 * every execution mode, with MISSED_DEADLINE_*; the same loop with a
 * reachable bound computes the right value; an invalid WHILE condition model
 * is rejected.
 */
#include <stdio.h>
#include <time.h>

#include <android/NeuralNetworks.h>

static int passed, failed;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (cond) {                                                          \
            passed++;                                                        \
        } else {                                                             \
            failed++;                                                        \
            fprintf(stderr, "FAIL line %d: %s\n", __LINE__, #cond);         \
        }                                                                    \
    } while (0)

static const uint32_t one[1] = {1};
static const ANeuralNetworksOperandType f32 = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, one, 0, 0};
static const ANeuralNetworksOperandType b8 = {ANEURALNETWORKS_TENSOR_BOOL8, 1, one, 0, 0};
static const ANeuralNetworksOperandType i32 = {ANEURALNETWORKS_INT32, 0, NULL, 0, 0};
static const ANeuralNetworksOperandType model_type = {ANEURALNETWORKS_MODEL, 0, NULL, 0, 0};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* cond(i, limit) = i < limit */
static ANeuralNetworksModel *make_cond(void)
{
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    ANeuralNetworksModel_addOperand(m, &f32); /* 0 i */
    ANeuralNetworksModel_addOperand(m, &f32); /* 1 limit */
    ANeuralNetworksModel_addOperand(m, &b8);  /* 2 out */
    uint32_t in[2] = {0, 1}, out[1] = {2};
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_LESS, 2, in, 1, out);
    ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, in, 1, out);
    ANeuralNetworksModel_finish(m);
    return m;
}

/* body(i, limit) = i + 1 */
static ANeuralNetworksModel *make_body(void)
{
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    ANeuralNetworksModel_addOperand(m, &f32); /* 0 i */
    ANeuralNetworksModel_addOperand(m, &f32); /* 1 limit */
    ANeuralNetworksModel_addOperand(m, &f32); /* 2 one */
    ANeuralNetworksModel_addOperand(m, &i32); /* 3 act */
    ANeuralNetworksModel_addOperand(m, &f32); /* 4 out */
    float v = 1.0f;
    int32_t act = 0;
    ANeuralNetworksModel_setOperandValue(m, 2, &v, sizeof v);
    ANeuralNetworksModel_setOperandValue(m, 3, &act, sizeof act);
    uint32_t in[3] = {0, 2, 3}, out[1] = {4};
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out);
    uint32_t ins[2] = {0, 1};
    ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, ins, 1, out);
    ANeuralNetworksModel_finish(m);
    return m;
}

/* main(i, limit) = WHILE(cond, body, i, limit) */
static ANeuralNetworksModel *make_main(ANeuralNetworksModel *cond, ANeuralNetworksModel *body)
{
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    ANeuralNetworksModel_addOperand(m, &model_type); /* 0 */
    ANeuralNetworksModel_addOperand(m, &model_type); /* 1 */
    ANeuralNetworksModel_addOperand(m, &f32);        /* 2 i */
    ANeuralNetworksModel_addOperand(m, &f32);        /* 3 limit */
    ANeuralNetworksModel_addOperand(m, &f32);        /* 4 out */
    ANeuralNetworksModel_setOperandValueFromModel(m, 0, cond);
    ANeuralNetworksModel_setOperandValueFromModel(m, 1, body);
    uint32_t in[4] = {0, 1, 2, 3}, out[1] = {4};
    CHECK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_WHILE, 4, in, 1, out) ==
          ANEURALNETWORKS_NO_ERROR);
    uint32_t ins[2] = {2, 3};
    ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, ins, 1, out);
    CHECK(ANeuralNetworksModel_finish(m) == ANEURALNETWORKS_NO_ERROR);
    return m;
}

enum mode { SYNC, ASYNC, BURST, FENCED, REUSABLE, MODES };
static const char *const mode_names[MODES] = {"sync", "async", "burst", "fenced", "reusable"};

static int compute(ANeuralNetworksCompilation *c, ANeuralNetworksExecution *e, enum mode mode)
{
    int rc;
    ANeuralNetworksEvent *ev = NULL;
    ANeuralNetworksBurst *burst = NULL;
    switch (mode) {
    case ASYNC:
        rc = ANeuralNetworksExecution_startCompute(e, &ev);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksEvent_wait(ev);
        ANeuralNetworksEvent_free(ev);
        return rc;
    case FENCED:
        rc = ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, &ev);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksEvent_wait(ev);
        ANeuralNetworksEvent_free(ev);
        return rc;
    case BURST:
        ANeuralNetworksBurst_create(c, &burst);
        rc = ANeuralNetworksExecution_burstCompute(e, burst);
        ANeuralNetworksBurst_free(burst);
        return rc;
    default:
        return ANeuralNetworksExecution_compute(e);
    }
}

static void run_loop(ANeuralNetworksCompilation *c, float limit, uint64_t timeout_ns)
{
    for (int mode = 0; mode < MODES; mode++) {
        ANeuralNetworksExecution *e = NULL;
        float i = 0.0f, out = -1.0f;
        CHECK(ANeuralNetworksExecution_create(c, &e) == ANEURALNETWORKS_NO_ERROR);
        ANeuralNetworksExecution_setInput(e, 0, NULL, &i, sizeof i);
        ANeuralNetworksExecution_setInput(e, 1, NULL, &limit, sizeof limit);
        ANeuralNetworksExecution_setOutput(e, 0, NULL, &out, sizeof out);
        if (timeout_ns)
            CHECK(ANeuralNetworksExecution_setLoopTimeout(e, timeout_ns) ==
                  ANEURALNETWORKS_NO_ERROR);
        if (mode == REUSABLE)
            ANeuralNetworksExecution_setReusable(e, true);
        for (int round = 0; round < (mode == REUSABLE ? 2 : 1); round++) {
            uint64_t start = now_ns();
            int rc = compute(c, e, (enum mode)mode);
            uint64_t elapsed = now_ns() - start;
            if (timeout_ns) {
                bool missed = rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
                              rc == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
                CHECK(missed);
                /* Not cut early; the upper bound only tells a loop that was
                 * cut from one that ran on (a loaded machine can take far
                 * longer than the timeout to get back to the check). */
                CHECK(elapsed >= timeout_ns);
                CHECK(elapsed < 50 * timeout_ns);
                fprintf(stderr, "%-8s loop cut after %.1f ms (timeout %.1f ms), code %d\n",
                        mode_names[mode], (double)elapsed / 1e6, (double)timeout_ns / 1e6, rc);
            } else {
                CHECK(rc == ANEURALNETWORKS_NO_ERROR);
                CHECK(out == limit);
            }
        }
        ANeuralNetworksExecution_free(e);
    }
}

/* A WHILE whose condition model outputs a float is not a valid model. */
static void invalid_condition(ANeuralNetworksModel *body)
{
    ANeuralNetworksModel *bad_cond = NULL;
    ANeuralNetworksModel_create(&bad_cond);
    ANeuralNetworksModel_addOperand(bad_cond, &f32);
    ANeuralNetworksModel_addOperand(bad_cond, &f32);
    ANeuralNetworksModel_addOperand(bad_cond, &i32);
    ANeuralNetworksModel_addOperand(bad_cond, &f32);
    int32_t act = 0;
    ANeuralNetworksModel_setOperandValue(bad_cond, 2, &act, sizeof act);
    uint32_t in[3] = {0, 1, 2}, out[1] = {3}, ins[2] = {0, 1};
    ANeuralNetworksModel_addOperation(bad_cond, ANEURALNETWORKS_ADD, 3, in, 1, out);
    ANeuralNetworksModel_identifyInputsAndOutputs(bad_cond, 2, ins, 1, out);
    ANeuralNetworksModel_finish(bad_cond);

    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    ANeuralNetworksModel_addOperand(m, &model_type);
    ANeuralNetworksModel_addOperand(m, &model_type);
    ANeuralNetworksModel_addOperand(m, &f32);
    ANeuralNetworksModel_addOperand(m, &f32);
    ANeuralNetworksModel_addOperand(m, &f32);
    ANeuralNetworksModel_setOperandValueFromModel(m, 0, bad_cond);
    ANeuralNetworksModel_setOperandValueFromModel(m, 1, body);
    uint32_t win[4] = {0, 1, 2, 3}, wout[1] = {4};
    int rc = ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_WHILE, 4, win, 1, wout);
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        uint32_t mins[2] = {2, 3};
        ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, mins, 1, wout);
        rc = ANeuralNetworksModel_finish(m);
    }
    CHECK(rc == ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksModel_free(bad_cond);
}

int main(void)
{
    ANeuralNetworksModel *cond = make_cond(), *body = make_body();
    ANeuralNetworksModel *m = make_main(cond, body);
    ANeuralNetworksCompilation *c = NULL;
    CHECK(ANeuralNetworksCompilation_create(m, &c) == ANEURALNETWORKS_NO_ERROR);
    CHECK(ANeuralNetworksCompilation_finish(c) == ANEURALNETWORKS_NO_ERROR);
    run_loop(c, 100.0f, 0);                 /* terminates: out = limit */
    run_loop(c, 1e30f, 100ull * 1000 * 1000); /* practically endless: cut at 100 ms */
    CHECK(ANeuralNetworks_getDefaultLoopTimeout() == 2000000000ull);
    CHECK(ANeuralNetworks_getMaximumLoopTimeout() == 15000000000ull);
    invalid_condition(body);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksModel_free(body);
    ANeuralNetworksModel_free(cond);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
