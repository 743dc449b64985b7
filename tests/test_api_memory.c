/* ANeuralNetworksMemory_* and ANeuralNetworksMemoryDesc_*: memory from file
 * descriptors of every common kind (memfd, regular file, POSIX shared memory),
 * device memory from descriptors, and copies between them. */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_api.h"

enum { N = 4, RAW = N * sizeof(float), PAGE = 4096 };
static const float A[N] = {1, 2, 3, 4};
static const float B[N] = {10, 20, 30, 40};

typedef enum { FD_MEMFD, FD_FILE, FD_SHM } fd_kind;
static const char* const fd_kind_names[] = {"memfd", "regular file", "shm_open"};

/* A file descriptor of the given kind holding size zero bytes, or -1. */
static int make_fd(fd_kind kind, size_t size) {
    int fd = -1;
    if (kind == FD_MEMFD) {
        fd = memfd_create("nn_test", MFD_CLOEXEC);
    } else if (kind == FD_FILE) {
        char path[] = "/tmp/nn_test_XXXXXX";
        fd = mkstemp(path);
        if (fd >= 0) unlink(path);
    } else {
        char name[64];
        snprintf(name, sizeof(name), "/nn_test_%ld", (long)getpid());
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) shm_unlink(name);
    }
    if (fd >= 0 && ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        fd = -1;
    }
    CHECK(fd >= 0);
    return fd;
}

static void test_create_from_fd_arguments(void) {
    int fd = make_fd(FD_MEMFD, 2 * PAGE);
    if (fd < 0) return;
    ANeuralNetworksMemory* memory = NULL;
    const int rw = PROT_READ | PROT_WRITE;
    CHECK_RC(ANeuralNetworksMemory_createFromFd(PAGE, rw, fd, 0, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    memory = (ANeuralNetworksMemory*)&memory;
    CHECK_RC(ANeuralNetworksMemory_createFromFd(PAGE, rw, -1, 0, &memory),
             ANEURALNETWORKS_BAD_DATA);
    CHECK(memory == NULL);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(0, rw, fd, 0, &memory), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(PAGE, PROT_READ | PROT_EXEC, fd, 0, &memory),
             ANEURALNETWORKS_BAD_DATA);
    /* The mapping must lie within the file. */
    CHECK_RC(ANeuralNetworksMemory_createFromFd(3 * PAGE, rw, fd, 0, &memory),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(PAGE, rw, fd, 2 * PAGE, &memory),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(PAGE, rw, fd, SIZE_MAX - 10, &memory),
             ANEURALNETWORKS_BAD_DATA);
    /* The spec asks callers for page-aligned offsets; a runtime may refuse
     * others or map them correctly. */
    memory = NULL;
    const int unaligned = ANeuralNetworksMemory_createFromFd(PAGE, rw, fd, 100, &memory);
    CHECK(unaligned == ANEURALNETWORKS_BAD_DATA || unaligned == ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksMemory_free(memory);
    ANeuralNetworksMemory_free(NULL);
    /* Each protection the spec allows. */
    static const int prots[] = {PROT_NONE, PROT_READ, PROT_WRITE, PROT_READ | PROT_WRITE};
    for (size_t i = 0; i < sizeof(prots) / sizeof(prots[0]); i++) {
        memory = NULL;
        if (!CHECK_OK(ANeuralNetworksMemory_createFromFd(PAGE, prots[i], fd, PAGE, &memory)))
            fprintf(stderr, "    protect %d\n", prots[i]);
        ANeuralNetworksMemory_free(memory);
    }
    close(fd);
}

/* a at 0, b at 64, the output at 128, a constant at 192 (offsets in the
 * region that starts at the mapping offset). */
enum { OFF_A = 0, OFF_B = 64, OFF_OUT = 128, OFF_CONST = 192 };

/* in0 + constant where the constant comes from memory. */
static ANeuralNetworksModel* memory_const_model(const ANeuralNetworksMemory* memory,
                                                size_t offset) {
    const uint32_t dims[] = {N};
    const ANeuralNetworksOperandType t = nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0);
    const ANeuralNetworksOperandType act_t = nt_scalar(ANEURALNETWORKS_INT32);
    const int32_t act = 0;
    const uint32_t ins[] = {0, 1, 2}, outs[] = {3}, model_ins[] = {0};
    ANeuralNetworksModel* model = NULL;
    if (!CHECK_OK(ANeuralNetworksModel_create(&model))) return NULL;
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &act_t));
    CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
    CHECK_OK(ANeuralNetworksModel_setOperandValue(model, 2, &act, sizeof(act)));
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(NULL, 1, memory, offset, RAW),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, NULL, offset, RAW),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, -1, memory, offset, RAW),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 4, memory, offset, RAW),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, offset, RAW + 4),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, PAGE + 1, RAW),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, PAGE - 8, RAW),
             ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, SIZE_MAX - 3, RAW),
             ANEURALNETWORKS_BAD_DATA);
    bool ok = CHECK_OK(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, offset,
                                                                      RAW)) &&
              CHECK_OK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, ins, 1,
                                                         outs)) &&
              CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, model_ins, 1,
                                                                     outs)) &&
              CHECK_OK(ANeuralNetworksModel_finish(model));
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, offset, RAW),
             ANEURALNETWORKS_BAD_STATE);
    if (!ok) {
        ANeuralNetworksModel_free(model);
        return NULL;
    }
    return model;
}

