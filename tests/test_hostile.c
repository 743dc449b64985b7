/*
 * Hostile input through the public API: every class of bad memory, size or
 * index must come back as a result code, never as a crash or an
 * out-of-bounds access (the sanitizer build checks the latter). Prints one
 * table row per case, "class | call | code returned", then the summary.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#include "test_util.h"

/* Under the sanitizers an impossible allocation must return NULL, as malloc
 * does, rather than abort: that is the path under test. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
    return "allocator_may_return_null=1";
}

static void row(const char *cls, const char *call, int rc)
{
    printf("%-34s | %-46s | %s\n", cls, call, nt_rc_name(rc));
}

/* Records that rc is one of the two codes (a == b when only one is right). */
static void expect2(const char *cls, const char *call, int rc, int a, int b)
{
    row(cls, call, rc);
    if (!nt_record(rc == a || rc == b, __FILE__, __LINE__, cls))
        fprintf(stderr, "    %s returned %s\n", call, nt_rc_name(rc));
}

static void expect(const char *cls, const char *call, int rc, int code)
{
    expect2(cls, call, rc, code, code);
}

/* A memfd of the given size, or -1. */
static int make_fd(size_t size)
{
    int fd = memfd_create("hostile", MFD_CLOEXEC);
    if (fd >= 0 && ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* ---- model building ---- */

#define F32 ANEURALNETWORKS_TENSOR_FLOAT32
#define I32 ANEURALNETWORKS_TENSOR_INT32
#define SI32 ANEURALNETWORKS_INT32
#define SF32 ANEURALNETWORKS_FLOAT32
#define SBOOL ANEURALNETWORKS_BOOL

typedef struct builder {
    ANeuralNetworksModel *m;
    uint32_t n;
    int rc; /* first failure while building */
    uint32_t in[8], out[8], n_in, n_out;
} builder;

static void b_init(builder *b)
{
    memset(b, 0, sizeof *b);
    b->rc = ANeuralNetworksModel_create(&b->m);
}

static uint32_t b_operand(builder *b, int32_t type, uint32_t rank, const uint32_t *dims)
{
    ANeuralNetworksOperandType t = {type, rank, rank ? dims : NULL, 0.0f, 0};
    if (type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
        t.scale = 1.0f;
    int rc = ANeuralNetworksModel_addOperand(b->m, &t);
    if (rc && !b->rc)
        b->rc = rc;
    return b->n++;
}

static uint32_t b_input(builder *b, int32_t type, uint32_t rank, const uint32_t *dims)
{
    uint32_t i = b_operand(b, type, rank, dims);
    b->in[b->n_in++] = i;
    return i;
}

static uint32_t b_output(builder *b, int32_t type, uint32_t rank, const uint32_t *dims)
{
    uint32_t i = b_operand(b, type, rank, dims);
    b->out[b->n_out++] = i;
    return i;
}

static uint32_t b_const(builder *b, int32_t type, uint32_t rank, const uint32_t *dims,
                        const void *value, size_t bytes)
{
    uint32_t i = b_operand(b, type, rank, dims);
    int rc = ANeuralNetworksModel_setOperandValue(b->m, (int32_t)i, value, bytes);
    if (rc && !b->rc)
        b->rc = rc;
    return i;
}

static uint32_t b_i32(builder *b, int32_t v)
{
    return b_const(b, SI32, 0, NULL, &v, sizeof v);
}

static uint32_t b_f32(builder *b, float v)
{
    return b_const(b, SF32, 0, NULL, &v, sizeof v);
}

static uint32_t b_bool(builder *b, bool v)
{
    uint8_t x = v;
    return b_const(b, SBOOL, 0, NULL, &x, 1);
}

static void b_op(builder *b, int32_t type, uint32_t n_in, const uint32_t *in, uint32_t n_out,
                 const uint32_t *out)
{
    int rc = ANeuralNetworksModel_addOperation(b->m, type, n_in, in, n_out, out);
    if (rc && !b->rc)
        b->rc = rc;
}

typedef struct io {
    const void *data;
    size_t bytes;
} io;

/* Finishes the model, compiles and runs it once with the given inputs and
 * outputs; returns the first failing code (NO_ERROR when compute succeeds). */
static int b_run(builder *b, const io *inputs, io *outputs)
{
    ANeuralNetworksCompilation *c = NULL;
    ANeuralNetworksExecution *e = NULL;
    int rc = b->rc;
    if (rc == 0)
        rc = ANeuralNetworksModel_identifyInputsAndOutputs(b->m, b->n_in, b->in, b->n_out,
                                                           b->out);
    if (rc == 0)
        rc = ANeuralNetworksModel_finish(b->m);
    if (rc == 0)
        rc = ANeuralNetworksCompilation_create(b->m, &c);
    if (rc == 0)
        rc = ANeuralNetworksCompilation_finish(c);
    if (rc == 0)
        rc = ANeuralNetworksExecution_create(c, &e);
    for (uint32_t i = 0; rc == 0 && i < b->n_in; i++)
        rc = ANeuralNetworksExecution_setInput(e, (int32_t)i, NULL, inputs[i].data,
                                               inputs[i].bytes);
    for (uint32_t i = 0; rc == 0 && i < b->n_out; i++)
        rc = ANeuralNetworksExecution_setOutput(e, (int32_t)i, NULL, (void *)outputs[i].data,
                                                outputs[i].bytes);
    if (rc == 0)
        rc = ANeuralNetworksExecution_compute(e);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(b->m);
    b->m = NULL;
    return rc;
}

/* ---- memory ---- */

static void test_memory(void)
{
    ANeuralNetworksMemory *mem = NULL;
    int fd = make_fd(100);
    expect("fd shorter than size+offset", "createFromFd(size 4096, fd of 100 bytes)",
           ANeuralNetworksMemory_createFromFd(4096, PROT_READ, fd, 0, &mem),
           ANEURALNETWORKS_BAD_DATA);
    expect("fd shorter than size+offset", "createFromFd(size 64, offset 64, 100 bytes)",
           ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, 64, &mem),
           ANEURALNETWORKS_BAD_DATA);
    expect("offset+size overflows size_t", "createFromFd(size 64, offset SIZE_MAX-8)",
           ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, SIZE_MAX - 8, &mem),
           ANEURALNETWORKS_BAD_DATA);
    CHECK(mem == NULL);
    close(fd);
    expect("bad fd", "createFromFd(fd -1)",
           ANeuralNetworksMemory_createFromFd(64, PROT_READ, -1, 0, &mem),
           ANEURALNETWORKS_BAD_DATA);
    fd = make_fd(4096);
    close(fd);
    expect("bad fd", "createFromFd(closed fd)",
           ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, 0, &mem),
           ANEURALNETWORKS_BAD_DATA);
    CHECK(mem == NULL);

    /* A model with one float input and one float output, for the I/O cases. */
    builder b;
    b_init(&b);
    uint32_t d4[] = {4};
    uint32_t x = b_input(&b, F32, 1, d4);
    uint32_t outs[] = {b_output(&b, F32, 1, d4)};
    b_op(&b, ANEURALNETWORKS_RELU, 1, &x, 1, outs);
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(b.m, 1, b.in, 1, b.out));
    CHECK_OK(ANeuralNetworksModel_finish(b.m));
    ANeuralNetworksCompilation *c = NULL;
    CHECK_OK(ANeuralNetworksCompilation_create(b.m, &c));
    CHECK_OK(ANeuralNetworksCompilation_finish(c));
    ANeuralNetworksExecution *e = NULL;
    CHECK_OK(ANeuralNetworksExecution_create(c, &e));

    fd = make_fd(4096);
    ANeuralNetworksMemory *none = NULL, *ro = NULL, *rw = NULL;
    expect("PROT_NONE memory", "createFromFd(PROT_NONE)",
           ANeuralNetworksMemory_createFromFd(4096, PROT_NONE, fd, 0, &none),
           ANEURALNETWORKS_NO_ERROR);
    if (none)
        expect("PROT_NONE memory as input", "setInputFromMemory(PROT_NONE memory)",
               ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, none, 0, 16),
               ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksMemory_createFromFd(4096, PROT_READ, fd, 0, &ro));
    if (ro)
        expect("read-only memory as output", "setOutputFromMemory(PROT_READ memory)",
               ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, ro, 0, 16),
               ANEURALNETWORKS_BAD_DATA);
    CHECK_OK(ANeuralNetworksMemory_createFromFd(4096, PROT_READ | PROT_WRITE, fd, 0, &rw));
    if (rw) {
        expect("offset+length overflows size_t", "setInputFromMemory(offset SIZE_MAX-7, 16)",
               ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, rw, SIZE_MAX - 7, 16),
               ANEURALNETWORKS_BAD_DATA);
        expect("offset+length past the memory", "setOutputFromMemory(offset 4090, 16)",
               ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, rw, 4090, 16),
               ANEURALNETWORKS_BAD_DATA);
        /* The rejected calls left the execution usable. */
        CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, rw, 0, 16));
        CHECK_OK(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, rw, 64, 16));
        CHECK_OK(ANeuralNetworksExecution_compute(e));
    }
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(b.m);

    /* Constants from memory: the same range checks. */
    ANeuralNetworksModel *m = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    ANeuralNetworksOperandType t = {F32, 1, d4, 0.0f, 0};
    CHECK_OK(ANeuralNetworksModel_addOperand(m, &t));
    if (rw)
        expect("offset+length overflows size_t",
               "setOperandValueFromMemory(offset SIZE_MAX-7)",
               ANeuralNetworksModel_setOperandValueFromMemory(m, 0, rw, SIZE_MAX - 7, 16),
               ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksMemory_free(none);
    ANeuralNetworksMemory_free(ro);
    ANeuralNetworksMemory_free(rw);
    close(fd);
}

