/*
 * Compilation time with and without the compilation cache
 * (ANeuralNetworksCompilation_setCaching), for MobileNet v2 1.0/224 uint8 and
 * deeplabv3 from the shared TFLite models (read and translated by nnapi-run's
 * own code) and for MobileNet v1 1.0/224 float32 (bench_mobilenet's graph,
 * random weights): model finish, a cold compilation (no cache), the
 * compilation that misses and writes the entry, one that loads it into a
 * new model object (every constant is hashed, as in a restarted
 * application; the entry's payload is not, as the process wrote it), one
 * that loads it again for the same model object (whose hash the model
 * keeps), the first computation after a cold compilation and
 * after a hit, and the steady-state computation. Cold and cached
 * compilations alternate run by run; medians are printed, and whether all
 * give bit-identical outputs.
 *
 * A second table gives what bounds a hit from below: the constants' bytes
 * and the entry's, the time to read every constant byte once (one thread,
 * in the cache state the hit sees), and the time to map the entry with its
 * pages populated (and unmap it), against the cold compilation; then the
 * memory's read bandwidth (one thread and two) and what it bounds. A third
 * gives cold compilations and hits each in a new process (the bench runs
 * itself with --child-compile), as a restarted application sees them, and
 * the same lower bound measured in a new process (--child-bound).
 *
 * Usage: bench_compile [--runs N] [--models DIR] [--only SUBSTRING]
 *                      [--compile-only cold|hit|hit-reused] [--cpu-time]
 * --compile-only repeats only that compilation (runs times), for profilers.
 * --cpu-time (the last argument) times the calling thread's CPU time, with
 * the library on one thread, for machines shared with other work.
 */
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
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
#include "runtime.h"
#include "kernels/isa.h"
#include "bench_machine.h"
#include "mobilenet_net.h"
#include "tflite.h"
#include "translate.h"

#ifndef NN_BENCH_MODELS
#define NN_BENCH_MODELS "/work/shared/models"
#endif

/* Wall time, or with --cpu-time the CPU time of the calling thread (kernel
 * time included: page faults count), which time slices taken by other
 * processes on a shared machine do not inflate; the library then runs on
 * one thread (NNAPI_LINUX_THREADS=1), so that the calling thread does all
 * of the work. */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(bench_clock, &t);
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

