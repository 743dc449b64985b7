/*
 * Regression tests for issue 14 (reliability): dependency events freed
 * early, deep control flow on small stacks, deadline arithmetic, fd
 * memories that cannot be mapped safely, index outputs that cannot hold the
 * answer, fork() after the pool started, thousands of computations in
 * flight, and failed thread creation. Public API only.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#include "test_util.h"

/* The nesting limit README.md documents for IF/WHILE. */
#define MAX_NESTING 1000

static const uint32_t dim1[1] = {1};
static const ANeuralNetworksOperandType f32_1 = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dim1, 0, 0};
static const ANeuralNetworksOperandType b8_1 = {ANEURALNETWORKS_TENSOR_BOOL8, 1, dim1, 0, 0};
static const ANeuralNetworksOperandType i32 = {ANEURALNETWORKS_INT32, 0, NULL, 0, 0};
static const ANeuralNetworksOperandType model_t = {ANEURALNETWORKS_MODEL, 0, NULL, 0, 0};

static const ANeuralNetworksDevice *cpu(void)
{
    ANeuralNetworksDevice *d = NULL;
    ANeuralNetworks_getDevice(0, &d);
    return d;
}

/* out = x + 1, n times over ([1] floats). NULL on any failure. */
static ANeuralNetworksModel *add_chain(uint32_t n)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    static const float one = 1.0f;
    static const int32_t none = 0;
    int rc = ANeuralNetworksModel_addOperand(m, &f32_1); /* 0: x */
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);    /* 1: one */
    rc |= ANeuralNetworksModel_addOperand(m, &i32);      /* 2: activation */
    rc |= ANeuralNetworksModel_setOperandValue(m, 1, &one, sizeof one);
    rc |= ANeuralNetworksModel_setOperandValue(m, 2, &none, sizeof none);
    uint32_t prev = 0;
    for (uint32_t k = 0; k < n && rc == 0; k++) {
        rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
        uint32_t out = 3 + k, in[3] = {prev, 1, 2};
        rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, &out);
        prev = out;
    }
    uint32_t input = 0;
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &prev);
    rc |= ANeuralNetworksModel_finish(m);
    if (rc != 0) {
        ANeuralNetworksModel_free(m);
        return NULL;
    }
    return m;
}

/* A model whose output is IF(true, inner, inner)(x): one more level. */
static ANeuralNetworksModel *if_level(const ANeuralNetworksModel *inner)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    static const uint8_t yes = 1;
    int rc = ANeuralNetworksModel_addOperand(m, &f32_1); /* 0: x */
    rc |= ANeuralNetworksModel_addOperand(m, &b8_1);     /* 1: cond */
    rc |= ANeuralNetworksModel_addOperand(m, &model_t);  /* 2: then */
    rc |= ANeuralNetworksModel_addOperand(m, &model_t);  /* 3: else */
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);    /* 4: out */
    rc |= ANeuralNetworksModel_setOperandValue(m, 1, &yes, sizeof yes);
    rc |= ANeuralNetworksModel_setOperandValueFromModel(m, 2, inner);
    rc |= ANeuralNetworksModel_setOperandValueFromModel(m, 3, inner);
    uint32_t in[4] = {1, 2, 3, 0}, out = 4, input = 0;
    rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_IF, 4, in, 1, &out);
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &out);
    rc |= ANeuralNetworksModel_finish(m);
    if (rc != 0) {
        ANeuralNetworksModel_free(m);
        return NULL;
    }
    return m;
}

/* models[0] = x + 1, models[k] = IF nesting k levels deep. */
static ANeuralNetworksModel **if_tower(uint32_t levels)
{
    ANeuralNetworksModel **models = calloc(levels + 1, sizeof *models);
    if (models == NULL)
        return NULL;
    models[0] = add_chain(1);
    for (uint32_t k = 1; k <= levels && models[k - 1]; k++)
        models[k] = if_level(models[k - 1]);
    return models;
}

static void free_tower(ANeuralNetworksModel **models, uint32_t levels)
{
    for (uint32_t k = 0; models && k <= levels; k++)
        ANeuralNetworksModel_free(models[k]);
    free(models);
}

static ANeuralNetworksCompilation *compile(ANeuralNetworksModel *m, int *rc)
{
    ANeuralNetworksCompilation *c = NULL;
    const ANeuralNetworksDevice *d = cpu();
    *rc = ANeuralNetworksCompilation_createForDevices(m, &d, 1, &c);
    if (*rc == ANEURALNETWORKS_NO_ERROR)
        *rc = ANeuralNetworksCompilation_finish(c);
    return c;
}