static void test_fd_memory(fd_kind kind) {
    const int failed_before = nt_failed;
    /* Two pages; the memory maps the second, so the mapping offset counts. */
    int fd = make_fd(kind, 2 * PAGE);
    if (fd < 0) return;
    unsigned char* view = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (!CHECK(view != MAP_FAILED)) {
        close(fd);
        return;
    }
    unsigned char* region = view + PAGE;
    memcpy(region + OFF_A, A, RAW);
    memcpy(region + OFF_B, B, RAW);
    memcpy(region + OFF_CONST, B, RAW);
    ANeuralNetworksMemory* memory = NULL;
    const bool created = CHECK_OK(
            ANeuralNetworksMemory_createFromFd(PAGE, PROT_READ | PROT_WRITE, fd, PAGE, &memory));
    /* The runtime keeps its own duplicate of the descriptor. */
    close(fd);
    if (!created) {
        munmap(view, 2 * PAGE);
        return;
    }

    nt_fixture f;
    if (nt_fixture_f32(&f, N, false)) {
        ANeuralNetworksExecution* e = NULL;
        if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(NULL, 0, NULL, memory, OFF_A, RAW),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, NULL, OFF_A, RAW),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 2, NULL, memory, OFF_A, RAW),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, -1, NULL, memory, OFF_A, RAW),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, OFF_A,
                                                                 RAW + 4),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, PAGE + 1,
                                                                 RAW),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, PAGE - 8,
                                                                 RAW),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory,
                                                                 SIZE_MAX - 3, RAW),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(NULL, 0, NULL, memory, OFF_OUT,
                                                                  RAW),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, NULL, OFF_OUT, RAW),
                     ANEURALNETWORKS_UNEXPECTED_NULL);
            CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 1, NULL, memory, OFF_OUT,
                                                                  RAW),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, memory, OFF_OUT,
                                                                  RAW - 4),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, memory, PAGE - 8,
                                                                  RAW),
                     ANEURALNETWORKS_BAD_DATA);

            CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, OFF_A, RAW));
            CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 1, NULL, memory, OFF_B, RAW));
            CHECK_OK(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, memory, OFF_OUT,
                                                                  RAW));
            CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, OFF_A, RAW),
                     ANEURALNETWORKS_BAD_STATE);
            CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, A, RAW),
                     ANEURALNETWORKS_BAD_STATE);
            CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, memory, OFF_OUT,
                                                                  RAW),
                     ANEURALNETWORKS_BAD_STATE);
            if (CHECK_OK(ANeuralNetworksExecution_compute(e))) {
                float out[N];
                memcpy(out, region + OFF_OUT, RAW);
                CHECK(nt_sum_ok(A, B, out, N));
            }
            ANeuralNetworksExecution_free(e);
        }
        /* Padded lengths within the memory are accepted once enabled. */
        if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
            CHECK_OK(ANeuralNetworksExecution_enableInputAndOutputPadding(e, true));
            CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, OFF_A, 64));
            CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 1, NULL, memory, OFF_B, 64));
            CHECK_OK(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, memory, OFF_OUT,
                                                                  64));
            memset(region + OFF_OUT, 0, RAW);
            if (CHECK_OK(nt_run(e, f.compilation, NT_BURST))) {
                float out[N];
                memcpy(out, region + OFF_OUT, RAW);
                CHECK(nt_sum_ok(A, B, out, N));
            }
            ANeuralNetworksExecution_free(e);
        }
        nt_fixture_free(&f);
    }

    /* A constant operand backed by the memory. */
    ANeuralNetworksModel* model = memory_const_model(memory, OFF_CONST);
    ANeuralNetworksCompilation* compilation = nt_compile(model);
    if (compilation) {
        float out[N] = {0};
        ANeuralNetworksExecution* e = NULL;
        if (CHECK_OK(ANeuralNetworksExecution_create(compilation, &e))) {
            CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, A, RAW));
            CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, RAW));
            if (CHECK_OK(ANeuralNetworksExecution_compute(e))) CHECK(nt_sum_ok(A, B, out, N));
            ANeuralNetworksExecution_free(e);
        }
    }
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
    ANeuralNetworksMemory_free(memory);
    munmap(view, 2 * PAGE);
    if (nt_failed != failed_before) fprintf(stderr, "    (memory from %s)\n", fd_kind_names[kind]);
}

