/* ANeuralNetworksEvent_* and fenced computations: sync fence file
 * descriptors in both directions and dependencies between computations. */
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "test_api.h"

enum { N = 4, RAW = N * sizeof(float) };
static const float A[N] = {1, 2, 3, 4};
static const float B[N] = {10, 20, 30, 40};

/* Whether fd becomes readable within timeout_ms. */
static bool readable(int fd, int timeout_ms) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static void test_event_arguments(void) {
    ANeuralNetworksEvent* event = (ANeuralNetworksEvent*)&event;
    int fd = 5;
    CHECK_RC(ANeuralNetworksEvent_wait(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksEvent_free(NULL);
    CHECK_RC(ANeuralNetworksEvent_getSyncFenceFd(NULL, &fd), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksEvent_createFromSyncFenceFd(-1, &event), ANEURALNETWORKS_BAD_DATA);
    CHECK(event == NULL);
    const int efd = eventfd(0, EFD_CLOEXEC);
    if (!CHECK(efd >= 0)) return;
    CHECK_RC(ANeuralNetworksEvent_createFromSyncFenceFd(efd, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    /* The event owns a duplicate: closing ours does not affect it. */
    event = NULL;
    if (CHECK_OK(ANeuralNetworksEvent_createFromSyncFenceFd(efd, &event))) {
        CHECK_RC(ANeuralNetworksEvent_getSyncFenceFd(event, NULL),
                 ANEURALNETWORKS_UNEXPECTED_NULL);
        int dup_fd = -1;
        if (CHECK_OK(ANeuralNetworksEvent_getSyncFenceFd(event, &dup_fd))) {
            CHECK(dup_fd >= 0 && dup_fd != efd);
            if (dup_fd >= 0) close(dup_fd);
        }
        const uint64_t one = 1;
        CHECK(write(efd, &one, sizeof(one)) == (ssize_t)sizeof(one));
        close(efd);
        CHECK_OK(ANeuralNetworksEvent_wait(event));
        ANeuralNetworksEvent_free(event);
    } else {
        close(efd);
    }
}

static void test_fenced_compute(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    float out[N] = {0};
    ANeuralNetworksExecution* e = nt_execution_f32(f.compilation, A, B, out, N);
    if (!e) {
        nt_fixture_free(&f);
        return;
    }
    ANeuralNetworksEvent* event = NULL;
    const ANeuralNetworksEvent* with_null[1] = {NULL};
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(NULL, NULL, 0, 0, &event),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 1, 0, &event),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, with_null, 1, 0, &event),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, NULL),
             ANEURALNETWORKS_UNEXPECTED_NULL);
    /* The refusals did not schedule anything. */
    if (CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, &event))) {
        /* A fenced event is backed by a pollable sync fence. */
        int fd = -1;
        if (CHECK_OK(ANeuralNetworksEvent_getSyncFenceFd(event, &fd)) && CHECK(fd >= 0)) {
            CHECK(readable(fd, 10000));
            close(fd);
        }
        if (CHECK_OK(ANeuralNetworksEvent_wait(event))) CHECK(nt_sum_ok(A, B, out, N));
        ANeuralNetworksEvent_free(event);
    }
    ANeuralNetworksExecution_free(e);

    /* An event of startCompute is either backed by a fence, or says so with
     * BAD_DATA and fd -1. */
    e = nt_execution_f32(f.compilation, A, B, out, N);
    if (e) {
        event = NULL;
        if (CHECK_OK(ANeuralNetworksExecution_startCompute(e, &event))) {
            int fd = 7;
            const int rc = ANeuralNetworksEvent_getSyncFenceFd(event, &fd);
            CHECK((rc == ANEURALNETWORKS_NO_ERROR && fd >= 0) ||
                  (rc == ANEURALNETWORKS_BAD_DATA && fd == -1));
            if (rc == ANEURALNETWORKS_NO_ERROR && fd >= 0) close(fd);
            CHECK_OK(ANeuralNetworksEvent_wait(event));
            ANeuralNetworksEvent_free(event);
        }
        ANeuralNetworksExecution_free(e);
    }
    nt_fixture_free(&f);
}

