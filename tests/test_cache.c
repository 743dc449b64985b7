/*
 * The compilation cache (ANeuralNetworksCompilation_setCaching, src/compile/cache.c):
 *   - a miss writes the entry named from the whole token, a hit maps it, and
 *     both compute exactly what a compilation without cache computes, for a
 *     float model (packed GEMM weights) and a quantized one (packed int8
 *     weights, pair tables); a new model object with the same content hits;
 *   - every byte of the token counts; the entry name has a fixed length;
 *   - an entry kept mapped after a hit is checked in full again once its
 *     file is written in place or replaced;
 *   - corrupt, truncated, empty, zero-filled, foreign entries, and headers of
 *     another format, library version, D_ISA, byte order, token or model (their
 *     own hash intact) are ignored and rewritten;
 *   - another model, relaxed flag, preference or constant value (also one in
 *     a memory object) under the same token misses;
 *   - a finished model keeps its hash, one with a constant in a memory
 *     object does not: new content in the memory misses;
 *   - an operation that validates but must fail when computed fails the
 *     same way cold, on a miss and on a hit; one reading a memory object is
 *     validated again when compiled (the content may have changed);
 *   - one entry per token; a miss removes the stale temporary files of
 *     writers that died, and nothing else;
 *   - an entry that is a directory or a FIFO, and a cacheDir that does not
 *     exist, is a file or cannot be written, compile normally;
 *   - the hash gives the same result whatever the split of its input (its
 *     vector and portable block paths agree); weights of more than 1 MiB
 *     (hashed in pieces, on the thread pool) hit, and miss when one value
 *     changes;
 *   - many threads, and two processes, compiling the same model with the
 *     same token at once all succeed with identical results;
 *   - an entry written by another D_ISA level (NNAPI_LINUX_ISA in a child
 *     process) is not used, and the results agree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compile/cache.h"
#include "kernels/isa.h"
#include "runtime.h"
#include "test_util.h"

/* ------------------------------------------------------------- models */

enum { FLOAT_MODEL, QUANT_MODEL };

#define H 6
#define W 6
#define CIN 8
#define COUT 20

typedef struct test_model {
    ANeuralNetworksModel *model;
    int kind;
    size_t in_bytes, out_bytes;
    float weights_f[COUT * 3 * 3 * CIN];
    uint8_t weights_q[COUT * CIN];
    float bias_f[COUT];
    int32_t bias_q[COUT];
    ANeuralNetworksMemory *memory; /* weights from a memory object, if any */
    int fd;
} test_model;

static uint32_t add_operand(ANeuralNetworksModel *m, uint32_t *next, int32_t type, uint32_t rank,
                            const uint32_t *dims, float scale, int32_t zp)
{
    ANeuralNetworksOperandType t = {type, rank, dims, scale, zp};
    CHECK_OK(ANeuralNetworksModel_addOperand(m, &t));
    return (*next)++;
}

static uint32_t add_i32(ANeuralNetworksModel *m, uint32_t *next, int32_t v)
{
    uint32_t i = add_operand(m, next, ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0);
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, i, &v, sizeof v));
    return i;
}

/* FLOAT_MODEL: 3x3 CONV_2D, float32. QUANT_MODEL: 1x1 CONV_2D on uint8 then
 * ADD of its output with itself. seed changes the weights; from_memory puts
 * the float weights in a memory object. */
/* When set, build_model swaps the first two 64-byte blocks of the float
 * weights: the same values, permuted. */
static bool swap_first_blocks;

static void build_model(test_model *tm, int kind, uint32_t seed, bool relaxed, bool from_memory)
{
    memset(tm, 0, sizeof *tm);
    tm->kind = kind;
    tm->fd = -1;
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < sizeof tm->weights_f / sizeof *tm->weights_f; i++) {
        x = x * 1664525u + 1013904223u;
        tm->weights_f[i] = (float)(int32_t)(x >> 24) / 256.0f - 0.5f;
    }
    _Static_assert(sizeof tm->weights_f >= 128, "two blocks to swap");
    if (swap_first_blocks) {
        uint8_t *w = (uint8_t *)tm->weights_f, tmp[64];
        memcpy(tmp, w, 64);
        memcpy(w, w + 64, 64);
        memcpy(w + 64, tmp, 64);
    }
    for (size_t i = 0; i < sizeof tm->weights_q; i++) {
        x = x * 1664525u + 1013904223u;
        tm->weights_q[i] = (uint8_t)(x >> 24);
    }
    for (int i = 0; i < COUT; i++) {
        tm->bias_f[i] = (float)i / 16.0f;
        tm->bias_q[i] = i * 37 - 300;
    }
    ANeuralNetworksModel *m;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t next = 0;
    uint32_t in_dims[4] = {1, H, W, CIN}, out_dims[4] = {1, H, W, COUT}, b_dims[1] = {COUT};
    uint32_t in, filter, bias, conv_out, out;
    if (kind == FLOAT_MODEL) {
        uint32_t f_dims[4] = {COUT, 3, 3, CIN};
        in = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 4, in_dims, 0.0f, 0);
        filter = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 4, f_dims, 0.0f, 0);
        bias = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 1, b_dims, 0.0f, 0);
        if (from_memory) {
            char path[] = "/tmp/test_cache_mem_XXXXXX";
            tm->fd = mkstemp(path);
            CHECK(tm->fd >= 0);
            unlink(path);
            CHECK(write(tm->fd, tm->weights_f, sizeof tm->weights_f) == (ssize_t)sizeof tm->weights_f);
            CHECK_OK(ANeuralNetworksMemory_createFromFd(sizeof tm->weights_f, PROT_READ, tm->fd, 0,
                                                        &tm->memory));
            CHECK_OK(ANeuralNetworksModel_setOperandValueFromMemory(m, filter, tm->memory, 0,
                                                                    sizeof tm->weights_f));
        } else {
            CHECK_OK(ANeuralNetworksModel_setOperandValue(m, filter, tm->weights_f,
                                                          sizeof tm->weights_f));
        }
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, bias, tm->bias_f, sizeof tm->bias_f));
        out = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 4, out_dims, 0.0f, 0);
        uint32_t ins[7] = {in, filter, bias, add_i32(m, &next, ANEURALNETWORKS_PADDING_SAME),
                           add_i32(m, &next, 1), add_i32(m, &next, 1),
                           add_i32(m, &next, ANEURALNETWORKS_FUSED_NONE)};
        CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_CONV_2D, 7, ins, 1, &out));
        tm->in_bytes = sizeof(float) * H * W * CIN;
        tm->out_bytes = sizeof(float) * H * W * COUT;
    } else {
        uint32_t f_dims[4] = {COUT, 1, 1, CIN};
        in = add_operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, in_dims, 0.05f, 120);
        filter = add_operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, f_dims, 0.02f, 128);
        bias = add_operand(m, &next, ANEURALNETWORKS_TENSOR_INT32, 1, b_dims, 0.05f * 0.02f, 0);
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, filter, tm->weights_q, sizeof tm->weights_q));
        CHECK_OK(ANeuralNetworksModel_setOperandValue(m, bias, tm->bias_q, sizeof tm->bias_q));
        conv_out = add_operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, out_dims, 0.1f, 100);
        uint32_t ins[7] = {in, filter, bias, add_i32(m, &next, ANEURALNETWORKS_PADDING_SAME),
                           add_i32(m, &next, 1), add_i32(m, &next, 1),
                           add_i32(m, &next, ANEURALNETWORKS_FUSED_NONE)};
        CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_CONV_2D, 7, ins, 1, &conv_out));
        out = add_operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, out_dims, 0.15f, 90);
        uint32_t add_ins[3] = {conv_out, conv_out, add_i32(m, &next, ANEURALNETWORKS_FUSED_RELU)};
        CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add_ins, 1, &out));
        tm->in_bytes = (size_t)H * W * CIN;
        tm->out_bytes = (size_t)H * W * COUT;
    }
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &in, 1, &out));
    if (relaxed)
        CHECK_OK(ANeuralNetworksModel_relaxComputationFloat32toFloat16(m, true));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    tm->model = m;
}