static ANeuralNetworksExecution *execution(ANeuralNetworksCompilation *c, const float *x, float *y)
{
    ANeuralNetworksExecution *e = NULL;
    if (ANeuralNetworksExecution_create(c, &e) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    if (ANeuralNetworksExecution_setInput(e, 0, NULL, x, sizeof *x) != ANEURALNETWORKS_NO_ERROR ||
        ANeuralNetworksExecution_setOutput(e, 0, NULL, y, sizeof *y) != ANEURALNETWORKS_NO_ERROR) {
        ANeuralNetworksExecution_free(e);
        return NULL;
    }
    return e;
}

/* ---- 1. dependencies freed right after they are handed over ---- */

static void test_dependency_freed_early(void)
{
    int rc;
    ANeuralNetworksModel *m = add_chain(1);
    ANeuralNetworksCompilation *c = compile(m, &rc);
    CHECK_OK(rc);
    int failures = 0, wrong = 0;
    for (int round = 0; round < 40; round++) {
        float x = (float)round, mid = -1.0f, y = -1.0f;
        ANeuralNetworksExecution *e1 = execution(c, &x, &mid);
        ANeuralNetworksExecution *e2 = execution(c, &mid, &y);
        int fence = eventfd(0, EFD_CLOEXEC);
        ANeuralNetworksEvent *from_fence = NULL, *ev1 = NULL, *ev2 = NULL;
        if (e1 == NULL || e2 == NULL || fence < 0 ||
            ANeuralNetworksEvent_createFromSyncFenceFd(fence, &from_fence) != 0) {
            failures++;
            break;
        }
        const ANeuralNetworksEvent *d1[1] = {from_fence};
        rc = ANeuralNetworksExecution_startComputeWithDependencies(e1, d1, 1, 0, &ev1);
        const ANeuralNetworksEvent *d2[1] = {ev1};
        if (rc == 0)
            rc = ANeuralNetworksExecution_startComputeWithDependencies(e2, d2, 1, 0, &ev2);
        /* The application is done with both dependencies at once. */
        ANeuralNetworksEvent_free(from_fence);
        uint64_t one = 1;
        if (write(fence, &one, sizeof one) != sizeof one)
            failures++;
        ANeuralNetworksEvent_free(ev1);
        if (rc != 0 || ANeuralNetworksEvent_wait(ev2) != ANEURALNETWORKS_NO_ERROR)
            failures++;
        else if (y != x + 2.0f)
            wrong++;
        ANeuralNetworksEvent_free(ev2);
        close(fence);
        ANeuralNetworksExecution_free(e1);
        ANeuralNetworksExecution_free(e2);
    }
    CHECK_EQ_INT(failures, 0);
    CHECK_EQ_INT(wrong, 0);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* ---- 2. deep control flow, on a small stack ---- */

typedef struct small_stack_job {
    ANeuralNetworksModel *model;
    uint32_t levels;
    float x;
    int finish_rc;
    int compute_rc;
    float y;
} small_stack_job;

static void *small_stack_main(void *arg)
{
    small_stack_job *j = arg;
    ANeuralNetworksCompilation *c = compile(j->model, &j->finish_rc);
    j->compute_rc = -1;
    if (j->finish_rc == ANEURALNETWORKS_NO_ERROR) {
        ANeuralNetworksExecution *e = execution(c, &j->x, &j->y);
        j->compute_rc = e ? ANeuralNetworksExecution_compute(e) : -1;
        ANeuralNetworksExecution_free(e);
    }
    ANeuralNetworksCompilation_free(c);
    return NULL;
}

/* Compiles and runs on a thread with a 256 KiB stack, as `ulimit -s 256`. */
static void run_on_small_stack(small_stack_job *j)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256u << 10);
    pthread_t t;
    bool started = pthread_create(&t, &attr, small_stack_main, j) == 0;
    CHECK(started);
    if (started)
        pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
}

static void test_deep_if(void)
{
    const uint32_t ok_levels = 500;
    ANeuralNetworksModel **tower = if_tower(MAX_NESTING + 1);
    CHECK(tower != NULL && tower[MAX_NESTING + 1] != NULL);
    if (tower == NULL || tower[MAX_NESTING + 1] == NULL) {
        free_tower(tower, MAX_NESTING + 1);
        return;
    }
    small_stack_job j = {.model = tower[ok_levels], .levels = ok_levels, .x = 41.0f};
    run_on_small_stack(&j);
    CHECK_OK(j.finish_rc);
    CHECK_OK(j.compute_rc);
    CHECK(j.y == 42.0f);
    /* The documented limit itself is accepted; one more level is not. */
    j = (small_stack_job){.model = tower[MAX_NESTING], .levels = MAX_NESTING, .x = 41.0f};
    run_on_small_stack(&j);
    CHECK_OK(j.finish_rc);
    CHECK_OK(j.compute_rc);
    CHECK(j.y == 42.0f);
    j = (small_stack_job){.model = tower[MAX_NESTING + 1], .levels = MAX_NESTING + 1, .x = 41.0f};
    run_on_small_stack(&j);
    CHECK_RC(j.finish_rc, ANEURALNETWORKS_BAD_DATA);

    /* A role needs a compilation whose finish succeeded. */
    int rc;
    ANeuralNetworksCompilation *failed = compile(tower[MAX_NESTING + 1], &rc);
    CHECK_RC(rc, ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemoryDesc *desc = NULL;
    CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc));
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, failed, 0, 1.0f),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, failed, 0, 1.0f),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemoryDesc_free(desc);
    ANeuralNetworksCompilation_free(failed);
    free_tower(tower, MAX_NESTING + 1);
}

/* Far past the limit: the compile-time walk must not recurse either. */
static void test_very_deep_if_finish(void)
{
    const uint32_t levels = 20000;
    ANeuralNetworksModel **tower = if_tower(levels);
    CHECK(tower != NULL && tower[levels] != NULL);
    if (tower != NULL && tower[levels] != NULL) {
        small_stack_job j = {.model = tower[levels], .levels = levels};
        run_on_small_stack(&j);
        CHECK_RC(j.finish_rc, ANEURALNETWORKS_BAD_DATA);
    }
    free_tower(tower, levels);
}

