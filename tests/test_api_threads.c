/* The multithreading rules of the spec: a finished model or compilation may
 * be used from several threads, executions of one compilation may run
 * concurrently, several threads may wait on one event, and a burst runs one
 * execution at a time (a concurrent one may get BAD_STATE). Worker threads
 * count their own failures; the main thread records them. */
#include <pthread.h>
#include <string.h>

#include "test_api.h"

enum { N = 64, THREADS = 4, ROUNDS = 12 };

typedef struct {
    ANeuralNetworksModel* model;
    ANeuralNetworksCompilation* compilation;
    ANeuralNetworksBurst* burst;
    ANeuralNetworksEvent* event;
    int seed;
    int failures;
    int results[ROUNDS];
} worker;

/* Runs one execution of compilation in mode; returns true when the result is
 * right. */
static bool run_one(ANeuralNetworksCompilation* compilation, nt_mode mode, int seed) {
    float a[N], b[N], out[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)(seed + i);
        b[i] = (float)(seed * 2 - i);
    }
    ANeuralNetworksExecution* e = NULL;
    if (ANeuralNetworksExecution_create(compilation, &e) != ANEURALNETWORKS_NO_ERROR) return false;
    bool ok = ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof(a)) == 0 &&
              ANeuralNetworksExecution_setInput(e, 1, NULL, b, sizeof(b)) == 0 &&
              ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof(out)) == 0 &&
              nt_run(e, compilation, mode) == ANEURALNETWORKS_NO_ERROR;
    for (int i = 0; ok && i < N; i++) ok = out[i] == a[i] + b[i];
    ANeuralNetworksExecution_free(e);
    return ok;
}

static void* shared_compilation_worker(void* arg) {
    worker* w = arg;
    for (int r = 0; r < ROUNDS; r++)
        if (!run_one(w->compilation, (nt_mode)((w->seed + r) % NT_MODES), w->seed * 100 + r))
            w->failures++;
    return NULL;
}

static void* shared_model_worker(void* arg) {
    worker* w = arg;
    for (int r = 0; r < 3; r++) {
        ANeuralNetworksCompilation* c = NULL;
        if (ANeuralNetworksCompilation_create(w->model, &c) != ANEURALNETWORKS_NO_ERROR ||
            ANeuralNetworksCompilation_finish(c) != ANEURALNETWORKS_NO_ERROR ||
            !run_one(c, NT_SYNC, w->seed + r))
            w->failures++;
        ANeuralNetworksCompilation_free(c);
    }
    return NULL;
}

static void* event_waiter(void* arg) {
    worker* w = arg;
    if (ANeuralNetworksEvent_wait(w->event) != ANEURALNETWORKS_NO_ERROR) w->failures++;
    return NULL;
}

static void* burst_worker(void* arg) {
    worker* w = arg;
    float a[N], b[N], out[N];
    for (int i = 0; i < N; i++) a[i] = b[i] = (float)(w->seed + i);
    for (int r = 0; r < ROUNDS; r++) {
        ANeuralNetworksExecution* e = NULL;
        w->results[r] = -1;
        if (ANeuralNetworksExecution_create(w->compilation, &e) != ANEURALNETWORKS_NO_ERROR) {
            w->failures++;
            continue;
        }
        if (ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof(a)) != 0 ||
            ANeuralNetworksExecution_setInput(e, 1, NULL, b, sizeof(b)) != 0 ||
            ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof(out)) != 0)
            w->failures++;
        w->results[r] = ANeuralNetworksExecution_burstCompute(e, w->burst);
        if (w->results[r] == ANEURALNETWORKS_NO_ERROR) {
            for (int i = 0; i < N; i++)
                if (out[i] != a[i] + b[i]) {
                    w->failures++;
                    break;
                }
        }
        ANeuralNetworksExecution_free(e);
    }
    return NULL;
}

/* Starts THREADS workers on fn and joins them; records their failures. */
static void run_workers(void* (*fn)(void*), worker* w, const char* what) {
    pthread_t threads[THREADS];
    bool started[THREADS];
    for (int t = 0; t < THREADS; t++)
        started[t] = CHECK(pthread_create(&threads[t], NULL, fn, &w[t]) == 0);
    for (int t = 0; t < THREADS; t++)
        if (started[t]) pthread_join(threads[t], NULL);
    int failures = 0;
    for (int t = 0; t < THREADS; t++) failures += w[t].failures;
    if (!CHECK(failures == 0)) fprintf(stderr, "    %s: %d failures\n", what, failures);
}

void nt_test_threads(void) {
    nt_fixture f;
    if (!nt_fixture_f32(&f, N, false)) return;
    worker w[THREADS];

    memset(w, 0, sizeof(w));
    for (int t = 0; t < THREADS; t++) {
        w[t].compilation = f.compilation;
        w[t].seed = t + 1;
    }
    run_workers(shared_compilation_worker, w, "executions of one compilation");

    memset(w, 0, sizeof(w));
    for (int t = 0; t < THREADS; t++) {
        w[t].model = f.model;
        w[t].seed = t + 1;
    }
    run_workers(shared_model_worker, w, "compilations of one model");

    /* Several threads wait for one event. */
    float a[N], out[N];
    for (int i = 0; i < N; i++) a[i] = (float)i;
    ANeuralNetworksExecution* e = nt_execution_f32(f.compilation, a, a, out, N);
    ANeuralNetworksEvent* event = NULL;
    if (e && CHECK_OK(ANeuralNetworksExecution_startCompute(e, &event))) {
        memset(w, 0, sizeof(w));
        for (int t = 0; t < THREADS; t++) w[t].event = event;
        run_workers(event_waiter, w, "waiters of one event");
        CHECK_OK(ANeuralNetworksEvent_wait(event));
        CHECK(nt_sum_ok(a, a, out, N));
        ANeuralNetworksEvent_free(event);
    }
    ANeuralNetworksExecution_free(e);

    /* One burst shared by several threads: each computation completes or is
     * refused with BAD_STATE because another one is running. */
    ANeuralNetworksBurst* burst = NULL;
    if (CHECK_OK(ANeuralNetworksBurst_create(f.compilation, &burst))) {
        memset(w, 0, sizeof(w));
        for (int t = 0; t < THREADS; t++) {
            w[t].compilation = f.compilation;
            w[t].burst = burst;
            w[t].seed = t;
        }
        run_workers(burst_worker, w, "executions on one burst");
        int completed = 0, other = 0;
        for (int t = 0; t < THREADS; t++)
            for (int r = 0; r < ROUNDS; r++) {
                if (w[t].results[r] == ANEURALNETWORKS_NO_ERROR)
                    completed++;
                else if (w[t].results[r] != ANEURALNETWORKS_BAD_STATE)
                    other++;
            }
        CHECK(completed > 0);
        CHECK_EQ_INT(other, 0);
        ANeuralNetworksBurst_free(burst);
    }
    nt_fixture_free(&f);
}