static void free_model(test_model *tm)
{
    ANeuralNetworksModel_free(tm->model);
    ANeuralNetworksMemory_free(tm->memory);
    if (tm->fd >= 0)
        close(tm->fd);
}

static void fill_input(const test_model *tm, void *in)
{
    uint32_t x = 99;
    for (size_t i = 0; i < tm->in_bytes; i++) {
        x = x * 1664525u + 1013904223u;
        ((uint8_t *)in)[i] = (uint8_t)(x >> 24);
    }
    if (tm->kind == FLOAT_MODEL)
        for (size_t i = 0; i < tm->in_bytes / 4; i++)
            ((float *)in)[i] = (float)(((uint8_t *)in)[4 * i]) / 64.0f - 2.0f;
}

/* Compiles (with the cache when dir is not NULL) and computes into out;
 * returns the compilation's status and whether it was a hit. */
static int compile_run(const test_model *tm, const char *dir, const uint8_t *token, int32_t pref,
                       void *out, bool *hit)
{
    ANeuralNetworksCompilation *c = NULL;
    int rc = ANeuralNetworksCompilation_create(tm->model, &c);
    if (rc == ANEURALNETWORKS_NO_ERROR && pref >= 0)
        rc = ANeuralNetworksCompilation_setPreference(c, pref);
    if (rc == ANEURALNETWORKS_NO_ERROR && dir)
        rc = ANeuralNetworksCompilation_setCaching(c, dir, token);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(c);
    if (hit)
        *hit = rc == ANEURALNETWORKS_NO_ERROR && nn_cache_is_hit(c->cache);
    uint8_t in[sizeof(float) * H * W * CIN];
    fill_input(tm, in);
    ANeuralNetworksExecution *e = NULL;
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_create(c, &e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_setInput(e, 0, NULL, in, tm->in_bytes);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_setOutput(e, 0, NULL, out, tm->out_bytes);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_compute(e);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    return rc;
}

#define OUT_MAX (sizeof(float) * H * W * COUT)

/* ------------------------------------------------------------ helpers */

static char *make_dir(void)
{
    char tmpl[] = "/tmp/test_cache_XXXXXX";
    char *d = mkdtemp(tmpl);
    CHECK(d != NULL);
    return d ? strdup(d) : NULL;
}

static void remove_dir(char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            if (unlink(path) != 0)
                rmdir(path);
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

static int count_files(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

static uint8_t *read_file(const char *path, size_t *bytes)
{
    *bytes = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    struct stat st;
    uint8_t *data = NULL;
    if (fstat(fd, &st) == 0 && (data = malloc((size_t)st.st_size + 1)) != NULL) {
        if (read(fd, data, (size_t)st.st_size) == st.st_size) {
            *bytes = (size_t)st.st_size;
        } else {
            free(data);
            data = NULL;
        }
    }
    close(fd);
    return data;
}

static void write_file(const char *path, const void *data, size_t bytes)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK(write(fd, data, bytes) == (ssize_t)bytes);
        close(fd);
    }
}

static const uint8_t token_a[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = "token A of the cache test.....!";
static const uint8_t token_b[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = "token B of the cache test.....!";

/* The reference output of a model: computed without any cache. */
static void reference(const test_model *tm, uint8_t *out)
{
    CHECK_OK(compile_run(tm, NULL, NULL, -1, out, NULL));
}

/* ---------------------------------------------------------- the tests */

static void test_hit_miss(int kind)
{
    char *dir = make_dir();
    test_model tm;
    build_model(&tm, kind, 1, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    bool hit = true;
    memset(got, 0xee, sizeof got);
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(!hit);
    CHECK(memcmp(got, want, tm.out_bytes) == 0);
    char *path = nn_cache_entry_path(dir, token_a);
    struct stat before, after;
    CHECK(stat(path, &before) == 0);
    CHECK(before.st_size > (off_t)NN_CACHE_HEADER_SPAN);
    CHECK_EQ_INT(count_files(dir), 1); /* no temporary left behind */
    for (int i = 0; i < 3; i++) {
        memset(got, 0xee, sizeof got);
        CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
        CHECK(hit);
        CHECK(memcmp(got, want, tm.out_bytes) == 0);
    }
    CHECK(stat(path, &after) == 0);
    CHECK(after.st_ino == before.st_ino); /* a hit does not rewrite */
    /* Another model object with the same content hits. */
    test_model again;
    build_model(&again, kind, 1, false, false);
    CHECK_OK(compile_run(&again, dir, token_a, -1, got, &hit));
    CHECK(hit);
    CHECK(memcmp(got, want, tm.out_bytes) == 0);
    free_model(&again);
    free(path);
    free_model(&tm);
    remove_dir(dir);
}

static void test_token(void)
{
    char *dir = make_dir();
    test_model tm;
    build_model(&tm, FLOAT_MODEL, 2, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    uint8_t t1[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN], t2[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN];
    memset(t1, 0x5a, sizeof t1);
    memcpy(t2, t1, sizeof t2);
    t2[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN - 1] ^= 1; /* the last byte counts */
    bool hit;
    CHECK_OK(compile_run(&tm, dir, t1, -1, got, &hit));
    CHECK(!hit);
    CHECK_OK(compile_run(&tm, dir, t2, -1, got, &hit));
    CHECK(!hit);
    CHECK(memcmp(got, want, tm.out_bytes) == 0);
    CHECK_EQ_INT(count_files(dir), 2);
    CHECK_OK(compile_run(&tm, dir, t1, -1, got, &hit));
    CHECK(hit);
    char *p1 = nn_cache_entry_path(dir, t1), *p2 = nn_cache_entry_path(dir, t2);
    const char *name = strrchr(p1, '/') + 1;
    CHECK_EQ_INT(strlen(name), strlen("nnapi-linux-") + 2 * ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN +
                                   strlen(".cache"));
    CHECK(strcmp(p1, p2) != 0);
    CHECK(strncmp(name, "nnapi-linux-5a5a", 16) == 0);
    free(p1);
    free(p2);
    free_model(&tm);
    remove_dir(dir);
}

typedef enum {
    D_EMPTY, D_TRUNCATED_HEADER, D_TRUNCATED_PAYLOAD, D_EXTENDED, D_HEADER_BYTE, D_PAYLOAD_BYTE, D_LAST_BYTE,
    D_ZERO_FILLED, D_FOREIGN, D_BAD_MAGIC, D_FORMAT, D_LIBRARY, D_ISA, D_BYTE_ORDER, D_TOKEN, D_MODEL_HASH,
    D_FILE_SIZE, D_BLOB_OUTSIDE, D_BLOB_UNALIGNED, D_BLOB_COUNT, N_DAMAGE
} damage;

static const char *const damage_names[N_DAMAGE] = {
    "empty", "truncated header", "truncated payload", "extended", "header byte", "payload byte",
    "last byte", "zero-filled", "foreign", "bad magic", "format version", "library version",
    "D_ISA", "byte order", "token", "model hash", "file size", "blob outside", "blob unaligned",
    "blob count"};

/* Damages an entry image; the header's own hash is resealed for the cases
 * that test what follows it, and the payload hash for the table cases. */
static size_t apply_damage(damage d, uint8_t *img, size_t bytes)
{
    cache_header hd;
    memcpy(&hd, img, sizeof hd);
    cache_blob *table = (cache_blob *)(img + NN_CACHE_HEADER_SPAN);
    bool reseal = true;
    switch (d) {
    case D_EMPTY:
        return 0;
    case D_TRUNCATED_HEADER:
        return NN_CACHE_HEADER_SPAN / 2;
    case D_TRUNCATED_PAYLOAD:
        return bytes - 100;
    case D_EXTENDED:
        memset(img + bytes, 0, 64);
        return bytes + 64;
    case D_HEADER_BYTE:
        img[20] ^= 0x10;
        return bytes;
    case D_PAYLOAD_BYTE:
        img[NN_CACHE_HEADER_SPAN + sizeof(cache_blob) * hd.n_blobs + 200] ^= 0x01;
        return bytes;
    case D_LAST_BYTE:
        img[bytes - 1] ^= 0x80;
        return bytes;
    case D_ZERO_FILLED:
        memset(img, 0, bytes);
        return bytes;
    case D_FOREIGN:
        for (size_t i = 0; i < bytes; i++)
            img[i] = (uint8_t)(i * 7 + 3);
        return bytes;
    case D_BAD_MAGIC:
        hd.magic[0] = 'X';
        break;
    case D_FORMAT:
        hd.format = NN_CACHE_FORMAT + 1;
        break;
    case D_LIBRARY:
        hd.library[0] ^= 1;
        break;
    case D_ISA:
        hd.isa = hd.isa == NN_ISA_C ? NN_ISA_AVX2 : NN_ISA_C;
        break;
    case D_BYTE_ORDER:
        hd.byte_order = 0x04030201u;
        break;
    case D_TOKEN:
        hd.token[5] ^= 1;
        break;
    case D_MODEL_HASH:
        hd.model_hash[NN_CACHE_HASH_BYTES - 1] ^= 1;
        break;
    case D_FILE_SIZE:
        hd.file_bytes += 64;
        break;
    case D_BLOB_OUTSIDE: /* the table is checked before the payload's hash */
        table[hd.n_blobs - 1].bytes = bytes;
        break;
    case D_BLOB_UNALIGNED:
        table[0].offset += 4;
        break;
    case D_BLOB_COUNT:
        hd.n_blobs = 0xffffffffu;
        break;
    default:
        reseal = false;
    }
    if (reseal)
        nn_cache_seal_header(&hd);
    memcpy(img, &hd, sizeof hd);
    return bytes;
}

static void test_damage(int kind)
{
    test_model tm;
    build_model(&tm, kind, 3, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    for (int d = 0; d < N_DAMAGE; d++) {
        char *dir = make_dir();
        char *path = nn_cache_entry_path(dir, token_a);
        bool hit;
        CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
        size_t bytes;
        uint8_t *img = read_file(path, &bytes);
        CHECK(img != NULL && bytes > NN_CACHE_HEADER_SPAN + 300);
        if (img == NULL) {
            free(path);
            remove_dir(dir);
            continue;
        }
        uint8_t *grown = realloc(img, bytes + 64);
        CHECK(grown != NULL);
        if (grown) {
            img = grown;
            size_t n = apply_damage((damage)d, img, bytes);
            write_file(path, img, n);
        }
        memset(got, 0xee, sizeof got);
        int rc = compile_run(&tm, dir, token_a, -1, got, &hit);
        bool ok = rc == ANEURALNETWORKS_NO_ERROR && !hit && memcmp(got, want, tm.out_bytes) == 0;
        if (!nt_record(ok, __FILE__, __LINE__, "damaged entry ignored"))
            fprintf(stderr, "    (%s entry, model %d: rc %d, hit %d)\n", damage_names[d], kind, rc,
                    hit);
        /* ... and rewritten: the next compilation hits again. */
        CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
        if (!nt_record(hit && memcmp(got, want, tm.out_bytes) == 0, __FILE__, __LINE__,
                       "damaged entry rewritten"))
            fprintf(stderr, "    (%s entry, model %d)\n", damage_names[d], kind);
        free(img);
        free(path);
        remove_dir(dir);
    }
    free_model(&tm);
}

/* An entry the process keeps mapped after a hit is checked in full again
 * once its file changes: a payload byte written in place (same size, same
 * inode) or the entry replaced by another file. */
static void test_damage_kept(int kind)
{
    test_model tm;
    build_model(&tm, kind, 8, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    char *dir = make_dir();
    char *path = nn_cache_entry_path(dir, token_a);
    bool hit;
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(!hit);
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(hit && memcmp(got, want, tm.out_bytes) == 0);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size > (off_t)NN_CACHE_HEADER_SPAN + 64);
    /* The last byte belongs to the last blob. */
    uint8_t byte = 0;
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0 && pread(fd, &byte, 1, st.st_size - 1) == 1);
    byte ^= 0x10;
    CHECK(fd >= 0 && pwrite(fd, &byte, 1, st.st_size - 1) == 1);
    if (fd >= 0)
        close(fd);
    memset(got, 0xee, sizeof got);
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(!hit && memcmp(got, want, tm.out_bytes) == 0);
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(hit && memcmp(got, want, tm.out_bytes) == 0);
    /* Another model's entry renamed over this one: another file. */
    test_model other;
    build_model(&other, kind, 9, false, false);
    char *other_dir = make_dir();
    char *other_path = nn_cache_entry_path(other_dir, token_a);
    CHECK_OK(compile_run(&other, other_dir, token_a, -1, got, &hit));
    CHECK(rename(other_path, path) == 0);
    memset(got, 0xee, sizeof got);
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(!hit && memcmp(got, want, tm.out_bytes) == 0);
    free(other_path);
    remove_dir(other_dir);
    free_model(&other);
    free(path);
    remove_dir(dir);
    free_model(&tm);
}

/* The writer of an entry keeps it as a checked one (its modification time
 * set back when it was written within the current clock tick): a hit then
 * hashes the model only. A payload byte written in place right after the
 * write is still found, since it changes the modification time. */
static void test_written_kept(int kind)
{
    test_model tm;
    build_model(&tm, kind, 13, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    for (int round = 0; round < 3; round++) {
        char *dir = make_dir();
        char *path = nn_cache_entry_path(dir, token_a);
        bool hit;
        CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
        CHECK(!hit && memcmp(got, want, tm.out_bytes) == 0);
        bool kept = nn_cache_entry_kept(path);
        CHECK(kept);
        if (kept) {
            /* Kept: a hit, with the written blobs. */
            memset(got, 0xee, sizeof got);
            CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
            CHECK(hit && memcmp(got, want, tm.out_bytes) == 0);
            struct stat st;
            CHECK(stat(path, &st) == 0);
            uint8_t byte = 0;
            int fd = open(path, O_RDWR);
            CHECK(fd >= 0 && pread(fd, &byte, 1, st.st_size - 1) == 1);
            byte ^= 0x21;
            CHECK(fd >= 0 && pwrite(fd, &byte, 1, st.st_size - 1) == 1);
            if (fd >= 0)
                close(fd);
            CHECK(!nn_cache_entry_kept(path));
            memset(got, 0xee, sizeof got);
            CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
            CHECK(!hit && memcmp(got, want, tm.out_bytes) == 0);
        }
        free(path);
        remove_dir(dir);
    }
    free_model(&tm);
}

/* What the model hash covers: each variation under the same token misses
 * and computes its own results. */
static void test_model_changes(void)
{
    char *dir = make_dir();
    uint8_t want[OUT_MAX], got[OUT_MAX];
    bool hit;
    test_model base;
    build_model(&base, FLOAT_MODEL, 4, false, false);
    CHECK_OK(compile_run(&base, dir, token_a, -1, got, &hit));
    struct {
        const char *what;
        int kind;
        uint32_t seed;
        bool relaxed, memory;
        int32_t pref;
        bool swapped;
    } cases[] = {
        {"other weights", FLOAT_MODEL, 5, false, false, -1, false},
        {"base again", FLOAT_MODEL, 4, false, false, -1, false},
        {"weights with two 64-byte blocks swapped", FLOAT_MODEL, 4, false, false, -1, true},
        {"other model", QUANT_MODEL, 4, false, false, -1, false},
        {"relaxed", FLOAT_MODEL, 4, true, false, -1, false},
        {"preference", FLOAT_MODEL, 4, false, false, ANEURALNETWORKS_PREFER_LOW_POWER, false},
        {"weights in memory", FLOAT_MODEL, 4, false, true, -1, false},
        {"other weights in memory", FLOAT_MODEL, 6, false, true, -1, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        test_model tm;
        swap_first_blocks = cases[i].swapped;
        build_model(&tm, cases[i].kind, cases[i].seed, cases[i].relaxed, cases[i].memory);
        swap_first_blocks = false;
        CHECK_OK(compile_run(&tm, NULL, NULL, cases[i].pref, want, NULL));
        memset(got, 0xee, sizeof got);
        CHECK_OK(compile_run(&tm, dir, token_a, cases[i].pref, got, &hit));
        if (!nt_record(!hit && memcmp(got, want, tm.out_bytes) == 0, __FILE__, __LINE__,
                       "a changed model misses"))
            fprintf(stderr, "    (%s)\n", cases[i].what);
        /* The same content, from a memory object or not, hits. */
        CHECK_OK(compile_run(&tm, dir, token_a, cases[i].pref, got, &hit));
        CHECK(hit && memcmp(got, want, tm.out_bytes) == 0);
        free_model(&tm);
    }
    free_model(&base);
    remove_dir(dir);
}

/* A finished model keeps its hash, unless a constant is in a memory object:
 * that content may change once the executions using the model are done,
 * and the next compilation of the same model object must not use the
 * entry of the old content. */
static void test_kept_hash(void)
{
    char *dir = make_dir();
    test_model tm;
    build_model(&tm, FLOAT_MODEL, 11, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    bool hit;
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(!hit);
    CHECK_EQ_INT(atomic_load(&tm.model->cache_hash_state), 2);
    memset(got, 0xee, sizeof got);
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(hit && memcmp(got, want, tm.out_bytes) == 0);
    free_model(&tm);

    build_model(&tm, FLOAT_MODEL, 12, false, true);
    reference(&tm, want);
    CHECK_OK(compile_run(&tm, dir, token_b, -1, got, &hit));
    CHECK(!hit);
    CHECK_EQ_INT(atomic_load(&tm.model->cache_hash_state), 0);
    CHECK_OK(compile_run(&tm, dir, token_b, -1, got, &hit));
    CHECK(hit && memcmp(got, want, tm.out_bytes) == 0);
    /* Other weights in the memory, through its file. */
    for (size_t i = 0; i < sizeof tm.weights_f / sizeof *tm.weights_f; i++)
        tm.weights_f[i] = -tm.weights_f[i] * 0.5f + 0.125f;
    CHECK(pwrite(tm.fd, tm.weights_f, sizeof tm.weights_f, 0) == (ssize_t)sizeof tm.weights_f);
    uint8_t want_new[OUT_MAX];
    reference(&tm, want_new);
    CHECK(memcmp(want_new, want, tm.out_bytes) != 0);
    memset(got, 0xee, sizeof got);
    CHECK_OK(compile_run(&tm, dir, token_b, -1, got, &hit));
    CHECK(!hit);
    CHECK(memcmp(got, want_new, tm.out_bytes) == 0);
    CHECK_OK(compile_run(&tm, dir, token_b, -1, got, &hit));
    CHECK(hit && memcmp(got, want_new, tm.out_bytes) == 0);
    free_model(&tm);
    remove_dir(dir);
}

/* A quantized 1x1 CONV_2D (QUANT_MODEL's first operation) with the given
 * bias scale and a fused activation code from a memory object (tm->fd). */
static void build_deferred(test_model *tm, float bias_scale, int32_t act)
{
    memset(tm, 0, sizeof *tm);
    tm->kind = QUANT_MODEL;
    for (size_t i = 0; i < sizeof tm->weights_q; i++)
        tm->weights_q[i] = (uint8_t)(i * 29 + 7);
    for (int i = 0; i < COUT; i++)
        tm->bias_q[i] = i * 53 - 400;
    char path[] = "/tmp/test_cache_act_XXXXXX";
    tm->fd = mkstemp(path);
    CHECK(tm->fd >= 0);
    unlink(path);
    CHECK(pwrite(tm->fd, &act, sizeof act, 0) == (ssize_t)sizeof act);
    CHECK_OK(ANeuralNetworksMemory_createFromFd(sizeof act, PROT_READ, tm->fd, 0, &tm->memory));
    ANeuralNetworksModel *m;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t next = 0;
    uint32_t in_dims[4] = {1, H, W, CIN}, out_dims[4] = {1, H, W, COUT}, b_dims[1] = {COUT};
    uint32_t f_dims[4] = {COUT, 1, 1, CIN};
    uint32_t in = add_operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, in_dims, 0.05f, 120);
    uint32_t filter = add_operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, f_dims, 0.02f, 128);
    uint32_t bias = add_operand(m, &next, ANEURALNETWORKS_TENSOR_INT32, 1, b_dims, bias_scale, 0);
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, filter, tm->weights_q, sizeof tm->weights_q));
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, bias, tm->bias_q, sizeof tm->bias_q));
    uint32_t act_index = add_operand(m, &next, ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0);
    CHECK_OK(ANeuralNetworksModel_setOperandValueFromMemory(m, act_index, tm->memory, 0, sizeof act));
    uint32_t out = add_operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, out_dims, 0.1f, 100);
    uint32_t ins[7] = {in, filter, bias, add_i32(m, &next, ANEURALNETWORKS_PADDING_SAME),
                       add_i32(m, &next, 1), add_i32(m, &next, 1), act_index};
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_CONV_2D, 7, ins, 1, &out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &in, 1, &out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    tm->model = m;
    tm->in_bytes = (size_t)H * W * CIN;
    tm->out_bytes = (size_t)H * W * COUT;
}

/* Compiles without cache, then misses and hits with it: the compilations
 * succeed and every computation returns want (outputs equal where it is
 * NO_ERROR). */
static void check_deferred(const test_model *tm, const char *dir, const uint8_t *token, int want,
                           const char *what)
{
    uint8_t ref[OUT_MAX], got[OUT_MAX];
    bool hit_miss, hit;
    int rc_ref = compile_run(tm, NULL, NULL, -1, ref, NULL);
    memset(got, 0xee, sizeof got);
    int rc_miss = compile_run(tm, dir, token, -1, got, &hit_miss);
    bool same_miss = rc_miss != ANEURALNETWORKS_NO_ERROR || !memcmp(got, ref, tm->out_bytes);
    memset(got, 0xee, sizeof got);
    int rc_hit = compile_run(tm, dir, token, -1, got, &hit);
    bool same_hit = rc_hit != ANEURALNETWORKS_NO_ERROR || !memcmp(got, ref, tm->out_bytes);
    if (!nt_record(rc_ref == want && rc_miss == want && rc_hit == want && !hit_miss && hit &&
                       same_miss && same_hit,
                   __FILE__, __LINE__, "deferred failure the same cold, on a miss and on a hit"))
        fprintf(stderr, "    (%s: want %d, got %d / %d / %d, hits %d %d)\n", what, want, rc_ref,
                rc_miss, rc_hit, hit_miss, hit);
}

/* An operation that validates but whose computation must fail (a quantized
 * bias scale that is not input x filter scale, a fused activation code out
 * of range) fails the same way whether its plan comes from a cold
 * compilation or from the cache, also in a new model object; finish's
 * verdict is not trusted for an operation that reads a memory object whose
 * content changed since (either way). */
static void test_deferred_failures(void)
{
    char *dir = make_dir();
    test_model tm;
    build_deferred(&tm, 0.3f * 0.05f * 0.02f, ANEURALNETWORKS_FUSED_NONE);
    check_deferred(&tm, dir, token_a, ANEURALNETWORKS_OP_FAILED, "bias scale");
    test_model again;
    build_deferred(&again, 0.3f * 0.05f * 0.02f, ANEURALNETWORKS_FUSED_NONE);
    uint8_t got[OUT_MAX];
    bool hit;
    CHECK_RC(compile_run(&again, dir, token_a, -1, got, &hit), ANEURALNETWORKS_OP_FAILED);
    CHECK(hit);
    free_model(&again);
    free_model(&tm);

    build_deferred(&tm, 0.05f * 0.02f, ANEURALNETWORKS_FUSED_RELU);
    check_deferred(&tm, dir, token_b, ANEURALNETWORKS_NO_ERROR, "valid activation");
    int32_t act = 7; /* no FuseCode */
    CHECK(pwrite(tm.fd, &act, sizeof act, 0) == (ssize_t)sizeof act);
    check_deferred(&tm, dir, token_b, ANEURALNETWORKS_OP_FAILED, "activation made invalid");
    free_model(&tm);

    build_deferred(&tm, 0.05f * 0.02f, 9);
    check_deferred(&tm, dir, token_a, ANEURALNETWORKS_OP_FAILED, "invalid activation");
    act = ANEURALNETWORKS_FUSED_RELU6;
    CHECK(pwrite(tm.fd, &act, sizeof act, 0) == (ssize_t)sizeof act);
    check_deferred(&tm, dir, token_a, ANEURALNETWORKS_NO_ERROR, "activation made valid");
    free_model(&tm);
    remove_dir(dir);
}

static bool exists(const char *dir, const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return stat(path, &st) == 0;
}

static void make_file(const char *dir, const char *name, time_t age_seconds)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && write(fd, "partial", 7) == 7);
    struct timespec when[2] = {{.tv_sec = time(NULL) - age_seconds}, {.tv_sec = time(NULL) - age_seconds}};
    CHECK(fd >= 0 && futimens(fd, when) == 0);
    if (fd >= 0)
        close(fd);
}