/* cond(x) = x < bound. */
static ANeuralNetworksModel *less_than(float bound)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    int rc = ANeuralNetworksModel_addOperand(m, &f32_1);
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);
    rc |= ANeuralNetworksModel_addOperand(m, &b8_1);
    rc |= ANeuralNetworksModel_setOperandValue(m, 1, &bound, sizeof bound); /* copied: small */
    uint32_t in[2] = {0, 1}, out = 2, input = 0;
    rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_LESS, 2, in, 1, &out);
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &out);
    rc |= ANeuralNetworksModel_finish(m);
    if (rc != 0) {
        ANeuralNetworksModel_free(m);
        return NULL;
    }
    return m;
}

/* level(x) = WHILE(x < 1, inner)(x): from 0, one iteration of the inner
 * loop (itself one iteration deeper down) gives 1 at every level. */
static ANeuralNetworksModel *while_level(const ANeuralNetworksModel *cond,
                                         const ANeuralNetworksModel *inner)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    int rc = ANeuralNetworksModel_addOperand(m, &model_t); /* 0: cond */
    rc |= ANeuralNetworksModel_addOperand(m, &model_t);    /* 1: body */
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);      /* 2: x */
    rc |= ANeuralNetworksModel_addOperand(m, &f32_1);      /* 3: out */
    rc |= ANeuralNetworksModel_setOperandValueFromModel(m, 0, cond);
    rc |= ANeuralNetworksModel_setOperandValueFromModel(m, 1, inner);
    uint32_t in[3] = {0, 1, 2}, out = 3, input = 2;
    rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_WHILE, 3, in, 1, &out);
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &out);
    rc |= ANeuralNetworksModel_finish(m);
    if (rc != 0) {
        ANeuralNetworksModel_free(m);
        return NULL;
    }
    return m;
}

static void test_deep_while(void)
{
    const uint32_t levels = 500;
    ANeuralNetworksModel *cond = less_than(1.0f);
    ANeuralNetworksModel **models = calloc(levels + 1, sizeof *models);
    CHECK(cond != NULL && models != NULL);
    if (cond == NULL || models == NULL) {
        ANeuralNetworksModel_free(cond);
        free(models);
        return;
    }
    models[0] = add_chain(1);
    for (uint32_t k = 1; k <= levels && models[k - 1]; k++)
        models[k] = while_level(cond, models[k - 1]);
    CHECK(models[levels] != NULL);
    if (models[levels] != NULL) {
        /* from 0, every level iterates once: the whole depth runs */
        small_stack_job j = {.model = models[levels], .levels = levels, .x = 0.0f};
        run_on_small_stack(&j);
        CHECK_OK(j.finish_rc);
        CHECK_OK(j.compute_rc);
        CHECK(j.y == 1.0f);
        /* from 1, no iteration at all */
        j = (small_stack_job){.model = models[levels], .levels = levels, .x = 1.0f};
        run_on_small_stack(&j);
        CHECK_OK(j.compute_rc);
        CHECK(j.y == 1.0f);
    }
    for (uint32_t k = 0; k <= levels; k++)
        ANeuralNetworksModel_free(models[k]);
    free(models);
    ANeuralNetworksModel_free(cond);
}

/* ---- 3. deadlines that do not fit the clock ---- */

static void test_huge_timeouts(void)
{
    int rc;
    ANeuralNetworksModel *m = add_chain(2);
    ANeuralNetworksCompilation *c = compile(m, &rc);
    CHECK_OK(rc);
    const uint64_t timeouts[] = {UINT64_MAX, UINT64_MAX - 1, UINT64_MAX - 1000000000ull,
                                 UINT64_MAX / 2 + 1};
    for (size_t i = 0; i < sizeof timeouts / sizeof *timeouts; i++) {
        float x = 1.0f, y = 0.0f;
        ANeuralNetworksExecution *e = execution(c, &x, &y);
        CHECK_OK(ANeuralNetworksExecution_setTimeout(e, timeouts[i]));
        CHECK_OK(ANeuralNetworksExecution_compute(e));
        CHECK(y == 3.0f);
        ANeuralNetworksExecution_free(e);

        y = 0.0f;
        e = execution(c, &x, &y);
        CHECK_OK(ANeuralNetworksExecution_setTimeout(e, timeouts[i]));
        ANeuralNetworksEvent *ev = NULL;
        CHECK_OK(ANeuralNetworksExecution_startCompute(e, &ev));
        CHECK_OK(ANeuralNetworksEvent_wait(ev));
        CHECK(y == 3.0f);
        ANeuralNetworksEvent_free(ev);
        ANeuralNetworksExecution_free(e);

        /* fenced: the duration and the execution's timeout both huge */
        y = 0.0f;
        e = execution(c, &x, &y);
        CHECK_OK(ANeuralNetworksExecution_setTimeout(e, timeouts[i]));
        CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, timeouts[i],
                                                                       &ev));
        CHECK_OK(ANeuralNetworksEvent_wait(ev));
        CHECK(y == 3.0f);
        ANeuralNetworksEvent_free(ev);
        ANeuralNetworksExecution_free(e);
    }
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* ---- 5. fds that cannot back a memory safely ---- */

