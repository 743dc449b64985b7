/*
 * Compilation time with and without the compilation cache
 * (ANeuralNetworksCompilation_setCaching), for MobileNet v2 1.0/224 uint8 and
 * deeplabv3 from the shared TFLite models (read and translated by nnapi-run's
 * own code) and for MobileNet v1 1.0/224 float32 (bench_mobilenet's graph,
 * random weights): model finish, a cold compilation (no cache), the
 * compilation that misses and writes the entry, one that loads it, the first
 * computation after each, and the steady-state computation. Cold and cached
 * compilations alternate run by run; medians are printed, and whether both
 * give bit-identical outputs.
 *
 * Usage: bench_compile [--runs N] [--models DIR] [--only SUBSTRING]
 *                      [--compile-only cold|hit]
 * --compile-only repeats only that compilation (runs times), for profilers.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "android/NeuralNetworks.h"
#include "kernels/isa.h"
#include "bench_machine.h"
#include "mobilenet_net.h"
#include "tflite.h"
#include "translate.h"

#ifndef NN_BENCH_MODELS
#define NN_BENCH_MODELS "/work/shared/models"
#endif

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A finished model with its I/O sizes and whatever keeps its weights alive. */
typedef struct {
    ANeuralNetworksModel *model;
    uint32_t n_in, n_out;
    size_t in_bytes[8], out_bytes[8];
    bool in_float[8];
    /* TFLite models */
    void *file;
    size_t file_size;
    tfl_model tm;
    nr_translation tr;
    bool translated;
    /* MobileNet v1 */
    weights *w;
    net g;
} bench_model;

static size_t tfl_bytes(const tfl_tensor *t)
{
    return tfl_numel(t) * tfl_type_size(t->type);
}

static bool load_tflite(const char *path, bench_model *m)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "bench_compile: cannot read %s\n", path);
        if (fd >= 0)
            close(fd);
        return false;
    }
    m->file_size = (size_t)st.st_size;
    m->file = mmap(NULL, m->file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    char err[256];
    if (m->file == MAP_FAILED || tfl_parse(m->file, m->file_size, &m->tm, err, sizeof err)) {
        fprintf(stderr, "bench_compile: %s: cannot parse\n", path);
        return false;
    }
    if (nr_translate(&m->tm, 0, 0, &m->tr, err, sizeof err)) {
        fprintf(stderr, "bench_compile: %s: %s\n", path, err);
        return false;
    }
    m->translated = true;
    m->model = m->tr.model;
    m->n_in = m->tr.n_inputs < 8 ? m->tr.n_inputs : 8;
    m->n_out = m->tr.n_outputs < 8 ? m->tr.n_outputs : 8;
    for (uint32_t i = 0; i < m->n_in; i++) {
        const tfl_tensor *t = &m->tm.tensors[m->tr.input_tensor[i]];
        m->in_bytes[i] = tfl_bytes(t);
        m->in_float[i] = t->type == TFL_FLOAT32;
    }
    for (uint32_t i = 0; i < m->n_out; i++)
        m->out_bytes[i] = tfl_bytes(&m->tr.output_desc[i]);
    return true;
}

static void build_v1_float(bench_model *m)
{
    build_v1(&m->g);
    m->w = calloc(MAX_NODES, sizeof *m->w);
    if (!m->w)
        exit(1);
    for (int i = 0; i < m->g.n_nodes; i++) {
        const node *n = &m->g.nodes[i];
        if (n->kind == N_CONV || n->kind == N_DW || n->kind == N_FC)
            weights_make(&m->g, n, D_F32, &m->w[i]);
    }
    m->model = mn_build_model(&m->g, 0, m->g.n_nodes, D_F32, m->w);
    const tensor_desc *x = &m->g.t[m->g.nodes[0].in0], *y = &m->g.t[m->g.nodes[m->g.n_nodes - 1].out];
    m->n_in = m->n_out = 1;
    m->in_bytes[0] = (size_t)x->h * x->w * x->c * 4;
    m->in_float[0] = true;
    m->out_bytes[0] = (size_t)y->h * y->w * y->c * 4;
}