/* Replaces m->model by a new model object of the same content (not timed). */
static void renew_model(bench_model *m)
{
    char err[256];
    if (m->translated) {
        nr_translation_free(&m->tr);
        m->translated = false;
        if (nr_translate(&m->tm, 0, 0, &m->tr, err, sizeof err)) {
            fprintf(stderr, "bench_compile: %s\n", err);
            exit(1);
        }
        m->translated = true;
        m->model = m->tr.model;
    } else {
        ANeuralNetworksModel_free(m->model);
        m->model = mn_build_model(&m->g, 0, m->g.n_nodes, D_F32, m->w);
    }
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

static const uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = "bench_compile token";

/* Compiles (with the cache in dir when dir is not NULL) and times it. */
static ANeuralNetworksCompilation *compile(const bench_model *m, const char *dir, double *ms)
{
    ANeuralNetworksCompilation *c;
    double t0 = now_ms();
    CHECK(ANeuralNetworksCompilation_create(m->model, &c));
    if (dir)
        CHECK(ANeuralNetworksCompilation_setCaching(c, dir, token));
    CHECK(ANeuralNetworksCompilation_finish(c));
    *ms = now_ms() - t0;
    return c;
}

/*
 * Reads n bytes once (their XOR), a cache line per load where the CPU has
 * 64-byte loads: a core keeps only so many loads in flight, so 16-byte
 * loads (four per line) had it reading memory at half the rate the hash's
 * 64-byte loads do, and understated what bounds a hit.
 */
typedef uint64_t words2 __attribute__((vector_size(16)));

static uint64_t xor_read_16(const uint8_t *p, size_t n)
{
    words2 acc[4] = {{0}};
    size_t k = 0;
    for (; k + 64 <= n; k += 64)
        for (int l = 0; l < 4; l++) {
            words2 v;
            memcpy(&v, p + k + 16 * l, sizeof v);
            acc[l] ^= v;
        }
    uint64_t x = acc[0][0] ^ acc[0][1] ^ acc[1][0] ^ acc[1][1] ^ acc[2][0] ^ acc[2][1] ^
                 acc[3][0] ^ acc[3][1];
    for (; k < n; k++)
        x ^= p[k];
    return x;
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx512f"))) static uint64_t xor_read_64(const uint8_t *p, size_t n)
{
    __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                      _mm512_setzero_si512()};
    size_t k = 0;
    for (; k + 256 <= n; k += 256)
        for (int l = 0; l < 4; l++)
            acc[l] = _mm512_xor_si512(acc[l], _mm512_loadu_si512((const void *)(p + k + 64 * l)));
    __m512i x = _mm512_xor_si512(_mm512_xor_si512(acc[0], acc[1]), _mm512_xor_si512(acc[2], acc[3]));
    uint64_t lanes[8];
    _mm512_storeu_si512((void *)lanes, x);
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= lanes[i];
    return r ^ xor_read_16(p + k, n - k);
}
#endif

static uint64_t xor_read(const uint8_t *p, size_t n)
{
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f"))
        return xor_read_64(p, n);
#endif
    return xor_read_16(p, n);
}

volatile uint64_t read_sink;

/* Reads every constant byte of m once, on this thread; returns the time. */
static double read_constants(const bench_model *m, size_t *bytes)
{
    uint64_t x = 0;
    *bytes = 0;
    double t0 = now_ms();
    const ANeuralNetworksModel *model = m->model;
    for (uint32_t i = 0; i < model->n_operands; i++) {
        const nn_operand *o = &model->operands[i];
        if (o->lifetime != NN_LIFETIME_CONSTANT || o->value == NULL)
            continue;
        x ^= xor_read(o->value, o->length);
        *bytes += o->length;
    }
    double ms = now_ms() - t0;
    /* Kept, so that the reads are not optimised away. */
    read_sink = x;
    return ms;
}

/* Maps the entry in dir with its pages populated and unmaps it; returns the
 * time, *bytes its size. */
static double map_entry(const char *dir, size_t *bytes)
{
    char path[600];
    int at = snprintf(path, sizeof path, "%s/nnapi-linux-", dir);
    for (int i = 0; i < ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN; i++)
        at += snprintf(path + at, sizeof path - (size_t)at, "%02x", token[i]);
    snprintf(path + at, sizeof path - (size_t)at, ".cache");
    double t0 = now_ms();
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "bench_compile: no entry %s\n", path);
        exit(1);
    }
    *bytes = (size_t)st.st_size;
    void *p = mmap(NULL, *bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    munmap(p, *bytes);
    return now_ms() - t0;
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

/* What bounds a hit from below, for the second table. */
typedef struct {
    const char *name;
    double cold_ms, read_ms, map_ms;
    size_t constant_bytes, entry_bytes;
} bound_row;

static bound_row bounds[3];
static int n_bounds;

static void run_case(const char *name, bench_model *m, double finish_ms, int runs)
{
    char dir[] = "/tmp/bench_compile_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    io_buffers cold_io, hit_io, reused_io;
    io_alloc(m, &cold_io, NULL);
    io_alloc(m, &hit_io, &cold_io);
    io_alloc(m, &reused_io, &cold_io);
    enum { COLD, MISS, HIT, REUSED, FIRST_COLD, FIRST_HIT, STEADY_COLD, STEADY_HIT, READ, MAP, N_T };
    double *t = malloc((size_t)runs * N_T * sizeof *t);
    if (!t)
        exit(1);
#define T(k) (t + (size_t)(k) * (size_t)runs)
    bool same = true;
    size_t constant_bytes = 0, entry_bytes = 0;
    for (int r = 0; r < runs; r++) {
        ANeuralNetworksCompilation *c = compile(m, NULL, &T(COLD)[r]);
        T(FIRST_COLD)[r] = compute(m, c, &cold_io);
        T(STEADY_COLD)[r] = compute(m, c, &cold_io);
        ANeuralNetworksCompilation_free(c);

        remove_entries(dir);
        c = compile(m, dir, &T(MISS)[r]);
        ANeuralNetworksCompilation_free(c);
        /* A new model object: its hash is not known yet. */
        renew_model(m);
        c = compile(m, dir, &T(HIT)[r]);
        T(FIRST_HIT)[r] = compute(m, c, &hit_io);
        T(STEADY_HIT)[r] = compute(m, c, &hit_io);
        ANeuralNetworksCompilation_free(c);
        c = compile(m, dir, &T(REUSED)[r]);
        compute(m, c, &reused_io);
        ANeuralNetworksCompilation_free(c);
        same = same && io_same(m, &cold_io, &hit_io) && io_same(m, &cold_io, &reused_io);
        T(READ)[r] = read_constants(m, &constant_bytes);
        T(MAP)[r] = map_entry(dir, &entry_bytes);
    }
    double mc = median(T(COLD), runs), mh = median(T(HIT), runs), mr = median(T(REUSED), runs);
    printf("%-26s %7.2f %7.2f %7.2f %7.3f %6.1fx %7.3f %6.1fx %8.2f %8.2f %7.2f %7.2f  %s\n", name,
           finish_ms, mc, median(T(MISS), runs), mh, mc / mh, mr, mc / mr,
           median(T(FIRST_COLD), runs), median(T(FIRST_HIT), runs), median(T(STEADY_COLD), runs),
           median(T(STEADY_HIT), runs), same ? "yes" : "NO");
    fflush(stdout);
    bounds[n_bounds++] = (bound_row){name, mc, median(T(READ), runs), median(T(MAP), runs),
                                     constant_bytes, entry_bytes};
#undef T
    remove_entries(dir);
    rmdir(dir);
    for (uint32_t i = 0; i < m->n_in; i++)
        free(cold_io.in[i]);
    for (uint32_t i = 0; i < m->n_out; i++) {
        free(cold_io.out[i]);
        free(hit_io.out[i]);
        free(reused_io.out[i]);
    }
    free(t);
}

/* Memory read bandwidth: the first `bytes` of a buffer read once (as
 * read_constants does) right after a read of a larger one has pushed it out
 * of every cache level, by one thread and by two (each a half); wall time,
 * whatever the clock of the other tables. The best a hit whose constants
 * are out of the caches can do. */
typedef struct {
    const uint8_t *p;
    size_t n;
    uint64_t sum;
    atomic_int *ready; /* both parts start together, once both threads run */
    int parties;
    double t0, t1;
} read_part;

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void *read_part_run(void *arg)
{
    read_part *r = arg;
    atomic_fetch_add(r->ready, 1);
    while (atomic_load(r->ready) < r->parties)
        ;
    r->t0 = wall_ms();
    r->sum = xor_read(r->p, r->n);
    r->t1 = wall_ms();
    return NULL;
}

/* Median GB/s of reading bytes with n_threads (1 or 2) out of the caches:
 * from the first start to the last end. */
static double read_bandwidth(size_t bytes, int n_threads, int runs)
{
    size_t flush_bytes = (size_t)256 << 20;
    uint8_t *buf = malloc(bytes), *flush = malloc(flush_bytes);
    double *gbs = malloc((size_t)runs * sizeof *gbs);
    if (!buf || !flush || !gbs)
        exit(1);
    memset(buf, 0x5a, bytes);
    memset(flush, 0xa5, flush_bytes);
    for (int r = 0; r < runs; r++) {
        atomic_int ready = 0;
        read_part f = {flush, flush_bytes, 0, &ready, 1, 0, 0};
        read_part_run(&f);
        read_sink ^= f.sum;
        atomic_store(&ready, 0);
        size_t half = bytes / 2 & ~(size_t)63;
        read_part parts[2] = {{buf, n_threads == 2 ? half : bytes, 0, &ready, n_threads, 0, 0},
                              {buf + half, bytes - half, 0, &ready, n_threads, 0, 0}};
        pthread_t other;
        if (n_threads == 2 && pthread_create(&other, NULL, read_part_run, &parts[1]) != 0)
            exit(1);
        read_part_run(&parts[0]);
        double t0 = parts[0].t0, t1 = parts[0].t1;
        if (n_threads == 2) {
            pthread_join(other, NULL);
            t0 = parts[1].t0 < t0 ? parts[1].t0 : t0;
            t1 = parts[1].t1 > t1 ? parts[1].t1 : t1;
        }
        read_sink ^= parts[0].sum ^ parts[1].sum;
        gbs[r] = bytes / ((t1 - t0) * 1e6);
    }
    double m = median(gbs, runs);
    free(gbs);
    free(flush);
    free(buf);
    return m;
}

static void print_bandwidth(int runs)
{
    size_t bytes = 0;
    for (int i = 0; i < n_bounds; i++)
        if (bounds[i].constant_bytes > bytes)
            bytes = bounds[i].constant_bytes;
    if (bytes == 0)
        return;
    double one = read_bandwidth(bytes, 1, runs), two = read_bandwidth(bytes, 2, runs);
    printf("\nmemory read bandwidth (wall time, medians): %.2f MB read once out of the caches\n"
           "(after 256 MB read): 1 thread %.1f GB/s, 2 threads %.1f GB/s; a hit whose constants\n"
           "are out of the caches reads them at best at the higher:\n",
           bytes / 1e6, one, two);
    double best = one > two ? one : two;
    printf("%-26s %9s %12s %14s\n", "model", "const MB", "read ms", "cold/read");
    for (int i = 0; i < n_bounds; i++) {
        const bound_row *b = &bounds[i];
        double ms = b->constant_bytes / (best * 1e6);
        printf("%-26s %9.2f %12.3f %13.1fx\n", b->name, b->constant_bytes / 1e6, ms, b->cold_ms / ms);
    }
}

static void print_bounds(void)
{
    printf("\nlower bounds of a hit (medians, ms): read = every constant byte read once by one\n"
           "thread; map = the entry mapped with its pages populated, and unmapped\n");
    printf("%-26s %9s %9s %8s %8s %10s %8s %14s\n", "model", "const MB", "entry MB", "read",
           "GB/s", "cold/read", "map", "cold/(read+map)");
    for (int i = 0; i < n_bounds; i++) {
        const bound_row *b = &bounds[i];
        printf("%-26s %9.2f %9.2f %8.3f %8.1f %9.1fx %8.3f %13.1fx\n", b->name,
               b->constant_bytes / 1e6, b->entry_bytes / 1e6, b->read_ms,
               b->constant_bytes / (b->read_ms * 1e6), b->cold_ms / b->read_ms, b->map_ms,
               b->cold_ms / (b->read_ms + b->map_ms));
    }
}

/* mode: 0 cold, 1 hit with a new model object each time, 2 hit reusing it. */
static void compile_only(bench_model *m, int mode, int runs)
{
    char dir[] = "/tmp/bench_compile_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    double *t = malloc((size_t)runs * sizeof *t), ms;
    if (!t)
        exit(1);
    if (mode)
        ANeuralNetworksCompilation_free(compile(m, dir, &ms));
    for (int r = 0; r < runs; r++) {
        if (mode == 1)
            renew_model(m);
        ANeuralNetworksCompilation_free(compile(m, mode ? dir : NULL, &t[r]));
    }
    static const char *const what[] = {"cold", "hit (new model object)", "hit (same model object)"};
    printf("%s compilation: median %.3f ms over %d runs\n", what[mode], median(t, runs), runs);
    free(t);
    remove_entries(dir);
    rmdir(dir);
}

static void print_header(void)
{
    bench_print_machine();
    if (bench_clock != CLOCK_MONOTONIC)
        printf("CPU time of the calling thread, the library on one thread\n");
    printf("medians in ms; cold = no cache, miss = compile + write the entry, hit = load it for a\n"
           "new model object (its constants hashed; not the payload, which this process wrote),\n"
           "reused = load it again for the same object (which keeps its hash);\n"
           "first/steady = first and second computation after a cold compilation and a hit\n");
    printf("%-26s %7s %7s %7s %7s %7s %7s %7s %8s %8s %7s %7s  %s\n", "model", "build", "cold",
           "miss", "hit", "c/hit", "reused", "c/reus", "1st cold", "1st hit", "cold", "hit", "same");
}

static const char *const model_names[] = {"mobilenet_v2_1.0_224_quant", "deeplabv3",
                                           "mobilenet_v1_1.0_f32"};

/* Builds model k of model_names (the first two read from models_dir). */
static bool load_model(int k, const char *models_dir, bench_model *m)
{
    if (k < 2) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.tflite", models_dir, model_names[k]);
        return load_tflite(path, m);
    }
    build_v1_float(m);
    return true;
}

