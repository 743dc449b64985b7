/*
 * The thread pool's cost per parallel loop (util/threadpool.h): a loop of
 * 2 x threads tiny chunks, timed back to back (the workers are still
 * polling from the previous loop) and after a pause of 1 ms (the workers
 * went to sleep and must be woken), with how many chunks the workers ran.
 * Usage: NNAPI_LINUX_THREADS=2 bench_pool [loops]
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/threadpool.h"

static atomic_size_t by_caller, total;
static _Thread_local int is_caller;

static void chunk(void *arg, size_t begin, size_t end)
{
    (void)arg;
    atomic_fetch_add(&total, end - begin);
    if (is_caller)
        atomic_fetch_add(&by_caller, end - begin);
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void run(const char *name, int loops, long pause_ns)
{
    double *t = malloc((size_t)loops * sizeof *t);
    if (!t)
        exit(1);
    size_t n = 2 * (size_t)nn_thread_count();
    atomic_store(&by_caller, 0);
    atomic_store(&total, 0);
    for (int i = 0; i < loops; i++) {
        if (pause_ns) {
            struct timespec p = {0, pause_ns};
            nanosleep(&p, NULL);
        }
        double a = now_us();
        nn_parallel_for(n, 1, chunk, NULL);
        t[i] = now_us() - a;
    }
    qsort(t, (size_t)loops, sizeof *t, cmp);
    size_t all = atomic_load(&total), mine = atomic_load(&by_caller);
    printf("%-28s median %7.2f us  p90 %7.2f us  chunks run by workers %5.1f%%\n", name,
           t[loops / 2], t[loops * 9 / 10], all ? 100.0 * (double)(all - mine) / (double)all : 0.0);
    free(t);
}

int main(int argc, char **argv)
{
    int loops = argc > 1 ? atoi(argv[1]) : 2000;
    if (loops < 10)
        loops = 10;
    is_caller = 1;
    printf("threads %d\n", nn_thread_count());
    run("back to back (polling)", loops, 0);
    run("after 1 ms (asleep)", loops / 10, 1000000);
    return 0;
}
