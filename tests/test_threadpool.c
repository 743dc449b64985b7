/*
 * The thread pool (util/threadpool.h): every parallel loop calls its
 * function on disjoint ranges that cover [0, n) exactly once, for sizes
 * around the lanes' and chunks' boundaries, grains from 0 to beyond n, loop
 * sizes beyond the lanes' 32-bit bounds, loops nested in loops (run by the
 * calling thread), loops with a side task on the calling thread, loops started from several threads at once, and
 * workers woken by nn_pool_wake with or without a loop after it; and the
 * kernels whose split depends on the thread count (the float GEMM's task
 * grid, depthwise channel blocks for layers of few rows) give the same bits
 * as in a child process running one thread, and values near a double
 * reference.
 * Runs with NNAPI_LINUX_THREADS=3 unless told otherwise (set before the
 * pool's first use), so that workers have lanes of their own.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernels/depthwise.h"
#include "kernels/gemm.h"
#include "util/threadpool.h"
#include "test_util.h"

typedef struct {
    size_t n;
    atomic_uchar *visits;
    atomic_int bad_ranges;
    atomic_size_t calls;
} cover_job;

static void cover(void *arg, size_t begin, size_t end)
{
    cover_job *J = arg;
    atomic_fetch_add(&J->calls, 1);
    if (begin >= end || end > J->n) {
        atomic_fetch_add(&J->bad_ranges, 1);
        return;
    }
    for (size_t i = begin; i < end; i++)
        atomic_fetch_add(&J->visits[i], 1);
}

/* Runs a loop of n items; true when each was visited once by valid ranges. */
static bool covers_once(size_t n, size_t grain)
{
    cover_job J = {.n = n, .visits = calloc(n ? n : 1, sizeof(atomic_uchar))};
    if (J.visits == NULL)
        return false;
    nn_parallel_for(n, grain, cover, &J);
    bool ok = atomic_load(&J.bad_ranges) == 0 && (n == 0) == (atomic_load(&J.calls) == 0);
    for (size_t i = 0; i < n && ok; i++)
        ok = atomic_load(&J.visits[i]) == 1;
    free(J.visits);
    return ok;
}

static void test_cover(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 31, 64, 97, 1000, 20011};
    static const size_t grains[] = {0, 1, 2, 3, 50, 4096, 200000};
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t g = 0; g < sizeof grains / sizeof *grains; g++)
            for (int rep = 0; rep < 5; rep++)
                if (!covers_once(sizes[s], grains[g])) {
                    fprintf(stderr, "n %zu grain %zu: not covered once\n", sizes[s], grains[g]);
                    bad++;
                    break;
                }
    CHECK(bad == 0);
}

/* Beyond 32 bits: ranges recorded, then checked to tile [0, n). */
typedef struct {
    pthread_mutex_t lock;
    size_t count, cap;
    size_t (*ranges)[2];
} record_job;

static void record(void *arg, size_t begin, size_t end)
{
    record_job *J = arg;
    pthread_mutex_lock(&J->lock);
    if (J->count < J->cap) {
        J->ranges[J->count][0] = begin;
        J->ranges[J->count][1] = end;
    }
    J->count++;
    pthread_mutex_unlock(&J->lock);
}

