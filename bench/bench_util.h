/*
 * What every benchmark needs: a clock, and a check that stops the run at
 * the first failed NNAPI call (a benchmark that goes on after a failure
 * would print figures for work it did not do).
 */
#ifndef NN_BENCH_UTIL_H
#define NN_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds on clock: CLOCK_MONOTONIC for wall time, CLOCK_THREAD_CPUTIME_ID
 * for the calling thread's CPU time (which other processes' time slices on
 * a shared machine do not inflate). */
static inline double bench_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define CHECK(x)                                                                   \
    do {                                                                           \
        int rc_ = (x);                                                             \
        if (rc_ != ANEURALNETWORKS_NO_ERROR) {                                     \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, rc_); \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

#endif
