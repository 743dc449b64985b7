/*
 * One compilation used from many threads at once: synchronous, asynchronous,
 * burst and reusable executions, several threads waiting on one event, and
 * fences chained across executions. Every result is checked. Meant to run
 * under ThreadSanitizer as well.
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#define N_THREADS 8
#define ROUNDS 25
#define N_ELEMS 1024

static int passed, failed;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void check(int ok, const char *what, int line)
{
    pthread_mutex_lock(&count_lock);
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAIL line %d: %s\n", line, what);
    }
    pthread_mutex_unlock(&count_lock);
}
#define CHECK(cond) check((cond) != 0, #cond, __LINE__)
#define CHECK_OK(call) check((call) == ANEURALNETWORKS_NO_ERROR, #call, __LINE__)

static ANeuralNetworksModel *model;
static ANeuralNetworksCompilation *compilation;

/* out = (a + b) + b: two operations, so the arena is exercised too. */
static int build(void)
{
    uint32_t dims[1] = {N_ELEMS};
    ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    ANeuralNetworksOperandType act = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
    int32_t none = ANEURALNETWORKS_FUSED_NONE;
    if (ANeuralNetworksModel_create(&model) != ANEURALNETWORKS_NO_ERROR)
        return -1;
    for (int i = 0; i < 3; i++)
        ANeuralNetworksModel_addOperand(model, &t); /* 0 a, 1 b, 2 tmp */
    ANeuralNetworksModel_addOperand(model, &act);    /* 3 */
    ANeuralNetworksModel_addOperand(model, &t);      /* 4 out */
    ANeuralNetworksModel_setOperandValue(model, 3, &none, sizeof none);
    uint32_t in1[3] = {0, 1, 3}, out1[1] = {2};
    uint32_t in2[3] = {2, 1, 3}, out2[1] = {4};
    ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, in1, 1, out1);
    ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, in2, 1, out2);
    uint32_t ins[2] = {0, 1}, outs[1] = {4};
    ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, outs);
    if (ANeuralNetworksModel_finish(model) != ANEURALNETWORKS_NO_ERROR)
        return -1;
    if (ANeuralNetworksCompilation_create(model, &compilation) != ANEURALNETWORKS_NO_ERROR)
        return -1;
    return ANeuralNetworksCompilation_finish(compilation) == ANEURALNETWORKS_NO_ERROR ? 0 : -1;
}

typedef struct job {
    int id;
    float a[N_ELEMS], b[N_ELEMS], out[N_ELEMS];
} job;

static void fill(job *j, int round)
{
    for (int i = 0; i < N_ELEMS; i++) {
        j->a[i] = (float)(j->id * 1000 + round);
        j->b[i] = (float)i;
        j->out[i] = -1.0f;
    }
}

static int verify(const job *j, int round)
{
    for (int i = 0; i < N_ELEMS; i++)
        if (j->out[i] != (float)(j->id * 1000 + round) + 2.0f * (float)i)
            return 0;
    return 1;
}