static int by_begin(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static void test_huge(void)
{
    if (sizeof(size_t) < 8)
        return;
    const size_t n = ((size_t)1 << 34) + 12345, grain = (size_t)1 << 29;
    record_job J = {.lock = PTHREAD_MUTEX_INITIALIZER, .cap = 1024};
    J.ranges = malloc(J.cap * sizeof *J.ranges);
    CHECK(J.ranges != NULL);
    if (J.ranges == NULL)
        return;
    nn_parallel_for(n, grain, record, &J);
    /* One thread runs the loop as one range. */
    CHECK(nn_thread_count() == 1 ? J.count == 1 : J.count > 1 && J.count <= J.cap);
    if (J.count >= 1 && J.count <= J.cap) {
        qsort(J.ranges, J.count, sizeof *J.ranges, by_begin);
        bool tiles = J.ranges[0][0] == 0 && J.ranges[J.count - 1][1] == n;
        for (size_t i = 0; i < J.count; i++) {
            tiles = tiles && J.ranges[i][0] < J.ranges[i][1];
            if (i > 0)
                tiles = tiles && J.ranges[i][0] == J.ranges[i - 1][1];
        }
        CHECK(tiles);
    }
    free(J.ranges);
}

/* A loop inside a loop runs on the thread that started it. */
typedef struct {
    atomic_int bad;
} nest_job;

static void inner_cover(void *arg, size_t begin, size_t end)
{
    nest_job *J = arg;
    for (size_t i = begin; i < end; i++)
        if (!covers_once(37 + i, 1))
            atomic_fetch_add(&J->bad, 1);
}

static void test_nested(void)
{
    nest_job J = {0};
    nn_parallel_for(16, 1, inner_cover, &J);
    CHECK(atomic_load(&J.bad) == 0);
}

static void *concurrent_main(void *arg)
{
    atomic_int *bad = arg;
    for (int rep = 0; rep < 50; rep++)
        if (!covers_once(64 + (size_t)rep % 13, (size_t)rep % 3))
            atomic_fetch_add(bad, 1);
    return NULL;
}

static void test_concurrent(void)
{
    enum { CALLERS = 4 };
    pthread_t t[CALLERS];
    atomic_int bad = 0;
    int started = 0;
    for (int i = 0; i < CALLERS; i++)
        if (pthread_create(&t[i], NULL, concurrent_main, &bad) == 0)
            started++;
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    CHECK(started == CALLERS);
    CHECK(atomic_load(&bad) == 0);
}

/* nn_parallel_for_beside: the side task runs once, on the calling thread,
 * before the caller takes any item; a loop inside it (nested) and the main
 * loop each cover their items once. */
typedef struct {
    cover_job loop;
    pthread_t caller;
    atomic_bool beside_done;
    atomic_int beside_calls, bad;
    bool nested_ok;
} beside_job;

static void beside_cover(void *arg, size_t begin, size_t end)
{
    beside_job *J = arg;
    if (pthread_equal(pthread_self(), J->caller) && !atomic_load(&J->beside_done))
        atomic_fetch_add(&J->bad, 1);
    cover(&J->loop, begin, end);
}

static void beside_task(void *arg)
{
    beside_job *J = arg;
    atomic_fetch_add(&J->beside_calls, 1);
    if (!pthread_equal(pthread_self(), J->caller))
        atomic_fetch_add(&J->bad, 1);
    J->nested_ok = covers_once(257, 1);
    atomic_store(&J->beside_done, true);
}

static void test_beside(void)
{
    static const size_t sizes[] = {0, 1, 2, 5, 64, 1000, 20011};
    static const size_t grains[] = {0, 1, 2, 5000};
    int bad = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t g = 0; g < sizeof grains / sizeof *grains; g++) {
            size_t n = sizes[s];
            beside_job J = {.loop = {.n = n, .visits = calloc(n ? n : 1, sizeof(atomic_uchar))},
                            .caller = pthread_self()};
            if (J.loop.visits == NULL) {
                bad++;
                continue;
            }
            nn_parallel_for_beside(n, grains[g], beside_cover, &J, beside_task, &J);
            bool ok = atomic_load(&J.beside_calls) == 1 && atomic_load(&J.bad) == 0 &&
                      J.nested_ok && atomic_load(&J.loop.bad_ranges) == 0;
            for (size_t i = 0; i < n && ok; i++)
                ok = atomic_load(&J.loop.visits[i]) == 1;
            if (!ok) {
                bad++;
                fprintf(stderr, "  beside: n=%zu grain=%zu\n", n, grains[g]);
            }
            free(J.loop.visits);
        }
    CHECK(bad == 0);
}

/* Woken from sleep by nn_pool_wake, before loops and with none to follow. */
static void test_wake(void)
{
    int bad = 0;
    for (int rep = 0; rep < 20; rep++) {
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
        nn_pool_wake();
        if (rep % 2 == 0 && !covers_once(1000, 1))
            bad++;
    }
    CHECK(bad == 0);
}

/* ---- kernels split by the thread count ---- */

static float unit_value(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / (float)(1u << 24) - 0.5f;
}

/* Depthwise 3x3 (SAME padding) layers of few output rows, with channel
 * counts of whole, partial and single vectors; GEMMs whose task count
 * is rounded to the threads. Fills out (the results one after another);
 * returns the floats written, or 0 when the reference disagrees. */
static const struct {
    uint32_t n, h, w, c, stride;
} dw_shapes[] = {{1, 7, 7, 1000, 1}, {1, 14, 14, 40, 2}, {2, 2, 5, 48, 1}, {1, 3, 9, 24, 1},
                 {1, 1, 3, 17, 1}};
static const size_t gemm_shapes[][3] = {{784, 256, 64}, {196, 128, 32}, {49, 160, 96}};

