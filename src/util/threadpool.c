#include "util/threadpool.h"

#include <pthread.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NN_MAX_WORKERS 64

/* One loop at a time is shared with the workers; job_lock is held by the
 * caller that owns the pool for the whole of its loop. start_lock guards
 * started: a forked child, which has none of the workers, starts anew.
 * A new loop is announced by incrementing generation (under lock, with a
 * broadcast for sleeping workers); workers and caller poll a little before
 * sleeping, because a model runs its loops back to back and waking a
 * sleeping thread costs more than a small loop.
 *
 * [0, n) is cut into one contiguous lane per thread (the caller's first),
 * each taken from its front in chunks by its own thread; a thread done with
 * its lane takes chunks from the back of the others'. The same thread so
 * computes the same part of every loop of the same size: an operation reads
 * the rows of its input that this thread wrote in the previous one, from its
 * own cache (which an anonymous shared counter loses), while a worker that
 * is late or never comes costs only the chunks the others take over. */
#define LANE_END_SHIFT 32
#define LANE_MASK 0xffffffffu

/* begin (low 32 bits) and end (high 32 bits) of a lane, in units of the loop */
typedef struct {
    _Alignas(64) atomic_uint_fast64_t span;
} lane;

static struct {
    pthread_mutex_t start_lock;
    atomic_bool started;      /* workers is set before started, never after */
    bool atfork_registered;
    pthread_mutex_t job_lock;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t done;
    int workers;
    atomic_ulong generation;
    /* nn_pool_wake's count: a sleeping worker wakes when it changes too,
     * and polls again */
    atomic_ulong nudges;
    atomic_int sleepers; /* workers waiting on wake */
    nn_range_fn fn;
    void *arg;
    size_t n;
    size_t unit;  /* items per lane unit: 1 unless n exceeds 32 bits */
    size_t chunk; /* fewest lane units taken at a time */
    int lanes;
    /* The current loop's generation (high 32 bits), TICKET_CLOSED, and the
     * count of workers that joined it. The caller waits for the workers
     * that joined, never for one that has not woken yet: on a machine
     * whose cores are busy with other processes, a worker may not run for
     * a whole time slice, and the caller does its share meanwhile. */
    atomic_uint_fast64_t ticket;
    atomic_int finished; /* joined workers done with the current loop */
    /* The caller sleeps on done (it polled SPIN_NS in vain): only then does
     * the last worker take the lock to signal it, which otherwise costs
     * every loop a lock the caller's next loop may find held. */
    atomic_bool caller_asleep;
    lane lane[NN_MAX_WORKERS + 1];
} pool = {
    .start_lock = PTHREAD_MUTEX_INITIALIZER,
    .job_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .ticket = (uint_fast64_t)1 << 31, /* TICKET_CLOSED: no loop yet */
};

static void run_units(uint_fast64_t from, uint_fast64_t to)
{
    size_t begin = (size_t)from * pool.unit, end = (size_t)to * pool.unit;
    pool.fn(pool.arg, begin, end < pool.n ? end : pool.n);
}

/* Takes a chunk from the front of lane l (from_back: its back) and runs it;
 * false when the lane is empty. Chunks shrink with what is left of the
 * lane, down to pool.chunk: few takes while the lane is long, and at its
 * end pieces small enough that the two threads finish together (a fixed
 * quarter of a thread's share left one waiting for up to that much). */
static bool take_chunk(int l, bool from_back)
{
    atomic_uint_fast64_t *span = &pool.lane[l].span;
    uint_fast64_t s = atomic_load_explicit(span, memory_order_relaxed);
    for (;;) {
        uint_fast64_t begin = s & LANE_MASK, end = s >> LANE_END_SHIFT;
        if (begin >= end)
            return false;
        uint_fast64_t left = end - begin, c = left / (2 * (uint_fast64_t)pool.lanes);
        if (c < pool.chunk)
            c = pool.chunk;
        if (c > left)
            c = left;
        uint_fast64_t next = from_back ? begin | (end - c) << LANE_END_SHIFT
                                       : (begin + c) | end << LANE_END_SHIFT;
        if (atomic_compare_exchange_weak(span, &s, next)) {
            if (from_back)
                run_units(end - c, end);
            else
                run_units(begin, begin + c);
            return true;
        }
    }
}

/* Runs lane self, then what is left of the others; returns when every chunk
 * of the loop has been taken (not necessarily finished). */
static void run_lanes(int self)
{
    while (take_chunk(self, false))
        ;
    for (int i = 1; i < pool.lanes; i++) {
        int l = (self + i) % pool.lanes;
        while (take_chunk(l, true))
            ;
    }
}

