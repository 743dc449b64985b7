/*
 * SL drivers through the public API: loading (and refusing broken drivers),
 * partitioning over the test driver and the CPU, createForDevices, CPU
 * fallback, and our CPU device loaded back as an SL driver. Devices are
 * loaded once per process, so each scenario is one run:
 *   test_sl broken | dir | cpu_sl | partition | fail_execute | fail_compile
 * The scenario sets the environment itself before its first API call.
 */
#include <android/NeuralNetworks.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sl/sl_driver.h"
#include "test_util.h"

#define NPU_NAME "nnapi_linux-test-npu"
#define CPU_NAME "nnapi_linux-cpu"

/* ---- stderr capture, for the VLOG lines ---- */

static FILE *captured;
static int saved_stderr = -1;

static void capture_stderr(void)
{
    fflush(stderr);
    captured = tmpfile();
    saved_stderr = dup(2);
    dup2(fileno(captured), 2);
}

/* The captured text (malloc'd), echoed to stdout for whoever reads the log. */
static char *release_stderr(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    long n = ftell(captured);
    char *text = calloc(1, (size_t)n + 1);
    rewind(captured);
    if (text && fread(text, 1, (size_t)n, captured) != (size_t)n)
        text[0] = '\0';
    fclose(captured);
    printf("--- VLOG ---\n%s--- end ---\n", text ? text : "");
    return text;
}

static int count_lines_with(const char *text, const char *a, const char *b)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        n += strstr(buf, a) != NULL && (b == NULL || strstr(buf, b) != NULL);
        line = end ? end + 1 : NULL;
    }
    return n;
}

/* ---- devices ---- */

static ANeuralNetworksDevice *device_named(const char *name, int nth)
{
    uint32_t n = 0;
    ANeuralNetworks_getDeviceCount(&n);
    for (uint32_t i = 0; i < n; i++) {
        ANeuralNetworksDevice *d = NULL;
        const char *got = NULL;
        ANeuralNetworks_getDevice(i, &d);
        ANeuralNetworksDevice_getName(d, &got);
        if (got && strcmp(got, name) == 0 && nth-- == 0)
            return d;
    }
    return NULL;
}

static uint32_t device_count(void)
{
    uint32_t n = 0;
    CHECK_RC(ANeuralNetworks_getDeviceCount(&n), ANEURALNETWORKS_NO_ERROR);
    return n;
}

static const char *device_name(uint32_t i)
{
    ANeuralNetworksDevice *d = NULL;
    const char *name = "";
    if (ANeuralNetworks_getDevice(i, &d) == ANEURALNETWORKS_NO_ERROR)
        ANeuralNetworksDevice_getName(d, &name);
    return name;
}

/* ---- the model: out = (a + b) * b + a over float32[4] ----
 * The intermediates are declared with unknown dimensions, so their shapes
 * are dynamic across the partition; so is the output's. */

#define N 4
static const float in_a[N] = {1, 2, 3, 4};
static const float in_b[N] = {0.5f, -1, 2, 10};

static void expected(float *out)
{
    for (int i = 0; i < N; i++)
        out[i] = (in_a[i] + in_b[i]) * in_b[i] + in_a[i];
}

static ANeuralNetworksModel *build_model(void)
{
    ANeuralNetworksModel *m = NULL;
    uint32_t dims[1] = {N}, unknown[1] = {0};
    ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
    ANeuralNetworksOperandType dynamic = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, unknown, 0, 0};
    ANeuralNetworksOperandType scalar = {ANEURALNETWORKS_INT32, 0, NULL, 0, 0};
    int32_t none = ANEURALNETWORKS_FUSED_NONE;
    CHECK_RC(ANeuralNetworksModel_create(&m), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksModel_addOperand(m, &tensor);  /* 0 a */
    ANeuralNetworksModel_addOperand(m, &tensor);  /* 1 b */
    ANeuralNetworksModel_addOperand(m, &scalar);  /* 2 activation */
    ANeuralNetworksModel_addOperand(m, &dynamic); /* 3 a + b */
    ANeuralNetworksModel_addOperand(m, &dynamic); /* 4 (a + b) * b */
    ANeuralNetworksModel_addOperand(m, &dynamic); /* 5 out */
    ANeuralNetworksModel_setOperandValue(m, 2, &none, sizeof none);
    uint32_t add1[] = {0, 1, 2}, mul[] = {3, 1, 2}, add2[] = {4, 0, 2};
    uint32_t o3 = 3, o4 = 4, o5 = 5, ins[] = {0, 1};
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add1, 1, &o3);
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_MUL, 3, mul, 1, &o4);
    ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add2, 1, &o5);
    ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, ins, 1, &o5);
    CHECK_RC(ANeuralNetworksModel_finish(m), ANEURALNETWORKS_NO_ERROR);
    return m;
}

