/*
 * A process-wide pool of worker threads for data-parallel kernels.
 * nn_parallel_for splits [0, n) into chunks and calls fn(arg, begin, end) on
 * them from the pool and the calling thread, returning when all are done.
 * When the pool is busy with another caller's loop (several executions at
 * once, or a nested call) the loop runs on the calling thread alone, so
 * callers never wait on each other. A child process created by fork()
 * after the pool started has none of its workers: it starts its own on its
 * first parallel loop (pthread_atfork).
 */
#ifndef NN_UTIL_THREADPOOL_H
#define NN_UTIL_THREADPOOL_H

#include <stddef.h>

typedef void (*nn_range_fn)(void *arg, size_t begin, size_t end);

/* grain: the smallest chunk worth handing to another thread. */
void nn_parallel_for(size_t n, size_t grain, nn_range_fn fn, void *arg);

/* nn_parallel_for, with beside(beside_arg) run on the calling thread, once,
 * before it takes its share of [0, n): serial work that the loop's items do
 * not depend on overlaps the loop. A nested nn_parallel_for in beside runs
 * on the calling thread alone, as any nested loop does. */
void nn_parallel_for_beside(size_t n, size_t grain, nn_range_fn fn, void *arg,
                            void (*beside)(void *), void *beside_arg);

/* Starts the workers, or wakes those that went to sleep, for loops about to
 * come (a computation starting): they poll for a while, so the first loop
 * does not wait for them to start or wake. Costs nothing when none sleeps. */
void nn_pool_wake(void);

/* Threads a parallel loop may use (workers + caller). */
int nn_thread_count(void);

#endif