static int memfd_of(size_t size)
{
    int fd = memfd_create("nn_rel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd >= 0 && ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void test_fd_memories(void)
{
    ANeuralNetworksMemory *mem = NULL;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int zero = open("/dev/zero", O_RDWR | O_CLOEXEC);
    CHECK(zero >= 0);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ | PROT_WRITE, zero, page, &mem),
             ANEURALNETWORKS_BAD_DATA);
    CHECK(mem == NULL);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ, zero, (size_t)1 << 63, &mem),
             ANEURALNETWORKS_BAD_DATA);
    /* offset 0 of /dev/zero maps an object of exactly the mapping's size */
    CHECK_OK(ANeuralNetworksMemory_createFromFd(page, PROT_READ | PROT_WRITE, zero, 0, &mem));
    ANeuralNetworksMemory_free(mem);
    mem = NULL;
    close(zero);
    int null_dev = open("/dev/null", O_RDWR | O_CLOEXEC);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ, null_dev, 0, &mem),
             ANEURALNETWORKS_BAD_DATA);
    close(null_dev);

    int fd = memfd_of(2 * page);
    CHECK(fd >= 0);
    /* past the end of the file, at a page boundary and beyond any file */
    CHECK_RC(ANeuralNetworksMemory_createFromFd(1, PROT_READ, fd, 2 * page, &mem),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(page + 1, PROT_READ, fd, page, &mem),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, (size_t)1 << 63, &mem),
             ANEURALNETWORKS_BAD_DATA);
    /* an offset that is not a multiple of the page size */
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, 100, &mem),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksMemory_createFromFd(page, PROT_READ | PROT_WRITE, fd, page, &mem));
    ANeuralNetworksMemory_free(mem);
    mem = NULL;
    /* a memfd sealed against shrinking, the kind README.md recommends */
    CHECK(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) == 0);
    CHECK_OK(ANeuralNetworksMemory_createFromFd(2 * page, PROT_READ | PROT_WRITE, fd, 0, &mem));
    CHECK(ftruncate(fd, 0) != 0);
    ANeuralNetworksMemory_free(mem);
    mem = NULL;

    /* No descriptor left: resource exhaustion, not bad data. In a child,
     * so that the parent keeps its descriptors. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit lim = {64, 64};
        if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
            _exit(2);
        while (dup(fd) >= 0) {
        }
        int rc = ANeuralNetworksMemory_createFromFd(page, PROT_READ, fd, 0, &mem);
        int rc_fence = -1;
        ANeuralNetworksEvent *ev = NULL;
        rc_fence = ANeuralNetworksEvent_createFromSyncFenceFd(fd, &ev);
        _exit(rc == ANEURALNETWORKS_OUT_OF_MEMORY && rc_fence == ANEURALNETWORKS_OUT_OF_MEMORY
                      ? 0
                      : 1);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(fd);
}

/* ---- 6. index outputs that cannot hold the answer ---- */

/* One op over input 0 ([1, n] of type) from a sparse memfd: no page of
 * the 2 GiB and more is ever touched unless the op reads its input. */
static int run_huge(int32_t op, int32_t type, size_t elem, uint32_t n, int32_t scalar,
                    uint32_t n_out, const ANeuralNetworksOperandType *out_types)
{
    uint32_t dims[2] = {1, n};
    float scale = type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ? 1.0f : 0.0f;
    ANeuralNetworksOperandType in_t = {type, 2, dims, scale, 0};
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    int rc = ANeuralNetworksModel_addOperand(m, &in_t);
    rc |= ANeuralNetworksModel_addOperand(m, &i32);
    rc |= ANeuralNetworksModel_setOperandValue(m, 1, &scalar, sizeof scalar);
    uint32_t outs[4];
    for (uint32_t i = 0; i < n_out; i++) {
        rc |= ANeuralNetworksModel_addOperand(m, &out_types[i]);
        outs[i] = 2 + i;
    }
    uint32_t ins[2] = {0, 1}, input = 0;
    rc |= ANeuralNetworksModel_addOperation(m, op, 2, ins, n_out, outs);
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, n_out, outs);
    rc |= ANeuralNetworksModel_finish(m);
    if (rc != 0) {
        ANeuralNetworksModel_free(m);
        return -1;
    }
    ANeuralNetworksCompilation *c = compile(m, &rc);
    size_t bytes = (size_t)n * elem;
    int fd = rc == 0 ? memfd_of(bytes) : -1;
    ANeuralNetworksMemory *mem = NULL;
    ANeuralNetworksExecution *e = NULL;
    if (fd >= 0 && ANeuralNetworksMemory_createFromFd(bytes, PROT_READ, fd, 0, &mem) == 0 &&
        ANeuralNetworksExecution_create(c, &e) == 0 &&
        ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, mem, 0, bytes) == 0) {
        int32_t results[4][8];
        rc = 0;
        for (uint32_t i = 0; i < n_out; i++) {
            size_t elem_out = out_types[i].type == ANEURALNETWORKS_TENSOR_INT32 ? 4 : 1;
            size_t count = 1;
            for (uint32_t d = 0; d < out_types[i].dimensionCount; d++)
                count *= out_types[i].dimensions[d];
            rc |= ANeuralNetworksExecution_setOutput(e, (int32_t)i, NULL, results[i],
                                                     count * elem_out);
        }
        if (rc == 0)
            rc = ANeuralNetworksExecution_compute(e);
    } else {
        rc = -1;
    }
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksMemory_free(mem);
    if (fd >= 0)
        close(fd);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    return rc;
}