static ANeuralNetworksCompilation *compile_on(ANeuralNetworksModel *m,
                                              const ANeuralNetworksDevice *const *devs,
                                              uint32_t n, int expect)
{
    ANeuralNetworksCompilation *c = NULL;
    int rc = devs ? ANeuralNetworksCompilation_createForDevices(m, devs, n, &c)
                  : ANeuralNetworksCompilation_create(m, &c);
    CHECK_RC(rc, ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_finish(c), expect);
    if (expect == ANEURALNETWORKS_NO_ERROR)
        return c;
    ANeuralNetworksExecution *e = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksCompilation_free(c);
    return NULL;
}

enum run_kind { RUN_COMPUTE, RUN_BURST, RUN_ASYNC, RUN_FENCED, RUN_MEMORY };

/* One computation; checks the values when it succeeds. */
static int run(ANeuralNetworksCompilation *c, enum run_kind kind, uint64_t timeout_ns)
{
    ANeuralNetworksExecution *e = NULL;
    float out[N] = {0}, want[N];
    expected(want);
    int rc = ANeuralNetworksExecution_create(c, &e);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    ANeuralNetworksMemory *mem = NULL;
    float *mapped = NULL;
    int fd = -1;
    if (kind == RUN_MEMORY) {
        /* a and b in, out at the end: one shared memory. */
        size_t size = 3 * sizeof out;
        fd = memfd_create("test_sl", 0);
        CHECK(fd >= 0 && ftruncate(fd, (off_t)size) == 0);
        CHECK_RC(ANeuralNetworksMemory_createFromFd(size, PROT_READ | PROT_WRITE, fd, 0, &mem),
                 ANEURALNETWORKS_NO_ERROR);
        mapped = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        memcpy(mapped, in_a, sizeof in_a);
        memcpy(mapped + N, in_b, sizeof in_b);
        ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, mem, 0, sizeof in_a);
        ANeuralNetworksExecution_setInputFromMemory(e, 1, NULL, mem, sizeof in_a, sizeof in_b);
        uint32_t dims[1] = {N};
        ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
        CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, &t, mem, 2 * sizeof out,
                                                              sizeof out),
                 ANEURALNETWORKS_NO_ERROR);
    } else {
        ANeuralNetworksExecution_setInput(e, 0, NULL, in_a, sizeof in_a);
        ANeuralNetworksExecution_setInput(e, 1, NULL, in_b, sizeof in_b);
        uint32_t dims[1] = {N};
        ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
        /* Fenced outputs must be fully specified; the others stay dynamic. */
        CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, kind == RUN_FENCED ? &t : NULL, out,
                                                    sizeof out),
                 ANEURALNETWORKS_NO_ERROR);
    }
    if (timeout_ns)
        CHECK_RC(ANeuralNetworksExecution_setTimeout(e, timeout_ns), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksEvent *ev = NULL;
    ANeuralNetworksBurst *burst = NULL;
    switch (kind) {
    case RUN_BURST:
        CHECK_RC(ANeuralNetworksBurst_create(c, &burst), ANEURALNETWORKS_NO_ERROR);
        rc = ANeuralNetworksExecution_burstCompute(e, burst);
        ANeuralNetworksBurst_free(burst);
        break;
    case RUN_ASYNC:
        rc = ANeuralNetworksExecution_startCompute(e, &ev);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksEvent_wait(ev);
        ANeuralNetworksEvent_free(ev);
        break;
    case RUN_FENCED:
        rc = ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, &ev);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = ANeuralNetworksEvent_wait(ev);
        ANeuralNetworksEvent_free(ev);
        break;
    default:
        rc = ANeuralNetworksExecution_compute(e);
        break;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        if (kind == RUN_MEMORY)
            memcpy(out, mapped + 2 * N, sizeof out);
        CHECK(memcmp(out, want, sizeof out) == 0);
        uint32_t rank = 0, dim = 0;
        CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank),
                 ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, &dim),
                 ANEURALNETWORKS_NO_ERROR);
        CHECK(rank == 1 && dim == N);
    }
    ANeuralNetworksExecution_free(e);
    if (mem) {
        munmap(mapped, 3 * sizeof out);
        ANeuralNetworksMemory_free(mem);
        close(fd);
    }
    return rc;
}

