/*
 * libFuzzer target over compilation cache entries (src/compile/cache.c):
 * the input is written as the entry of a fixed token, then a model is
 * compiled with caching and computed. Whatever the entry holds, the
 * compilation must succeed and compute exactly what it computes without a
 * cache, unless the input's hashes are right (recomputed by bit 2 below, or
 * already so: the hash is what detects changed blobs, so such an entry may
 * change the results, never the memory safety); the sanitizers catch any read outside
 * the entry. The byte format:
 *
 *   u8 flags: bits 0 and 3 the model (0: float CONV_2D, 1: uint8 CONV_2D +
 *             ADD, 8: uint8 3x3 DEPTHWISE_CONV_2D, 9: int8 17x17
 *             DEPTHWISE_CONV_2D, whose taps are too many for the tiles),
 *             bit 1 rewrite the header's identity (library, ISA, token,
 *             model hash) and its own hash as this build would write them,
 *             bit 2 also the file size and the hash of the rest, so that
 *             mutations reach the blob table and the blobs
 *   the remaining bytes: the entry
 *
 * With NN_FUZZ_CACHE_SEEDS=DIR set, the target writes seeds into DIR (the
 * entries this build writes for both models, in every flag combination)
 * and exits: tests/fuzz/cache_seeds holds such a set.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/cache.h"
#include "runtime.h"

#define H 5
#define W 5
#define CIN 8
#define COUT 18
#define N_MODELS 4
/* The largest depthwise filter: more taps than the tile kernels take
 * (NN_DW_MAX_TAPS). */
#define DW_LARGE 17

typedef struct fuzz_model {
    ANeuralNetworksModel *model;
    size_t in_bytes, out_bytes;
    uint8_t in[sizeof(float) * H * W * CIN];
    uint8_t want[sizeof(float) * H * W * COUT];
    uint8_t hash[NN_CACHE_HASH_BYTES];
} fuzz_model;

static fuzz_model models[N_MODELS];
static char dir[64];
static char *entry;
static const uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = "fuzz_cache token";
static float weights_f[COUT * 3 * 3 * CIN], bias_f[COUT];
static uint8_t weights_q[COUT * CIN];
static int32_t bias_q[COUT];
static uint8_t weights_dw[DW_LARGE * DW_LARGE * CIN];

static void must(int rc, const char *what)
{
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "fuzz_cache: %s failed: %d\n", what, rc);
        abort();
    }
}

static uint32_t operand(ANeuralNetworksModel *m, uint32_t *next, int32_t type, uint32_t rank,
                        const uint32_t *dims, float scale, int32_t zp)
{
    ANeuralNetworksOperandType t = {type, rank, dims, scale, zp};
    must(ANeuralNetworksModel_addOperand(m, &t), "addOperand");
    return (*next)++;
}

static uint32_t scalar(ANeuralNetworksModel *m, uint32_t *next, int32_t v)
{
    uint32_t i = operand(m, next, ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0);
    must(ANeuralNetworksModel_setOperandValue(m, i, &v, sizeof v), "setOperandValue");
    return i;
}