/* A memory of size bytes from a fresh memfd, with the caller's view of it. */
static ANeuralNetworksMemory* fd_memory(size_t size, float** view) {
    int fd = make_fd(FD_MEMFD, size);
    if (fd < 0) return NULL;
    *view = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ANeuralNetworksMemory* memory = NULL;
    if (!CHECK(*view != MAP_FAILED) ||
        !CHECK_OK(ANeuralNetworksMemory_createFromFd(size, PROT_READ | PROT_WRITE, fd, 0,
                                                     &memory))) {
        if (*view != MAP_FAILED) munmap(*view, size);
        *view = NULL;
        memory = NULL;
    }
    close(fd);
    return memory;
}

static void test_memory_desc_arguments(void) {
    CHECK_RC(ANeuralNetworksMemoryDesc_create(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksMemoryDesc_free(NULL);

    nt_fixture f, small;
    if (!nt_fixture_f32(&f, N, false)) return;
    ANeuralNetworksCompilation* unfinished = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(f.model, &unfinished));
    ANeuralNetworksMemoryDesc* desc = NULL;
    if (CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc))) {
        CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(NULL, f.compilation, 0, 1.0f),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, NULL, 0, 1.0f),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(NULL, f.compilation, 0, 1.0f),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, NULL, 0, 1.0f),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        if (unfinished) {
            CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, unfinished, 0, 1.0f),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, unfinished, 0, 1.0f),
                     ANEURALNETWORKS_BAD_DATA);
        }
        CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 2, 1.0f),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, f.compilation, 1, 1.0f),
                 ANEURALNETWORKS_BAD_DATA);
        static const float bad_frequencies[] = {0.0f, -1.0f, 1.5f, 10.0f};
        for (size_t i = 0; i < sizeof(bad_frequencies) / sizeof(bad_frequencies[0]); i++) {
            CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 0,
                                                            bad_frequencies[i]),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, f.compilation, 0,
                                                             bad_frequencies[i]),
                     ANEURALNETWORKS_BAD_DATA);
        }
        CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 0, NAN),
                 ANEURALNETWORKS_BAD_DATA);
        /* No role yet: finish is refused. */
        CHECK_RC(ANeuralNetworksMemoryDesc_finish(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_DATA);

        CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 0, 0.5f));
        CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 0, 1.0f),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 1, 1.0f));
        CHECK_OK(ANeuralNetworksMemoryDesc_addOutputRole(desc, f.compilation, 0, 1.0f));
        CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, f.compilation, 0, 1.0f),
                 ANEURALNETWORKS_BAD_DATA);
        /* A role whose operand has other dimensions. */
        if (nt_fixture_f32(&small, 2, false)) {
            CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, small.compilation, 0, 1.0f),
                     ANEURALNETWORKS_BAD_DATA);
            CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, small.compilation, 0, 1.0f),
                     ANEURALNETWORKS_BAD_DATA);
            nt_fixture_free(&small);
        }

        const uint32_t good[] = {N}, bad[] = {N + 1}, bad_rank[] = {1, N};
        CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(NULL, 1, good),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, NULL),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, bad), ANEURALNETWORKS_BAD_DATA);
        CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 2, bad_rank),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_OK(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, good));

        ANeuralNetworksMemory* memory = (ANeuralNetworksMemory*)&memory;
        CHECK_RC(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_BAD_STATE);
        CHECK(memory == NULL);
        CHECK_RC(ANeuralNetworksMemory_createFromDesc(NULL, &memory),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        CHECK_RC(ANeuralNetworksMemory_createFromDesc(desc, NULL),
                 ANEURALNETWORKS_UNEXPECTED_NULL);

        CHECK_OK(ANeuralNetworksMemoryDesc_finish(desc));
        CHECK_RC(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_STATE);
        CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 1, 1.0f),
                 ANEURALNETWORKS_BAD_STATE);
        CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, f.compilation, 0, 1.0f),
                 ANEURALNETWORKS_BAD_STATE);
        CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, good),
                 ANEURALNETWORKS_BAD_STATE);
        memory = NULL;
        CHECK_OK(ANeuralNetworksMemory_createFromDesc(desc, &memory));
        ANeuralNetworksMemory_free(memory);
        ANeuralNetworksMemoryDesc_free(desc);
    }
    /* An unfinished descriptor can be freed. */
    desc = NULL;
    if (CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc))) {
        CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 0, 1.0f));
        ANeuralNetworksMemoryDesc_free(desc);
    }
    ANeuralNetworksCompilation_free(unfinished);
    nt_fixture_free(&f);
}

