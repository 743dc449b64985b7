/*
 * The profile's events live in one growing array under a mutex; recording
 * copies the shapes (formatting waits for the flush) so that a profiled
 * step costs little more than the two clock reads around it.
 */
#include "exec/profile.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PROF_MAX_IO = 6, PROF_MAX_RANK = 6, PROF_MAX_EVENTS = 4000000, PROF_MAX_MODELS = 256 };

typedef struct {
    uint64_t t0, t1;
    const void *model;
    int32_t op_type;
    uint32_t op_index, depth, tid;
    uint8_t n_in, n_out;
    uint8_t rank[PROF_MAX_IO];
    uint32_t dims[PROF_MAX_IO][PROF_MAX_RANK];
} prof_event;

atomic_int nn_profile_flag;

static pthread_once_t prof_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static char *prof_path;
static prof_event *prof_events;
static size_t prof_n, prof_cap;
static int prof_dropped;
static size_t prof_written = SIZE_MAX; /* events in the file as last written */
static atomic_uint prof_next_tid;
static _Thread_local uint32_t prof_tid;

static void prof_at_exit(void)
{
    nn_profile_flush();
}

static void prof_init_once(void)
{
    const char *p = getenv("NNAPI_LINUX_PROFILE");
    if (p == NULL || p[0] == '\0')
        return;
    prof_path = strdup(p);
    if (prof_path == NULL)
        return;
    atexit(prof_at_exit);
    atomic_store(&nn_profile_flag, 1);
    nn_vlog("profiling every operation into %s", prof_path);
}

void nn_profile_init(void)
{
    pthread_once(&prof_once, prof_init_once);
}

void nn_profile_step(const nn_subplan *sp, const nn_step *step, const nn_tensor *tensors, uint32_t depth,
                     uint64_t t0)
{
    uint64_t t1 = nn_now_ns();
    if (prof_tid == 0)
        prof_tid = atomic_fetch_add(&prof_next_tid, 1) + 1;
    prof_event e;
    memset(&e, 0, sizeof e);
    e.t0 = t0;
    e.t1 = t1;
    e.model = sp->model;
    e.op_type = step->op->type;
    e.op_index = step->op_index;
    e.depth = depth;
    e.tid = prof_tid;
    const nn_operation *op = step->op;
    uint32_t k = 0;
    for (uint32_t i = 0; i < op->n_in + op->n_out && k < PROF_MAX_IO; i++) {
        bool is_out = i >= op->n_in;
        if (!is_out && i >= PROF_MAX_IO - 1 && op->n_out > 0)
            continue; /* keep room for the first output */
        const nn_tensor *t = &tensors[is_out ? op->out[i - op->n_in] : op->in[i]];
        if (t->omitted || t->rank == 0 || t->type == ANEURALNETWORKS_MODEL)
            continue;
        if (!is_out && t->rank == 1 && t->dims[0] <= 1 && t->constant)
            continue; /* scalar-like parameters say nothing about the cost */
        e.rank[k] = (uint8_t)(t->rank < PROF_MAX_RANK ? t->rank : PROF_MAX_RANK);
        memcpy(e.dims[k], t->dims, e.rank[k] * sizeof e.dims[k][0]);
        if (is_out)
            e.n_out++;
        else
            e.n_in++;
        k++;
    }
    pthread_mutex_lock(&prof_lock);
    if (prof_n == prof_cap && prof_cap < PROF_MAX_EVENTS) {
        size_t cap = prof_cap ? prof_cap * 2 : 4096;
        prof_event *ne = realloc(prof_events, cap * sizeof *ne);
        if (ne != NULL) {
            prof_events = ne;
            prof_cap = cap;
        }
    }
    if (prof_n < prof_cap)
        prof_events[prof_n++] = e;
    else
        prof_dropped = 1;
    pthread_mutex_unlock(&prof_lock);
}

static void put_shapes(FILE *f, const prof_event *e, uint32_t from, uint32_t n)
{
    for (uint32_t k = from; k < from + n; k++) {
        fputs(k > from ? " " : "", f);
        for (uint32_t d = 0; d < e->rank[k]; d++)
            fprintf(f, "%s%" PRIu32, d ? "x" : "", e->dims[k][d]);
    }
}

void nn_profile_flush(void)
{
    if (!nn_profile_on())
        return;
    pthread_mutex_lock(&prof_lock);
    if (prof_written == prof_n) { /* nothing new since the last write */
        pthread_mutex_unlock(&prof_lock);
        return;
    }
    FILE *f = fopen(prof_path, "w");
    if (f == NULL) {
        nn_vlog("profile: cannot write %s", prof_path);
        pthread_mutex_unlock(&prof_lock);
        return;
    }
    /* Models are numbered in order of appearance. */
    const void *models[PROF_MAX_MODELS];
    uint32_t n_models = 0;
    uint64_t base = prof_n ? prof_events[0].t0 : 0;
    for (size_t i = 0; i < prof_n; i++)
        if (prof_events[i].t0 < base)
            base = prof_events[i].t0;
    fprintf(f, "{\"displayTimeUnit\": \"ms\", \"otherData\": {\"producer\": \"nnapi-linux\"%s},\n"
               "\"traceEvents\": [\n", prof_dropped ? ", \"truncated\": true" : "");
    for (size_t i = 0; i < prof_n; i++) {
        const prof_event *e = &prof_events[i];
        uint32_t m = 0;
        while (m < n_models && models[m] != e->model)
            m++;
        if (m == n_models && n_models < PROF_MAX_MODELS)
            models[n_models++] = e->model;
        fprintf(f, "%s{\"name\": \"%s\", \"cat\": \"operation\", \"ph\": \"X\", \"pid\": %d, \"tid\": %" PRIu32
                   ", \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"model\": %" PRIu32 ", \"operation\": %" PRIu32
                   ", \"depth\": %" PRIu32 ", \"inputs\": \"",
                i ? ",\n" : "", nn_op_name(e->op_type), (int)getpid(), e->tid, (double)(e->t0 - base) / 1e3,
                (double)(e->t1 - e->t0) / 1e3, m, e->op_index, e->depth);
        put_shapes(f, e, 0, e->n_in);
        fputs("\", \"outputs\": \"", f);
        put_shapes(f, e, e->n_in, e->n_out);
        fputs("\"}}", f);
    }
    fputs("\n]}\n", f);
    if (fclose(f) != 0)
        nn_vlog("profile: cannot write %s", prof_path);
    else
        prof_written = prof_n;
    pthread_mutex_unlock(&prof_lock);
}