/* How long to poll before sleeping (a pause instruction lasts from 10 to
 * 150 cycles depending on the core, hence a clock). */
#define SPIN_NS 50000

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Polls until *v differs from old or SPIN_NS pass; returns the last value. */
static unsigned long spin_while_ulong(atomic_ulong *v, unsigned long old)
{
    uint64_t start = now_ns();
    unsigned long cur;
    while ((cur = atomic_load(v)) == old && now_ns() - start < SPIN_NS)
        for (int i = 0; i < 16; i++)
            cpu_relax();
    return cur;
}

/* Polls until *v is want or SPIN_NS pass; returns the last value. */
static int spin_until(atomic_int *v, int want)
{
    uint64_t start = now_ns();
    int cur;
    while ((cur = atomic_load(v)) != want && now_ns() - start < SPIN_NS)
        for (int i = 0; i < 16; i++)
            cpu_relax();
    return cur;
}

#define TICKET_CLOSED ((uint64_t)1 << 31)
#define TICKET_COUNT (TICKET_CLOSED - 1)

/* Joins loop `gen` unless the caller has closed it or moved on. */
static bool join_loop(unsigned long gen)
{
    uint_fast64_t t = atomic_load(&pool.ticket);
    for (;;) {
        if ((uint32_t)(t >> 32) != (uint32_t)gen || (t & TICKET_CLOSED))
            return false;
        if (atomic_compare_exchange_weak(&pool.ticket, &t, t + 1))
            return true;
    }
}

/* start: the worker's lane (low 8 bits) and the generation when it was
 * created (no loop in flight); a generation cut short by the shift differs
 * from the current one, which costs the worker one failed join. */
#define START_LANE_BITS 8

static void *worker_main(void *start)
{
    uintptr_t word = (uintptr_t)start;
    unsigned long seen = (unsigned long)(word >> START_LANE_BITS);
    int self = (int)(word & ((1u << START_LANE_BITS) - 1));
    for (;;) {
        if (spin_while_ulong(&pool.generation, seen) == seen) {
            pthread_mutex_lock(&pool.lock);
            unsigned long nudges = atomic_load(&pool.nudges);
            atomic_fetch_add(&pool.sleepers, 1);
            while (atomic_load(&pool.generation) == seen && atomic_load(&pool.nudges) == nudges)
                pthread_cond_wait(&pool.wake, &pool.lock);
            atomic_fetch_sub(&pool.sleepers, 1);
            pthread_mutex_unlock(&pool.lock);
            if (atomic_load(&pool.generation) == seen)
                continue; /* nudged: poll for the loop that is coming */
        }
        seen = atomic_load(&pool.generation);
        if (!join_loop(seen))
            continue;
        /* Stable until every joined worker has left the loop (the caller waits). */
        run_lanes(self);
        int done = atomic_fetch_add(&pool.finished, 1) + 1;
        uint_fast64_t t = atomic_load(&pool.ticket);
        /* Closed, and the caller asleep waiting for the last of us. It sets
         * caller_asleep before it reads finished, we read it after adding
         * to finished: one of us sees the other's write. */
        if ((t & TICKET_CLOSED) && done == (int)(t & TICKET_COUNT) &&
            atomic_load(&pool.caller_asleep)) {
            pthread_mutex_lock(&pool.lock);
            pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.lock);
        }
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

/* Around fork() no loop is in flight, so the child's copy of the pool is
 * consistent: it has no workers, and starts its own on first use. */
static void pool_prepare_fork(void)
{
    pthread_mutex_lock(&pool.start_lock);
    pthread_mutex_lock(&pool.job_lock);
    pthread_mutex_lock(&pool.lock);
}

static void pool_parent_fork(void)
{
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.job_lock);
    pthread_mutex_unlock(&pool.start_lock);
}

static void pool_child_fork(void)
{
    pool.workers = 0;
    atomic_store(&pool.sleepers, 0);
    atomic_store(&pool.ticket, TICKET_CLOSED);
    atomic_store(&pool.finished, 0);
    atomic_store(&pool.caller_asleep, false);
    atomic_store(&pool.started, false);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.job_lock);
    pthread_mutex_unlock(&pool.start_lock);
}