static void test_dependency_chain(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    /* out1 = a + b; out2 = out1 + b; out3 = out2 + out1, each waiting for the
     * computations it reads. */
    float out1[N] = {0}, out2[N] = {0}, out3[N] = {0};
    ANeuralNetworksExecution* e1 = nt_execution_f32(f.compilation, A, B, out1, N);
    ANeuralNetworksExecution* e2 = nt_execution_f32(f.compilation, out1, B, out2, N);
    ANeuralNetworksExecution* e3 = nt_execution_f32(f.compilation, out2, out1, out3, N);
    ANeuralNetworksEvent *ev1 = NULL, *ev2 = NULL, *ev3 = NULL;
    if (e1 && e2 && e3 &&
        CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e1, NULL, 0, 0, &ev1))) {
        const ANeuralNetworksEvent* deps2[] = {ev1};
        if (CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e2, deps2, 1, 0,
                                                                           &ev2))) {
            const ANeuralNetworksEvent* deps3[] = {ev1, ev2};
            if (CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e3, deps3, 2, 0,
                                                                               &ev3))) {
                if (CHECK_OK(ANeuralNetworksEvent_wait(ev3))) {
                    float ab[N], abb[N];
                    for (int i = 0; i < N; i++) {
                        ab[i] = A[i] + B[i];
                        abb[i] = ab[i] + B[i];
                    }
                    CHECK(nt_sum_ok(A, B, out1, N));
                    CHECK(nt_sum_ok(ab, B, out2, N));
                    CHECK(nt_sum_ok(abb, ab, out3, N));
                }
            }
            CHECK_OK(ANeuralNetworksEvent_wait(ev2));
        }
        CHECK_OK(ANeuralNetworksEvent_wait(ev1));
    }
    ANeuralNetworksEvent_free(ev3);
    ANeuralNetworksEvent_free(ev2);
    ANeuralNetworksEvent_free(ev1);
    ANeuralNetworksExecution_free(e3);
    ANeuralNetworksExecution_free(e2);
    ANeuralNetworksExecution_free(e1);

    /* A plain startCompute event works as a dependency too. */
    float o1[N] = {0}, o2[N] = {0};
    e1 = nt_execution_f32(f.compilation, A, B, o1, N);
    e2 = nt_execution_f32(f.compilation, o1, A, o2, N);
    ev1 = ev2 = NULL;
    if (e1 && e2 && CHECK_OK(ANeuralNetworksExecution_startCompute(e1, &ev1))) {
        const ANeuralNetworksEvent* deps[] = {ev1};
        if (CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e2, deps, 1, 0, &ev2))) {
            if (CHECK_OK(ANeuralNetworksEvent_wait(ev2))) CHECK(nt_sum_ok(o1, A, o2, N));
            ANeuralNetworksEvent_free(ev2);
        }
        CHECK_OK(ANeuralNetworksEvent_wait(ev1));
        ANeuralNetworksEvent_free(ev1);
    }
    ANeuralNetworksExecution_free(e2);
    ANeuralNetworksExecution_free(e1);
    nt_fixture_free(&f);
}

static void* signal_later(void* arg) {
    const int fd = *(const int*)arg;
    const struct timespec delay = {0, 30 * 1000 * 1000};
    nanosleep(&delay, NULL);
    const uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof(one));
    return (void*)(intptr_t)(written == (ssize_t)sizeof(one));
}