static void free_model(bench_model *m)
{
    if (m->translated)
        nr_translation_free(&m->tr);
    else
        ANeuralNetworksModel_free(m->model);
    if (m->file && m->file != MAP_FAILED) {
        tfl_free(&m->tm);
        munmap(m->file, m->file_size);
    }
    if (m->w) {
        for (int i = 0; i < MAX_NODES; i++)
            if (m->w[i].data)
                weights_free(&m->w[i]);
        free(m->w);
    }
}

/* Compiles (with the cache in dir when dir is not NULL) and times it. */
static ANeuralNetworksCompilation *compile(const bench_model *m, const char *dir, double *ms)
{
    static const uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = "bench_compile token";
    ANeuralNetworksCompilation *c;
    double t0 = now_ms();
    CHECK(ANeuralNetworksCompilation_create(m->model, &c));
    if (dir)
        CHECK(ANeuralNetworksCompilation_setCaching(c, dir, token));
    CHECK(ANeuralNetworksCompilation_finish(c));
    *ms = now_ms() - t0;
    return c;
}

typedef struct {
    void *in[8], *out[8];
} io_buffers;

/* Runs one computation of c into io; returns its time. */
static double compute(const bench_model *m, ANeuralNetworksCompilation *c, io_buffers *io)
{
    ANeuralNetworksExecution *e;
    CHECK(ANeuralNetworksExecution_create(c, &e));
    for (uint32_t i = 0; i < m->n_in; i++)
        CHECK(ANeuralNetworksExecution_setInput(e, (int32_t)i, NULL, io->in[i], m->in_bytes[i]));
    for (uint32_t i = 0; i < m->n_out; i++)
        CHECK(ANeuralNetworksExecution_setOutput(e, (int32_t)i, NULL, io->out[i], m->out_bytes[i]));
    double t0 = now_ms();
    CHECK(ANeuralNetworksExecution_compute(e));
    double ms = now_ms() - t0;
    ANeuralNetworksExecution_free(e);
    return ms;
}

static void io_alloc(const bench_model *m, io_buffers *io, const io_buffers *inputs_from)
{
    for (uint32_t i = 0; i < m->n_in; i++) {
        if (inputs_from) {
            io->in[i] = inputs_from->in[i];
            continue;
        }
        io->in[i] = malloc(m->in_bytes[i] + 4);
        if (!io->in[i])
            exit(1);
        rng_state = 777 + i;
        if (m->in_float[i])
            for (size_t k = 0; k < m->in_bytes[i] / 4; k++)
                ((float *)io->in[i])[k] = rng_unit() * 2.0f - 1.0f;
        else
            for (size_t k = 0; k < m->in_bytes[i]; k++)
                ((uint8_t *)io->in[i])[k] = (uint8_t)rng_next();
    }
    for (uint32_t i = 0; i < m->n_out; i++) {
        io->out[i] = calloc(1, m->out_bytes[i] + 4);
        if (!io->out[i])
            exit(1);
    }
}

static bool io_same(const bench_model *m, const io_buffers *a, const io_buffers *b)
{
    for (uint32_t i = 0; i < m->n_out; i++)
        if (memcmp(a->out[i], b->out[i], m->out_bytes[i]) != 0)
            return false;
    return true;
}

static void remove_entries(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/nnapi-linux-*.cache", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_compile: could not empty %s\n", dir);
}

