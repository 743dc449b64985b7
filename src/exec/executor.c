/*
 * The executor: runs the steps of a subplan in order. Before each step the
 * operation's prepare computes the real output shapes from the real inputs,
 * so models with unknown dimensions and value-dependent shapes run like any
 * other; outputs then get memory (the caller's buffer, the arena slot planned
 * at compilation, or the heap when the real size exceeds the plan).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime.h"
#include "exec/profile.h"
#include "util/threadpool.h"

uint64_t nn_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void nn_exec_ctx_release(nn_exec_ctx *ctx)
{
    free(ctx->scratch);
    ctx->scratch = NULL;
    ctx->scratch_cap = 0;
    free(ctx->arena);
    ctx->arena = NULL;
    ctx->arena_cap = 0;
}

int nn_exec_ctx_warm(nn_exec_ctx *ctx)
{
    /* The workers start now rather than in the first computation. */
    (void)nn_thread_count();
    /* A compilation run by drivers (partitioned, or a support library's)
     * has no plan of ours here. */
    if (ctx->plan == NULL)
        return ANEURALNETWORKS_NO_ERROR;
    size_t bytes = ctx->plan->subs[0].arena_size;
    if (bytes == 0 || bytes <= ctx->arena_cap)
        return ANEURALNETWORKS_NO_ERROR;
    uint8_t *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (p == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    /* Touching every page here keeps the page faults (several hundred
     * microseconds for a MobileNet) out of the first computation. */
    memset(p, 0, bytes);
    free(ctx->arena);
    ctx->arena = p;
    ctx->arena_cap = bytes;
    return ANEURALNETWORKS_NO_ERROR;
}

/* The arena of a run: the context's cached one for the outermost model,
 * a fresh one (owned by the run) for models run by control flow. */
static uint8_t *arena_for(nn_exec_ctx *ctx, size_t bytes, bool *owned)
{
    *owned = false;
    if (bytes == 0)
        return NULL;
    if (ctx->depth > 0) {
        *owned = true;
        return aligned_alloc(64, bytes);
    }
    if (bytes > ctx->arena_cap) {
        uint8_t *p = aligned_alloc(64, bytes);
        if (p == NULL)
            return NULL;
        free(ctx->arena);
        ctx->arena = p;
        ctx->arena_cap = bytes;
    }
    return ctx->arena;
}

static int ensure_scratch(nn_exec_ctx *ctx, size_t bytes)
{
    if (bytes <= ctx->scratch_cap)
        return ANEURALNETWORKS_NO_ERROR;
    size_t rounded;
    if (!nn_add_size(bytes, 63, &rounded))
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    rounded &= ~(size_t)63;
    void *p = aligned_alloc(64, rounded);
    if (p == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    free(ctx->scratch);
    ctx->scratch = p;
    ctx->scratch_cap = rounded;
    return ANEURALNETWORKS_NO_ERROR;
}

/* An inferred shape must agree with every dimension the model declared. */
static bool shape_matches_declared(const nn_tensor *declared, const nn_tensor *actual)
{
    if (declared->rank == 0)
        return true;
    if (declared->rank != actual->rank)
        return false;
    for (uint32_t i = 0; i < declared->rank; i++)
        if (declared->dims[i] != 0 && declared->dims[i] != actual->dims[i])
            return false;
    return true;
}

static void *heap_buffer(size_t bytes)
{
    /* Never zero bytes, so that a zero-sized tensor still has an address. */
    size_t rounded = (bytes + 63) & ~(size_t)63;
    if (rounded < bytes)
        return NULL;
    return aligned_alloc(64, rounded ? rounded : 64);
}

typedef struct run_state {
    nn_tensor *t;          /* per operand */
    uint8_t *owned;        /* per operand: data is a heap buffer of this run */
    uint8_t *arena;
    bool arena_owned;
    nn_tensor **ptrs;
} run_state;

static void run_state_free(run_state *rs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (rs->owned[i])
            free(rs->t[i].data);
        nn_tensor_release_dims(&rs->t[i]);
    }
    free(rs->t);
    free(rs->owned);
    if (rs->arena_owned)
        free(rs->arena);
    free(rs->ptrs);
}