/* The cache keeps one entry per token (a new one replaces the old); the only
 * other files it can leave are the temporaries of writers that died before
 * their rename. A miss removes those older than ten minutes, and nothing
 * else: not a writer's that is under way, not a file of another name. */
static void test_stale_temporaries(void)
{
    char *dir = make_dir();
    make_file(dir, ".nnapi-linux-a1b2c3", 3600);
    make_file(dir, ".nnapi-linux-d4e5f6", 5);
    make_file(dir, ".nnapi-linux-old", 3600);
    make_file(dir, "app-file", 3600);
    test_model tm;
    build_model(&tm, QUANT_MODEL, 3, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    bool hit;
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(!hit && memcmp(got, want, tm.out_bytes) == 0);
    CHECK(!exists(dir, ".nnapi-linux-a1b2c3"));
    CHECK(exists(dir, ".nnapi-linux-d4e5f6"));
    CHECK(exists(dir, ".nnapi-linux-old"));
    CHECK(exists(dir, "app-file"));
    CHECK_EQ_INT(count_files(dir), 2); /* app-file and the entry */
    /* Another compilation under the same token replaces the entry. */
    test_model other;
    build_model(&other, QUANT_MODEL, 4, false, false);
    CHECK_OK(compile_run(&other, dir, token_a, -1, got, &hit));
    CHECK(!hit);
    CHECK_EQ_INT(count_files(dir), 2);
    free_model(&other);
    free_model(&tm);
    remove_dir(dir);
}

static void test_unusable_places(void)
{
    test_model tm;
    build_model(&tm, QUANT_MODEL, 7, false, false);
    uint8_t want[OUT_MAX], got[OUT_MAX];
    reference(&tm, want);
    bool hit;
    /* The entry is a directory (never read, cannot be replaced), then a
     * FIFO (never opened blocking, replaced by the entry). */
    for (int kind = 0; kind < 2; kind++) {
        char *dir = make_dir();
        char *path = nn_cache_entry_path(dir, token_a);
        CHECK(kind == 0 ? mkdir(path, 0700) == 0 : mkfifo(path, 0600) == 0);
        for (int i = 0; i < 2 - kind; i++) {
            memset(got, 0xee, sizeof got);
            CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
            CHECK(!hit && memcmp(got, want, tm.out_bytes) == 0);
        }
        if (kind == 1) { /* a FIFO is replaced by the entry */
            CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
            CHECK(hit);
        }
        free(path);
        remove_dir(dir);
    }
    /* cacheDir missing, a file, or a place nobody (root included) can write. */
    char *dir = make_dir();
    char missing[1100], file[1100];
    snprintf(missing, sizeof missing, "%s/not/there", dir);
    snprintf(file, sizeof file, "%s/plain", dir);
    write_file(file, "x", 1);
    const char *places[] = {missing, file, "/proc/self"};
    for (size_t i = 0; i < 3; i++) {
        memset(got, 0xee, sizeof got);
        CHECK_OK(compile_run(&tm, places[i], token_a, -1, got, &hit));
        if (!nt_record(!hit && memcmp(got, want, tm.out_bytes) == 0, __FILE__, __LINE__,
                       "compiles without a usable cacheDir"))
            fprintf(stderr, "    (%s)\n", places[i]);
    }
    CHECK_EQ_INT(count_files(dir), 1);
    remove_dir(dir);
    free_model(&tm);
}

/* The hash of data split into random pieces equals the hash of it whole:
 * small pieces take the portable block path, large ones the vector path. */
static void test_hash_paths(void)
{
    size_t n = 100000;
    uint8_t *data = malloc(n);
    CHECK(data != NULL);
    if (!data)
        return;
    uint32_t x = 7;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        data[i] = (uint8_t)(x >> 24);
    }
    for (int round = 0; round < 20; round++) {
        size_t len = n - (size_t)round * 997;
        uint8_t whole[NN_CACHE_HASH_BYTES], split[NN_CACHE_HASH_BYTES];
        nn_hasher h;
        nn_hash_init(&h, 42);
        nn_hash_update(&h, data, len);
        nn_hash_final(&h, whole);
        nn_hash_init(&h, 42);
        for (size_t at = 0; at < len;) {
            x = x * 1664525u + 1013904223u;
            size_t piece = (x >> 16) % (round % 2 ? 200 : 5000);
            if (piece > len - at)
                piece = len - at;
            nn_hash_update(&h, data + at, piece);
            at += piece;
        }
        nn_hash_final(&h, split);
        CHECK(memcmp(whole, split, sizeof whole) == 0);
        /* One flipped bit changes the hash. */
        data[(size_t)round * 4111 % len] ^= 4;
        nn_hash_init(&h, 42);
        nn_hash_update(&h, data, len);
        nn_hash_final(&h, split);
        CHECK(memcmp(whole, split, sizeof whole) != 0);
        data[(size_t)round * 4111 % len] ^= 4;
    }
    /* So do two blocks of the hash's width (64 bytes) swapped, in the same
     * group of blocks or in neighbouring ones, and two words of a block
     * swapped, on every ISA's path: a constant whose values were permuted
     * so (channels reordered, say) is another model. */
    static const size_t swaps[][2] = {{0, 64}, {64, 960}, {128, 1024}, {3008, 3072}, {0, 8}, {16, 48}};
    static const nn_isa isas[] = {NN_ISA_C, NN_ISA_AVX2, NN_ISA_AVX512};
    for (size_t k = 0; k < sizeof isas / sizeof *isas; k++) {
        if (nn_isa_detected() < isas[k] || (isas[k] != NN_ISA_C && nn_isa_detected() > NN_ISA_AVX512))
            continue;
        for (size_t sw = 0; sw < sizeof swaps / sizeof *swaps; sw++) {
            size_t a = swaps[sw][0], b = swaps[sw][1], width = b - a < 64 ? 8 : 64;
            uint8_t before[NN_CACHE_HASH_BYTES], after[NN_CACHE_HASH_BYTES], tmp[64];
            nn_hasher h;
            nn_hash_init(&h, 42);
            nn_hash_update_on(&h, data, 4096, isas[k]);
            nn_hash_final(&h, before);
            memcpy(tmp, data + a, width);
            memmove(data + a, data + b, width);
            memcpy(data + b, tmp, width);
            nn_hash_init(&h, 42);
            nn_hash_update_on(&h, data, 4096, isas[k]);
            nn_hash_final(&h, after);
            if (!nt_record(memcmp(before, after, sizeof before) != 0, __FILE__, __LINE__,
                           "swapped blocks change the hash"))
                fprintf(stderr, "    (isa %d, bytes %zu and %zu, width %zu)\n", (int)isas[k], a, b,
                        width);
            memcpy(tmp, data + a, width);
            memmove(data + a, data + b, width);
            memcpy(data + b, tmp, width);
        }
    }
    free(data);
}

