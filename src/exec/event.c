/*
 * Events and asynchronous computation. An asynchronous computation runs on
 * a thread of its own and signals its event when done. Fenced computations
 * also expose a sync fence: on Linux an eventfd that becomes readable once
 * the computation has finished, so that it can be poll()ed or handed to
 * another execution as a dependency.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "runtime.h"

static ANeuralNetworksEvent *event_new(void)
{
    ANeuralNetworksEvent *ev = calloc(1, sizeof *ev);
    if (ev == NULL)
        return NULL;
    pthread_mutex_init(&ev->lock, NULL);
    pthread_cond_init(&ev->cond, NULL);
    ev->fence_fd = -1;
    return ev;
}

static void event_signal(ANeuralNetworksEvent *ev, int status)
{
    pthread_mutex_lock(&ev->lock);
    ev->status = status;
    ev->signaled = true;
    if (ev->fence_fd >= 0) {
        uint64_t one = 1;
        ssize_t w = write(ev->fence_fd, &one, sizeof one);
        (void)w; /* an eventfd write of 1 only fails on counter overflow */
    }
    pthread_cond_broadcast(&ev->cond);
    pthread_mutex_unlock(&ev->lock);
}

/* Waits for a caller's sync fence: readable means signaled. */
static int wait_fence_fd(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    for (;;) {
        int r = poll(&p, 1, -1);
        if (r > 0)
            return (p.revents & (POLLERR | POLLNVAL)) ? ANEURALNETWORKS_OP_FAILED
                                                      : ANEURALNETWORKS_NO_ERROR;
        if (r < 0 && errno != EINTR)
            return ANEURALNETWORKS_OP_FAILED;
    }
}

static int event_wait(const ANeuralNetworksEvent *cev)
{
    ANeuralNetworksEvent *ev = (ANeuralNetworksEvent *)cev;
    if (ev->external)
        return wait_fence_fd(ev->fence_fd);
    pthread_mutex_lock(&ev->lock);
    while (!ev->signaled)
        pthread_cond_wait(&ev->cond, &ev->lock);
    int status = ev->status;
    pthread_mutex_unlock(&ev->lock);
    return status;
}

static void *compute_thread(void *arg)
{
    ANeuralNetworksEvent *ev = arg;
    ANeuralNetworksExecution *e = ev->execution;
    uint64_t start = nn_now_ns();
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t i = 0; i < ev->n_deps && rc == ANEURALNETWORKS_NO_ERROR; i++)
        if (event_wait(ev->deps[i]) != ANEURALNETWORKS_NO_ERROR)
            rc = ANEURALNETWORKS_OP_FAILED;
    uint64_t deps_done = nn_now_ns();
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        /* The fenced duration counts from the moment the dependencies are met. */
        uint64_t saved = e->timeout_ns;
        if (ev->duration_ns) {
            uint64_t fenced_deadline = deps_done + ev->duration_ns;
            uint64_t exec_deadline = saved ? start + saved : UINT64_MAX;
            uint64_t deadline = fenced_deadline < exec_deadline ? fenced_deadline : exec_deadline;
            e->timeout_ns = deadline - start;
        }
        rc = nn_execution_run(e, start, ev->n_deps ? deps_done : 0);
        e->timeout_ns = saved;
    }
    free(ev->deps);
    ev->deps = NULL;
    nn_execution_end(e, rc);
    event_signal(ev, rc);
    return NULL;
}

static int start_async(ANeuralNetworksExecution *e, const ANeuralNetworksEvent *const *deps,
                       uint32_t n_deps, uint64_t duration, bool fenced, ANeuralNetworksEvent **out)
{
    ANeuralNetworksEvent *ev = event_new();
    if (ev == NULL)
        return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
    if (fenced) {
        ev->fence_fd = eventfd(0, EFD_CLOEXEC);
        if (ev->fence_fd < 0) {
            ANeuralNetworksEvent_free(ev);
            return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
        }
    }
    if (n_deps) {
        ev->deps = malloc(n_deps * sizeof *ev->deps);
        if (ev->deps == NULL) {
            ANeuralNetworksEvent_free(ev);
            return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
        }
        for (uint32_t i = 0; i < n_deps; i++)
            ev->deps[i] = deps[i];
        ev->n_deps = n_deps;
    }
    ev->duration_ns = duration;
    ev->execution = e;
    int rc = nn_execution_begin(e, fenced);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        ANeuralNetworksEvent_free(ev);
        return rc;
    }
    if (pthread_create(&ev->thread, NULL, compute_thread, ev) != 0) {
        nn_execution_end(e, ANEURALNETWORKS_OP_FAILED);
        ANeuralNetworksEvent_free(ev);
        return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "no thread for the computation");
    }
    ev->has_thread = true;
    *out = ev;
    return ANEURALNETWORKS_NO_ERROR;
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
        ANeuralNetworksEvent *dv = (ANeuralNetworksEvent *)d;
        if (!dv->external) {
            pthread_mutex_lock(&dv->lock);
            bool failed = dv->signaled && dv->status != ANEURALNETWORKS_NO_ERROR;
            pthread_mutex_unlock(&dv->lock);
            if (failed)
                return nn_fail(ANEURALNETWORKS_BAD_DATA,
                               "startComputeWithDependencies: dependency %u failed", i);
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
    if (ev->has_thread) {
        /* The computation owns resources until it ends: wait for it. */
        event_wait(ev);
        pthread_join(ev->thread, NULL);
    }
    if (ev->fence_fd >= 0)
        close(ev->fence_fd);
    free(ev->deps);
    pthread_cond_destroy(&ev->cond);
    pthread_mutex_destroy(&ev->lock);
    free(ev);
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
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Event_createFromSyncFenceFd: out of memory");
    ev->fence_fd = dup(sync_fence_fd);
    if (ev->fence_fd < 0) {
        ANeuralNetworksEvent_free(ev);
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "Event_createFromSyncFenceFd: fd %d cannot be duplicated", sync_fence_fd);
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
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "Event_getSyncFenceFd: the event has no sync fence");
    int fd = dup(event->fence_fd);
    if (fd < 0)
        return nn_fail(ANEURALNETWORKS_OP_FAILED,
                       "Event_getSyncFenceFd: the fd cannot be duplicated");
    *sync_fence_fd = fd;
    return ANEURALNETWORKS_NO_ERROR;
}
