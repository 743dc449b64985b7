/*
 * Events and asynchronous computation. Asynchronous and fenced computations
 * run on a bounded set of worker threads fed by queues, so that any number
 * of them can be in flight with bounded threads and memory. A computation
 * waits, off the workers, until its dependencies are signaled, then enters
 * the ready queue of its compilation's priority; workers take the highest
 * priority first, in start order within a priority. Fenced computations
 * also expose a sync fence: on Linux an eventfd that becomes readable once
 * the computation has finished, so that it can be poll()ed or handed to
 * another execution as a dependency.
 *
 * One lock guards every event and the queues. An event is freed when its
 * last holder lets go (refs): the application, the queue, and each
 * computation depending on it, so the application may free a dependency
 * as soon as it has handed it over.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "runtime.h"

#define NN_MAX_ASYNC_WORKERS 8
/* Workers run kernels and shallow control flow; deeper nesting moves to a
 * thread sized for it (nn_execution_run). */
#define NN_ASYNC_WORKER_STACK (2u << 20)
/* Ready queues: high, medium, low priority. */
#define NN_QUEUES 3

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work;          /* a ready queue gained an entry */
    ANeuralNetworksEvent *ready_head[NN_QUEUES];
    ANeuralNetworksEvent *ready_tail[NN_QUEUES];
    /* Computations blocked on a caller's sync fence, which only poll() can
     * watch: one worker at a time (the poller) polls them. */
    ANeuralNetworksEvent *fence_wait;
    bool polling;
    int wake_fd;                  /* eventfd that interrupts the poller, or -1 */
    uint32_t workers;
    uint32_t max_workers;
    bool initialized;
} sched = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .wake_fd = -1,
};

static pthread_once_t sched_once = PTHREAD_ONCE_INIT;

static void sched_prepare_fork(void)
{
    pthread_mutex_lock(&sched.lock);
}

static void sched_parent_fork(void)
{
    pthread_mutex_unlock(&sched.lock);
}

/* The child has only the forking thread: no worker survives. Queued
 * computations run once the child starts one again. */
static void sched_child_fork(void)
{
    sched.workers = 0;
    sched.polling = false;
    pthread_cond_init(&sched.work, NULL);
    pthread_mutex_unlock(&sched.lock);
}

static void sched_init(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 2)
        cpus = 2;
    sched.max_workers = cpus > NN_MAX_ASYNC_WORKERS ? NN_MAX_ASYNC_WORKERS : (uint32_t)cpus;
    sched.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    pthread_atfork(sched_prepare_fork, sched_parent_fork, sched_child_fork);
    sched.initialized = true;
}

static ANeuralNetworksEvent *event_new(void)
{
    ANeuralNetworksEvent *ev = calloc(1, sizeof *ev);
    if (ev == NULL)
        return NULL;
    pthread_cond_init(&ev->cond, NULL);
    ev->fence_fd = -1;
    ev->refs = 1;
    return ev;
}

static void event_destroy(ANeuralNetworksEvent *ev)
{
    if (ev->fence_fd >= 0)
        close(ev->fence_fd);
    free(ev->deps);
    pthread_cond_destroy(&ev->cond);
    free(ev);
}

/* Drops a reference; called with sched.lock held. */
static void event_unref_locked(ANeuralNetworksEvent *ev)
{
    if (--ev->refs == 0)
        event_destroy(ev);
}

static void wake_poller_locked(void)
{
    if (sched.polling && sched.wake_fd >= 0) {
        uint64_t one = 1;
        ssize_t w = write(sched.wake_fd, &one, sizeof one);
        (void)w; /* a full counter already wakes the poller */
    }
}

static void push_ready_locked(ANeuralNetworksEvent *ev)
{
    ev->next = NULL;
    if (sched.ready_tail[ev->queue])
        sched.ready_tail[ev->queue]->next = ev;
    else
        sched.ready_head[ev->queue] = ev;
    sched.ready_tail[ev->queue] = ev;
    pthread_cond_signal(&sched.work);
    wake_poller_locked();
}

static ANeuralNetworksEvent *pop_ready_locked(void)
{
    for (int q = 0; q < NN_QUEUES; q++) {
        ANeuralNetworksEvent *ev = sched.ready_head[q];
        if (ev == NULL)
            continue;
        sched.ready_head[q] = ev->next;
        if (sched.ready_head[q] == NULL)
            sched.ready_tail[q] = NULL;
        ev->next = NULL;
        return ev;
    }
    return NULL;
}

/* Readiness of a caller's sync fence without waiting: 1 signaled, 0 not
 * yet, -1 broken. */