static void test_index_overflow(void)
{
    const uint32_t n = (uint32_t)INT32_MAX + 2; /* the last index is 2^31 */
    static const uint32_t one_dim[1] = {1}, k_dims[2] = {1, 1};
    ANeuralNetworksOperandType arg_out[1] = {{ANEURALNETWORKS_TENSOR_INT32, 1, one_dim, 0, 0}};
    ANeuralNetworksOperandType topk_out[2] = {
            {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, k_dims, 1.0f, 0},
            {ANEURALNETWORKS_TENSOR_INT32, 2, k_dims, 0, 0}};
    CHECK_RC(run_huge(ANEURALNETWORKS_ARGMAX, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, n, 1, 1,
                      arg_out),
             ANEURALNETWORKS_OP_FAILED);
    CHECK_RC(run_huge(ANEURALNETWORKS_ARGMIN, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, n, 1, 1,
                      arg_out),
             ANEURALNETWORKS_OP_FAILED);
    CHECK_RC(run_huge(ANEURALNETWORKS_TOPK_V2, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, n, 1, 2,
                      topk_out),
             ANEURALNETWORKS_OP_FAILED);
    /* the same models over a small input give the right index */
    static const uint32_t small_dims[2] = {1, 5};
    ANeuralNetworksOperandType small_in = {ANEURALNETWORKS_TENSOR_FLOAT32, 2, small_dims, 0, 0};
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    static const int32_t axis = 1;
    ANeuralNetworksModel_addOperand(m, &small_in);
    ANeuralNetworksModel_addOperand(m, &i32);
    ANeuralNetworksModel_setOperandValue(m, 1, &axis, sizeof axis);
    ANeuralNetworksModel_addOperand(m, &arg_out[0]);
    uint32_t ins[2] = {0, 1}, out = 2, input = 0;
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ARGMAX, 2, ins, 1, &out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &input, 1, &out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    int rc;
    ANeuralNetworksCompilation *c = compile(m, &rc);
    const float x[5] = {1, 7, 3, 9, 2};
    int32_t idx = -1;
    ANeuralNetworksExecution *e = NULL;
    CHECK_OK(ANeuralNetworksExecution_create(c, &e));
    CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, x, sizeof x));
    CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, &idx, sizeof idx));
    CHECK_OK(ANeuralNetworksExecution_compute(e));
    CHECK_EQ_INT(idx, 3);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* DETECTION_POSTPROCESSING numbers the candidates (anchors x classes) of a
 * batch; 65536 x 65537 of them cannot be numbered in 32 bits. The 17 GiB of
 * scores come from a sparse memfd and are never read. */
static void test_detection_overflow(void)
{
    const uint32_t anchors = 65536, classes = 65537;
    uint32_t s_dims[3] = {1, anchors, classes}, d_dims[3] = {1, anchors, 4};
    uint32_t a_dims[2] = {anchors, 4}, o1[2] = {1, 1}, o2[3] = {1, 1, 4};
    ANeuralNetworksOperandType types[18] = {
            {ANEURALNETWORKS_TENSOR_FLOAT32, 3, s_dims, 0, 0},
            {ANEURALNETWORKS_TENSOR_FLOAT32, 3, d_dims, 0, 0},
            {ANEURALNETWORKS_TENSOR_FLOAT32, 2, a_dims, 0, 0},
            {ANEURALNETWORKS_FLOAT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_FLOAT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_FLOAT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_FLOAT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_BOOL, 0, NULL, 0, 0},
            {ANEURALNETWORKS_INT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_INT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_INT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_FLOAT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_FLOAT32, 0, NULL, 0, 0},
            {ANEURALNETWORKS_BOOL, 0, NULL, 0, 0},
            {ANEURALNETWORKS_TENSOR_FLOAT32, 2, o1, 0, 0},
            {ANEURALNETWORKS_TENSOR_FLOAT32, 3, o2, 0, 0},
            {ANEURALNETWORKS_TENSOR_INT32, 2, o1, 0, 0},
            {ANEURALNETWORKS_TENSOR_INT32, 1, dim1, 0, 0},
    };
    ANeuralNetworksModel *m = NULL;
    int rc = ANeuralNetworksModel_create(&m);
    for (int i = 0; i < 18; i++)
        rc |= ANeuralNetworksModel_addOperand(m, &types[i]);
    static const float ten = 10.0f, five = 5.0f, thr = 0.0f, iou = 0.5f;
    static const uint8_t no = 0, yes = 1;
    static const int32_t one = 1;
    rc |= ANeuralNetworksModel_setOperandValue(m, 3, &ten, sizeof ten);
    rc |= ANeuralNetworksModel_setOperandValue(m, 4, &ten, sizeof ten);
    rc |= ANeuralNetworksModel_setOperandValue(m, 5, &five, sizeof five);
    rc |= ANeuralNetworksModel_setOperandValue(m, 6, &five, sizeof five);
    rc |= ANeuralNetworksModel_setOperandValue(m, 7, &no, sizeof no);
    rc |= ANeuralNetworksModel_setOperandValue(m, 8, &one, sizeof one);
    rc |= ANeuralNetworksModel_setOperandValue(m, 9, &one, sizeof one);
    rc |= ANeuralNetworksModel_setOperandValue(m, 10, &one, sizeof one);
    rc |= ANeuralNetworksModel_setOperandValue(m, 11, &thr, sizeof thr);
    rc |= ANeuralNetworksModel_setOperandValue(m, 12, &iou, sizeof iou);
    rc |= ANeuralNetworksModel_setOperandValue(m, 13, &yes, sizeof yes);
    uint32_t ins[14], outs[4] = {14, 15, 16, 17}, model_in[3] = {0, 1, 2};
    for (uint32_t i = 0; i < 14; i++)
        ins[i] = i;
    rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_DETECTION_POSTPROCESSING, 14, ins,
                                            4, outs);
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 3, model_in, 4, outs);
    rc |= ANeuralNetworksModel_finish(m);
    CHECK_OK(rc);
    ANeuralNetworksCompilation *c = compile(m, &rc);
    CHECK_OK(rc);
    size_t s_bytes = (size_t)anchors * classes * sizeof(float);
    size_t small = (size_t)anchors * 4 * sizeof(float);
    int fd = memfd_of(s_bytes);
    float *deltas = calloc(anchors * 4, sizeof *deltas), *anc = calloc(anchors * 4, sizeof *anc);
    float out_scores[1], out_boxes[4];
    int32_t out_classes[1], out_count[1];
    ANeuralNetworksMemory *mem = NULL;
    ANeuralNetworksExecution *e = NULL;
    CHECK(fd >= 0 && deltas != NULL && anc != NULL);
    if (fd >= 0 && deltas && anc &&
        ANeuralNetworksMemory_createFromFd(s_bytes, PROT_READ, fd, 0, &mem) == 0 &&
        ANeuralNetworksExecution_create(c, &e) == 0) {
        rc = ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, mem, 0, s_bytes);
        rc |= ANeuralNetworksExecution_setInput(e, 1, NULL, deltas, small);
        rc |= ANeuralNetworksExecution_setInput(e, 2, NULL, anc, small);
        rc |= ANeuralNetworksExecution_setOutput(e, 0, NULL, out_scores, sizeof out_scores);
        rc |= ANeuralNetworksExecution_setOutput(e, 1, NULL, out_boxes, sizeof out_boxes);
        rc |= ANeuralNetworksExecution_setOutput(e, 2, NULL, out_classes, sizeof out_classes);
        rc |= ANeuralNetworksExecution_setOutput(e, 3, NULL, out_count, sizeof out_count);
        CHECK_OK(rc);
        CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OP_FAILED);
    } else {
        CHECK(false);
    }
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksMemory_free(mem);
    if (fd >= 0)
        close(fd);
    free(deltas);
    free(anc);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* ---- 7. fork() after the thread pool started ---- */