/* A process of its own, as a restarted application is: builds model k,
 * compiles it once (with the cache in cache_dir unless it is "-") and
 * prints the compilation's time; with bound, prints instead the time to
 * read every constant byte and to map the entry in cache_dir, which a hit
 * in a new process cannot do without. */
static int child_compile(int k, const char *models_dir, const char *cache_dir, bool bound)
{
    bench_model *m = calloc(1, sizeof *m);
    if (!m || !load_model(k, models_dir, m))
        return 1;
    double ms;
    size_t bytes;
    if (bound)
        ms = read_constants(m, &bytes) + map_entry(cache_dir, &bytes);
    else
        ANeuralNetworksCompilation_free(compile(m, strcmp(cache_dir, "-") ? cache_dir : NULL, &ms));
    printf("%.6f\n", ms);
    free_model(m);
    free(m);
    return 0;
}

static const char *self_path;

/* The compilation time child_compile reports from a new process. */
static double restart_compile(int k, const char *models_dir, const char *cache_dir, bool bound)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s %d '%s' '%s'%s", self_path,
             bound ? "--child-bound" : "--child-compile", k, models_dir, cache_dir,
             bench_clock == CLOCK_MONOTONIC ? "" : " --cpu-time");
    FILE *p = popen(cmd, "r");
    double ms = -1;
    if (!p || fscanf(p, "%lf", &ms) != 1 || pclose(p) != 0) {
        fprintf(stderr, "bench_compile: %s failed\n", cmd);
        exit(1);
    }
    return ms;
}