static int fence_state(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r = poll(&p, 1, 0);
    if (r == 0)
        return 0;
    if (r < 0)
        return errno == EINTR ? 0 : -1;
    return (p.revents & POLLIN) ? 1 : -1;
}

/* Moves a pending computation past its signaled dependencies: onto the
 * waiters of the first unsignaled one, the fence wait list, or the ready
 * queue. A failed dependency makes it ready at once (it then fails). */
static void advance_locked(ANeuralNetworksEvent *ev)
{
    while (ev->deps_met < ev->n_deps && !ev->dep_failed) {
        ANeuralNetworksEvent *d = ev->deps[ev->deps_met];
        if (d->external) {
            int state = fence_state(d->fence_fd);
            if (state == 0) {
                ev->next = sched.fence_wait;
                sched.fence_wait = ev;
                /* The poller must watch this fence too; or an idle worker
                 * become the poller. */
                wake_poller_locked();
                pthread_cond_signal(&sched.work);
                return;
            }
            ev->dep_failed = state < 0;
        } else if (!d->signaled) {
            ev->next = d->waiters;
            d->waiters = ev;
            return;
        } else {
            ev->dep_failed = d->status != ANEURALNETWORKS_NO_ERROR;
        }
        ev->deps_met++;
    }
    push_ready_locked(ev);
}

static void signal_locked(ANeuralNetworksEvent *ev, int status)
{
    ev->status = status;
    ev->signaled = true;
    if (ev->fence_fd >= 0) {
        uint64_t one = 1;
        ssize_t w = write(ev->fence_fd, &one, sizeof one);
        (void)w; /* an eventfd write of 1 only fails on counter overflow */
    }
    pthread_cond_broadcast(&ev->cond);
    ANeuralNetworksEvent *w = ev->waiters;
    ev->waiters = NULL;
    while (w != NULL) {
        ANeuralNetworksEvent *next = w->next;
        advance_locked(w);
        w = next;
    }
}

static void release_deps_locked(ANeuralNetworksEvent *ev)
{
    for (uint32_t i = 0; i < ev->n_deps; i++)
        event_unref_locked(ev->deps[i]);
    free(ev->deps);
    ev->deps = NULL;
    ev->n_deps = 0;
}

static void run_computation(ANeuralNetworksEvent *ev)
{
    ANeuralNetworksExecution *e = ev->execution;
    int rc = ev->dep_failed ? ANEURALNETWORKS_OP_FAILED : ANEURALNETWORKS_NO_ERROR;
    uint64_t deps_done = nn_now_ns();
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        /* The fenced duration counts from the moment the dependencies are met;
         * the execution's own timeout from the start. The nearer one wins. */
        uint64_t deadline = nn_deadline(ev->start_ns, e->timeout_ns);
        uint64_t fenced = nn_deadline(deps_done, ev->duration_ns);
        if (fenced != 0 && (deadline == 0 || fenced < deadline))
            deadline = fenced;
        rc = nn_execution_run(e, deadline, ev->n_deps ? deps_done : 0);
    }
    pthread_mutex_lock(&sched.lock);
    release_deps_locked(ev);
    pthread_mutex_unlock(&sched.lock);
    nn_execution_end(e, rc);
    pthread_mutex_lock(&sched.lock);
    signal_locked(ev, rc);
    event_unref_locked(ev); /* the queue's reference */
    pthread_mutex_unlock(&sched.lock);
}

/* The poller's turn: waits until a caller's fence or the wake fd becomes
 * readable, then advances the computations whose fence is signaled.
 * Called and returns with sched.lock held. */