#define BIG 1048576 /* elements: enough for the kernels to go parallel */

/* out = a + b over BIG floats; returns 0 when every element is right. */
static int big_add(bool async)
{
    static float a[BIG], b[BIG], y[BIG];
    for (uint32_t i = 0; i < BIG; i++) {
        a[i] = (float)i;
        b[i] = 0.5f;
    }
    uint32_t dims[1] = {BIG};
    ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
    ANeuralNetworksModel *m = NULL;
    ANeuralNetworksModel_create(&m);
    static const int32_t none = 0;
    int rc = ANeuralNetworksModel_addOperand(m, &t);
    rc |= ANeuralNetworksModel_addOperand(m, &t);
    rc |= ANeuralNetworksModel_addOperand(m, &i32);
    rc |= ANeuralNetworksModel_addOperand(m, &t);
    rc |= ANeuralNetworksModel_setOperandValue(m, 2, &none, sizeof none);
    uint32_t ins[3] = {0, 1, 2}, out = 3, inputs[2] = {0, 1};
    rc |= ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, ins, 1, &out);
    rc |= ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, inputs, 1, &out);
    rc |= ANeuralNetworksModel_finish(m);
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksExecution *e = NULL;
    rc |= ANeuralNetworksCompilation_create(m, &c);
    rc |= ANeuralNetworksCompilation_finish(c);
    rc |= ANeuralNetworksExecution_create(c, &e);
    rc |= ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof a);
    rc |= ANeuralNetworksExecution_setInput(e, 1, NULL, b, sizeof b);
    rc |= ANeuralNetworksExecution_setOutput(e, 0, NULL, y, sizeof y);
    if (rc == 0 && async) {
        ANeuralNetworksEvent *ev = NULL;
        rc = ANeuralNetworksExecution_startCompute(e, &ev);
        if (rc == 0)
            rc = ANeuralNetworksEvent_wait(ev);
        ANeuralNetworksEvent_free(ev);
    } else if (rc == 0) {
        rc = ANeuralNetworksExecution_compute(e);
    }
    for (uint32_t i = 0; i < BIG && rc == 0; i++)
        if (y[i] != (float)i + 0.5f)
            rc = -1;
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    return rc;
}

static void test_fork_after_pool(void)
{
    CHECK_OK(big_add(false)); /* starts the kernel pool and ... */
    CHECK_OK(big_add(true));  /* ... the workers of asynchronous computations */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(60); /* a hang fails the test instead of stopping the suite */
        int rc = big_add(false);
        if (rc == 0)
            rc = big_add(true);
        if (rc == 0)
            rc = big_add(false);
        _exit(rc == 0 ? 0 : 1);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (WIFSIGNALED(status))
        fprintf(stderr, "    child killed by signal %d\n", WTERMSIG(status));
}

/* ---- 8. thousands of computations in flight ---- */

static long proc_status(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long value = -1;
    size_t len = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ':')
            value = atol(line + len + 1);
    if (f)
        fclose(f);
    return value;
}