static ANeuralNetworksExecution *bind(job *j)
{
    ANeuralNetworksExecution *e = NULL;
    if (ANeuralNetworksExecution_create(compilation, &e) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    ANeuralNetworksExecution_setInput(e, 0, NULL, j->a, sizeof j->a);
    ANeuralNetworksExecution_setInput(e, 1, NULL, j->b, sizeof j->b);
    ANeuralNetworksExecution_setOutput(e, 0, NULL, j->out, sizeof j->out);
    return e;
}

static void *worker(void *arg)
{
    job *j = arg;
    ANeuralNetworksBurst *burst = NULL;
    CHECK_OK(ANeuralNetworksBurst_create(compilation, &burst));
    ANeuralNetworksExecution *reusable = bind(j);
    CHECK(reusable != NULL);
    CHECK_OK(ANeuralNetworksExecution_setReusable(reusable, true));
    for (int round = 0; round < ROUNDS; round++) {
        int mode = (j->id + round) % 4;
        fill(j, round);
        if (mode == 3) {
            /* The reusable execution reads the same buffers every time. */
            CHECK_OK(ANeuralNetworksExecution_compute(reusable));
            CHECK(verify(j, round));
            continue;
        }
        ANeuralNetworksExecution *e = bind(j);
        CHECK(e != NULL);
        if (e == NULL)
            continue;
        if (mode == 0) {
            CHECK_OK(ANeuralNetworksExecution_compute(e));
        } else if (mode == 1) {
            ANeuralNetworksEvent *ev = NULL;
            CHECK_OK(ANeuralNetworksExecution_startCompute(e, &ev));
            CHECK_OK(ANeuralNetworksEvent_wait(ev));
            ANeuralNetworksEvent_free(ev);
        } else {
            CHECK_OK(ANeuralNetworksExecution_burstCompute(e, burst));
        }
        CHECK(verify(j, round));
        ANeuralNetworksExecution_free(e);
    }
    ANeuralNetworksExecution_free(reusable);
    ANeuralNetworksBurst_free(burst);
    return NULL;
}

static ANeuralNetworksEvent *shared_event;

static void *waiter(void *arg)
{
    (void)arg;
    CHECK_OK(ANeuralNetworksEvent_wait(shared_event));
    return NULL;
}

/* Several threads wait on one event while the computation runs. */
static void many_waiters(void)
{
    static job j = {.id = 77};
    fill(&j, 0);
    ANeuralNetworksExecution *e = bind(&j);
    CHECK(e != NULL);
    CHECK_OK(ANeuralNetworksExecution_startCompute(e, &shared_event));
    pthread_t t[N_THREADS];
    for (int i = 0; i < N_THREADS; i++)
        pthread_create(&t[i], NULL, waiter, NULL);
    for (int i = 0; i < N_THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK(verify(&j, 0));
    ANeuralNetworksEvent_free(shared_event);
    ANeuralNetworksExecution_free(e);
}

/*
 * A chain of fenced executions: each waits for the previous one's event, and
 * its input is the previous one's output, so a missing wait shows up as a
 * wrong value. The last fence is also polled as a plain fd.
 */
static void fence_chain(void)
{
    enum { LINKS = 6 };
    static float bufs[LINKS + 1][N_ELEMS];
    static float ones[N_ELEMS];
    for (int i = 0; i < N_ELEMS; i++) {
        bufs[0][i] = (float)i;
        ones[i] = 1.0f;
    }
    ANeuralNetworksExecution *e[LINKS];
    ANeuralNetworksEvent *ev[LINKS];
    for (int k = 0; k < LINKS; k++) {
        e[k] = NULL;
        ev[k] = NULL;
        CHECK_OK(ANeuralNetworksExecution_create(compilation, &e[k]));
        CHECK_OK(ANeuralNetworksExecution_setInput(e[k], 0, NULL, bufs[k], sizeof bufs[k]));
        CHECK_OK(ANeuralNetworksExecution_setInput(e[k], 1, NULL, ones, sizeof ones));
        CHECK_OK(ANeuralNetworksExecution_setOutput(e[k], 0, NULL, bufs[k + 1],
                                                     sizeof bufs[k + 1]));
        const ANeuralNetworksEvent *deps[1] = {k ? ev[k - 1] : NULL};
        CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e[k], deps, k ? 1 : 0, 0,
                                                                        &ev[k]));
    }
    int fd = -1;
    CHECK_OK(ANeuralNetworksEvent_getSyncFenceFd(ev[LINKS - 1], &fd));
    struct pollfd p = {.fd = fd, .events = POLLIN};
    CHECK(poll(&p, 1, 10000) == 1);
    if (fd >= 0)
        close(fd);
    for (int k = 0; k < LINKS; k++)
        CHECK_OK(ANeuralNetworksEvent_wait(ev[k]));
    int good = 1;
    for (int i = 0; i < N_ELEMS; i++)
        good &= bufs[LINKS][i] == (float)i + 2.0f * LINKS;
    CHECK(good);
    for (int k = 0; k < LINKS; k++) {
        ANeuralNetworksEvent_free(ev[k]);
        ANeuralNetworksExecution_free(e[k]);
    }
}

int main(void)
{
    if (build() != 0) {
        fprintf(stderr, "could not build the model\n");
        printf("0 passed, 1 failed\n");
        return 1;
    }
    static job jobs[N_THREADS];
    pthread_t threads[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        jobs[i].id = i;
        pthread_create(&threads[i], NULL, worker, &jobs[i]);
    }
    for (int i = 0; i < N_THREADS; i++)
        pthread_join(threads[i], NULL);
    many_waiters();
    fence_chain();
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