/* Every ISA path of the hash this CPU can run gives the portable path's
 * hash, for lengths around the 16-block scramble groups, fed whole or in
 * odd pieces: an entry's model hash must not depend on the ISA. */
static void test_hash_isas(void)
{
    size_t n = 64 * 70 + 63;
    uint8_t *data = malloc(n + 1);
    CHECK(data != NULL);
    if (!data)
        return;
    uint32_t x = 99;
    for (size_t i = 0; i < n + 1; i++) {
        x = x * 1664525u + 1013904223u;
        data[i] = (uint8_t)(x >> 24);
    }
    static const nn_isa isas[] = {NN_ISA_AVX2, NN_ISA_AVX512};
    int compared = 0;
    for (size_t k = 0; k < sizeof isas / sizeof *isas; k++) {
        if (nn_isa_detected() < isas[k] || nn_isa_detected() > NN_ISA_AVX512)
            continue;
        for (size_t len = 0; len <= n; len += len < 64 * 36 ? 61 : 257) {
            for (int step = 0; step < 3; step++) {
                size_t piece = step == 0 ? len : step == 1 ? 64 * 5 + 3 : 64 * 17;
                const uint8_t *p = data + (len % 2); /* unaligned too */
                uint8_t want[NN_CACHE_HASH_BYTES], got[NN_CACHE_HASH_BYTES];
                nn_hasher h;
                nn_hash_init(&h, 5);
                for (size_t at = 0; at < len; at += piece ? piece : 1)
                    nn_hash_update_on(&h, p + at, piece < len - at ? piece : len - at, NN_ISA_C);
                nn_hash_final(&h, want);
                nn_hash_init(&h, 5);
                for (size_t at = 0; at < len; at += piece ? piece : 1)
                    nn_hash_update_on(&h, p + at, piece < len - at ? piece : len - at, isas[k]);
                nn_hash_final(&h, got);
                if (!nt_record(memcmp(want, got, sizeof want) == 0, __FILE__, __LINE__,
                               "hash path agrees with the portable one"))
                    fprintf(stderr, "    (%s, %zu bytes in pieces of %zu)\n", nn_isa_name(isas[k]),
                            len, piece);
                compared++;
            }
        }
    }
    if (compared == 0)
        printf("hash paths: this CPU runs only the portable one\n");
    free(data);
}