static void test_many_in_flight(void)
{
    enum { N = 10000 };
    int rc;
    ANeuralNetworksModel *m = add_chain(1);
    ANeuralNetworksCompilation *c = compile(m, &rc);
    CHECK_OK(rc);
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    ANeuralNetworksExecution **e = calloc(N, sizeof *e);
    ANeuralNetworksEvent **ev = calloc(N, sizeof *ev);
    if (!x || !y || !e || !ev) {
        CHECK(false);
        return;
    }
    long threads_before = proc_status("Threads"), vm_before_kb = proc_status("VmSize");
    int started = 0;
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = -1.0f;
        e[i] = execution(c, &x[i], &y[i]);
        /* every other one fenced, on the previous computation */
        const ANeuralNetworksEvent *dep[1] = {i ? ev[i - 1] : NULL};
        if (e[i] == NULL)
            break;
        rc = i % 2 ? ANeuralNetworksExecution_startComputeWithDependencies(e[i], dep, 1, 0, &ev[i])
                   : ANeuralNetworksExecution_startCompute(e[i], &ev[i]);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            break;
        started++;
    }
    long threads_peak = proc_status("Threads");
    long vm_kb = proc_status("VmSize"), rss_kb = proc_status("VmRSS");
    CHECK_EQ_INT(started, N);
    int wrong = 0;
    for (int i = 0; i < started; i++) {
        if (ANeuralNetworksEvent_wait(ev[i]) != ANEURALNETWORKS_NO_ERROR || y[i] != x[i] + 1.0f)
            wrong++;
    }
    CHECK_EQ_INT(wrong, 0);
    long threads_after = proc_status("Threads");
    printf("  %d computations in flight: threads %ld before, %ld with all started, %ld after; "
           "VmSize %ld MiB (+%ld MiB), VmRSS %ld MiB with all started\n",
           started, threads_before, threads_peak, threads_after, vm_kb / 1024,
           (vm_kb - vm_before_kb) / 1024, rss_kb / 1024);
    /* no stack per computation: the address space grows by far less than
     * one 8 MiB stack per hundred computations */
    CHECK(vm_kb - vm_before_kb < 1024 * 1024);
    /* main, 3 kernel workers (NNAPI_LINUX_THREADS=4) and at most 8
     * asynchronous workers, whatever the number in flight */
    CHECK(threads_peak <= 12);
    for (int i = 0; i < N; i++) {
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

/* Priorities order computations waiting for a worker: with every worker
 * busy and more blockers queued, a high-priority computation started after a
 * low-priority one is taken first, ahead of the queued blockers, while the
 * low one waits for all of them. The blockers are endless loops cut by a
 * loop timeout, so the margin is several timeouts, not a race. */
static ANeuralNetworksCompilation *compile_with_priority(ANeuralNetworksModel *m, int32_t priority)
{
    ANeuralNetworksCompilation *c = NULL;
    const ANeuralNetworksDevice *d = cpu();
    if (ANeuralNetworksCompilation_createForDevices(m, &d, 1, &c) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    if (ANeuralNetworksCompilation_setPriority(c, priority) != ANEURALNETWORKS_NO_ERROR ||
        ANeuralNetworksCompilation_finish(c) != ANEURALNETWORKS_NO_ERROR) {
        ANeuralNetworksCompilation_free(c);
        return NULL;
    }
    return c;
}

static void test_priority_order(void)
{
    enum { BLOCKERS = 24 }; /* three rounds of the largest worker set (8) */
    const uint64_t loop_timeout_ns = 150ull * 1000 * 1000;
    /* x + 1 stops growing at 2^24, far below the bound. */
    ANeuralNetworksModel *cond = less_than(1e30f), *step = add_chain(1);
    ANeuralNetworksModel *loop = cond && step ? while_level(cond, step) : NULL;
    ANeuralNetworksCompilation *cb = NULL, *clow = NULL, *chigh = NULL;
    if (loop) {
        cb = compile_with_priority(loop, ANEURALNETWORKS_PRIORITY_MEDIUM);
        clow = compile_with_priority(step, ANEURALNETWORKS_PRIORITY_LOW);
        chigh = compile_with_priority(step, ANEURALNETWORKS_PRIORITY_HIGH);
    }
    CHECK(cb != NULL && clow != NULL && chigh != NULL);
    if (!cb || !clow || !chigh)
        goto out;
    ANeuralNetworksExecution *eb[BLOCKERS] = {0}, *el = NULL, *eh = NULL;
    ANeuralNetworksEvent *evb[BLOCKERS] = {0}, *evl = NULL, *evh = NULL;
    float xb[BLOCKERS] = {0}, yb[BLOCKERS], xl = 1.0f, yl = 0.0f, xh = 2.0f, yh = 0.0f;
    int started = 0;
    for (int i = 0; i < BLOCKERS; i++) {
        eb[i] = execution(cb, &xb[i], &yb[i]);
        if (!eb[i] || ANeuralNetworksExecution_setLoopTimeout(eb[i], loop_timeout_ns) != 0 ||
            ANeuralNetworksExecution_startCompute(eb[i], &evb[i]) != 0)
            break;
        started++;
    }
    CHECK_EQ_INT(started, BLOCKERS);
    el = execution(clow, &xl, &yl);
    eh = execution(chigh, &xh, &yh);
    CHECK(el != NULL && eh != NULL);
    if (el && eh) {
        CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(el, NULL, 0, 0, &evl));
        CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(eh, NULL, 0, 0, &evh));
    }
    if (evl && evh) {
        int low_fd = -1;
        CHECK_OK(ANeuralNetworksEvent_getSyncFenceFd(evl, &low_fd));
        CHECK_OK(ANeuralNetworksEvent_wait(evh));
        CHECK(yh == 3.0f);
        /* the low one still waits behind the queued blockers */
        struct pollfd p = {.fd = low_fd, .events = POLLIN};
        CHECK(low_fd >= 0 && poll(&p, 1, 0) == 0);
        CHECK_OK(ANeuralNetworksEvent_wait(evl));
        CHECK(yl == 2.0f);
        if (low_fd >= 0)
            close(low_fd);
    }
    for (int i = 0; i < started; i++)
        CHECK(ANeuralNetworksEvent_wait(evb[i]) == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
              ANeuralNetworksEvent_wait(evb[i]) == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT);
    for (int i = 0; i < BLOCKERS; i++) {
        ANeuralNetworksEvent_free(evb[i]);
        ANeuralNetworksExecution_free(eb[i]);
    }
    ANeuralNetworksEvent_free(evl);
    ANeuralNetworksEvent_free(evh);
    ANeuralNetworksExecution_free(el);
    ANeuralNetworksExecution_free(eh);
out:
    ANeuralNetworksCompilation_free(cb);
    ANeuralNetworksCompilation_free(clow);
    ANeuralNetworksCompilation_free(chigh);
    ANeuralNetworksModel_free(loop);
    ANeuralNetworksModel_free(step);
    ANeuralNetworksModel_free(cond);
}