/* ADD with its activation scalar as a model input, given no value. */
static void test_omitted(void)
{
    builder b;
    b_init(&b);
    uint32_t d2[] = {2};
    uint32_t ins[] = {b_input(&b, F32, 1, d2), b_input(&b, F32, 1, d2), b_input(&b, SI32, 0, NULL)};
    uint32_t out = b_output(&b, F32, 1, d2);
    b_op(&b, ANEURALNETWORKS_ADD, 3, ins, 1, &out);
    const float x[] = {1, 2};
    float result[2];
    io in[] = {{x, sizeof x}, {x, sizeof x}, {NULL, 0}};
    io outs[] = {{result, sizeof result}};
    expect("required input omitted", "ADD activation given no value", b_run(&b, in, outs),
           ANEURALNETWORKS_OP_FAILED);

    b_init(&b);
    uint32_t ins2[] = {b_input(&b, F32, 1, d2), b_input(&b, F32, 1, d2), b_i32(&b, 0)};
    out = b_output(&b, F32, 1, d2);
    b_op(&b, ANEURALNETWORKS_ADD, 3, ins2, 1, &out);
    io in2[] = {{x, sizeof x}, {NULL, 0}};
    expect("required input omitted", "ADD input tensor given no value", b_run(&b, in2, outs),
           ANEURALNETWORKS_OP_FAILED);

    /* PAD's output shape comes from the paddings' values, which are missing. */
    b_init(&b);
    uint32_t d23[] = {2, 3}, d22[] = {2, 2}, d45[] = {4, 5};
    uint32_t ins3[] = {b_input(&b, F32, 2, d23), b_input(&b, I32, 2, d22)};
    out = b_output(&b, F32, 2, d45);
    b_op(&b, ANEURALNETWORKS_PAD, 2, ins3, 1, &out);
    const float x6[] = {1, 2, 3, 4, 5, 6};
    float padded[20];
    io in3[] = {{x6, sizeof x6}, {NULL, 0}};
    io outs3[] = {{padded, sizeof padded}};
    expect("required input omitted", "PAD paddings given no value", b_run(&b, in3, outs3),
           ANEURALNETWORKS_OP_FAILED);
}