/* FULLY_CONNECTED with 1.3 MB of float weights: its weights and its packed
 * blob are large enough to be hashed as trees. */
#define FC_IN 512
#define FC_OUT 640

static ANeuralNetworksModel *build_fc(const float *weights, const float *bias)
{
    ANeuralNetworksModel *m;
    CHECK_OK(ANeuralNetworksModel_create(&m));
    uint32_t next = 0, in_dims[2] = {2, FC_IN}, w_dims[2] = {FC_OUT, FC_IN}, b_dims[1] = {FC_OUT};
    uint32_t out_dims[2] = {2, FC_OUT};
    uint32_t in = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 2, in_dims, 0.0f, 0);
    uint32_t w = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 2, w_dims, 0.0f, 0);
    uint32_t b = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 1, b_dims, 0.0f, 0);
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, w, weights, sizeof(float) * FC_IN * FC_OUT));
    CHECK_OK(ANeuralNetworksModel_setOperandValue(m, b, bias, sizeof(float) * FC_OUT));
    uint32_t out = add_operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 2, out_dims, 0.0f, 0);
    uint32_t ins[4] = {in, w, b, add_i32(m, &next, ANEURALNETWORKS_FUSED_NONE)};
    CHECK_OK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_FULLY_CONNECTED, 4, ins, 1, &out));
    CHECK_OK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &in, 1, &out));
    CHECK_OK(ANeuralNetworksModel_finish(m));
    return m;
}