/* Finds memory for output operand idx of the current step. */
static int place_output(const nn_subplan *sp, run_state *rs, uint32_t idx, nn_tensor *outputs,
                        bool *insufficient)
{
    nn_tensor *t = &rs->t[idx];
    size_t bytes;
    if (!nn_tensor_bytes(t, &bytes))
        return ANEURALNETWORKS_OP_FAILED;
    int32_t slot = sp->output_slot[idx];
    if (slot >= 0) {
        nn_tensor *o = &outputs[slot];
        if (!o->omitted && o->data != NULL) {
            /* A misaligned caller buffer gets the result copied at the end. */
            if (bytes <= o->bytes && nn_aligned_for(o->data, o->type)) {
                t->data = o->data;
                t->bytes = o->bytes;
                return ANEURALNETWORKS_NO_ERROR;
            }
            /* Too small: compute anyway so that later shapes are known. */
            if (bytes > o->bytes && insufficient)
                insufficient[slot] = true;
        }
    } else if (sp->arena_offset[idx] != SIZE_MAX && rs->arena) {
        size_t planned;
        if (nn_tensor_bytes(&sp->tensors[idx], &planned) && bytes <= planned) {
            t->data = rs->arena + sp->arena_offset[idx];
            t->bytes = bytes;
            return ANEURALNETWORKS_NO_ERROR;
        }
    }
    if (rs->owned[idx]) {
        free(t->data);
        rs->owned[idx] = 0;
    }
    t->data = heap_buffer(bytes);
    if (t->data == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    t->bytes = bytes;
    rs->owned[idx] = 1;
    return ANEURALNETWORKS_NO_ERROR;
}

static bool has_elements(const nn_tensor *t)
{
    for (uint32_t i = 0; i < t->rank; i++)
        if (t->dims[i] == 0)
            return false;
    return true;
}

/* Control flow: execute computes shapes and allocates the outputs itself;
 * the results are moved into the caller's buffers or adopted as heap data. */
static int run_allocating_step(const nn_subplan *sp, const nn_step *step, run_state *rs,
                               nn_op_call *call, nn_tensor *outputs, bool *insufficient)
{
    const nn_operation *op = step->op;
    for (uint32_t i = 0; i < op->n_out; i++)
        call->out[i]->data = NULL;
    /* Models run from here must not take the outer run's cached arena. */
    call->ctx->depth++;
    int rc = step->def->execute(call);
    call->ctx->depth--;
    for (uint32_t i = 0; i < op->n_out; i++) {
        uint32_t idx = op->out[i];
        nn_tensor *t = &rs->t[idx];
        if (t->data == NULL)
            continue;
        rs->owned[idx] = 1;
        if (rc != ANEURALNETWORKS_NO_ERROR)
            continue;
        if (!shape_matches_declared(&sp->tensors[idx], t)) {
            rc = ANEURALNETWORKS_OP_FAILED;
            continue;
        }
        int32_t slot = sp->output_slot[idx];
        nn_tensor *o = slot >= 0 ? &outputs[slot] : NULL;
        if (o == NULL || o->omitted || o->data == NULL)
            continue;
        size_t bytes;
        if (!nn_tensor_bytes(t, &bytes))
            rc = ANEURALNETWORKS_OP_FAILED;
        else if (bytes > o->bytes) {
            if (insufficient)
                insufficient[slot] = true;
        } else {
            memcpy(o->data, t->data, bytes);
            free(t->data);
            rs->owned[idx] = 0;
            t->data = o->data;
            t->bytes = o->bytes;
        }
    }
    return rc;
}

static int run_step(nn_exec_ctx *ctx, const nn_subplan *sp, const nn_step *step, run_state *rs,
                    nn_tensor *outputs, bool *insufficient)
{
    const nn_operation *op = step->op;
    nn_tensor **ptrs = rs->ptrs;
    for (uint32_t i = 0; i < op->n_in; i++)
        ptrs[i] = &rs->t[op->in[i]];
    for (uint32_t i = 0; i < op->n_out; i++) {
        nn_tensor *t = &rs->t[op->out[i]];
        ptrs[op->n_in + i] = t;
        int rc = nn_tensor_copy_shape(t, &sp->tensors[op->out[i]]);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
    }
    nn_op_call call = {
        .op_type = op->type,
        .n_in = op->n_in,
        .n_out = op->n_out,
        .in = ptrs,
        .out = ptrs + op->n_in,
        .feature_level = NN_RUNTIME_FEATURE_LEVEL,
        .relaxed = ctx->plan->relaxed,
        .state = step->state,
        .ctx = ctx,
    };
    for (uint32_t i = 0; i < op->n_in; i++) {
        nn_tensor *t = ptrs[i];
        /* Only operations with optional inputs accept an omitted one; to
         * them it has no elements, whatever its declaration says. */
        if (t->omitted && !step->def->optional_inputs)
            return ANEURALNETWORKS_OP_FAILED;
        if (t->omitted && t->rank) {
            int rc = nn_tensor_set_rank(t, t->rank); /* own storage to clear */
            if (rc != ANEURALNETWORKS_NO_ERROR)
                return rc;
            memset(t->dims, 0, t->rank * sizeof *t->dims);
        }
        if (!t->omitted && t->data == NULL && t->type != ANEURALNETWORKS_MODEL)
            return ANEURALNETWORKS_OP_FAILED;
    }
    if (step->def->allocates_outputs)
        return run_allocating_step(sp, step, rs, &call, outputs, insufficient);
    int rc = step->def->prepare ? step->def->prepare(&call) : ANEURALNETWORKS_NO_ERROR;
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc == ANEURALNETWORKS_BAD_DATA ? ANEURALNETWORKS_OP_FAILED : rc;
    bool any_elements = false;
    for (uint32_t i = 0; i < op->n_out; i++) {
        uint32_t idx = op->out[i];
        if (!shape_matches_declared(&sp->tensors[idx], &rs->t[idx]))
            return ANEURALNETWORKS_OP_FAILED;
        rc = place_output(sp, rs, idx, outputs, insufficient);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        any_elements |= has_elements(&rs->t[idx]);
    }
    if (!any_elements)
        return ANEURALNETWORKS_NO_ERROR;
    rc = ensure_scratch(ctx, call.scratch_bytes);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    call.scratch = ctx->scratch;
    return step->def->execute(&call);
}

int nn_run_subplan(nn_exec_ctx *ctx, const nn_subplan *sp, nn_tensor *inputs, nn_tensor *outputs,
                   bool *insufficient)
{
    const ANeuralNetworksModel *m = sp->model;
    uint32_t n = m->n_operands;
    run_state rs = {0};
    rs.t = malloc((n ? n : 1) * sizeof *rs.t);
    rs.owned = calloc(n ? n : 1, 1);
    rs.ptrs = malloc((sp->max_op_io ? sp->max_op_io : 1) * sizeof *rs.ptrs);
    rs.arena = arena_for(ctx, sp->arena_size, &rs.arena_owned);
    if (!rs.t || !rs.owned || !rs.ptrs || (sp->arena_size && !rs.arena)) {
        run_state_free(&rs, 0);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    /* The plan's tensors, their dims borrowed until a step changes them. */
    memcpy(rs.t, sp->tensors, n * sizeof *rs.t);
    for (uint32_t i = 0; i < n; i++)
        nn_tensor_borrow_dims(&rs.t[i]);
    for (uint32_t i = 0; i < m->n_inputs; i++) {
        nn_tensor *t = &rs.t[m->inputs[i]];
        const nn_tensor *in = &inputs[i];
        int rc = nn_tensor_copy_shape(t, in);
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            run_state_free(&rs, n);
            return rc;
        }
        t->data = in->data;
        t->bytes = in->bytes;
        t->omitted = in->omitted;
        /* Kernels may assume natural alignment: copy a misaligned input. */
        if (t->data != NULL && !nn_aligned_for(t->data, t->type)) {
            void *copy = heap_buffer(t->bytes);
            if (copy == NULL) {
                run_state_free(&rs, n);
                return ANEURALNETWORKS_OUT_OF_MEMORY;
            }
            memcpy(copy, in->data, t->bytes);
            t->data = copy;
            rs.owned[m->inputs[i]] = 1;
        }
    }
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t s = 0; s < sp->n_steps && rc == ANEURALNETWORKS_NO_ERROR; s++) {
        if (ctx->deadline_ns && nn_now_ns() > ctx->deadline_ns) {
            rc = ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT;
            break;
        }
        if (nn_profile_on()) {
            uint64_t t0 = nn_now_ns();
            rc = run_step(ctx, sp, &sp->steps[s], &rs, outputs, insufficient);
            nn_profile_step(sp, &sp->steps[s], rs.t, ctx->depth, t0);
        } else {
            rc = run_step(ctx, sp, &sp->steps[s], &rs, outputs, insufficient);
        }
    }
    bool short_buffer = false;
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        uint32_t idx = m->outputs[i];
        nn_tensor *o = &outputs[i];
        int shape_rc = nn_tensor_copy_shape(o, &rs.t[idx]);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = shape_rc;
        if (insufficient && insufficient[i])
            short_buffer = true;
        else if (rc == ANEURALNETWORKS_NO_ERROR && !o->omitted && o->data != NULL &&
                 rs.t[idx].data != o->data)
            memcpy(o->data, rs.t[idx].data, rs.t[idx].bytes);
        if (rc == ANEURALNETWORKS_NO_ERROR && !o->omitted && o->data == NULL) {
            /* The caller asked the executor to allocate this output. */
            o->data = rs.t[idx].data;
            o->bytes = rs.t[idx].bytes;
            rs.owned[idx] = 0;
        }
    }
    run_state_free(&rs, n);
    if (rc == ANEURALNETWORKS_NO_ERROR && short_buffer)
        rc = ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
    return rc;
}