static void test_external_fence(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    int efd = eventfd(0, EFD_CLOEXEC);
    ANeuralNetworksEvent *dep = NULL, *event = NULL;
    float out[N];
    for (int i = 0; i < N; i++) out[i] = -1.0f;
    ANeuralNetworksExecution* e = nt_execution_f32(f.compilation, A, B, out, N);
    const ANeuralNetworksEvent* deps[1] = {NULL};
    if (CHECK(efd >= 0) && e && CHECK_OK(ANeuralNetworksEvent_createFromSyncFenceFd(efd, &dep)) &&
        (deps[0] = dep) != NULL &&
        CHECK_OK(ANeuralNetworksExecution_startComputeWithDependencies(e, deps, 1, 0, &event))) {
        /* Nothing completes before the fence is signaled. (The output buffer
         * is not inspected here: the eventfd ordering is invisible to TSan.) */
        int fd = -1;
        if (CHECK_OK(ANeuralNetworksEvent_getSyncFenceFd(event, &fd)) && CHECK(fd >= 0))
            CHECK(!readable(fd, 50));
        pthread_t thread;
        if (CHECK(pthread_create(&thread, NULL, signal_later, &efd) == 0)) {
            if (CHECK_OK(ANeuralNetworksEvent_wait(event))) CHECK(nt_sum_ok(A, B, out, N));
            if (fd >= 0) CHECK(readable(fd, 0));
            void* wrote = NULL;
            pthread_join(thread, &wrote);
            CHECK(wrote != NULL);
        } else {
            const uint64_t one = 1;
            CHECK(write(efd, &one, sizeof(one)) == (ssize_t)sizeof(one));
            CHECK_OK(ANeuralNetworksEvent_wait(event));
        }
        if (fd >= 0) close(fd);
        CHECK_OK(ANeuralNetworksEvent_wait(dep));
    }
    ANeuralNetworksEvent_free(event);
    ANeuralNetworksEvent_free(dep);
    ANeuralNetworksExecution_free(e);
    if (efd >= 0) close(efd);
    nt_fixture_free(&f);
}

/* A computation that fails: its event reports the failure, and a computation
 * depending on it fails too (at scheduling or at the wait). */
static void test_failed_dependency(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    ANeuralNetworksMemoryDesc* desc = NULL;
    ANeuralNetworksMemory* uninitialized = NULL;
    if (!CHECK_OK(ANeuralNetworksMemoryDesc_create(&desc)) ||
        !CHECK_OK(ANeuralNetworksMemoryDesc_addInputRole(desc, f.compilation, 0, 1.0f)) ||
        !CHECK_OK(ANeuralNetworksMemoryDesc_finish(desc)) ||
        !CHECK_OK(ANeuralNetworksMemory_createFromDesc(desc, &uninitialized))) {
        ANeuralNetworksMemoryDesc_free(desc);
        nt_fixture_free(&f);
        return;
    }
    ANeuralNetworksMemoryDesc_free(desc);
    float out1[N], out2[N];
    ANeuralNetworksExecution *e1 = NULL, *e2 = nt_execution_f32(f.compilation, A, B, out2, N);
    ANeuralNetworksEvent *ev1 = NULL, *ev2 = NULL;
    if (e2 && CHECK_OK(ANeuralNetworksExecution_create(f.compilation, &e1))) {
        CHECK_OK(ANeuralNetworksExecution_setInputFromMemory(e1, 0, NULL, uninitialized, 0, 0));
        CHECK_OK(ANeuralNetworksExecution_setInput(e1, 1, NULL, B, RAW));
        CHECK_OK(ANeuralNetworksExecution_setOutput(e1, 0, NULL, out1, RAW));
        const int rc1 = ANeuralNetworksExecution_startComputeWithDependencies(e1, NULL, 0, 0, &ev1);
        if (rc1 == ANEURALNETWORKS_NO_ERROR) {
            const ANeuralNetworksEvent* deps[] = {ev1};
            const int rc2 =
                    ANeuralNetworksExecution_startComputeWithDependencies(e2, deps, 1, 0, &ev2);
            int rc2_wait = rc2;
            if (rc2 == ANEURALNETWORKS_NO_ERROR) rc2_wait = ANeuralNetworksEvent_wait(ev2);
            CHECK(rc2_wait != ANEURALNETWORKS_NO_ERROR);
            CHECK_RC(ANeuralNetworksEvent_wait(ev1), ANEURALNETWORKS_OP_FAILED);
        } else {
            CHECK_EQ_INT(rc1, ANEURALNETWORKS_OP_FAILED);
        }
    }
    ANeuralNetworksEvent_free(ev2);
    ANeuralNetworksEvent_free(ev1);
    ANeuralNetworksExecution_free(e2);
    ANeuralNetworksExecution_free(e1);
    ANeuralNetworksMemory_free(uninitialized);
    nt_fixture_free(&f);
}

void nt_test_event(void) {
    test_event_arguments();
    test_fenced_compute();
    test_dependency_chain();
    test_external_fence();
    test_failed_dependency();
}