static int run_fc(ANeuralNetworksModel *m, const char *dir, float *out, bool *hit)
{
    static float in[2 * FC_IN];
    for (int i = 0; i < 2 * FC_IN; i++)
        in[i] = (float)(i % 17) / 8.0f - 1.0f;
    ANeuralNetworksCompilation *c = NULL;
    int rc = ANeuralNetworksCompilation_create(m, &c);
    if (rc == ANEURALNETWORKS_NO_ERROR && dir)
        rc = ANeuralNetworksCompilation_setCaching(c, dir, token_a);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksCompilation_finish(c);
    *hit = rc == ANEURALNETWORKS_NO_ERROR && nn_cache_is_hit(c->cache);
    ANeuralNetworksExecution *e = NULL;
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_create(c, &e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_setInput(e, 0, NULL, in, sizeof in);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof(float) * 2 * FC_OUT);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = ANeuralNetworksExecution_compute(e);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    return rc;
}

static void test_large_weights(void)
{
    char *dir = make_dir();
    float *w = malloc(sizeof(float) * FC_IN * FC_OUT), bias[FC_OUT];
    static float want[2 * FC_OUT], got[2 * FC_OUT];
    CHECK(w != NULL);
    if (!w) {
        remove_dir(dir);
        return;
    }
    for (size_t i = 0; i < (size_t)FC_IN * FC_OUT; i++)
        w[i] = (float)((i * 31) % 97) / 97.0f - 0.5f;
    for (int i = 0; i < FC_OUT; i++)
        bias[i] = (float)i / 100.0f;
    for (int round = 0; round < 2; round++) {
        /* Round 1: one weight of the last chunk changes. */
        if (round == 1)
            w[(size_t)FC_IN * FC_OUT - 3] += 1.0f;
        ANeuralNetworksModel *m = build_fc(w, bias);
        bool hit;
        CHECK_OK(run_fc(m, NULL, want, &hit));
        memset(got, 0, sizeof got);
        CHECK_OK(run_fc(m, dir, got, &hit));
        CHECK(!hit && memcmp(got, want, sizeof want) == 0);
        memset(got, 0, sizeof got);
        CHECK_OK(run_fc(m, dir, got, &hit));
        CHECK(hit && memcmp(got, want, sizeof want) == 0);
        ANeuralNetworksModel_free(m);
    }
    free(w);
    remove_dir(dir);
}