static size_t split_kernels(float *out, size_t cap)
{
    size_t used = 0;
    uint32_t seed = 12345;
    bool close = true;
    for (size_t s = 0; s < sizeof dw_shapes / sizeof dw_shapes[0]; s++) {
        const uint32_t st = dw_shapes[s].stride, c = dw_shapes[s].c;
        nn_dw_geom g = {.n = dw_shapes[s].n, .in_h = dw_shapes[s].h, .in_w = dw_shapes[s].w,
                        .in_c = c, .out_c = c, .f_h = 3, .f_w = 3, .multiplier = 1,
                        .stride_h = (int32_t)st, .stride_w = (int32_t)st, .dil_h = 1, .dil_w = 1};
        g.out_h = (g.in_h + st - 1) / st;
        g.out_w = (g.in_w + st - 1) / st;
        g.pad_t = (int32_t)(((g.out_h - 1) * st + 3 - g.in_h) / 2);
        g.pad_l = (int32_t)(((g.out_w - 1) * st + 3 - g.in_w) / 2);
        size_t in_n = (size_t)g.n * g.in_h * g.in_w * c, out_n = (size_t)g.n * g.out_h * g.out_w * c;
        float *in = malloc(in_n * sizeof(float)), *f = malloc(9 * c * sizeof(float)),
              *bias = malloc(c * sizeof(float));
        if (!in || !f || !bias || used + out_n > cap) {
            free(in), free(f), free(bias);
            return 0;
        }
        for (size_t i = 0; i < in_n; i++)
            in[i] = unit_value(&seed);
        for (size_t i = 0; i < 9 * c; i++)
            f[i] = unit_value(&seed);
        for (size_t i = 0; i < c; i++)
            bias[i] = unit_value(&seed);
        float *y = out + used;
        close &= nn_depthwise_f32(&g, in, f, bias, -INFINITY, INFINITY, y) == 0;
        for (uint32_t b = 0; b < g.n; b++)
            for (uint32_t oy = 0; oy < g.out_h; oy++)
                for (uint32_t ox = 0; ox < g.out_w; ox++)
                    for (uint32_t ch = 0; ch < c; ch++) {
                        double want = bias[ch];
                        for (int i = 0; i < 3; i++)
                            for (int j = 0; j < 3; j++) {
                                int64_t yy = (int64_t)oy * st + i - g.pad_t,
                                        xx = (int64_t)ox * st + j - g.pad_l;
                                if (yy >= 0 && yy < g.in_h && xx >= 0 && xx < g.in_w)
                                    want += (double)in[((b * g.in_h + yy) * g.in_w + xx) * c + ch] *
                                            f[(i * 3 + j) * c + ch];
                            }
                        float got = y[((b * g.out_h + oy) * g.out_w + ox) * c + ch];
                        close &= fabs(got - want) < 1e-5;
                    }
        used += out_n;
        free(in), free(f), free(bias);
    }
    for (size_t s = 0; s < sizeof gemm_shapes / sizeof gemm_shapes[0]; s++) {
        size_t m = gemm_shapes[s][0], n = gemm_shapes[s][1], k = gemm_shapes[s][2];
        float *a = malloc(m * k * sizeof(float)), *b = malloc(n * k * sizeof(float));
        nn_sgemm_packed *bp = NULL;
        if (a && b) {
            for (size_t i = 0; i < m * k; i++)
                a[i] = unit_value(&seed);
            for (size_t i = 0; i < n * k; i++)
                b[i] = unit_value(&seed);
            bp = nn_sgemm_pack(n, k, b, k);
        }
        if (!bp || used + m * n > cap) {
            free(a), free(b), nn_sgemm_packed_free(bp);
            return 0;
        }
        float *c = out + used;
        nn_sgemm_prepacked(m, a, k, bp, NULL, -INFINITY, INFINITY, c, n);
        for (size_t i = 0; i < m; i += 7)
            for (size_t j = 0; j < n; j++) {
                double want = 0;
                for (size_t q = 0; q < k; q++)
                    want += (double)a[i * k + q] * b[j * k + q];
                close &= fabs(c[i * n + j] - want) < 1e-4;
            }
        used += m * n;
        free(a), free(b), nn_sgemm_packed_free(bp);
    }
    return close ? used : 0;
}

/* The same kernels in a forked child whose pool runs one thread: every bit
 * equal. */
static void test_split_results(void)
{
    enum { CAP = 1 << 19 };
    float *here = malloc(CAP * sizeof(float)), *alone = malloc(CAP * sizeof(float));
    size_t n = here && alone ? split_kernels(here, CAP) : 0;
    CHECK(n > 0);
    int fds[2] = {-1, -1};
    bool piped = n > 0 && pipe(fds) == 0;
    CHECK(n == 0 || piped);
    if (!piped) {
        free(here), free(alone);
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* The child's pool starts anew (pthread_atfork) and reads this. */
        setenv("NNAPI_LINUX_THREADS", "1", 1);
        size_t got = nn_thread_count() == 1 ? split_kernels(alone, CAP) : 0;
        const char *p = (const char *)alone;
        size_t left = got * sizeof(float);
        while (left > 0) {
            ssize_t w = write(fds[1], p, left);
            if (w <= 0)
                _exit(1);
            p += w, left -= (size_t)w;
        }
        _exit(got == n ? 0 : 1);
    }
    close(fds[1]);
    size_t have = 0;
    ssize_t r;
    while (pid > 0 && have < n * sizeof(float) &&
           (r = read(fds[0], (char *)alone + have, n * sizeof(float) - have)) > 0)
        have += (size_t)r;
    close(fds[0]);
    int status = 1;
    if (pid > 0)
        waitpid(pid, &status, 0);
    CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(have == n * sizeof(float) && memcmp(here, alone, have) == 0);
    free(here), free(alone);
}

int main(void)
{
    setenv("NNAPI_LINUX_THREADS", "3", 0);
    int threads = nn_thread_count();
    CHECK(threads == atoi(getenv("NNAPI_LINUX_THREADS")));
    test_cover();
    test_huge();
    test_nested();
    test_beside();
    test_concurrent();
    test_wake();
    test_split_results();
    printf("test_threadpool (%d threads): ", threads);
    return nt_summary();
}
