/*
 * Allocation-failure injection. This program replaces malloc and friends
 * (glibc routes every allocation of the process, the library's included,
 * through them) so that the N-th allocation fails. For every N along a full
 * build -> compile -> execute -> free sequence it checks that each call either
 * succeeds or returns an error, that nothing crashes, that results are right
 * whenever the sequence succeeds, and that no allocation is left behind.
 * Not built with the sanitizers, which replace malloc themselves. CTest also
 * runs it with the test SL driver loaded, so that failures hit the loader's
 * model copies, the partition and the driver's own allocations.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_long calls;      /* allocations attempted since arming */
static atomic_long fail_at;    /* 0: never fail */
static atomic_long live;       /* allocations not yet freed */
static atomic_int injected;    /* the failure happened */

static int should_fail(void)
{
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (atomic_load(&fail_at) != 0 && n == atomic_load(&fail_at)) {
        atomic_store(&injected, 1);
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *malloc(size_t size)
{
    if (should_fail())
        return NULL;
    void *p = __libc_malloc(size);
    if (p)
        atomic_fetch_add(&live, 1);
    return p;
}

void *calloc(size_t n, size_t size)
{
    if (should_fail())
        return NULL;
    void *p = __libc_calloc(n, size);
    if (p)
        atomic_fetch_add(&live, 1);
    return p;
}

void *realloc(void *old, size_t size)
{
    if (old == NULL)
        return malloc(size);
    if (size == 0) {
        free(old);
        return NULL;
    }
    if (should_fail())
        return NULL;
    return __libc_realloc(old, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
    if (should_fail())
        return NULL;
    void *p = __libc_memalign(alignment, size);
    if (p)
        atomic_fetch_add(&live, 1);
    return p;
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (should_fail())
        return ENOMEM;
    void *p = __libc_memalign(alignment, size);
    if (p == NULL)
        return ENOMEM;
    atomic_fetch_add(&live, 1);
    *out = p;
    return 0;
}

void free(void *p)
{
    if (p == NULL)
        return;
    atomic_fetch_sub(&live, 1);
    __libc_free(p);
}

/* ------------------------------------------------------------------ */

#define N 300 /* > 128 bytes as a constant: referenced, not copied */

typedef struct objects {
    ANeuralNetworksModel *model;
    ANeuralNetworksCompilation *compilation;
    ANeuralNetworksExecution *execution;
    ANeuralNetworksBurst *burst;
    ANeuralNetworksEvent *event;
    ANeuralNetworksMemory *memory;
    ANeuralNetworksMemoryDesc *desc;
    ANeuralNetworksMemory *desc_memory;
} objects;

static float bias[N], input[N], output[N];
static int mem_fd = -1;

static void release(objects *o)
{
    ANeuralNetworksEvent_free(o->event);
    ANeuralNetworksExecution_free(o->execution);
    ANeuralNetworksBurst_free(o->burst);
    ANeuralNetworksMemory_free(o->desc_memory);
    ANeuralNetworksMemoryDesc_free(o->desc);
    ANeuralNetworksCompilation_free(o->compilation);
    ANeuralNetworksModel_free(o->model);
    ANeuralNetworksMemory_free(o->memory);
    memset(o, 0, sizeof *o);
}

static int results_right(void)
{
    for (int i = 0; i < N; i++)
        if (output[i] != input[i] + 2.0f * bias[i])
            return 0;
    return 1;
}

/*
 * The whole life of a model: returns 0 when every call succeeded, 1 when a
 * call failed with an error code, -1 when the results were wrong. on_cpu:
 * compiled for the CPU device alone (the last device) rather than all.
 */
/* The compilation cache of the sequences: a directory of this process, so
 * that concurrent runs of the test do not change each other's hits. With
 * cache_cold, every sequence starts from an empty directory (the path that
 * compiles and writes the entry); otherwise the entry is there (the path that
 * maps it). */
static char cache_dir[] = "/tmp/nn-alloc-failure-XXXXXX";
static bool cache_cold;
/* With foreign_entry, every sequence finds the entry of the same model
 * compiled with another preference under its token: its header fits, so
 * the plan is built with it while the model is hashed, then built again. */
static uint8_t *foreign_entry;
static size_t foreign_bytes;
static char entry_path[sizeof cache_dir + 256 + 1];
static bool use_foreign;
static int32_t preference = -1;

static void empty_cache_dir(void)
{
    DIR *d = opendir(cache_dir);
    if (d == NULL)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char path[sizeof cache_dir + 256 + 1];
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

static int sequence(bool on_cpu)
{
    objects o = {0};
    uint32_t dims[1] = {N};
    ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    ANeuralNetworksOperandType act = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
    int32_t none = ANEURALNETWORKS_FUSED_NONE;
    uint32_t in1[3] = {0, 1, 2}, out1[1] = {3}, in2[3] = {3, 4, 2}, out2[1] = {5};
    uint32_t ins[1] = {0}, outs[1] = {5};
    int rc = 0;
#define TRY(call)                                                  \
    do {                                                           \
        if ((call) != ANEURALNETWORKS_NO_ERROR) {                  \
            rc = 1;                                                \
            goto done;                                             \
        }                                                          \
    } while (0)
    TRY(ANeuralNetworksMemory_createFromFd(sizeof bias, PROT_READ, mem_fd, 0, &o.memory));
    TRY(ANeuralNetworksModel_create(&o.model));
    for (int i = 0; i < 6; i++)
        TRY(ANeuralNetworksModel_addOperand(o.model, i == 2 ? &act : &t));
    TRY(ANeuralNetworksModel_setOperandValue(o.model, 1, bias, sizeof bias));
    TRY(ANeuralNetworksModel_setOperandValue(o.model, 2, &none, sizeof none));
    TRY(ANeuralNetworksModel_setOperandValueFromMemory(o.model, 4, o.memory, 0, sizeof bias));
    TRY(ANeuralNetworksModel_addOperation(o.model, ANEURALNETWORKS_ADD, 3, in1, 1, out1));
    TRY(ANeuralNetworksModel_addOperation(o.model, ANEURALNETWORKS_ADD, 3, in2, 1, out2));
    TRY(ANeuralNetworksModel_identifyInputsAndOutputs(o.model, 1, ins, 1, outs));
    TRY(ANeuralNetworksModel_finish(o.model));
    if (on_cpu) {
        uint32_t n_devices = 0;
        ANeuralNetworksDevice *cpu = NULL;
        TRY(ANeuralNetworks_getDeviceCount(&n_devices));
        TRY(ANeuralNetworks_getDevice(n_devices - 1, &cpu));
        const ANeuralNetworksDevice *only[1] = {cpu};
        TRY(ANeuralNetworksCompilation_createForDevices(o.model, only, 1, &o.compilation));
    } else {
        TRY(ANeuralNetworksCompilation_create(o.model, &o.compilation));
    }
    if (cache_cold)
        empty_cache_dir();
    if (use_foreign) {
        int fd = open(entry_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        bool written = fd >= 0 && write(fd, foreign_entry, foreign_bytes) == (ssize_t)foreign_bytes;
        if (fd >= 0)
            close(fd);
        if (!written)
            return -1;
    }
    if (preference >= 0)
        TRY(ANeuralNetworksCompilation_setPreference(o.compilation, preference));
    TRY(ANeuralNetworksCompilation_setCaching(o.compilation, cache_dir, (const uint8_t *)
                                              "0123456789abcdef0123456789abcdef"));
    TRY(ANeuralNetworksCompilation_finish(o.compilation));
    TRY(ANeuralNetworksExecution_create(o.compilation, &o.execution));
    TRY(ANeuralNetworksExecution_setReusable(o.execution, true));
    TRY(ANeuralNetworksExecution_setInput(o.execution, 0, NULL, input, sizeof input));
    TRY(ANeuralNetworksExecution_setOutput(o.execution, 0, NULL, output, sizeof output));
    memset(output, 0, sizeof output);
    TRY(ANeuralNetworksExecution_compute(o.execution));
    if (!results_right())
        rc = -1;
    memset(output, 0, sizeof output);
    TRY(ANeuralNetworksExecution_startCompute(o.execution, &o.event));
    TRY(ANeuralNetworksEvent_wait(o.event));
    if (!results_right())
        rc = -1;
    ANeuralNetworksEvent_free(o.event);
    o.event = NULL;
    memset(output, 0, sizeof output);
    TRY(ANeuralNetworksExecution_startComputeWithDependencies(o.execution, NULL, 0, 0, &o.event));
    TRY(ANeuralNetworksEvent_wait(o.event));
    if (!results_right())
        rc = -1;
    memset(output, 0, sizeof output);
    TRY(ANeuralNetworksBurst_create(o.compilation, &o.burst));
    TRY(ANeuralNetworksExecution_burstCompute(o.execution, o.burst));
    if (!results_right())
        rc = -1;
    TRY(ANeuralNetworksMemoryDesc_create(&o.desc));
    TRY(ANeuralNetworksMemoryDesc_addOutputRole(o.desc, o.compilation, 0, 1.0f));
    TRY(ANeuralNetworksMemoryDesc_finish(o.desc));
    TRY(ANeuralNetworksMemory_createFromDesc(o.desc, &o.desc_memory));
#undef TRY
done:
    release(&o);
    return rc;
}

/*
 * Ranks above the inline storage of dims (issue 15, item 6): every shape is
 * heap-allocated along the way. MAXIMUM of a rank-RANK input of partly
 * unknown dims (given at setInput) and a broadcast constant, into an output
 * of unspecified rank, then into a memory from a descriptor of that rank.
 */
#define RANK 20
static int sequence_rank(void)
{
    objects o = {0};
    uint32_t declared[RANK], dims[RANK], one = 1, got[RANK];
    for (uint32_t i = 0; i < RANK; i++) {
        dims[i] = i % 5 == 0 ? 2 : 1;
        declared[i] = i % 2 ? dims[i] : 0;
    }
    float in[16], out[16], floor_value = 0.5f;
    for (int i = 0; i < 16; i++)
        in[i] = (float)i - 8.0f;
    ANeuralNetworksOperandType t_in = {ANEURALNETWORKS_TENSOR_FLOAT32, RANK, declared, 0.0f, 0};
    ANeuralNetworksOperandType t_given = {ANEURALNETWORKS_TENSOR_FLOAT32, RANK, dims, 0.0f, 0};
    ANeuralNetworksOperandType t_b = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, &one, 0.0f, 0};
    ANeuralNetworksOperandType t_out = {ANEURALNETWORKS_TENSOR_FLOAT32, 0, NULL, 0.0f, 0};
    uint32_t ins[2] = {0, 1}, outs[1] = {2}, model_in[1] = {0};
    uint32_t rank = 0;
    int rc = 0;
    /* A failed allocation is OUT_OF_MEMORY, whatever call meets it. */
#define TRY(call)                                                  \
    do {                                                           \
        int code_ = (call);                                        \
        if (code_ != ANEURALNETWORKS_NO_ERROR) {                   \
            rc = code_ == ANEURALNETWORKS_OUT_OF_MEMORY ? 1 : -1;  \
            if (rc < 0)                                            \
                fprintf(stderr, "%s: code %d\n", #call, code_);    \
            goto done;                                             \
        }                                                          \
    } while (0)
    TRY(ANeuralNetworksModel_create(&o.model));
    TRY(ANeuralNetworksModel_addOperand(o.model, &t_in));
    TRY(ANeuralNetworksModel_addOperand(o.model, &t_b));
    TRY(ANeuralNetworksModel_addOperand(o.model, &t_out));
    TRY(ANeuralNetworksModel_setOperandValue(o.model, 1, &floor_value, sizeof floor_value));
    TRY(ANeuralNetworksModel_addOperation(o.model, ANEURALNETWORKS_MAXIMUM, 2, ins, 1, outs));
    TRY(ANeuralNetworksModel_identifyInputsAndOutputs(o.model, 1, model_in, 1, outs));
    TRY(ANeuralNetworksModel_finish(o.model));
    TRY(ANeuralNetworksCompilation_create(o.model, &o.compilation));
    TRY(ANeuralNetworksCompilation_finish(o.compilation));
    TRY(ANeuralNetworksExecution_create(o.compilation, &o.execution));
    TRY(ANeuralNetworksExecution_setInput(o.execution, 0, &t_given, in, sizeof in));
    TRY(ANeuralNetworksMemoryDesc_create(&o.desc));
    TRY(ANeuralNetworksMemoryDesc_addOutputRole(o.desc, o.compilation, 0, 1.0f));
    TRY(ANeuralNetworksMemoryDesc_setDimensions(o.desc, RANK, dims));
    TRY(ANeuralNetworksMemoryDesc_finish(o.desc));
    TRY(ANeuralNetworksMemory_createFromDesc(o.desc, &o.desc_memory));
    TRY(ANeuralNetworksExecution_setOutputFromMemory(o.execution, 0, NULL, o.desc_memory, 0, 0));
    TRY(ANeuralNetworksExecution_compute(o.execution));
    TRY(ANeuralNetworksExecution_getOutputOperandRank(o.execution, 0, &rank));
    TRY(ANeuralNetworksExecution_getOutputOperandDimensions(o.execution, 0, got));
    if (rank != RANK || memcmp(got, dims, sizeof dims) != 0)
        rc = -1;
    /* Read the result back through a second execution's host buffer. */
    ANeuralNetworksExecution_free(o.execution);
    o.execution = NULL;
    TRY(ANeuralNetworksExecution_create(o.compilation, &o.execution));
    TRY(ANeuralNetworksExecution_setInput(o.execution, 0, &t_given, in, sizeof in));
    TRY(ANeuralNetworksExecution_setOutput(o.execution, 0, &t_given, out, sizeof out));
    TRY(ANeuralNetworksExecution_compute(o.execution));
    for (int i = 0; i < 16; i++)
        if (out[i] != (in[i] > floor_value ? in[i] : floor_value))
            rc = -1;
#undef TRY
done:
    release(&o);
    return rc;
}

/* The sequence on the default devices (an SL driver's, when one is loaded). */
static int sequence_default(void)
{
    return sequence(false);
}

/* The same, compiling without a cache entry each time. */
static int sequence_cache_miss(void)
{
    cache_cold = true;
    int rc = sequence(false);
    cache_cold = false;
    return rc;
}

/* The same on the CPU device (whose plans are cached, with a driver loaded
 * too), finding an entry for another compilation of the model. */
static int sequence_foreign_entry(void)
{
    use_foreign = true;
    int rc = sequence(true);
    use_foreign = false;
    return rc;
}

/* Writes the entry of the CPU sequence compiled with another preference and
 * keeps its bytes and name; false when that fails. */
static bool make_foreign_entry(void)
{
    empty_cache_dir();
    preference = ANEURALNETWORKS_PREFER_LOW_POWER;
    int rc = sequence(true);
    preference = -1;
    DIR *d = opendir(cache_dir);
    if (rc != 0 || d == NULL)
        return false;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            snprintf(entry_path, sizeof entry_path, "%s/%s", cache_dir, e->d_name);
    closedir(d);
    FILE *f = entry_path[0] ? fopen(entry_path, "rb") : NULL;
    if (f == NULL)
        return false;
    bool ok = fseek(f, 0, SEEK_END) == 0 && (foreign_bytes = (size_t)ftell(f)) > 0 &&
              fseek(f, 0, SEEK_SET) == 0 && (foreign_entry = malloc(foreign_bytes)) != NULL &&
              fread(foreign_entry, 1, foreign_bytes, f) == foreign_bytes;
    fclose(f);
    return ok;
}

/* Fails each allocation of seq in turn; returns the number of failures. */
static int inject(int (*seq)(void), const char *name, int *passed)
{
    int failed = 0;
    if (seq() != 0) {
        fprintf(stderr, "%s fails without injected failures\n", name);
        return 1;
    }
    long baseline = atomic_load(&live);
    long n;
    for (n = 1;; n++) {
        atomic_store(&calls, 0);
        atomic_store(&injected, 0);
        atomic_store(&fail_at, n);
        int rc = seq();
        atomic_store(&fail_at, 0);
        int hit = atomic_load(&injected);
        long leaked = atomic_load(&live) - baseline;
        if (rc < 0 || leaked != 0 || (rc == 1 && !hit)) {
            failed++;
            fprintf(stderr, "%s, allocation %ld failing: %s, %ld allocations leaked\n", name, n,
                    rc < 0 ? "wrong results" : rc == 1 && !hit ? "unexpected error" : "ok", leaked);
            atomic_store(&live, baseline);
        } else {
            (*passed)++;
        }
        if (!hit)
            break; /* the sequence made fewer than n allocations: all covered */
    }
    fprintf(stderr, "%s: covered %ld allocation points\n", name, n - 1);
    return failed;
}

int main(void)
{
    int passed = 0, failed = 0;
    for (int i = 0; i < N; i++) {
        bias[i] = (float)i * 0.5f;
        input[i] = (float)(N - i);
    }
    FILE *f = tmpfile();
    if (f == NULL || fwrite(bias, sizeof bias, 1, f) != 1 || fflush(f) != 0) {
        printf("0 passed, 1 failed\n");
        return 1;
    }
    mem_fd = fileno(f);
    if (mkdtemp(cache_dir) == NULL) {
        perror("mkdtemp");
        printf("0 passed, 1 failed\n");
        return 1;
    }
    /* Warm-up: the thread pool and stdio allocate once for the process. With
     * an SL driver loaded (NNAPI_LINUX_DRIVERS) the model runs on it, so the
     * CPU device warms up too: a failure may send work to it. */
    if (sequence(false) != 0 || sequence(true) != 0) {
        fprintf(stderr, "the sequence fails without injected failures\n");
        printf("0 passed, 1 failed\n");
        empty_cache_dir();
        rmdir(cache_dir);
        return 1;
    }
    failed += inject(sequence_default, "the sequence", &passed);
    failed += inject(sequence_cache_miss, "the sequence without a cache entry", &passed);
    failed += inject(sequence_rank, "the rank-20 sequence", &passed);
    if (make_foreign_entry()) {
        failed += inject(sequence_foreign_entry, "the sequence finding another entry", &passed);
    } else {
        fprintf(stderr, "the entry of another preference could not be made\n");
        failed++;
    }
    free(foreign_entry);
    empty_cache_dir();
    rmdir(cache_dir);
    fclose(f);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