/* Device memory with the given roles of the fixture (input 0 / output 0). */
static ANeuralNetworksMemory* desc_memory(ANeuralNetworksCompilation* c, bool input_role,
                                          bool output_role) {
    ANeuralNetworksMemoryDesc* desc = NULL;
    ANeuralNetworksMemory* memory = NULL;
    if (!CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc))) return NULL;
    bool ok = true;
    if (input_role) {
        ok = ok && CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 0, 1.0f));
        ok = ok && CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 1, 1.0f));
    }
    if (output_role) ok = ok && CHECK_OK(ANeuralNetworksMemoryDesc_addOutputRole(desc, c, 0, 1.0f));
    ok = ok && CHECK_OK(ANeuralNetworksMemoryDesc_finish(desc)) &&
         CHECK_OK(ANeuralNetworksMemory_createFromDesc(desc, &memory));
    /* The memory does not need its descriptor. */
    ANeuralNetworksMemoryDesc_free(desc);
    return ok ? memory : NULL;
}

static void test_device_memory(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    ANeuralNetworksMemory* dev = desc_memory(f.compilation, true, true);
    ANeuralNetworksMemory* dev2 = desc_memory(f.compilation, true, true);
    ANeuralNetworksMemory* in_only = desc_memory(f.compilation, true, false);
    float *view = NULL, *view_big = NULL;
    ANeuralNetworksMemory* host = fd_memory(RAW, &view);
    ANeuralNetworksMemory* host_big = fd_memory(2 * RAW, &view_big);
    float out[N] = {0};
    ANeuralNetworksExecution* e = NULL;
    if (!dev || !dev2 || !in_only || !host || !host_big) goto done;

    /* An uninitialized memory cannot be read: as an input or a copy source. */
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, dev, 0, 0));
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, B, RAW));
        CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, RAW));
        CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OP_FAILED);
        ANeuralNetworksExecution_free(e);
    }
    CHECK_RC(ANeuralNetworksMemory_copy(dev, host), ANEURALNETWORKS_BAD_DATA);

    /* Device memory needs offset 0 and length 0, and a declared role. */
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, dev, 0, RAW),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, dev, 4, 0),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, in_only, 0, 0),
                 ANEURALNETWORKS_BAD_DATA);
        /* Writing a+b into the device memory initializes it. */
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, A, RAW));
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, B, RAW));
        CHECK_OK(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, dev, 0, 0));
        CHECK_OK(ANeuralNetworksExecution_compute(e));
        ANeuralNetworksExecution_free(e);
    }
    /* Read it back as an input: out = (a + b) + b. */
    if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
        CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, dev, 0, RAW),
                 ANEURALNETWORKS_BAD_DATA);
        CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, dev, 0, 0));
        CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, B, RAW));
        CHECK_OK(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, RAW));
        if (CHECK_OK(ANeuralNetworksExecution_compute(e))) {
            float ab[N];
            for (int i = 0; i < N; i++) ab[i] = A[i] + B[i];
            CHECK(nt_sum_ok(ab, B, out, N));
        }
        ANeuralNetworksExecution_free(e);
    }

    /* Copies. */
    CHECK_RC(ANeuralNetworksMemory_copy(NULL, host), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemory_copy(host, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemory_copy(host, host_big), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_copy(host_big, host), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_copy(host_big, dev2), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_copy(dev, host_big), ANEURALNETWORKS_BAD_DATA);
    memset(view, 0, RAW);
    if (CHECK_OK(ANeuralNetworksMemory_copy(dev, host))) {
        float ab[N];
        for (int i = 0; i < N; i++) ab[i] = A[i] + B[i];
        CHECK(memcmp(view, ab, RAW) == 0);
    }
    /* host -> device -> device -> host. */
    memcpy(view, A, RAW);
    CHECK_OK(ANeuralNetworksMemory_copy(host, dev2));
    memset(view, 0, RAW);
    CHECK_OK(ANeuralNetworksMemory_copy(dev2, dev));
    if (CHECK_OK(ANeuralNetworksMemory_copy(dev, host))) CHECK(memcmp(view, A, RAW) == 0);
    /* host -> host of the same size. */
    memcpy(view_big, B, RAW);
    memcpy(view_big + N, A, RAW);
    float *view3 = NULL;
    ANeuralNetworksMemory* host3 = fd_memory(2 * RAW, &view3);
    if (host3) {
        if (CHECK_OK(ANeuralNetworksMemory_copy(host_big, host3)))
            CHECK(memcmp(view3, view_big, 2 * RAW) == 0);
        ANeuralNetworksMemory_free(host3);
        munmap(view3, 2 * RAW);
    }
    /* A failed copy leaves the destination uninitialized. */
    CHECK_RC(ANeuralNetworksMemory_copy(host_big, dev2), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_copy(dev2, host), ANEURALNETWORKS_BAD_DATA);

    /* Device memory cannot hold a model constant. */
    ANeuralNetworksModel* model = NULL;
    if (CHECK_OK(ANeuralNetworksModel_create(&model))) {
        const uint32_t dims[] = {N};
        const ANeuralNetworksOperandType t =
                nt_tensor(ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0);
        CHECK_OK(ANeuralNetworksModel_addOperand(model, &t));
        CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(model, 0, dev, 0, RAW),
                 ANEURALNETWORKS_BAD_DATA);
        ANeuralNetworksModel_free(model);
    }