static void poll_fences_locked(void)
{
    uint32_t n = 0;
    for (ANeuralNetworksEvent *ev = sched.fence_wait; ev; ev = ev->next)
        n++;
    struct pollfd *fds = malloc(((size_t)n + 1) * sizeof *fds);
    ANeuralNetworksEvent **evs = malloc(((size_t)n + 1) * sizeof *evs);
    if (fds == NULL || evs == NULL) {
        free(fds);
        free(evs);
        /* Try again shortly rather than stop watching the fences. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&sched.work, &sched.lock, &ts);
        return;
    }
    uint32_t k = 0;
    fds[k++] = (struct pollfd){.fd = sched.wake_fd, .events = POLLIN};
    for (ANeuralNetworksEvent *ev = sched.fence_wait; ev; ev = ev->next) {
        evs[k] = ev;
        fds[k++] = (struct pollfd){.fd = ev->deps[ev->deps_met]->fence_fd, .events = POLLIN};
    }
    sched.polling = true;
    pthread_mutex_unlock(&sched.lock);
    /* Only the poller removes entries from fence_wait, so the snapshot's
     * events and fds stay valid while the lock is released. */
    int r = poll(fds, k, sched.wake_fd >= 0 ? -1 : 10);
    if (r > 0 && (fds[0].revents & POLLIN)) {
        uint64_t count;
        ssize_t rd = read(sched.wake_fd, &count, sizeof count);
        (void)rd; /* nonblocking: nothing to read means another reader won */
    }
    pthread_mutex_lock(&sched.lock);
    sched.polling = false;
    for (uint32_t i = 1; r > 0 && i < k; i++)
        evs[i]->fence_revents = fds[i].revents;
    ANeuralNetworksEvent **link = &sched.fence_wait, *moved = NULL;
    while (*link) {
        ANeuralNetworksEvent *ev = *link;
        if (ev->fence_revents == 0) {
            link = &ev->next;
            continue;
        }
        *link = ev->next;
        ev->next = moved;
        moved = ev;
    }
    while (moved) {
        ANeuralNetworksEvent *ev = moved;
        moved = ev->next;
        ev->dep_failed = !(ev->fence_revents & POLLIN);
        ev->fence_revents = 0;
        ev->deps_met++;
        advance_locked(ev);
    }
    free(fds);
    free(evs);
}

static void *worker_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&sched.lock);
    for (;;) {
        ANeuralNetworksEvent *ev = pop_ready_locked();
        if (ev != NULL) {
            pthread_mutex_unlock(&sched.lock);
            run_computation(ev);
            pthread_mutex_lock(&sched.lock);
            continue;
        }
        if (sched.fence_wait != NULL && !sched.polling) {
            poll_fences_locked();
            continue;
        }
        pthread_cond_wait(&sched.work, &sched.lock);
    }
    return NULL;
}

/* Starts a worker; false if the system refuses a thread. sched.lock held. */
static bool add_worker_locked(void)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, NN_ASYNC_WORKER_STACK);
    pthread_t t;
    bool ok = pthread_create(&t, &attr, worker_main, NULL) == 0;
    pthread_attr_destroy(&attr);
    if (ok)
        sched.workers++;
    return ok;
}

static uint32_t queue_of(int32_t priority)
{
    if (priority == ANEURALNETWORKS_PRIORITY_HIGH)
        return 0;
    return priority == ANEURALNETWORKS_PRIORITY_LOW ? 2 : 1;
}

static int start_async(ANeuralNetworksExecution *e, const ANeuralNetworksEvent *const *deps,
                       uint32_t n_deps, uint64_t duration, bool fenced, ANeuralNetworksEvent **out)
{
    pthread_once(&sched_once, sched_init);
    uint64_t start = nn_now_ns();
    ANeuralNetworksEvent *ev = event_new();
    if (ev == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    if (fenced) {
        ev->fence_fd = eventfd(0, EFD_CLOEXEC);
        if (ev->fence_fd < 0) {
            nn_vlog("startComputeWithDependencies: no eventfd for the sync fence");
            event_destroy(ev);
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        }
    }
    if (n_deps) {
        ev->deps = malloc(n_deps * sizeof *ev->deps);
        if (ev->deps == NULL) {
            event_destroy(ev);
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        }
    }
    ev->duration_ns = duration;
    ev->execution = e;
    ev->start_ns = start;
    ev->queue = queue_of(e->compilation->priority);
    /* A worker must exist before the execution changes state, so that a
     * refused thread leaves the execution as it was. The workers all start
     * together: a set that grew whenever none happened to be idle would
     * create threads (and their allocations) by the timing of the moment. */
    pthread_mutex_lock(&sched.lock);
    while (sched.workers < sched.max_workers && add_worker_locked())
        continue;
    bool have_worker = sched.workers > 0;
    pthread_mutex_unlock(&sched.lock);
    if (!have_worker) {
        nn_vlog("startCompute: cannot create a worker thread");
        event_destroy(ev);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    int rc = nn_execution_begin(e, fenced);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        event_destroy(ev);
        return rc;
    }
    pthread_mutex_lock(&sched.lock);
    for (uint32_t i = 0; i < n_deps; i++) {
        ev->deps[i] = (ANeuralNetworksEvent *)deps[i];
        ev->deps[i]->refs++;
    }
    ev->n_deps = n_deps;
    ev->refs++; /* the queue's, until the computation has run */
    advance_locked(ev);
    pthread_mutex_unlock(&sched.lock);
    *out = ev;
    return ANEURALNETWORKS_NO_ERROR;
}

/* Waits for a caller's sync fence: readable means signaled. */
static int wait_fence_fd(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    for (;;) {
        int r = poll(&p, 1, -1);
        if (r > 0)
            return (p.revents & POLLIN) ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OP_FAILED;
        if (r < 0 && errno != EINTR)
            return ANEURALNETWORKS_OP_FAILED;
    }
}

static int event_wait(ANeuralNetworksEvent *ev)
{
    if (ev->external)
        return wait_fence_fd(ev->fence_fd);
    pthread_mutex_lock(&sched.lock);
    while (!ev->signaled)
        pthread_cond_wait(&ev->cond, &sched.lock);
    int status = ev->status;
    pthread_mutex_unlock(&sched.lock);
    return status;
}

NN_API int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution *e,
                                                 ANeuralNetworksEvent **event)
{
    if (event == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "startCompute: event is NULL");
    *event = NULL;
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "startCompute: execution is NULL");
    return nn_fail(start_async(e, NULL, 0, 0, false, event), "startCompute");
}