/* ---- sizes ---- */

static void test_operand_sizes(void)
{
    ANeuralNetworksModel *m = NULL;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t huge[] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    ANeuralNetworksOperandType t = {F32, 3, huge, 0.0f, 0};
    expect("byte size overflows size_t", "addOperand(float32 [2^32-1 x3])",
           ANeuralNetworksModel_addOperand(m, &t), ANEURALNETWORKS_BAD_DATA);
    uint32_t big[] = {65536, 65536, 65536, 65536};
    t.dimensionCount = 4;
    t.dimensions = big;
    expect("byte size overflows size_t", "addOperand(float32 [65536 x4])",
           ANeuralNetworksModel_addOperand(m, &t), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(m);
}

/* FILL of the shape in data (or TILE of a [1,1] tensor by the multiples in
 * data) into a temporary, then a 1-element SLICE of it as the output. */
static int run_huge_temporary(bool tile, const int32_t *shape, uint32_t n)
{
    builder b;
    b_init(&b);
    uint32_t dn[] = {n}, unknown[4] = {0}, ones[4] = {1, 1, 1, 1};
    uint32_t s = b_input(&b, I32, 1, dn);
    uint32_t tmp = b_operand(&b, F32, n, unknown);
    if (tile) {
        float one = 1.0f;
        uint32_t d11[] = {1, 1};
        uint32_t ins[] = {b_const(&b, F32, 2, d11, &one, sizeof one), s};
        b_op(&b, ANEURALNETWORKS_TILE, 2, ins, 1, &tmp);
    } else {
        uint32_t ins[] = {s, b_f32(&b, 1.0f)};
        b_op(&b, ANEURALNETWORKS_FILL, 2, ins, 1, &tmp);
    }
    int32_t zeros[4] = {0}, sizes[4] = {1, 1, 1, 1};
    uint32_t sl[] = {tmp, b_const(&b, I32, 1, dn, zeros, n * 4),
                     b_const(&b, I32, 1, dn, sizes, n * 4)};
    uint32_t out = b_output(&b, F32, n, ones);
    b_op(&b, ANEURALNETWORKS_SLICE, 3, sl, 1, &out);
    float result[1];
    io in[] = {{shape, n * sizeof *shape}};
    io outs[] = {{result, sizeof result}};
    return b_run(&b, in, outs);
}

/* RESIZE_BILINEAR of a 1x2x2x1 map to sizes given at execution. */
static int run_resize(int32_t w, int32_t h)
{
    builder b;
    b_init(&b);
    uint32_t d[] = {1, 2, 2, 1}, unknown[] = {0, 0, 0, 0};
    uint32_t ins[] = {b_input(&b, F32, 4, d), b_input(&b, SI32, 0, NULL),
                      b_input(&b, SI32, 0, NULL)};
    uint32_t out = b_output(&b, F32, 4, unknown);
    b_op(&b, ANEURALNETWORKS_RESIZE_BILINEAR, 3, ins, 1, &out);
    const float x[] = {1, 2, 3, 4};
    float result[64];
    io in[] = {{x, sizeof x}, {&w, sizeof w}, {&h, sizeof h}};
    io outs[] = {{result, sizeof result}};
    return b_run(&b, in, outs);
}

/* RANDOM_MULTINOMIAL over rows x 2 logits, the sample count given at
 * execution. */
static int run_multinomial(uint32_t rows, int32_t samples)
{
    builder b;
    b_init(&b);
    uint32_t d[] = {rows, 2}, d2[] = {2}, unknown[] = {0, 0};
    const int32_t seeds[] = {1, 2};
    uint32_t ins[] = {b_input(&b, F32, 2, d), b_input(&b, SI32, 0, NULL),
                      b_const(&b, I32, 1, d2, seeds, sizeof seeds)};
    uint32_t out = b_output(&b, I32, 2, unknown);
    b_op(&b, ANEURALNETWORKS_RANDOM_MULTINOMIAL, 3, ins, 1, &out);
    float *logits = calloc((size_t)rows * 2, sizeof *logits);
    int32_t result[64];
    io in[] = {{logits, (size_t)rows * 2 * sizeof *logits}, {&samples, sizeof samples}};
    io outs[] = {{result, sizeof result}};
    int rc = logits ? b_run(&b, in, outs) : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (logits == NULL)
        ANeuralNetworksModel_free(b.m);
    free(logits);
    return rc;
}

static void test_allocations(void)
{
    const int32_t petabytes[] = {1 << 13, 1 << 13, 1 << 12, 1 << 12};
    expect2("impossible allocation", "FILL [2^13,2^13,2^12,2^12] -> temporary",
            run_huge_temporary(false, petabytes, 4), ANEURALNETWORKS_OUT_OF_MEMORY,
            ANEURALNETWORKS_OP_FAILED);
    const int32_t overflow[] = {INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX};
    expect2("impossible allocation", "FILL [2^31-1 x4] -> temporary",
            run_huge_temporary(false, overflow, 4), ANEURALNETWORKS_OUT_OF_MEMORY,
            ANEURALNETWORKS_OP_FAILED);
    const int32_t multiples[] = {1 << 24, 1 << 24};
    expect2("impossible allocation", "TILE [1,1] by {2^24, 2^24} -> temporary",
            run_huge_temporary(true, multiples, 2), ANEURALNETWORKS_OUT_OF_MEMORY,
            ANEURALNETWORKS_OP_FAILED);
    const int32_t overflowing[] = {INT32_MAX, INT32_MAX};
    expect2("impossible allocation", "TILE [1,1] by {2^31-1, 2^31-1} -> temporary",
            run_huge_temporary(true, overflowing, 2), ANEURALNETWORKS_OUT_OF_MEMORY,
            ANEURALNETWORKS_OP_FAILED);
    const int32_t negative[] = {-1, 2};
    expect("negative multiple", "TILE [1,1] by {-1, 2} -> temporary",
           run_huge_temporary(true, negative, 2), ANEURALNETWORKS_OP_FAILED);
    expect2("impossible allocation", "RESIZE_BILINEAR to 2^31-1 x 2^31-1",
            run_resize(INT32_MAX, INT32_MAX), ANEURALNETWORKS_OUT_OF_MEMORY,
            ANEURALNETWORKS_OP_FAILED);
    expect("non-positive size", "RESIZE_BILINEAR to 0 x 4", run_resize(0, 4),
           ANEURALNETWORKS_OP_FAILED);
    expect2("impossible allocation", "RANDOM_MULTINOMIAL 2^16 rows x 2^31-1 samples",
            run_multinomial(1 << 16, INT32_MAX), ANEURALNETWORKS_OUT_OF_MEMORY,
            ANEURALNETWORKS_OP_FAILED);
    expect("non-positive count", "RANDOM_MULTINOMIAL -5 samples", run_multinomial(1, -5),
           ANEURALNETWORKS_OP_FAILED);
    const int32_t fine[] = {2, 3, 1, 1};
    expect("(control) small FILL", "FILL [2,3,1,1] -> temporary",
           run_huge_temporary(false, fine, 4), ANEURALNETWORKS_NO_ERROR);
}

/* ---- indices in data ---- */

static void test_gather(void)
{
    builder b;
    b_init(&b);
    uint32_t d3[] = {3}, d2[] = {2};
    const float values[] = {1, 2, 3};
    uint32_t ins[] = {b_const(&b, F32, 1, d3, values, sizeof values), b_i32(&b, 0),
                      b_input(&b, I32, 1, d2)};
    uint32_t out = b_output(&b, F32, 1, d2);
    b_op(&b, ANEURALNETWORKS_GATHER, 3, ins, 1, &out);
    const int32_t idx[] = {0, 7};
    float result[2];
    io in[] = {{idx, sizeof idx}}, outs[] = {{result, sizeof result}};
    expect("index out of range", "GATHER indices {0, 7} of 3", b_run(&b, in, outs),
           ANEURALNETWORKS_OP_FAILED);

    b_init(&b);
    uint32_t ins2[] = {b_const(&b, F32, 1, d3, values, sizeof values), b_i32(&b, 0),
                       b_input(&b, I32, 1, d2)};
    out = b_output(&b, F32, 1, d2);
    b_op(&b, ANEURALNETWORKS_GATHER, 3, ins2, 1, &out);
    const int32_t neg[] = {-1, 0};
    io in2[] = {{neg, sizeof neg}};
    expect("index out of range", "GATHER indices {-1, 0}", b_run(&b, in2, outs),
           ANEURALNETWORKS_OP_FAILED);
}

static void test_embedding_lookup(void)
{
    builder b;
    b_init(&b);
    uint32_t d2[] = {2}, d32[] = {3, 2}, d22[] = {2, 2};
    const float values[] = {1, 2, 3, 4, 5, 6};
    uint32_t ins[] = {b_input(&b, I32, 1, d2), b_const(&b, F32, 2, d32, values, sizeof values)};
    uint32_t out = b_output(&b, F32, 2, d22);
    b_op(&b, ANEURALNETWORKS_EMBEDDING_LOOKUP, 2, ins, 1, &out);
    const int32_t idx[] = {1, 9};
    float result[4];
    io in[] = {{idx, sizeof idx}}, outs[] = {{result, sizeof result}};
    expect("index out of range", "EMBEDDING_LOOKUP lookups {1, 9} of 3", b_run(&b, in, outs),
           ANEURALNETWORKS_OP_FAILED);
}

static void test_hashtable_lookup(void)
{
    builder b;
    b_init(&b);
    uint32_t d2[] = {2}, d3[] = {3}, d32[] = {3, 2}, d22[] = {2, 2};
    const int32_t keys[] = {1, 5, 7};
    const float values[] = {1, 2, 3, 4, 5, 6};
    uint32_t ins[] = {b_input(&b, I32, 1, d2), b_const(&b, I32, 1, d3, keys, sizeof keys),
                      b_const(&b, F32, 2, d32, values, sizeof values)};
    uint32_t outs_idx[] = {b_output(&b, F32, 2, d22),
                           b_output(&b, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, d2)};
    b_op(&b, ANEURALNETWORKS_HASHTABLE_LOOKUP, 3, ins, 2, outs_idx);
    const int32_t lookups[] = {5, 42};
    float result[4] = {-1, -1, -1, -1};
    uint8_t hits[2] = {9, 9};
    io in[] = {{lookups, sizeof lookups}}, outs[] = {{result, sizeof result}, {hits, 2}};
    expect("missing key (legal)", "HASHTABLE_LOOKUP lookups {5, 42}", b_run(&b, in, outs),
           ANEURALNETWORKS_NO_ERROR);
    CHECK(hits[0] != 0 && hits[1] == 0);
    CHECK(result[0] == 3 && result[1] == 4 && result[2] == 0 && result[3] == 0);
}

static void test_topk(void)
{
    builder b;
    b_init(&b);
    uint32_t d23[] = {2, 3}, unknown[] = {0, 0};
    uint32_t ins[] = {b_input(&b, F32, 2, d23), b_input(&b, SI32, 0, NULL)};
    uint32_t outs_idx[] = {b_output(&b, F32, 2, unknown), b_output(&b, I32, 2, unknown)};
    b_op(&b, ANEURALNETWORKS_TOPK_V2, 2, ins, 2, outs_idx);
    const float x[] = {1, 2, 3, 4, 5, 6};
    const int32_t k = 5;
    float values[16];
    int32_t indices[16];
    io in[] = {{x, sizeof x}, {&k, sizeof k}};
    io outs[] = {{values, sizeof values}, {indices, sizeof indices}};
    expect("k beyond the last dimension", "TOPK_V2 k = 5 of 3", b_run(&b, in, outs),
           ANEURALNETWORKS_OP_FAILED);
}

/* An operation on a [2,3] float input with one or two int32 tensor inputs
 * given at execution, output of unknown shape. */
static int run_2x3(int32_t op, uint32_t n_params, const uint32_t *param_dims[],
                   const uint32_t *param_ranks, const int32_t *params[],
                   const uint32_t *scalars, uint32_t n_scalars)
{
    builder b;
    b_init(&b);
    uint32_t d23[] = {2, 3}, unknown[] = {0, 0};
    uint32_t ins[8];
    ins[0] = b_input(&b, F32, 2, d23);
    for (uint32_t i = 0; i < n_params; i++)
        ins[1 + i] = b_input(&b, I32, param_ranks[i], param_dims[i]);
    for (uint32_t i = 0; i < n_scalars; i++)
        ins[1 + n_params + i] = b_i32(&b, (int32_t)scalars[i]);
    uint32_t out = b_output(&b, F32, 2, unknown);
    b_op(&b, op, 1 + n_params + n_scalars, ins, 1, &out);
    const float x[] = {1, 2, 3, 4, 5, 6};
    float result[64];
    io in[4] = {{x, sizeof x}};
    for (uint32_t i = 0; i < n_params; i++) {
        size_t count = 1;
        for (uint32_t d = 0; d < param_ranks[i]; d++)
            count *= param_dims[i][d];
        in[1 + i] = (io){params[i], count * sizeof(int32_t)};
    }
    io outs[] = {{result, sizeof result}};
    return b_run(&b, in, outs);
}

static void test_slices(void)
{
    uint32_t d2[] = {2}, d22[] = {2, 2};
    const uint32_t *dims2[] = {d2, d2, d2};
    const uint32_t ranks1[] = {1, 1, 1};
    const int32_t begin[] = {1, 2}, size[] = {1, 2};
    const int32_t *slice_params[] = {begin, size};
    expect("begin+size out of range", "SLICE [2,3] begin {1,2} size {1,2}",
           run_2x3(ANEURALNETWORKS_SLICE, 2, dims2, ranks1, slice_params, NULL, 0),
           ANEURALNETWORKS_OP_FAILED);
    const int32_t far[] = {5, 0}, one[] = {1, 1};
    const int32_t *far_params[] = {far, one};
    expect("begin+size out of range", "SLICE [2,3] begin {5,0} size {1,1}",
           run_2x3(ANEURALNETWORKS_SLICE, 2, dims2, ranks1, far_params, NULL, 0),
           ANEURALNETWORKS_OP_FAILED);

    const int32_t sb[] = {0, 0}, se[] = {2, 3}, zero_stride[] = {1, 0};
    const int32_t *ss_zero[] = {sb, se, zero_stride};
    const uint32_t masks[] = {0, 0, 0};
    expect("zero stride", "STRIDED_SLICE strides {1, 0}",
           run_2x3(ANEURALNETWORKS_STRIDED_SLICE, 3, dims2, ranks1, ss_zero, masks, 3),
           ANEURALNETWORKS_OP_FAILED);
    const int32_t shrink_b[] = {7, 0}, shrink_e[] = {8, 3}, st[] = {1, 1};
    const int32_t *ss_shrink[] = {shrink_b, shrink_e, st};
    const uint32_t shrink[] = {0, 0, 1};
    expect("begin out of range", "STRIDED_SLICE shrink dim 0 at begin 7 of 2",
           run_2x3(ANEURALNETWORKS_STRIDED_SLICE, 3, dims2, ranks1, ss_shrink, shrink, 3),
           ANEURALNETWORKS_OP_FAILED);

    const int32_t shape[] = {4, 2};
    const int32_t *reshape_params[] = {shape};
    expect("impossible shape", "RESHAPE [2,3] to {4, 2}",
           run_2x3(ANEURALNETWORKS_RESHAPE, 1, dims2, ranks1, reshape_params, NULL, 0),
           ANEURALNETWORKS_OP_FAILED);
    const int32_t two_infer[] = {-1, -1};
    const int32_t *infer_params[] = {two_infer};
    expect("impossible shape", "RESHAPE [2,3] to {-1, -1}",
           run_2x3(ANEURALNETWORKS_RESHAPE, 1, dims2, ranks1, infer_params, NULL, 0),
           ANEURALNETWORKS_OP_FAILED);

    const uint32_t *dims22[] = {d22};
    const uint32_t ranks2[] = {2};
    const int32_t pads[] = {-1, 0, 0, 0};
    const int32_t *pad_params[] = {pads};
    expect("negative padding", "PAD [2,3] paddings {{-1,0},{0,0}}",
           run_2x3(ANEURALNETWORKS_PAD, 1, dims22, ranks2, pad_params, NULL, 0),
           ANEURALNETWORKS_OP_FAILED);
    const int32_t huge_pads[] = {0, INT32_MAX, 0, INT32_MAX};
    const int32_t *huge_pad_params[] = {huge_pads};
    expect2("impossible allocation", "PAD [2,3] paddings {{0,2^31-1},{0,2^31-1}}",
            run_2x3(ANEURALNETWORKS_PAD, 1, dims22, ranks2, huge_pad_params, NULL, 0),
            ANEURALNETWORKS_OUT_OF_MEMORY, ANEURALNETWORKS_OP_FAILED);
}

/* ROI_ALIGN (align) or ROI_POOLING on a 1x2x2x1 map, one ROI. */
static int run_roi(bool align, int32_t batch, const float roi[4], int32_t ratio)
{
    builder b;
    b_init(&b);
    uint32_t dmap[] = {1, 2, 2, 1}, droi[] = {1, 4}, d1[] = {1}, dout[] = {1, 2, 2, 1};
    uint32_t ins[10];
    ins[0] = b_input(&b, F32, 4, dmap);
    ins[1] = b_input(&b, F32, 2, droi);
    ins[2] = b_input(&b, I32, 1, d1);
    ins[3] = b_i32(&b, 2);
    ins[4] = b_i32(&b, 2);
    ins[5] = b_f32(&b, 1.0f);
    ins[6] = b_f32(&b, 1.0f);
    uint32_t n = 8;
    if (align) {
        ins[7] = b_i32(&b, ratio);
        ins[8] = b_i32(&b, ratio);
        ins[9] = b_bool(&b, false);
        n = 10;
    } else {
        ins[7] = b_bool(&b, false);
    }
    uint32_t out = b_output(&b, F32, 4, dout);
    b_op(&b, align ? ANEURALNETWORKS_ROI_ALIGN : ANEURALNETWORKS_ROI_POOLING, n, ins, 1, &out);
    const float map[] = {1, 2, 3, 4};
    float result[4];
    io in[] = {{map, sizeof map}, {roi, 4 * sizeof(float)}, {&batch, sizeof batch}};
    io outs[] = {{result, sizeof result}};
    return b_run(&b, in, outs);
}

static void test_roi(void)
{
    const float roi[] = {0, 0, 1, 1};
    expect("batch index out of range", "ROI_ALIGN batch index 3 of 1", run_roi(true, 3, roi, 0),
           ANEURALNETWORKS_OP_FAILED);
    expect("batch index out of range", "ROI_ALIGN batch index -1", run_roi(true, -1, roi, 0),
           ANEURALNETWORKS_OP_FAILED);
    expect("batch index out of range", "ROI_POOLING batch index 3 of 1",
           run_roi(false, 3, roi, 0), ANEURALNETWORKS_OP_FAILED);
    /* Adaptive sampling would take ceil(roi / bin) = 5e29 points per bin. */
    const float huge[] = {0, 0, 1e30f, 1e30f};
    expect2("huge ROI (bounded work)", "ROI_ALIGN roi {0,0,1e30,1e30}",
            run_roi(true, 0, huge, 0), ANEURALNETWORKS_OP_FAILED, ANEURALNETWORKS_NO_ERROR);
    expect2("huge sampling ratio (bounded)", "ROI_ALIGN sampling ratio 2^31-1",
            run_roi(true, 0, roi, INT32_MAX), ANEURALNETWORKS_OP_FAILED,
            ANEURALNETWORKS_NO_ERROR);
    const float nan_roi[] = {NAN, 0, INFINITY, -INFINITY};
    expect2("NaN/inf ROI", "ROI_ALIGN roi {nan,0,inf,-inf}", run_roi(true, 0, nan_roi, 0),
            ANEURALNETWORKS_OP_FAILED, ANEURALNETWORKS_NO_ERROR);
    expect2("NaN/inf ROI", "ROI_POOLING roi {nan,0,inf,-inf}", run_roi(false, 0, nan_roi, 0),
            ANEURALNETWORKS_OP_FAILED, ANEURALNETWORKS_NO_ERROR);
    expect("(control) ROI inside the map", "ROI_ALIGN roi {0,0,1,1}", run_roi(true, 0, roi, 0),
           ANEURALNETWORKS_NO_ERROR);
}

static void test_box_with_nms(void)
{
    builder b;
    b_init(&b);
    uint32_t d22[] = {2, 2}, d28[] = {2, 8}, d2[] = {2}, u1[] = {0}, u2[] = {0, 0};
    uint32_t ins[] = {b_input(&b, F32, 2, d22),   b_input(&b, F32, 2, d28),
                      b_input(&b, I32, 1, d2),    b_f32(&b, 0.0f),
                      b_i32(&b, -1),              b_i32(&b, 0),
                      b_f32(&b, 0.5f),            b_f32(&b, 0.5f),
                      b_f32(&b, 0.0f)};
    uint32_t outs_idx[] = {b_output(&b, F32, 1, u1), b_output(&b, F32, 2, u2),
                           b_output(&b, I32, 1, u1), b_output(&b, I32, 1, u1)};
    b_op(&b, ANEURALNETWORKS_BOX_WITH_NMS_LIMIT, 9, ins, 4, outs_idx);
    const float scores[] = {0.1f, 0.9f, 0.2f, 0.8f};
    const float boxes[] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 2, 2};
    const int32_t batches[] = {0, -7};
    float o_scores[8], o_boxes[32];
    int32_t o_classes[8], o_batches[8];
    io in[] = {{scores, sizeof scores}, {boxes, sizeof boxes}, {batches, sizeof batches}};
    io outs[] = {{o_scores, sizeof o_scores},
                 {o_boxes, sizeof o_boxes},
                 {o_classes, sizeof o_classes},
                 {o_batches, sizeof o_batches}};
    expect("bad batch index", "BOX_WITH_NMS_LIMIT batch indices {0, -7}", b_run(&b, in, outs),
           ANEURALNETWORKS_OP_FAILED);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("%-34s | %-46s | %s\n", "class", "call", "code returned");
    test_memory();
    test_omitted();
    test_operand_sizes();
    test_allocations();
    test_gather();
    test_embedding_lookup();
    test_hashtable_lookup();
    test_topk();
    test_slices();
    test_roi();
    test_box_with_nms();
    return nt_summary();
}