/* Cold compilations and hits, each in a new process (the entry written
 * here first), alternating. */
static void restart_case(int k, const char *models_dir, bench_model *m, int runs)
{
    char dir[] = "/tmp/bench_compile_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    double ms, *t = malloc((size_t)runs * 3 * sizeof *t);
    if (!t)
        exit(1);
    ANeuralNetworksCompilation_free(compile(m, dir, &ms));
    for (int r = 0; r < runs; r++) {
        t[r] = restart_compile(k, models_dir, "-", false);
        t[runs + r] = restart_compile(k, models_dir, dir, false);
        t[2 * runs + r] = restart_compile(k, models_dir, dir, true);
    }
    double cold = median(t, runs), hit = median(t + runs, runs), bound = median(t + 2 * runs, runs);
    printf("%-26s %9.3f %9.3f %7.1fx %10.3f %12.1fx\n", model_names[k], cold, hit, cold / hit,
           bound, cold / bound);
    fflush(stdout);
    free(t);
    remove_entries(dir);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    self_path = argv[0];
    if (argc >= 2 && !strcmp(argv[argc - 1], "--cpu-time")) {
        setenv("NNAPI_LINUX_THREADS", "1", 1);
        bench_clock = CLOCK_THREAD_CPUTIME_ID;
        argc--;
    }
    if (argc == 5 && (!strcmp(argv[1], "--child-compile") || !strcmp(argv[1], "--child-bound")))
        return child_compile(atoi(argv[2]), argv[3], argv[4], !strcmp(argv[1], "--child-bound"));
    /* Freed memory stays in the heap: otherwise whether a cold compilation
     * faults its packings in afresh depends on what glibc gave back to the
     * system after the previous one (its thresholds move with the sizes
     * freed), and cold times moved by up to 1.6x with allocation patterns.
     * Cold compilations in this process are then at their fastest, and the
     * ratios conservative; the new-process table keeps the defaults. */
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
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
                 (!strcmp(argv[i + 1], "cold") || !strcmp(argv[i + 1], "hit") ||
                  !strcmp(argv[i + 1], "hit-reused")))
            only_compile = argv[++i];
        else {
            fprintf(stderr,
                    "usage: %s [--runs N] [--models DIR] [--only SUBSTRING]\n"
                    "       [--compile-only cold|hit|hit-reused] [--cpu-time (last)]\n",
                    argv[0]);
            return 2;
        }
    }
    if (runs < 1)
        runs = 1;
    if (!only_compile)
        print_header();
    bench_model *models[3] = {0};
    for (int k = 0; k < 3; k++) {
        if (only && !strstr(model_names[k], only))
            continue;
        bench_model *m = calloc(1, sizeof *m);
        if (!m)
            return 1;
        double t0 = now_ms();
        if (!load_model(k, dir, m)) {
            free_model(m);
            free(m);
            return 1;
        }
        /* Translation or construction included: nnapi-run's translation
         * finishes the model itself. */
        double build_ms = now_ms() - t0;
        if (only_compile)
            compile_only(m, !strcmp(only_compile, "cold") ? 0 : !strcmp(only_compile, "hit") ? 1 : 2,
                         runs);
        else
            run_case(model_names[k], m, build_ms, runs);
        models[k] = m;
    }
    if (!only_compile) {
        print_bounds();
        print_bandwidth(runs);
        printf("\neach compilation in a new process (a restarted application: its heap, the\n"
               "thread pool and the mappings of the model and of the entry all new), medians\n"
               "in ms; read+map = every constant byte read and the entry mapped, in a new process\n");
        printf("%-26s %9s %9s %8s %10s %13s\n", "model", "cold", "hit", "cold/hit", "read+map",
               "cold/read+map");
    }
    for (int k = 0; k < 3; k++) {
        if (!models[k])
            continue;
        if (!only_compile)
            restart_case(k, dir, models[k], runs);
        free_model(models[k]);
        free(models[k]);
    }
    return 0;
}