NN_API int ANeuralNetworksExecution_startComputeWithDependencies(
        ANeuralNetworksExecution *e, const ANeuralNetworksEvent *const *dependencies,
        uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent **event)
{
    if (event == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "startComputeWithDependencies: event is NULL");
    *event = NULL;
    if (e == NULL || (num_dependencies && dependencies == NULL))
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "startComputeWithDependencies: execution or dependencies is NULL");
    for (uint32_t i = 0; i < num_dependencies; i++) {
        const ANeuralNetworksEvent *d = dependencies[i];
        if (d == NULL)
            return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                           "startComputeWithDependencies: dependency %u is NULL", i);
        /* A dependency that already failed makes the computation pointless. */
        if (!d->external) {
            pthread_mutex_lock(&sched.lock);
            bool failed = d->signaled && d->status != ANEURALNETWORKS_NO_ERROR;
            pthread_mutex_unlock(&sched.lock);
            if (failed) {
                nn_vlog("startComputeWithDependencies: dependency %u has failed", i);
                return ANEURALNETWORKS_BAD_DATA;
            }
        }
    }
    if (duration != 0 && !e->compilation->explicit_single_device)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "startComputeWithDependencies: a duration needs a compilation for "
                       "one device");
    return nn_fail(start_async(e, dependencies, num_dependencies, duration, true, event),
                   "startComputeWithDependencies");
}

NN_API int ANeuralNetworksEvent_wait(ANeuralNetworksEvent *event)
{
    if (event == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Event_wait: event is NULL");
    int rc = event_wait(event);
    return nn_fail(rc, "Event_wait: the computation failed (code %d)", rc);
}

NN_API void ANeuralNetworksEvent_free(ANeuralNetworksEvent *ev)
{
    if (ev == NULL)
        return;
    /* The application may free the execution once this returns: let its
     * computation end first. */
    if (ev->execution != NULL)
        event_wait(ev);
    pthread_mutex_lock(&sched.lock);
    event_unref_locked(ev);
    pthread_mutex_unlock(&sched.lock);
}

/* A new descriptor for fd; OUT_OF_MEMORY when the process has none left. */
static int dup_fd(int fd, int *out)
{
    *out = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (*out >= 0)
        return ANEURALNETWORKS_NO_ERROR;
    return errno == EMFILE || errno == ENFILE ? ANEURALNETWORKS_OUT_OF_MEMORY
                                              : ANEURALNETWORKS_BAD_DATA;
}

NN_API int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd,
                                                      ANeuralNetworksEvent **event)
{
    if (event == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Event_createFromSyncFenceFd: event is NULL");
    *event = NULL;
    if (sync_fence_fd < 0)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Event_createFromSyncFenceFd: fd %d",
                       sync_fence_fd);
    ANeuralNetworksEvent *ev = event_new();
    if (ev == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int rc = dup_fd(sync_fence_fd, &ev->fence_fd);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        nn_vlog("createFromSyncFenceFd: cannot duplicate fd %d", sync_fence_fd);
        event_destroy(ev);
        return rc;
    }
    ev->external = true;
    *event = ev;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent *event,
                                               int *sync_fence_fd)
{
    if (sync_fence_fd == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Event_getSyncFenceFd: sync_fence_fd is NULL");
    *sync_fence_fd = -1;
    if (event == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Event_getSyncFenceFd: event is NULL");
    if (event->fence_fd < 0)
        return ANEURALNETWORKS_BAD_DATA;
    int fd;
    if (dup_fd(event->fence_fd, &fd) != ANEURALNETWORKS_NO_ERROR) {
        nn_vlog("getSyncFenceFd: cannot duplicate the fence");
        return ANEURALNETWORKS_OP_FAILED;
    }
    *sync_fence_fd = fd;
    return ANEURALNETWORKS_NO_ERROR;
}
