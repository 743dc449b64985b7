/*
 * The thread pool's cost per parallel loop (util/threadpool.h):
 * - a loop of 2 x threads empty chunks, back to back (the workers are still
 *   polling from the previous loop) and after a pause of 1 ms (asleep);
 * - a loop of 4 x threads chunks of WORK_US microseconds of busy work each,
 *   back to back: its time over the ideal (the work divided by the threads)
 *   is the fork-join cost a kernel pays when the workers do take part; the
 *   same after 1 ms asleep, and asleep but woken by nn_pool_wake just
 *   before (as a computation wakes them before its first operation);
 * - the workers' CPU time in the 20 ms after a loop returns: what idle
 *   workers burn polling before they sleep (bounded by the pool's spin).
 * Each prints its median and 90th percentile, and the share of chunks the
 * workers ran. Figures on a machine busy with other work are not meaningful;
 * the share of the machine other processes used during the run is printed
 * to judge them.
 * Usage: NNAPI_LINUX_THREADS=2 bench_pool [loops]
 */
#include <dirent.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/threadpool.h"
#include "bench_util.h"

#define WORK_US 2.0

static atomic_size_t by_caller, total;
static _Thread_local int is_caller;

static void count(size_t begin, size_t end)
{
    atomic_fetch_add(&total, end - begin);
    if (is_caller)
        atomic_fetch_add(&by_caller, end - begin);
}

static void empty_chunk(void *arg, size_t begin, size_t end)
{
    (void)arg;
    count(begin, end);
}

static void busy_chunk(void *arg, size_t begin, size_t end)
{
    (void)arg;
    for (size_t i = begin; i < end; i++) {
        double until = (bench_seconds(CLOCK_MONOTONIC) * 1e6) + WORK_US;
        while ((bench_seconds(CLOCK_MONOTONIC) * 1e6) < until)
            ;
    }
    count(begin, end);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* CPU time (ns) of every thread of the process but the calling one. */
static uint64_t others_cpu_ns(void)
{
    uint64_t sum = 0;
    long self = syscall(SYS_gettid);
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long tid = atol(e->d_name);
        if (tid <= 0 || tid == self)
            continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", tid);
        FILE *f = fopen(path, "r");
        unsigned long long ns;
        if (f && fscanf(f, "%llu", &ns) == 1)
            sum += ns;
        if (f)
            fclose(f);
    }
    closedir(d);
    return sum;
}

/* Clock ticks this process has run (/proc/self/stat utime + stime). */
static unsigned long long own_jiffies(void)
{
    unsigned long long u = 0, s = 0;
    FILE *f = fopen("/proc/self/stat", "r");
    if (f && fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &u,
                    &s) != 2)
        u = s = 0;
    if (f)
        fclose(f);
    return u + s;
}

/* Idle jiffies and all jiffies of the machine (/proc/stat). */
static void machine_jiffies(unsigned long long *idle, unsigned long long *all)
{
    unsigned long long v[8] = {0};
    FILE *f = fopen("/proc/stat", "r");
    if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                     &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
        v[3] = 0;
    if (f)
        fclose(f);
    *idle = v[3];
    *all = 0;
    for (int i = 0; i < 8; i++)
        *all += v[i];
}

static void report(const char *name, double *t, int loops, const char *unit)
{
    qsort(t, (size_t)loops, sizeof *t, cmp);
    size_t all = atomic_load(&total), mine = atomic_load(&by_caller);
    printf("%-34s median %8.2f %s  p90 %8.2f %s  chunks run by workers %5.1f%%\n", name,
           t[loops / 2], unit, t[loops * 9 / 10], unit,
           all ? 100.0 * (double)(all - mine) / (double)all : 0.0);
}

/* nudge: nn_pool_wake after the pause, as a computation does before its first loop. */
static void run(const char *name, int loops, long pause_ns, bool nudge, size_t n, nn_range_fn fn,
                double ideal_us)
{
    double *t = malloc((size_t)loops * sizeof *t);
    if (!t)
        exit(1);
    atomic_store(&by_caller, 0);
    atomic_store(&total, 0);
    for (int i = 0; i < loops; i++) {
        if (pause_ns) {
            struct timespec p = {0, pause_ns};
            nanosleep(&p, NULL);
        }
        double a = (bench_seconds(CLOCK_MONOTONIC) * 1e6);
        if (nudge)
            nn_pool_wake();
        nn_parallel_for(n, 1, fn, NULL);
        t[i] = (bench_seconds(CLOCK_MONOTONIC) * 1e6) - a - ideal_us;
    }
    report(name, t, loops, "us");
    free(t);
}

static void idle_burn(int loops)
{
    double *t = malloc((size_t)loops * sizeof *t);
    if (!t)
        exit(1);
    size_t n = 4 * (size_t)nn_thread_count();
    atomic_store(&by_caller, 0);
    atomic_store(&total, 0);
    for (int i = 0; i < loops; i++) {
        nn_parallel_for(n, 1, busy_chunk, NULL);
        uint64_t before = others_cpu_ns();
        struct timespec p = {0, 20000000};
        nanosleep(&p, NULL);
        t[i] = (double)(others_cpu_ns() - before) * 1e-3;
    }
    report("workers' CPU in 20 ms after a loop", t, loops, "us");
    free(t);
}

int main(int argc, char **argv)
{
    int loops = argc > 1 ? atoi(argv[1]) : 2000;
    if (loops < 50)
        loops = 50;
    is_caller = 1;
    int threads = nn_thread_count();
    printf("threads %d, busy chunk %.1f us\n", threads, WORK_US);
    unsigned long long idle0, all0, idle1, all1, own0 = own_jiffies();
    machine_jiffies(&idle0, &all0);
    size_t empty = 2 * (size_t)threads, busy = 4 * (size_t)threads;
    run("empty, back to back (polling)", loops, 0, false, empty, empty_chunk, 0);
    run("empty, after 1 ms (asleep)", loops / 10, 1000000, false, empty, empty_chunk, 0);
    double ideal = 4.0 * WORK_US;
    run("busy, back to back: over ideal", loops, 0, false, busy, busy_chunk, ideal);
    run("busy, after 1 ms: over ideal", loops / 10, 1000000, false, busy, busy_chunk, ideal);
    run("busy, after 1 ms, woken: over ideal", loops / 10, 1000000, true, busy, busy_chunk, ideal);
    idle_burn(loops / 40);
    machine_jiffies(&idle1, &all1);
    unsigned long long busy_others = (all1 - all0) - (idle1 - idle0) - (own_jiffies() - own0);
    printf("other processes used %.0f%% of the machine during the run\n",
           all1 > all0 ? 100.0 * (double)(long long)busy_others / (double)(all1 - all0) : 0.0);
    return 0;
}