done:
    ANeuralNetworksMemory_free(dev);
    ANeuralNetworksMemory_free(dev2);
    ANeuralNetworksMemory_free(in_only);
    ANeuralNetworksMemory_free(host);
    ANeuralNetworksMemory_free(host_big);
    if (view && view != MAP_FAILED) munmap(view, RAW);
    if (view_big && view_big != MAP_FAILED) munmap(view_big, 2 * RAW);
    nt_fixture_free(&f);
}

/* Memory used through a burst, freed before or after the burst. */
static void test_burst_memory_lifetime(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    for (int memory_first = 0; memory_first < 2; memory_first++) {
        float* view = NULL;
        ANeuralNetworksMemory* host = fd_memory(RAW, &view);
        ANeuralNetworksBurst* burst = NULL;
        if (host && CHECK_OK(ANeuralNetworksBurst_create(f.compilation, &burst))) {
            ANeuralNetworksExecution* e = NULL;
            if (CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e))) {
                CHECK_OK(ANeuralNetworksExecution_setInput(e, 0, NULL, A, RAW));
                CHECK_OK(ANeuralNetworksExecution_setInput(e, 1, NULL, B, RAW));
                CHECK_OK(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, host, 0, RAW));
                if (CHECK_OK(ANeuralNetworksExecution_burstCompute(e, burst)))
                    CHECK(nt_sum_ok(A, B, view, N));
                ANeuralNetworksExecution_free(e);
            }
            if (memory_first) {
                ANeuralNetworksMemory_free(host);
                ANeuralNetworksBurst_free(burst);
            } else {
                ANeuralNetworksBurst_free(burst);
                ANeuralNetworksMemory_free(host);
            }
        } else {
            ANeuralNetworksMemory_free(host);
        }
        if (view && view != MAP_FAILED) munmap(view, RAW);
    }
    nt_fixture_free(&f);
}

void nt_test_memory(void) {
    test_create_from_fd_arguments();
    test_fd_memory(FD_MEMFD);
    test_fd_memory(FD_FILE);
    test_fd_memory(FD_SHM);
    test_memory_desc_arguments();
    test_device_memory();
    test_burst_memory_lifetime();
}