static void build(fuzz_model *fm, bool quant)
{
    ANeuralNetworksModel *m;
    must(ANeuralNetworksModel_create(&m), "Model_create");
    uint32_t next = 0, in_dims[4] = {1, H, W, CIN}, out_dims[4] = {1, H, W, COUT};
    uint32_t b_dims[1] = {COUT}, in, out;
    if (!quant) {
        uint32_t f_dims[4] = {COUT, 3, 3, CIN};
        in = operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 4, in_dims, 0.0f, 0);
        uint32_t f = operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 4, f_dims, 0.0f, 0);
        uint32_t b = operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 1, b_dims, 0.0f, 0);
        must(ANeuralNetworksModel_setOperandValue(m, f, weights_f, sizeof weights_f), "weights");
        must(ANeuralNetworksModel_setOperandValue(m, b, bias_f, sizeof bias_f), "bias");
        out = operand(m, &next, ANEURALNETWORKS_TENSOR_FLOAT32, 4, out_dims, 0.0f, 0);
        uint32_t ins[7] = {in, f, b, scalar(m, &next, ANEURALNETWORKS_PADDING_SAME),
                           scalar(m, &next, 1), scalar(m, &next, 1), scalar(m, &next, 0)};
        must(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_CONV_2D, 7, ins, 1, &out), "conv");
        fm->in_bytes = sizeof(float) * H * W * CIN;
        fm->out_bytes = sizeof(float) * H * W * COUT;
        for (size_t i = 0; i < H * W * CIN; i++)
            ((float *)fm->in)[i] = (float)(i % 13) / 4.0f - 1.5f;
    } else {
        uint32_t f_dims[4] = {COUT, 1, 1, CIN};
        in = operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, in_dims, 0.05f, 120);
        uint32_t f = operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, f_dims, 0.02f, 128);
        uint32_t b = operand(m, &next, ANEURALNETWORKS_TENSOR_INT32, 1, b_dims, 0.001f, 0);
        must(ANeuralNetworksModel_setOperandValue(m, f, weights_q, sizeof weights_q), "weights");
        must(ANeuralNetworksModel_setOperandValue(m, b, bias_q, sizeof bias_q), "bias");
        uint32_t mid = operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, out_dims, 0.1f, 100);
        uint32_t ins[7] = {in, f, b, scalar(m, &next, ANEURALNETWORKS_PADDING_SAME),
                           scalar(m, &next, 1), scalar(m, &next, 1), scalar(m, &next, 0)};
        must(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_CONV_2D, 7, ins, 1, &mid), "conv");
        out = operand(m, &next, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 4, out_dims, 0.15f, 90);
        uint32_t add[3] = {mid, mid, scalar(m, &next, ANEURALNETWORKS_FUSED_RELU)};
        must(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add, 1, &out), "add");
        fm->in_bytes = (size_t)H * W * CIN;
        fm->out_bytes = (size_t)H * W * COUT;
        for (size_t i = 0; i < fm->in_bytes; i++)
            fm->in[i] = (uint8_t)(i * 37);
    }
    must(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &in, 1, &out), "identify");
    must(ANeuralNetworksModel_finish(m), "Model_finish");
    fm->model = m;
}

/* A depthwise convolution of 8-bit values (per-channel multiplier 1,
 * padding SAME): a 3x3 filter of uint8 takes the tile kernels and their
 * packed filter rows, a DW_LARGE square one of int8 the plain loops. */
static void build_depthwise(fuzz_model *fm, bool large)
{
    ANeuralNetworksModel *m;
    must(ANeuralNetworksModel_create(&m), "Model_create");
    const int32_t type =
        large ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    const uint32_t side = large ? DW_LARGE : 3;
    const int32_t shift = large ? -128 : 0;
    uint32_t next = 0, dims[4] = {1, H, W, CIN}, f_dims[4] = {1, side, side, CIN};
    uint32_t b_dims[1] = {CIN};
    uint32_t in = operand(m, &next, type, 4, dims, 0.05f, 120 + shift);
    uint32_t f = operand(m, &next, type, 4, f_dims, 0.02f, 128 + shift);
    uint32_t b = operand(m, &next, ANEURALNETWORKS_TENSOR_INT32, 1, b_dims, 0.001f, 0);
    must(ANeuralNetworksModel_setOperandValue(m, f, weights_dw, (size_t)side * side * CIN),
         "weights");
    must(ANeuralNetworksModel_setOperandValue(m, b, bias_q, CIN * sizeof(int32_t)), "bias");
    uint32_t out = operand(m, &next, type, 4, dims, large ? 0.5f : 0.1f, 100 + shift);
    uint32_t ins[8] = {in, f, b, scalar(m, &next, ANEURALNETWORKS_PADDING_SAME),
                       scalar(m, &next, 1), scalar(m, &next, 1), scalar(m, &next, 1),
                       scalar(m, &next, ANEURALNETWORKS_FUSED_NONE)};
    must(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_DEPTHWISE_CONV_2D, 8, ins, 1, &out),
         "depthwise");
    must(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, &in, 1, &out), "identify");
    must(ANeuralNetworksModel_finish(m), "Model_finish");
    fm->in_bytes = fm->out_bytes = (size_t)H * W * CIN;
    for (size_t i = 0; i < fm->in_bytes; i++)
        fm->in[i] = (uint8_t)(i * 53 + 11);
    fm->model = m;
}

/* The model that flags select (bits 0 and 3). */
static int model_of(uint8_t flags)
{
    return (flags & 1) | ((flags >> 2) & 2);
}