/* An output into a memory from a descriptor whose role is the partitioned
 * compilation's output: the values arrive (read back through a copy). */
static void check_desc_memory(ANeuralNetworksCompilation *c)
{
    ANeuralNetworksMemoryDesc *desc = NULL;
    ANeuralNetworksMemory *mem = NULL, *host = NULL;
    CHECK_RC(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, c, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
    uint32_t dims[1] = {N};
    CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, dims), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemory_createFromDesc(desc, &mem), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution *e = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_setInput(e, 0, NULL, in_a, sizeof in_a);
    ANeuralNetworksExecution_setInput(e, 1, NULL, in_b, sizeof in_b);
    CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, mem, 0, 0),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_free(e);
    int fd = memfd_create("test_sl_desc", 0);
    float want[N], *mapped = MAP_FAILED;
    expected(want);
    CHECK(fd >= 0 && ftruncate(fd, sizeof want) == 0);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(sizeof want, PROT_READ | PROT_WRITE, fd, 0, &host),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemory_copy(mem, host), ANEURALNETWORKS_NO_ERROR);
    mapped = mmap(NULL, sizeof want, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(mapped != MAP_FAILED && memcmp(mapped, want, sizeof want) == 0);
    if (mapped != MAP_FAILED)
        munmap(mapped, sizeof want);
    ANeuralNetworksMemory_free(host);
    ANeuralNetworksMemory_free(mem);
    ANeuralNetworksMemoryDesc_free(desc);
    close(fd);
}

/* A dynamic output given too little room reports its shape. */
static void check_insufficient(ANeuralNetworksCompilation *c)
{
    ANeuralNetworksExecution *e = NULL;
    float small[N - 1];
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_setInput(e, 0, NULL, in_a, sizeof in_a);
    ANeuralNetworksExecution_setInput(e, 1, NULL, in_b, sizeof in_b);
    ANeuralNetworksExecution_setOutput(e, 0, NULL, small, sizeof small);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    uint32_t dim = 0;
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, &dim),
             ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    CHECK(dim == N);
    ANeuralNetworksExecution_free(e);
}

/* Computations from several threads at once; the test's counters are not
 * thread-safe, so each thread reports how many of its runs were right. */
static void *compute_many(void *arg)
{
    intptr_t right = 0;
    float want[N];
    expected(want);
    for (int i = 0; i < 20; i++) {
        ANeuralNetworksExecution *e = NULL;
        float out[N] = {0};
        if (ANeuralNetworksExecution_create(arg, &e) != ANEURALNETWORKS_NO_ERROR)
            continue;
        ANeuralNetworksExecution_setInput(e, 0, NULL, in_a, sizeof in_a);
        ANeuralNetworksExecution_setInput(e, 1, NULL, in_b, sizeof in_b);
        ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof out);
        right += ANeuralNetworksExecution_compute(e) == ANEURALNETWORKS_NO_ERROR &&
                 memcmp(out, want, sizeof out) == 0;
        ANeuralNetworksExecution_free(e);
    }
    return (void *)right;
}

/* ---- scenarios ---- */