/* ---------------------------------------------------------- concurrency */

typedef struct worker {
    const test_model *tm;
    const char *dir;
    const uint8_t *want;
    int failures;
} worker;

static void *compile_worker(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < 6; i++) {
        uint8_t got[OUT_MAX];
        memset(got, 0xee, sizeof got);
        int rc = compile_run(w->tm, w->dir, token_a, -1, got, NULL);
        if (rc != ANEURALNETWORKS_NO_ERROR || memcmp(got, w->want, w->tm->out_bytes) != 0)
            w->failures++;
    }
    return NULL;
}

static void test_threads(int kind)
{
    char *dir = make_dir();
    test_model tm;
    build_model(&tm, kind, 8, false, false);
    uint8_t want[OUT_MAX];
    reference(&tm, want);
    enum { N = 8 };
    pthread_t th[N];
    worker w[N];
    for (int i = 0; i < N; i++) {
        w[i] = (worker){&tm, dir, want, 0};
        CHECK(pthread_create(&th[i], NULL, compile_worker, &w[i]) == 0);
    }
    int failures = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        failures += w[i].failures;
    }
    CHECK_EQ_INT(failures, 0);
    CHECK_EQ_INT(count_files(dir), 1);
    bool hit;
    uint8_t got[OUT_MAX];
    CHECK_OK(compile_run(&tm, dir, token_a, -1, got, &hit));
    CHECK(hit && memcmp(got, want, tm.out_bytes) == 0);
    free_model(&tm);
    remove_dir(dir);
}

