/*
 * The thread pool (util/threadpool.h): every parallel loop calls its
 * function on disjoint ranges that cover [0, n) exactly once, for sizes
 * around the lanes' and chunks' boundaries, grains from 0 to beyond n, loop
 * sizes beyond the lanes' 32-bit bounds, loops nested in loops (run by the
 * calling thread), loops started from several threads at once, and
 * workers woken by nn_pool_wake with or without a loop after it.
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
#include <time.h>

#include "util/threadpool.h"

static int passed, failed;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (cond) {                                                                    \
            passed++;                                                                  \
        } else {                                                                       \
            failed++;                                                                  \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
        }                                                                              \
    } while (0)

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

int main(void)
{
    setenv("NNAPI_LINUX_THREADS", "3", 0);
    int threads = nn_thread_count();
    CHECK(threads == atoi(getenv("NNAPI_LINUX_THREADS")));
    test_cover();
    test_huge();
    test_nested();
    test_concurrent();
    test_wake();
    printf("test_threadpool (%d threads): %d passed, %d failed\n", threads, passed, failed);
    return failed != 0;
}