static void scenario_broken(void)
{
    static const char *const broken[] = {NN_BROKEN_NULL, NN_BROKEN_LEVEL, NN_BROKEN_MISSING,
                                         NN_BROKEN_NOSYMBOL, "/nonexistent/libnodriver.so"};
    char paths[4096];
    snprintf(paths, sizeof paths, "%s:%s:%s:%s:%s:%s", broken[0], broken[1], broken[2],
             broken[3], broken[4], NN_TEST_DRIVER);
    setenv("NNAPI_LINUX_DRIVERS", paths, 1);
    setenv("NNAPI_LINUX_DRIVERS_DIR", "/nonexistent-drivers.d", 1);
    setenv("NNAPI_LINUX_VLOG", "1", 1);
    capture_stderr();
    uint32_t n = device_count();
    char *log = release_stderr();
    CHECK(n == 2);
    CHECK(strcmp(device_name(0), NPU_NAME) == 0);
    CHECK(strcmp(device_name(n - 1), CPU_NAME) == 0);
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++)
        CHECK(count_lines_with(log, broken[i], "skipped") == 1);
    CHECK(count_lines_with(log, NN_BROKEN_NULL, "returned NULL") == 1);
    CHECK(count_lines_with(log, NN_BROKEN_LEVEL, "implFeatureLevel 29 is unknown or below") == 1);
    CHECK(count_lines_with(log, NN_BROKEN_MISSING, "lacks ANeuralNetworks_getDeviceCount") == 1);
    CHECK(count_lines_with(log, NN_BROKEN_NOSYMBOL, "ANeuralNetworks_getSLDriverImpl") == 1);
    free(log);
    int32_t type = -1;
    CHECK_RC(ANeuralNetworksDevice_getType(device_named(NPU_NAME, 0), &type),
             ANEURALNETWORKS_NO_ERROR);
    CHECK(type == ANEURALNETWORKS_DEVICE_ACCELERATOR);
    ANeuralNetworksModel *m = build_model();
    ANeuralNetworksCompilation *c = compile_on(m, NULL, 0, ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(run(c, RUN_COMPUTE, 0), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

static void scenario_dir(void)
{
    char dir[] = "/tmp/test_sl_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/10-npu.conf", dir);
    CHECK((f = fopen(path, "w")) != NULL);
    fprintf(f, "# the test accelerator\n\n  %s  \n", NN_TEST_DRIVER);
    fclose(f);
    snprintf(path, sizeof path, "%s/20-cpu.conf", dir);
    CHECK((f = fopen(path, "w")) != NULL);
    fprintf(f, "%s\n", NN_CPU_SL);
    fclose(f);
    snprintf(path, sizeof path, "%s/30-ignored.txt", dir);
    CHECK((f = fopen(path, "w")) != NULL);
    fprintf(f, "/nonexistent/ignored.so\n");
    fclose(f);
    /* Named twice: loaded once. */
    setenv("NNAPI_LINUX_DRIVERS", NN_TEST_DRIVER, 1);
    setenv("NNAPI_LINUX_DRIVERS_DIR", dir, 1);
    setenv("NNAPI_LINUX_VLOG", "1", 1);
    capture_stderr();
    uint32_t n = device_count();
    char *log = release_stderr();
    CHECK(n == 3);
    CHECK(strcmp(device_name(0), NPU_NAME) == 0);
    /* The SL build, renamed so that names stay unique, then ours. */
    CHECK(strcmp(device_name(1), CPU_NAME "#2") == 0);
    CHECK(strcmp(device_name(2), CPU_NAME) == 0);
    CHECK(count_lines_with(log, NN_TEST_DRIVER, "already loaded") == 1);
    CHECK(count_lines_with(log, "ignored", NULL) == 0);
    free(log);
    const char *files[] = {"10-npu.conf", "20-cpu.conf", "30-ignored.txt"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void scenario_cpu_sl(void)
{
    setenv("NNAPI_LINUX_DRIVERS", NN_CPU_SL, 1);
    setenv("NNAPI_LINUX_DRIVERS_DIR", "/nonexistent-drivers.d", 1);
    CHECK(device_count() == 2);
    ANeuralNetworksDevice *loaded = device_named(CPU_NAME "#2", 0), *ours = device_named(CPU_NAME, 0);
    CHECK(loaded != NULL && ours != NULL && loaded != ours);
    int32_t type = -1;
    ANeuralNetworksDevice_getType(loaded, &type);
    CHECK(type == ANEURALNETWORKS_DEVICE_CPU);
    int64_t level = 0;
    ANeuralNetworksDevice_getFeatureLevel(loaded, &level);
    CHECK(level == ANEURALNETWORKS_FEATURE_LEVEL_8);

    /* The library exports its entry point alone, and its calls bind to
     * itself: its own registry has one device where the process has two. */
    void *lib = dlopen(NN_CPU_SL, RTLD_NOW | RTLD_NOLOAD);
    CHECK(lib != NULL);
    CHECK(dlsym(lib, "ANeuralNetworksModel_create") == NULL);
    CHECK(dlsym(lib, "nn_device_count") == NULL);
    nn_sl_get_driver_fn get;
    void *sym = dlsym(lib, "ANeuralNetworks_getSLDriverImpl");
    memcpy(&get, &sym, sizeof get);
    CHECK(get != NULL);
    const NnApiSLDriverImplFL5 *t = get ? (const NnApiSLDriverImplFL5 *)get() : NULL;
    CHECK(t != NULL && t->base.implFeatureLevel == ANEURALNETWORKS_FEATURE_LEVEL_8);
    if (t != NULL) {
        uint32_t own = 0;
        CHECK_RC(t->ANeuralNetworks_getDeviceCount(&own), ANEURALNETWORKS_NO_ERROR);
        CHECK(own == 1);
        Dl_info info;
        void *fn;
        memcpy(&fn, &t->ANeuralNetworksModel_create, sizeof fn);
        CHECK(dladdr(fn, &info) != 0 && strstr(info.dli_fname, "libnnapi_linux_cpu_sl") != NULL);
    }
    if (lib)
        dlclose(lib);

    ANeuralNetworksModel *m = build_model();
    const ANeuralNetworksDevice *only_loaded[] = {loaded};
    ANeuralNetworksCompilation *c = compile_on(m, only_loaded, 1, ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(run(c, RUN_COMPUTE, 0), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(run(c, RUN_FENCED, 1000000000ull), ANEURALNETWORKS_NO_ERROR);
    check_insufficient(c);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

static void scenario_partition(void)
{
    setenv("NNAPI_LINUX_DRIVERS", NN_TEST_DRIVER, 1);
    setenv("NNAPI_LINUX_DRIVERS_DIR", "/nonexistent-drivers.d", 1);
    setenv("NNAPI_TEST_DRIVER_OPS", "0", 1); /* ADD only */
    setenv("NNAPI_LINUX_VLOG", "1", 1);
    CHECK(device_count() == 2);
    const ANeuralNetworksDevice *npu = device_named(NPU_NAME, 0), *cpu = device_named(CPU_NAME, 0);
    CHECK(npu != NULL && cpu != NULL);
    ANeuralNetworksModel *m = build_model();

    bool ops[3] = {false, true, false};
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(m, &npu, 1, ops),
             ANEURALNETWORKS_NO_ERROR);
    CHECK(ops[0] && !ops[1] && ops[2]);
    const ANeuralNetworksDevice *both[] = {npu, cpu};
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(m, both, 2, ops),
             ANEURALNETWORKS_NO_ERROR);
    CHECK(ops[0] && ops[1] && ops[2]);

    /* All devices: ADD, MUL, ADD over npu, cpu, npu; the partition is logged. */
    capture_stderr();
    ANeuralNetworksCompilation *c = compile_on(m, NULL, 0, ANEURALNETWORKS_NO_ERROR);
    char *log = release_stderr();
    CHECK(count_lines_with(log, "partition: 3 operations in 3 steps", NULL) == 1);
    CHECK(count_lines_with(log, "operation 0 (ADD) on " NPU_NAME, NULL) == 1);
    CHECK(count_lines_with(log, "operation 1 (MUL) on " CPU_NAME, NULL) == 1);
    CHECK(count_lines_with(log, "operation 2 (ADD) on " NPU_NAME, NULL) == 1);
    free(log);
    for (int kind = RUN_COMPUTE; kind <= RUN_MEMORY; kind++)
        CHECK_RC(run(c, kind, 0), ANEURALNETWORKS_NO_ERROR);
    check_insufficient(c);
    check_desc_memory(c);
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, compute_many, c);
    for (int i = 0; i < 4; i++) {
        void *right = NULL;
        pthread_join(threads[i], &right);
        CHECK((intptr_t)right == 20);
    }
    ANeuralNetworksCompilation_free(c);

    /* Only the accelerator: MUL has no device (Android: BAD_DATA). */
    compile_on(m, &npu, 1, ANEURALNETWORKS_BAD_DATA);
    /* Listed with the CPU, in either order; the CPU alone. */
    const ANeuralNetworksDevice *cpu_first[] = {cpu, npu};
    c = compile_on(m, cpu_first, 2, ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(run(c, RUN_COMPUTE, 0), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksCompilation_free(c);
    c = compile_on(m, &cpu, 1, ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(run(c, RUN_COMPUTE, 0), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);

    /* A model of ADDs on the accelerator alone takes timeouts. */
    ANeuralNetworksModel *adds = NULL;
    uint32_t dims[1] = {N};
    ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
    ANeuralNetworksOperandType scalar = {ANEURALNETWORKS_INT32, 0, NULL, 0, 0};
    int32_t none = ANEURALNETWORKS_FUSED_NONE;
    ANeuralNetworksModel_create(&adds);
    for (int i = 0; i < 2; i++)
        ANeuralNetworksModel_addOperand(adds, &tensor);
    ANeuralNetworksModel_addOperand(adds, &scalar);
    ANeuralNetworksModel_addOperand(adds, &tensor);
    ANeuralNetworksModel_setOperandValue(adds, 2, &none, sizeof none);
    uint32_t in3[] = {0, 1, 2}, out = 3, ins[] = {0, 1};
    ANeuralNetworksModel_addOperation(adds, ANEURALNETWORKS_ADD, 3, in3, 1, &out);
    ANeuralNetworksModel_identifyInputsAndOutputs(adds, 2, ins, 1, &out);
    CHECK_RC(ANeuralNetworksModel_finish(adds), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(adds, &npu, 1, &c),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, 10ull * 1000 * 1000 * 1000),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution *e = NULL;
    float sum[N];
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_setInput(e, 0, NULL, in_a, sizeof in_a);
    ANeuralNetworksExecution_setInput(e, 1, NULL, in_b, sizeof in_b);
    ANeuralNetworksExecution_setOutput(e, 0, NULL, sum, sizeof sum);
    CHECK_RC(ANeuralNetworksExecution_setTimeout(e, 10ull * 1000 * 1000 * 1000),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(e, true), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
    for (int i = 0; i < N; i++)
        CHECK(sum[i] == in_a[i] + in_b[i]);
    uint64_t ns = UINT64_MAX;
    CHECK_RC(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &ns),
             ANEURALNETWORKS_NO_ERROR);
    CHECK(ns != UINT64_MAX);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(adds);
}

/* The driver fails every computation (or compilation): with the CPU among
 * the devices the application sees success; without it, the failure. */
static void scenario_fail(const char *what)
{
    bool at_compile = strcmp(what, "compile") == 0;
    setenv("NNAPI_LINUX_DRIVERS", NN_TEST_DRIVER, 1);
    setenv("NNAPI_LINUX_DRIVERS_DIR", "/nonexistent-drivers.d", 1);
    setenv("NNAPI_TEST_DRIVER_FAIL", what, 1);
    setenv("NNAPI_LINUX_VLOG", "1", 1);
    CHECK(device_count() == 2);
    const ANeuralNetworksDevice *npu = device_named(NPU_NAME, 0);
    ANeuralNetworksModel *m = build_model();
    capture_stderr();
    ANeuralNetworksCompilation *c = compile_on(m, NULL, 0, ANEURALNETWORKS_NO_ERROR);
    for (int kind = RUN_COMPUTE; kind <= RUN_MEMORY; kind++)
        CHECK_RC(run(c, kind, 0), ANEURALNETWORKS_NO_ERROR);
    char *log = release_stderr();
    if (at_compile)
        CHECK(count_lines_with(log, NPU_NAME " failed to compile it", "runs on the CPU") == 1);
    else
        CHECK(count_lines_with(log, "failed on " NPU_NAME, "runs on the CPU") == 5);
    free(log);
    ANeuralNetworksCompilation_free(c);
    if (at_compile) {
        compile_on(m, &npu, 1, ANEURALNETWORKS_OP_FAILED);
    } else {
        c = compile_on(m, &npu, 1, ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(run(c, RUN_COMPUTE, 0), ANEURALNETWORKS_OP_FAILED);
        ANeuralNetworksCompilation_free(c);
    }
    ANeuralNetworksModel_free(m);
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "";
    if (strcmp(s, "broken") == 0)
        scenario_broken();
    else if (strcmp(s, "dir") == 0)
        scenario_dir();
    else if (strcmp(s, "cpu_sl") == 0)
        scenario_cpu_sl();
    else if (strcmp(s, "partition") == 0)
        scenario_partition();
    else if (strcmp(s, "fail_execute") == 0)
        scenario_fail("execute");
    else if (strcmp(s, "fail_compile") == 0)
        scenario_fail("compile");
    else {
        fprintf(stderr, "usage: test_sl broken|dir|cpu_sl|partition|fail_execute|fail_compile\n");
        return 2;
    }
    return nt_summary();
}
