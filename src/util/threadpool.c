#include "util/threadpool.h"

#include <pthread.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NN_MAX_WORKERS 64

/* One loop at a time is shared with the workers; job_lock is held by the
 * caller that owns the pool for the whole of its loop. */
static struct {
    pthread_once_t once;
    pthread_mutex_t job_lock;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t done;
    int workers;
    unsigned long generation;
    nn_range_fn fn;
    void *arg;
    size_t n;
    size_t chunk;
    atomic_size_t next;
    int active;
} pool = {
    .once = PTHREAD_ONCE_INIT,
    .job_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
};

static void run_chunks(nn_range_fn fn, void *arg, size_t n, size_t chunk)
{
    for (;;) {
        size_t begin = atomic_fetch_add(&pool.next, chunk);
        if (begin >= n)
            break;
        size_t end = begin + chunk < n ? begin + chunk : n;
        fn(arg, begin, end);
    }
}

static void *worker_main(void *unused)
{
    (void)unused;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.generation == seen)
            pthread_cond_wait(&pool.wake, &pool.lock);
        seen = pool.generation;
        nn_range_fn fn = pool.fn;
        void *arg = pool.arg;
        size_t n = pool.n, chunk = pool.chunk;
        pthread_mutex_unlock(&pool.lock);
        run_chunks(fn, arg, n, chunk);
        pthread_mutex_lock(&pool.lock);
        if (--pool.active == 0)
            pthread_cond_signal(&pool.done);
    }
    return NULL;
}

/* Threads for the kernels: all cores, or NNAPI_LINUX_THREADS. A value that is
 * not a positive number, or one beyond what the pool can run, is said once on
 * stderr (pool_start runs once) and replaced by the default or the maximum. */
static long threads_wanted(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        cpus = 1;
    if (cpus > NN_MAX_WORKERS + 1)
        cpus = NN_MAX_WORKERS + 1;
    const char *env = getenv("NNAPI_LINUX_THREADS");
    if (!env || !env[0])
        return cpus;
    char *end;
    errno = 0;
    long n = strtol(env, &end, 10);
    if (end == env || *end != '\0' || n < 1) {
        fprintf(stderr,
                "nnapi-linux: NNAPI_LINUX_THREADS=%s is not a positive number; using %ld\n", env,
                cpus);
        return cpus;
    }
    if (errno == ERANGE || n > NN_MAX_WORKERS + 1) {
        fprintf(stderr, "nnapi-linux: NNAPI_LINUX_THREADS=%s is more than %d; using %d\n", env,
                NN_MAX_WORKERS + 1, NN_MAX_WORKERS + 1);
        return NN_MAX_WORKERS + 1;
    }
    return n;
}

static void pool_start(void)
{
    int wanted = (int)threads_wanted() - 1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < wanted; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, worker_main, NULL) != 0)
            break;
        pool.workers++;
    }
    pthread_attr_destroy(&attr);
}

int nn_thread_count(void)
{
    pthread_once(&pool.once, pool_start);
    return pool.workers + 1;
}

void nn_parallel_for(size_t n, size_t grain, nn_range_fn fn, void *arg)
{
    if (n == 0)
        return;
    if (grain == 0)
        grain = 1;
    int threads = nn_thread_count();
    if (threads == 1 || n <= grain || pthread_mutex_trylock(&pool.job_lock) != 0) {
        fn(arg, 0, n);
        return;
    }
    /* A few chunks per thread balance uneven chunk costs. */
    size_t chunks = (size_t)threads * 4;
    size_t chunk = (n + chunks - 1) / chunks;
    if (chunk < grain)
        chunk = grain;
    pthread_mutex_lock(&pool.lock);
    pool.fn = fn;
    pool.arg = arg;
    pool.n = n;
    pool.chunk = chunk;
    atomic_store(&pool.next, 0);
    pool.active = pool.workers;
    pool.generation++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    run_chunks(fn, arg, n, chunk);
    pthread_mutex_lock(&pool.lock);
    while (pool.active > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.job_lock);
}