/*
 * Control flow runs nested models by recursion, one group of frames per
 * level. Shallow plans run on the calling thread; deeper ones on a thread
 * whose stack is sized for the plan's nesting (bounded by
 * NN_MAX_CONTROL_FLOW_DEPTH), so that no caller's stack size can make a
 * valid compilation crash.
 */
#define NN_INLINE_NESTING 4u
#define NN_STACK_BASE (1u << 20)
#define NN_STACK_PER_LEVEL (16u << 10)

typedef struct deep_run {
    nn_exec_ctx *ctx;
    const nn_subplan *sp;
    nn_tensor *inputs;
    nn_tensor *outputs;
    bool *insufficient;
    int rc;
} deep_run;

static void *deep_run_main(void *arg)
{
    deep_run *r = arg;
    r->rc = nn_run_subplan(r->ctx, r->sp, r->inputs, r->outputs, r->insufficient);
    return NULL;
}

int nn_run_plan(nn_exec_ctx *ctx, nn_tensor *inputs, nn_tensor *outputs, bool *insufficient)
{
    /* Workers asleep since the last computation wake while the first
     * operation prepares, not in its first parallel loop. */
    nn_pool_wake();
    const nn_plan *plan = ctx->plan;
    if (plan->nesting <= NN_INLINE_NESTING)
        return nn_run_subplan(ctx, &plan->subs[0], inputs, outputs, insufficient);
    deep_run r = {ctx, &plan->subs[0], inputs, outputs, insufficient, ANEURALNETWORKS_NO_ERROR};
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int err = pthread_attr_setstacksize(&attr, NN_STACK_BASE +
                                                       (size_t)plan->nesting * NN_STACK_PER_LEVEL);
    pthread_t t;
    if (err == 0)
        err = pthread_create(&t, &attr, deep_run_main, &r);
    pthread_attr_destroy(&attr);
    if (err != 0) {
        nn_vlog("execution: no thread for control flow nested %u deep", plan->nesting);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    pthread_join(t, NULL);
    return r.rc;
}