/* Called with start_lock held. */
static void pool_start(void)
{
    if (!pool.atfork_registered) {
        pthread_atfork(pool_prepare_fork, pool_parent_fork, pool_child_fork);
        pool.atfork_registered = true;
    }
    int wanted = (int)threads_wanted() - 1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int workers = 0;
    for (int i = 0; i < wanted; i++) {
        uintptr_t start = (uintptr_t)atomic_load(&pool.generation) << START_LANE_BITS |
                          (uintptr_t)(i + 1);
        pthread_t t;
        if (pthread_create(&t, &attr, worker_main, (void *)start) != 0)
            break;
        workers++;
    }
    pthread_attr_destroy(&attr);
    pool.workers = workers;
    atomic_store_explicit(&pool.started, true, memory_order_release);
}

int nn_thread_count(void)
{
    if (!atomic_load_explicit(&pool.started, memory_order_acquire)) {
        pthread_mutex_lock(&pool.start_lock);
        if (!atomic_load_explicit(&pool.started, memory_order_relaxed))
            pool_start();
        pthread_mutex_unlock(&pool.start_lock);
    }
    return pool.workers + 1;
}

void nn_pool_wake(void)
{
    /* A new pool's workers start polling at once. Nobody asleep: nothing to
     * do, and no lock taken. A worker falling asleep meanwhile is woken by
     * the next loop instead. */
    if (nn_thread_count() == 1 || atomic_load(&pool.sleepers) == 0)
        return;
    pthread_mutex_lock(&pool.lock);
    atomic_fetch_add(&pool.nudges, 1);
    pthread_mutex_unlock(&pool.lock);
    pthread_cond_broadcast(&pool.wake);
}

void nn_parallel_for(size_t n, size_t grain, nn_range_fn fn, void *arg)
{
    nn_parallel_for_beside(n, grain, fn, arg, NULL, NULL);
}

void nn_parallel_for_beside(size_t n, size_t grain, nn_range_fn fn, void *arg,
                            void (*beside)(void *), void *beside_arg)
{
    if (grain == 0)
        grain = 1;
    int threads = nn_thread_count();
    if (n == 0 || threads == 1 || n <= grain || pthread_mutex_trylock(&pool.job_lock) != 0) {
        if (beside)
            beside(beside_arg);
        if (n)
            fn(arg, 0, n);
        return;
    }
    /* Lane units fit the lanes' 32-bit bounds. */
    size_t unit = n / LANE_MASK + 1;
    size_t units = (n + unit - 1) / unit;
    /* The smallest chunk (take_chunk): grain, but no less than a 64th of a
     * thread's share, so that a loop of many tiny items costs a bounded
     * number of takes. */
    size_t chunk = (n + (size_t)threads * 64 - 1) / ((size_t)threads * 64);
    if (chunk < grain)
        chunk = grain;
    chunk = (chunk + unit - 1) / unit;
    pthread_mutex_lock(&pool.lock);
    pool.fn = fn;
    pool.arg = arg;
    pool.n = n;
    pool.unit = unit;
    pool.chunk = chunk;
    pool.lanes = threads;
    for (int l = 0; l < threads; l++) {
        uint_fast64_t begin = units * (size_t)l / (size_t)threads;
        uint_fast64_t end = units * (size_t)(l + 1) / (size_t)threads;
        atomic_store_explicit(&pool.lane[l].span, begin | end << LANE_END_SHIFT,
                              memory_order_relaxed);
    }
    atomic_store(&pool.finished, 0);
    unsigned long gen = atomic_load(&pool.generation) + 1;
    atomic_store(&pool.ticket, (uint_fast64_t)(uint32_t)gen << 32);
    atomic_store(&pool.generation, gen);
    pthread_mutex_unlock(&pool.lock);
    /* After unlocking: a woken worker does not block on the lock at once
     * (the generation changed under it, so no sleeper can miss the wake). */
    pthread_cond_broadcast(&pool.wake);
    /* The workers start on their lanes meanwhile, and take over the back
     * of the caller's when theirs are done. */
    if (beside)
        beside(beside_arg);
    run_lanes(0);
    /* Every chunk is taken: no worker may join from now on. */
    int joined = (int)(atomic_fetch_or(&pool.ticket, TICKET_CLOSED) & TICKET_COUNT);
    if (spin_until(&pool.finished, joined) != joined) {
        pthread_mutex_lock(&pool.lock);
        atomic_store(&pool.caller_asleep, true);
        while (atomic_load(&pool.finished) != joined)
            pthread_cond_wait(&pool.done, &pool.lock);
        atomic_store(&pool.caller_asleep, false);
        pthread_mutex_unlock(&pool.lock);
    }
    pthread_mutex_unlock(&pool.job_lock);
}