/* Compiles fm (with the cache when cached), computes into out. */
static void run(const fuzz_model *fm, bool cached, uint8_t *out)
{
    ANeuralNetworksCompilation *c;
    must(ANeuralNetworksCompilation_create(fm->model, &c), "Compilation_create");
    if (cached)
        must(ANeuralNetworksCompilation_setCaching(c, dir, token), "setCaching");
    must(ANeuralNetworksCompilation_finish(c), "Compilation_finish");
    ANeuralNetworksExecution *e;
    must(ANeuralNetworksExecution_create(c, &e), "Execution_create");
    must(ANeuralNetworksExecution_setInput(e, 0, NULL, fm->in, fm->in_bytes), "setInput");
    must(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, fm->out_bytes), "setOutput");
    must(ANeuralNetworksExecution_compute(e), "compute");
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
}

static void write_entry(const uint8_t *data, size_t size)
{
    FILE *f = fopen(entry, "wb");
    if (!f || fwrite(data, 1, size, f) != size) {
        fprintf(stderr, "fuzz_cache: cannot write %s\n", entry);
        abort();
    }
    fclose(f);
}

static void write_seeds(const char *out_dir)
{
    for (int k = 0; k < N_MODELS; k++) {
        unlink(entry);
        uint8_t got[sizeof models[k].want];
        run(&models[k], true, got);
        FILE *f = fopen(entry, "rb");
        if (!f)
            abort();
        static uint8_t image[1 << 20];
        size_t n = fread(image + 1, 1, sizeof image - 1, f);
        fclose(f);
        for (int flags = 0; flags < 8; flags += 2) {
            image[0] = (uint8_t)(flags | (k & 1) | (k & 2) << 2);
            char path[512];
            snprintf(path, sizeof path, "%s/model%d_flags%d", out_dir, k, flags);
            FILE *o = fopen(path, "wb");
            if (!o || fwrite(image, 1, n + 1, o) != n + 1)
                abort();
            fclose(o);
        }
    }
}

static void remove_dir(void)
{
    unlink(entry);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (size_t i = 0; i < sizeof weights_f / sizeof *weights_f; i++)
        weights_f[i] = (float)((i * 7919) % 101) / 50.0f - 1.0f;
    for (size_t i = 0; i < sizeof weights_q; i++)
        weights_q[i] = (uint8_t)(i * 131 + 7);
    for (size_t i = 0; i < sizeof weights_dw; i++)
        weights_dw[i] = (uint8_t)(i * 97 + 3);
    for (int i = 0; i < COUT; i++) {
        bias_f[i] = (float)i / 8.0f;
        bias_q[i] = i * 41 - 350;
    }
    /* tmpfs when there is one: every miss syncs the entry it writes. */
    struct stat st;
    snprintf(dir, sizeof dir, "%s/fuzz_cache_XXXXXX", stat("/dev/shm", &st) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir) || !(entry = nn_cache_entry_path(dir, token)))
        abort();
    atexit(remove_dir);
    for (int k = 0; k < N_MODELS; k++) {
        if (k < 2)
            build(&models[k], k == 1);
        else
            build_depthwise(&models[k], k == 3);
        run(&models[k], false, models[k].want);
        ANeuralNetworksCompilation *c;
        must(ANeuralNetworksCompilation_create(models[k].model, &c), "Compilation_create");
        must(ANeuralNetworksCompilation_setCaching(c, dir, token), "setCaching");
        must(nn_cache_model_hash(c, models[k].hash), "model hash");
        ANeuralNetworksCompilation_free(c);
    }
    const char *seeds = getenv("NN_FUZZ_CACHE_SEEDS");
    if (seeds) {
        write_seeds(seeds);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const fuzz_model *fm = &models[model_of(data[0])];
    size_t n = size - 1;
    uint8_t *image = malloc(n ? n : 1);
    if (!image)
        return 0;
    memcpy(image, data + 1, n);
    if (data[0] & 2)
        nn_cache_forge_identity(image, n, token, fm->hash, (data[0] & 4) != 0);
    /* An entry whose hashes are already right is as trusted as one that
     * had them recomputed: libFuzzer finds such entries by itself, taking
     * the expected hash from the comparison that checks it. */
    bool hashes_right = (data[0] & 4) != 0;
    if (!hashes_right) {
        uint8_t *check = malloc(n ? n : 1);
        if (!check) {
            free(image);
            return 0;
        }
        memcpy(check, image, n);
        nn_cache_forge_identity(check, n, token, fm->hash, true);
        hashes_right = memcmp(check, image, n) == 0;
        free(check);
    }
    write_entry(image, n);
    free(image);
    uint8_t got[sizeof fm->want];
    run(fm, true, got);
    if (!hashes_right && memcmp(got, fm->want, fm->out_bytes) != 0) {
        fprintf(stderr, "fuzz_cache: results from the cache differ\n");
        abort();
    }
    return 0;
}