static void run_case(const char *name, bench_model *m, double finish_ms, int runs)
{
    char dir[] = "/tmp/bench_compile_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    io_buffers cold_io, hit_io;
    io_alloc(m, &cold_io, NULL);
    io_alloc(m, &hit_io, &cold_io);
    double *t = malloc((size_t)runs * 7 * sizeof *t);
    if (!t)
        exit(1);
    double *cold = t, *miss = t + runs, *hit = t + 2 * runs, *first_cold = t + 3 * runs,
           *first_hit = t + 4 * runs, *steady_cold = t + 5 * runs, *steady_hit = t + 6 * runs;
    bool same = true;
    for (int r = 0; r < runs; r++) {
        ANeuralNetworksCompilation *c = compile(m, NULL, &cold[r]);
        first_cold[r] = compute(m, c, &cold_io);
        steady_cold[r] = compute(m, c, &cold_io);
        ANeuralNetworksCompilation_free(c);

        remove_entries(dir);
        c = compile(m, dir, &miss[r]);
        ANeuralNetworksCompilation_free(c);
        c = compile(m, dir, &hit[r]);
        first_hit[r] = compute(m, c, &hit_io);
        steady_hit[r] = compute(m, c, &hit_io);
        same = same && io_same(m, &cold_io, &hit_io);
        ANeuralNetworksCompilation_free(c);
    }
    double mc = median(cold, runs), mh = median(hit, runs);
    printf("%-26s %8.2f %9.2f %9.2f %8.2f %7.1fx %9.2f %9.2f %9.2f %9.2f  %s\n", name, finish_ms,
           mc, median(miss, runs), mh, mc / mh, median(first_cold, runs), median(first_hit, runs),
           median(steady_cold, runs), median(steady_hit, runs), same ? "yes" : "NO");
    fflush(stdout);
    remove_entries(dir);
    rmdir(dir);
    for (uint32_t i = 0; i < m->n_in; i++)
        free(cold_io.in[i]);
    for (uint32_t i = 0; i < m->n_out; i++) {
        free(cold_io.out[i]);
        free(hit_io.out[i]);
    }
    free(t);
}

static void compile_only(bench_model *m, bool hit, int runs)
{
    char dir[] = "/tmp/bench_compile_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    double *t = malloc((size_t)runs * sizeof *t), ms;
    if (!t)
        exit(1);
    if (hit)
        ANeuralNetworksCompilation_free(compile(m, dir, &ms));
    for (int r = 0; r < runs; r++)
        ANeuralNetworksCompilation_free(compile(m, hit ? dir : NULL, &t[r]));
    printf("%s compilation: median %.3f ms over %d runs\n", hit ? "hit" : "cold", median(t, runs),
           runs);
    free(t);
    remove_entries(dir);
    rmdir(dir);
}

static void print_header(void)
{
    bench_print_machine();
    printf("medians in ms; cold = no cache, miss = compile + write the entry, hit = load it;\n"
           "first/steady = first and second computation of that compilation\n");
    printf("%-26s %8s %9s %9s %8s %8s %9s %9s %9s %9s  %s\n", "model", "build", "cold", "miss",
           "hit", "cold/hit", "1st cold", "1st hit", "cold", "hit", "same");
}

int main(int argc, char **argv)
{
    int runs = 11;
    const char *dir = NN_BENCH_MODELS, *only = NULL, *only_compile = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--models") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--compile-only") && i + 1 < argc &&
                 (!strcmp(argv[i + 1], "cold") || !strcmp(argv[i + 1], "hit")))
            only_compile = argv[++i];
        else {
            fprintf(stderr,
                    "usage: %s [--runs N] [--models DIR] [--only SUBSTRING] [--compile-only cold|hit]\n",
                    argv[0]);
            return 2;
        }
    }
    if (runs < 1)
        runs = 1;
    print_header();
    static const char *const files[] = {"mobilenet_v2_1.0_224_quant", "deeplabv3"};
    for (int k = 0; k < 3; k++) {
        const char *name = k < 2 ? files[k] : "mobilenet_v1_1.0_f32";
        if (only && !strstr(name, only))
            continue;
        bench_model *m = calloc(1, sizeof *m);
        if (!m)
            return 1;
        double t0 = now_ms();
        if (k < 2) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s.tflite", dir, files[k]);
            if (!load_tflite(path, m)) {
                free_model(m);
                free(m);
                return 1;
            }
        } else {
            build_v1_float(m);
        }
        /* Translation or construction included: nnapi-run's translation
         * finishes the model itself. */
        double build_ms = now_ms() - t0;
        if (only_compile)
            compile_only(m, !strcmp(only_compile, "hit"), runs);
        else
            run_case(name, m, build_ms, runs);
        free_model(m);
        free(m);
    }
    return 0;
}