/* Dependencies order computations: a chain of fenced computations, each
 * adding one to the previous one's result, freed as soon as handed over. */
static void test_dependency_chain(void)
{
    enum { N = 200 };
    int rc;
    ANeuralNetworksModel *m = add_chain(1);
    ANeuralNetworksCompilation *c = compile(m, &rc);
    CHECK_OK(rc);
    static float v[N + 1];
    v[0] = 0.0f;
    ANeuralNetworksExecution *e[N];
    ANeuralNetworksEvent *prev = NULL;
    int failures = 0;
    for (int i = 0; i < N; i++) {
        e[i] = execution(c, &v[i], &v[i + 1]);
        const ANeuralNetworksEvent *dep[1] = {prev};
        ANeuralNetworksEvent *ev = NULL;
        if (e[i] == NULL ||
            ANeuralNetworksExecution_startComputeWithDependencies(e[i], dep, prev ? 1 : 0, 0,
                                                                  &ev) != 0)
            failures++;
        /* the next computation holds what it needs of prev */
        if (prev)
            ANeuralNetworksEvent_free(prev);
        prev = ev;
    }
    CHECK_EQ_INT(failures, 0);
    CHECK_OK(ANeuralNetworksEvent_wait(prev));
    ANeuralNetworksEvent_free(prev);
    CHECK(v[N] == (float)N);
    for (int i = 0; i < N; i++)
        ANeuralNetworksExecution_free(e[i]);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* ---- extra: a start refused for want of a thread changes nothing ---- */

static void test_thread_refused(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* The child has no worker (fork) and may create no thread: as
         * root, only a user other than root is held to RLIMIT_NPROC. */
        if (getuid() == 0 && setuid(65534) != 0)
            _exit(3);
        struct rlimit old, lim;
        getrlimit(RLIMIT_NPROC, &old);
        lim = old;
        lim.rlim_cur = 0;
        if (setrlimit(RLIMIT_NPROC, &lim) != 0)
            _exit(4);
        int code = 0;
        int rc;
        ANeuralNetworksModel *m = add_chain(3);
        ANeuralNetworksCompilation *c = compile(m, &rc);
        float x = 1.0f, y = 0.0f;
        ANeuralNetworksExecution *e = execution(c, &x, &y);
        ANeuralNetworksEvent *ev = NULL;
        if (rc != 0 || e == NULL)
            code = 5;
        else if (ANeuralNetworksExecution_startCompute(e, &ev) != ANEURALNETWORKS_OUT_OF_MEMORY ||
                 ev != NULL)
            code = 6;
        else if (ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, &ev) !=
                 ANEURALNETWORKS_OUT_OF_MEMORY)
            code = 7;
        /* threads allowed again: the same execution starts as if new */
        else if (setrlimit(RLIMIT_NPROC, &old) != 0)
            code = 8;
        else if (ANeuralNetworksExecution_startCompute(e, &ev) != ANEURALNETWORKS_NO_ERROR ||
                 ANeuralNetworksEvent_wait(ev) != ANEURALNETWORKS_NO_ERROR || y != 4.0f)
            code = 9;
        ANeuralNetworksEvent_free(ev);
        ANeuralNetworksExecution_free(e);
        ANeuralNetworksCompilation_free(c);
        ANeuralNetworksModel_free(m);
        _exit(code);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK_EQ_INT(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

/* Arguments, if any, select tests by name. */
int main(int argc, char **argv)
{
    /* Several kernel threads even on a small machine, before any use. */
    setenv("NNAPI_LINUX_THREADS", "4", 1);
    static const struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
            {"dependency_freed_early", test_dependency_freed_early},
            {"dependency_chain", test_dependency_chain},
            {"deep_if", test_deep_if},
            {"very_deep_if_finish", test_very_deep_if_finish},
            {"deep_while", test_deep_while},
            {"huge_timeouts", test_huge_timeouts},
            {"fd_memories", test_fd_memories},
            {"index_overflow", test_index_overflow},
            {"detection_overflow", test_detection_overflow},
            {"fork_after_pool", test_fork_after_pool},
            {"many_in_flight", test_many_in_flight},
            {"priority_order", test_priority_order},
            {"thread_refused", test_thread_refused},
    };
    /* Arguments NAME run only those tests; -NAME runs all but those. */
    bool only = false;
    for (int a = 1; a < argc; a++)
        only = only || argv[a][0] != '-';
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        bool selected = !only, excluded = false;
        for (int a = 1; a < argc; a++) {
            selected = selected || strcmp(argv[a], tests[i].name) == 0;
            excluded = excluded || (argv[a][0] == '-' && strcmp(argv[a] + 1, tests[i].name) == 0);
        }
        if (excluded)
            printf("[%s] not run: excluded on the command line\n", tests[i].name);
        if (!selected || excluded)
            continue;
        int before = nt_failed;
        tests[i].run();
        printf("[%s] %s\n", tests[i].name, nt_failed == before ? "ok" : "FAILED");
        fflush(stdout);
    }
    return nt_summary();
}