/* This program, for the child processes; a cross build's tests run under
 * an emulator, which the children need too (tests/CMakeLists.txt sets
 * NN_TEST_EMULATOR there). */
static const char *self_path;

/* In a forked child: runs this program with args (NULL-terminated, without
 * argv[0]); never returns. */
static void exec_self(const char *const *args)
{
    const char *emulator = getenv("NN_TEST_EMULATOR");
    if (emulator && emulator[0]) {
        char cmd[4096];
        int n = snprintf(cmd, sizeof cmd, "exec %s '%s'", emulator, self_path);
        for (int i = 0; args[i] && n > 0 && (size_t)n < sizeof cmd; i++)
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " '%s'", args[i]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    } else {
        const char *argv[8] = {self_path};
        for (int i = 0; args[i] && i < 6; i++)
            argv[i + 1] = args[i];
        execv(self_path, (char *const *)argv);
    }
    _exit(3);
}

/* Child mode: compiles the model 20 times with the cache in dir, each
 * compared with its compilation without cache; exit 0 when all agree. */
static int child_compile_loop(const char *dir, int kind)
{
    test_model tm;
    build_model(&tm, kind, 9, false, false);
    uint8_t want[OUT_MAX];
    int bad = compile_run(&tm, NULL, NULL, -1, want, NULL) != ANEURALNETWORKS_NO_ERROR;
    for (int i = 0; i < 20; i++) {
        uint8_t got[OUT_MAX];
        memset(got, 0xee, sizeof got);
        if (compile_run(&tm, dir, token_a, -1, got, NULL) != ANEURALNETWORKS_NO_ERROR ||
            memcmp(got, want, tm.out_bytes) != 0)
            bad++;
    }
    free_model(&tm);
    return bad ? 1 : 0;
}

/* Two processes at once (new ones: a fork of this multi-threaded process
 * could not start threads under ThreadSanitizer), each compiling repeatedly. */
static void test_processes(int kind)
{
    char *dir = make_dir();
    pid_t pids[2];
    for (int p = 0; p < 2; p++) {
        pids[p] = fork();
        CHECK(pids[p] >= 0);
        if (pids[p] == 0) {
            char k[16];
            snprintf(k, sizeof k, "%d", kind);
            const char *args[] = {"--loop", dir, k, NULL};
            exec_self(args);
        }
    }
    for (int p = 0; p < 2; p++) {
        int status = -1;
        if (pids[p] > 0)
            waitpid(pids[p], &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    CHECK_EQ_INT(count_files(dir), 1);
    remove_dir(dir);
}

/* ------------------------------------------------------- another D_ISA */

/* Child mode: compile with the cache in dir, write the output to out_path,
 * exit 0 for a miss, 1 for a hit, 2 on failure. */
static int child_compile(const char *dir, const char *out_path, int kind)
{
    test_model tm;
    build_model(&tm, kind, 10, false, false);
    uint8_t got[OUT_MAX];
    bool hit = false;
    int rc = compile_run(&tm, dir, token_a, -1, got, &hit);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        write_file(out_path, got, tm.out_bytes);
    free_model(&tm);
    return rc != ANEURALNETWORKS_NO_ERROR ? 2 : hit ? 1 : 0;
}

static int run_child(const char *isa, const char *dir, const char *out_path, int kind)
{
    pid_t pid = fork();
    if (pid == 0) {
        setenv("NNAPI_LINUX_ISA", isa, 1);
        char k[16];
        snprintf(k, sizeof k, "%d", kind);
        const char *args[] = {"--child", dir, out_path, k, NULL};
        exec_self(args);
    }
    int status = -1;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_other_isa(int kind)
{
    if (nn_isa_detected() == NN_ISA_C) {
        /* Said, not skipped silently: one D_ISA level only on this machine. */
        printf("another D_ISA level: this CPU has only the portable one\n");
        return;
    }
    char *dir = make_dir();
    char out_c[1100], out_native[1100];
    snprintf(out_c, sizeof out_c, "%s/out_c.bin", dir);
    snprintf(out_native, sizeof out_native, "%s/out_native.bin", dir);
    const char *native = nn_isa_name(nn_isa_detected());
    CHECK_EQ_INT(run_child(native, dir, out_native, kind), 0); /* miss, writes */
    CHECK_EQ_INT(run_child(native, dir, out_native, kind), 1); /* hit */
    CHECK_EQ_INT(run_child("c", dir, out_c, kind), 0);         /* not the native entry */
    CHECK_EQ_INT(run_child("c", dir, out_c, kind), 1);
    CHECK_EQ_INT(run_child(native, dir, out_native, kind), 0); /* the c entry is not used */
    size_t a_bytes, b_bytes;
    uint8_t *a = read_file(out_c, &a_bytes), *b = read_file(out_native, &b_bytes);
    /* Float results may differ in the last bits between D_ISA levels; the
     * quantized ones are exact on every level. */
    CHECK(a && b && a_bytes == b_bytes);
    if (a && b && kind == QUANT_MODEL)
        CHECK(memcmp(a, b, a_bytes) == 0);
    free(a);
    free(b);
    remove_dir(dir);
}

int main(int argc, char **argv)
{
    self_path = argv[0];
    if (argc == 5 && !strcmp(argv[1], "--child"))
        return child_compile(argv[2], argv[3], atoi(argv[4]));
    if (argc == 4 && !strcmp(argv[1], "--loop"))
        return child_compile_loop(argv[2], atoi(argv[3]));
    printf("ISA: %s\n", nn_isa_name(nn_isa_current()));
    for (int kind = FLOAT_MODEL; kind <= QUANT_MODEL; kind++) {
        test_hit_miss(kind);
        test_damage(kind);
        test_damage_kept(kind);
        test_written_kept(kind);
        test_threads(kind);
        test_processes(kind);
        test_other_isa(kind);
    }
    test_token();
    test_model_changes();
    test_kept_hash();
    test_deferred_failures();
    test_stale_temporaries();
    test_unusable_places();
    test_hash_paths();
    test_hash_isas();
    test_large_weights();
    return nt_summary();
}
