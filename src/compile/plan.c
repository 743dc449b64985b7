/*
 * Compilation planning: one subplan per model reachable from the main model
 * (IF/WHILE branches and bodies), each with its operations in execution
 * order, shapes inferred as far as the declarations allow, per-operation
 * state (packed weights) and an arena layout that lets temporaries whose
 * lifetimes do not overlap share memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/cache.h"
#include "runtime.h"

#define NN_ARENA_ALIGN 64

bool nn_tensor_bytes(const nn_tensor *t, size_t *bytes)
{
    size_t b = nn_type_size(t->type);
    for (uint32_t i = 0; i < t->rank; i++)
        if (!nn_mul_size(b, t->dims[i], &b))
            return false;
    *bytes = b;
    return true;
}

/*
 * The models reachable through MODEL operands, main first, with an index
 * from model to position (open addressing on the pointer) so that every
 * lookup is O(1). The walk keeps its own stack: nesting depth is bounded by
 * memory, not by the caller's native stack.
 */
typedef struct model_list {
    const ANeuralNetworksModel **items;
    uint32_t *depth;          /* per item: control-flow levels below it */
    uint32_t n;
    uint32_t cap;
    const ANeuralNetworksModel **keys;  /* hash slots, NULL = empty */
    uint32_t *slot_item;
    size_t n_slots;           /* a power of two, at least twice n */
} model_list;

static size_t slot_of(const model_list *l, const ANeuralNetworksModel *m)
{
    size_t h = (size_t)(uintptr_t)m;
    h ^= h >> 17;
    h *= (size_t)0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    size_t mask = l->n_slots - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask)
        if (l->keys[i] == NULL || l->keys[i] == m)
            return i;
}

static int list_index(const model_list *l, const ANeuralNetworksModel *m)
{
    if (l->n_slots == 0)
        return -1;
    size_t i = slot_of(l, m);
    return l->keys[i] == m ? (int)l->slot_item[i] : -1;
}

static void list_free(model_list *l)
{
    free(l->items);
    free(l->depth);
    free(l->keys);
    free(l->slot_item);
}

static int list_add(model_list *l, const ANeuralNetworksModel *m, uint32_t *index)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 8;
        const ANeuralNetworksModel **items = realloc(l->items, cap * sizeof *items);
        if (items == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        l->items = items;
        uint32_t *depth = realloc(l->depth, cap * sizeof *depth);
        if (depth == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        l->depth = depth;
        l->cap = cap;
    }
    if ((size_t)(l->n + 1) * 2 > l->n_slots) {
        size_t n_slots = l->n_slots ? l->n_slots * 2 : 16;
        model_list grown = *l;
        grown.n_slots = n_slots;
        grown.keys = calloc(n_slots, sizeof *grown.keys);
        grown.slot_item = malloc(n_slots * sizeof *grown.slot_item);
        if (grown.keys == NULL || grown.slot_item == NULL) {
            free(grown.keys);
            free(grown.slot_item);
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        }
        for (uint32_t k = 0; k < l->n; k++) {
            size_t i = slot_of(&grown, l->items[k]);
            grown.keys[i] = l->items[k];
            grown.slot_item[i] = k;
        }
        free(l->keys);
        free(l->slot_item);
        *l = grown;
    }
    size_t i = slot_of(l, m);
    l->keys[i] = m;
    l->slot_item[i] = l->n;
    l->items[l->n] = m;
    l->depth[l->n] = 0;
    *index = l->n++;
    return ANEURALNETWORKS_NO_ERROR;
}

typedef struct walk_frame {
    uint32_t item;
    uint32_t next_operand;
} walk_frame;

/* Depth-first walk from the main model. A model can only reference models
 * finished before it, so references cannot form a cycle; one is still
 * refused (BAD_DATA) rather than trusted. */
static int collect_models(const ANeuralNetworksModel *main, model_list *all)
{
    uint32_t first;
    int rc = list_add(all, main, &first);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    walk_frame *stack = malloc(8 * sizeof *stack);
    uint8_t *on_stack = NULL;
    uint32_t n_stack = 0, cap_stack = 8, cap_flags = 0;
    if (stack == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    stack[n_stack++] = (walk_frame){first, 0};
    while (rc == ANEURALNETWORKS_NO_ERROR && n_stack > 0) {
        if (cap_flags < all->cap) {
            uint8_t *f = realloc(on_stack, all->cap);
            if (f == NULL) {
                rc = ANEURALNETWORKS_OUT_OF_MEMORY;
                break;
            }
            memset(f + cap_flags, 0, all->cap - cap_flags);
            on_stack = f;
            cap_flags = all->cap;
        }
        walk_frame *top = &stack[n_stack - 1];
        const ANeuralNetworksModel *m = all->items[top->item];
        on_stack[top->item] = 1;
        while (top->next_operand < m->n_operands &&
               m->operands[top->next_operand].lifetime != NN_LIFETIME_SUBGRAPH)
            top->next_operand++;
        if (top->next_operand == m->n_operands) {
            on_stack[top->item] = 0;
            uint32_t done = top->item;
            if (--n_stack > 0) {
                uint32_t parent = stack[n_stack - 1].item;
                if (all->depth[done] + 1 > all->depth[parent])
                    all->depth[parent] = all->depth[done] + 1;
            }
            continue;
        }
        const ANeuralNetworksModel *sub = m->operands[top->next_operand++].subgraph;
        int k = list_index(all, sub);
        if (k >= 0) {
            if (on_stack[k]) {
                nn_vlog("compilation: a model references itself");
                rc = ANEURALNETWORKS_BAD_DATA;
            } else if (all->depth[k] + 1 > all->depth[top->item]) {
                all->depth[top->item] = all->depth[k] + 1;
            }
            continue;
        }
        uint32_t item;
        rc = list_add(all, sub, &item);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            break;
        if (n_stack == cap_stack) {
            walk_frame *grown = realloc(stack, (size_t)cap_stack * 2 * sizeof *stack);
            if (grown == NULL) {
                rc = ANEURALNETWORKS_OUT_OF_MEMORY;
                break;
            }
            stack = grown;
            cap_stack *= 2;
        }
        stack[n_stack++] = (walk_frame){item, 0};
    }
    free(stack);
    free(on_stack);
    return rc;
}

/*
 * A step Android's runtime compiles but whose computation fails: a value it
 * checks only at execution (see nn_check_value) or shapes that contradict each
 * other. It runs in place of the operation, logs why and fails; its state is
 * the reason.
 */
static int failing_prepare(nn_op_call *call)
{
    nn_vlog("compute: %s fails: %s", nn_op_name(call->op_type), (const char *)call->state);
    return ANEURALNETWORKS_OP_FAILED;
}

static int failing_execute(nn_op_call *call)
{
    (void)call;
    return ANEURALNETWORKS_OP_FAILED;
}

static const nn_op_def failing_step = {
    .code = -1,
    .name = "failing step",
    .prepare = failing_prepare,
    .execute = failing_execute,
    .release = free,
    .optional_inputs = true,
};

static int make_failing(nn_step *step, const char *reason)
{
    nn_vlog("compilation: operation %u (%s) will fail at execution: %s", step->op_index,
            nn_op_name(step->op->type), reason);
    char *copy = strdup(reason);
    if (copy == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    step->def = &failing_step;
    step->state = copy;
    return ANEURALNETWORKS_NO_ERROR;
}

/* Merges an inferred output shape into the declared one. */
static int merge_shape(nn_tensor *declared, const nn_tensor *inferred)
{
    if (inferred->rank == 0 && nn_type_is_tensor(inferred->type))
        return ANEURALNETWORKS_NO_ERROR; /* nothing inferred */
    if (declared->rank != 0 && declared->rank != inferred->rank)
        return ANEURALNETWORKS_BAD_DATA;
    if (declared->rank == 0 && nn_type_is_tensor(declared->type))
        return nn_tensor_copy_shape(declared, inferred);
    for (uint32_t i = 0; i < declared->rank; i++) {
        if (declared->dims[i] != 0 && inferred->dims[i] != 0 &&
            declared->dims[i] != inferred->dims[i])
            return ANEURALNETWORKS_BAD_DATA;
        if (declared->dims[i] == 0)
            declared->dims[i] = inferred->dims[i];
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static bool inputs_known(const nn_subplan *sp, const nn_operation *op)
{
    for (uint32_t i = 0; i < op->n_in; i++) {
        const nn_tensor *t = &sp->tensors[op->in[i]];
        if (!t->omitted && !nn_tensor_shape_known(t))
            return false;
    }
    return true;
}

static void release_outs(nn_tensor *outs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        nn_tensor_release_dims(&outs[i]);
}

/* Infers the shapes of a step's outputs at compile time, if its inputs are
 * known, and runs its plan hook. ptrs and outs have room for the step's
 * operands and outputs. */
static int prepare_step(nn_subplan *sp, nn_step *step, bool relaxed, nn_tensor **ptrs,
                        nn_tensor *outs)
{
    const nn_operation *op = step->op;
    for (uint32_t i = 0; i < op->n_in; i++)
        ptrs[i] = &sp->tensors[op->in[i]];
    for (uint32_t i = 0; i < op->n_out; i++) {
        outs[i] = sp->tensors[op->out[i]];
        nn_tensor_borrow_dims(&outs[i]);
        ptrs[op->n_in + i] = &outs[i];
    }
    nn_op_call call = {
        .op_type = op->type,
        .n_in = op->n_in,
        .n_out = op->n_out,
        .in = ptrs,
        .out = ptrs + op->n_in,
        .feature_level = NN_RUNTIME_FEATURE_LEVEL,
        .relaxed = relaxed,
    };
    int rc = ANEURALNETWORKS_NO_ERROR;
    if (step->def->prepare && inputs_known(sp, op)) {
        nn_reason_clear();
        rc = step->def->prepare(&call);
        for (uint32_t i = 0; i < op->n_out && rc == ANEURALNETWORKS_NO_ERROR; i++) {
            rc = merge_shape(&sp->tensors[op->out[i]], &outs[i]);
            if (rc == ANEURALNETWORKS_BAD_DATA)
                nn_reason("output %u: the shape inferred from the inputs is not the declared one",
                          i);
        }
        for (uint32_t i = 0; i < op->n_out; i++)
            ptrs[op->n_in + i] = &sp->tensors[op->out[i]];
        /* Shapes that contradict each other compile on Android; computing
         * them fails. */
        if (rc == ANEURALNETWORKS_BAD_DATA || rc == ANEURALNETWORKS_OP_FAILED) {
            nn_reason_default("the input shapes do not fit the operation");
            char reason[256];
            snprintf(reason, sizeof reason, "%s", nn_take_reason());
            release_outs(outs, op->n_out);
            return make_failing(step, reason);
        }
    }
    if (rc == ANEURALNETWORKS_NO_ERROR && step->def->plan) {
        call.out = ptrs + op->n_in;
        rc = step->def->plan(&call, &step->state);
    }
    release_outs(outs, op->n_out);
    return rc;
}

/* Free ranges of the arena, sorted by offset, never adjacent. */
typedef struct free_list {
    size_t *offset;
    size_t *size;
    uint32_t n;
} free_list;

/* Best fit among the free ranges, else the end of the arena (growing a
 * free range that reaches it). */
static size_t arena_take(free_list *fl, size_t *total, size_t size)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t k = 0; k < fl->n; k++)
        if (fl->size[k] >= size && (best == UINT32_MAX || fl->size[k] < fl->size[best]))
            best = k;
    if (best == UINT32_MAX && fl->n > 0 && fl->offset[fl->n - 1] + fl->size[fl->n - 1] == *total)
        best = fl->n - 1;
    if (best == UINT32_MAX) {
        size_t offset = *total;
        *total += size;
        return offset;
    }
    size_t offset = fl->offset[best];
    if (fl->size[best] > size) {
        fl->offset[best] += size;
        fl->size[best] -= size;
        return offset;
    }
    if (offset + size > *total)
        *total = offset + size;
    fl->n--;
    memmove(fl->offset + best, fl->offset + best + 1, (fl->n - best) * sizeof *fl->offset);
    memmove(fl->size + best, fl->size + best + 1, (fl->n - best) * sizeof *fl->size);
    return offset;
}

static void arena_give(free_list *fl, size_t offset, size_t size)
{
    uint32_t lo = 0, hi = fl->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fl->offset[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool join_prev = lo > 0 && fl->offset[lo - 1] + fl->size[lo - 1] == offset;
    bool join_next = lo < fl->n && offset + size == fl->offset[lo];
    if (join_prev && join_next) {
        fl->size[lo - 1] += size + fl->size[lo];
        fl->n--;
        memmove(fl->offset + lo, fl->offset + lo + 1, (fl->n - lo) * sizeof *fl->offset);
        memmove(fl->size + lo, fl->size + lo + 1, (fl->n - lo) * sizeof *fl->size);
    } else if (join_prev) {
        fl->size[lo - 1] += size;
    } else if (join_next) {
        fl->offset[lo] = offset;
        fl->size[lo] += size;
    } else {
        memmove(fl->offset + lo + 1, fl->offset + lo, (fl->n - lo) * sizeof *fl->offset);
        memmove(fl->size + lo + 1, fl->size + lo, (fl->n - lo) * sizeof *fl->size);
        fl->offset[lo] = offset;
        fl->size[lo] = size;
        fl->n++;
    }
}

/* Places temporaries of known size in one arena, sweeping the steps in
 * order: a temporary takes the best-fitting free range when its step
 * produces it and gives it back after its last reader. Each step costs the
 * number of free ranges, which stays small, not the number of operands. */
static int plan_arena(nn_subplan *sp)
{
    const ANeuralNetworksModel *m = sp->model;
    uint32_t n = m->n_operands, n_steps = sp->n_steps;
    /* One block: per operand three size_t and four uint32_t, per step two
     * uint32_t (counts fit: a model's operands and operations fit in memory). */
    size_t buckets = (size_t)n_steps + 2;
    size_t *size = malloc((size_t)n * 3 * sizeof(size_t) + ((size_t)n * 4 + 2 * buckets) *
                                                               sizeof(uint32_t));
    if (size == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    free_list fl = {size + n, size + 2 * (size_t)n, 0};
    uint32_t *first = (uint32_t *)(size + 3 * (size_t)n);
    uint32_t *last = first + n;
    uint32_t *born = last + n;
    uint32_t *dead = born + n;
    /* candidates bucketed by the step that produces them and by the step
     * that reads them last (counting sort) */
    uint32_t *born_start = dead + n;
    uint32_t *dead_start = born_start + buckets;
    memset(size, 0, (size_t)n * sizeof *size);
    memset(born_start, 0, 2 * buckets * sizeof *born_start);
    for (uint32_t i = 0; i < n; i++) {
        sp->arena_offset[i] = SIZE_MAX;
        first[i] = UINT32_MAX;
        last[i] = 0;
    }
    for (uint32_t s = 0; s < n_steps; s++) {
        const nn_operation *op = sp->steps[s].op;
        for (uint32_t b = 0; b < op->n_out; b++)
            if (first[op->out[b]] == UINT32_MAX)
                first[op->out[b]] = s;
        for (uint32_t a = 0; a < op->n_in; a++)
            last[op->in[a]] = s;
    }
    for (uint32_t i = 0; i < n; i++) {
        const nn_tensor *t = &sp->tensors[i];
        if (m->operands[i].lifetime != NN_LIFETIME_TEMPORARY || first[i] == UINT32_MAX)
            continue;
        size_t bytes;
        if (!nn_tensor_shape_known(t) || !nn_tensor_bytes(t, &bytes) || bytes == 0)
            continue;
        if (bytes > SIZE_MAX / 4 / (n ? n : 1))
            continue; /* no sum of such sizes may overflow */
        size[i] = (bytes + NN_ARENA_ALIGN - 1) & ~(size_t)(NN_ARENA_ALIGN - 1);
        if (last[i] < first[i])
            last[i] = first[i];
        born_start[first[i] + 2]++;
        dead_start[last[i] + 2]++;
    }
    for (uint32_t s = 0; s < n_steps; s++) {
        born_start[s + 2] += born_start[s + 1];
        dead_start[s + 2] += dead_start[s + 1];
    }
    for (uint32_t i = 0; i < n; i++)
        if (size[i]) {
            born[born_start[first[i] + 1]++] = i;
            dead[dead_start[last[i] + 1]++] = i;
        }
    size_t total = 0;
    for (uint32_t s = 0; s < n_steps; s++) {
        for (uint32_t k = born_start[s]; k < born_start[s + 1]; k++)
            sp->arena_offset[born[k]] = arena_take(&fl, &total, size[born[k]]);
        for (uint32_t k = dead_start[s]; k < dead_start[s + 1]; k++)
            arena_give(&fl, sp->arena_offset[dead[k]], size[dead[k]]);
    }
    sp->arena_size = total;
    free(size);
    return ANEURALNETWORKS_NO_ERROR;
}

/* Constants may sit at any address of the caller's buffers or memory
 * objects; kernels read elements directly, so misaligned ones are copied. */
static int align_constants(nn_subplan *sp)
{
    for (uint32_t i = 0; i < sp->model->n_operands; i++) {
        nn_tensor *t = &sp->tensors[i];
        if (!t->constant || t->data == NULL || t->type == ANEURALNETWORKS_MODEL ||
            nn_aligned_for(t->data, t->type))
            continue;
        void **list = realloc(sp->aligned_copies, (sp->n_aligned_copies + 1) * sizeof *list);
        if (list == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        sp->aligned_copies = list;
        void *copy = malloc(t->bytes);
        if (copy == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        memcpy(copy, t->data, t->bytes);
        list[sp->n_aligned_copies++] = copy;
        t->data = copy;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static bool reads_memory(const ANeuralNetworksModel *m, const nn_operation *op)
{
    for (uint32_t i = 0; i < op->n_in; i++)
        if (m->operands[op->in[i]].memory != NULL)
            return true;
    return false;
}

static int build_subplan(nn_plan *plan, const model_list *models, uint32_t which)
{
    nn_subplan *sp = &plan->subs[which];
    const ANeuralNetworksModel *m = models->items[which];
    sp->model = m;
    uint32_t n = m->n_operands;
    sp->tensors = calloc(n ? n : 1, sizeof *sp->tensors);
    sp->arena_offset = calloc(n ? n : 1, sizeof *sp->arena_offset);
    sp->output_slot = malloc((n ? n : 1) * sizeof *sp->output_slot);
    sp->steps = calloc(m->n_operations ? m->n_operations : 1, sizeof *sp->steps);
    if (!sp->tensors || !sp->arena_offset || !sp->output_slot || !sp->steps)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < n; i++) {
        const nn_operand *o = &m->operands[i];
        sp->output_slot[i] = -1;
        int rc = nn_operand_to_tensor(o, &sp->tensors[i]);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        if (o->lifetime == NN_LIFETIME_SUBGRAPH) {
            int k = list_index(models, o->subgraph);
            sp->tensors[i].data = &plan->subs[k];
            sp->tensors[i].bytes = sizeof(nn_subplan);
            sp->tensors[i].constant = true;
        }
    }
    for (uint32_t i = 0; i < m->n_outputs; i++)
        sp->output_slot[m->outputs[i]] = (int32_t)i;
    int rc = align_constants(sp);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    sp->n_steps = m->n_operations;
    for (uint32_t s = 0; s < sp->n_steps; s++) {
        nn_step *step = &sp->steps[s];
        step->op_index = m->order[s];
        step->op = &m->operations[step->op_index];
        step->def = nn_op_lookup(step->op->type);
        if (step->def == NULL || step->def->execute == NULL) {
            /* As Android's runtime when no device can run an operation. */
            nn_reason("operation %u (%s) is supported by no device", step->op_index,
                      nn_op_name(step->op->type));
            return ANEURALNETWORKS_BAD_DATA;
        }
        uint32_t io = step->op->n_in + step->op->n_out;
        if (io > sp->max_op_io)
            sp->max_op_io = io;
    }
    for (uint32_t s = 0; s < sp->n_steps && rc == ANEURALNETWORKS_NO_ERROR; s++) {
        const nn_operation *op = sp->steps[s].op;
        bool fails = op->fails_at_execution;
        /* finish's verdict stands unless the operation reads a memory
         * object, whose content may have changed since; a failing one is
         * validated again for its reason. */
        if (fails || reads_memory(m, op))
            rc = nn_validate_operation(m, op, &fails);
        if (rc == ANEURALNETWORKS_NO_ERROR && fails)
            rc = make_failing(&sp->steps[s], nn_deferred_reason());
    }
    /* One buffer for every step's operand pointers and output tensors. */
    size_t io = sp->max_op_io ? sp->max_op_io : 1;
    nn_tensor **ptrs = malloc(io * (sizeof *ptrs + sizeof(nn_tensor)));
    if (ptrs == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    nn_tensor *outs = (nn_tensor *)(ptrs + io);
    for (uint32_t s = 0; s < sp->n_steps && rc == ANEURALNETWORKS_NO_ERROR; s++)
        if (sp->steps[s].def != &failing_step) {
            nn_blob_step(which, sp->steps[s].op_index);
            rc = prepare_step(sp, &sp->steps[s], plan->relaxed, ptrs, outs);
        }
    free(ptrs);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = plan_arena(sp);
    return rc;
}

void nn_plan_free(nn_plan *plan)
{
    if (plan == NULL)
        return;
    for (uint32_t k = 0; k < plan->n_subs; k++) {
        nn_subplan *sp = &plan->subs[k];
        for (uint32_t s = 0; sp->steps && s < sp->n_steps; s++)
            if (sp->steps[s].state && sp->steps[s].def->release)
                sp->steps[s].def->release(sp->steps[s].state);
        free(sp->steps);
        for (uint32_t i = 0; sp->tensors && i < sp->model->n_operands; i++)
            nn_tensor_release_dims(&sp->tensors[i]);
        free(sp->tensors);
        free(sp->arena_offset);
        free(sp->output_slot);
        for (uint32_t i = 0; i < sp->n_aligned_copies; i++)
            free(sp->aligned_copies[i]);
        free(sp->aligned_copies);
    }
    free(plan->subs);
    free(plan);
}

static void log_plan(const nn_plan *plan)
{
    if (!nn_vlog_enabled())
        return;
    uint32_t counts[NN_LAST_OPERATION + 1] = {0};
    uint32_t total = 0;
    for (uint32_t k = 0; k < plan->n_subs; k++)
        for (uint32_t s = 0; s < plan->subs[k].n_steps; s++) {
            counts[plan->subs[k].steps[s].op->type]++;
            total++;
        }
    char line[2048];
    size_t used = 0;
    line[0] = '\0';
    for (int32_t c = 0; c <= NN_LAST_OPERATION && used < sizeof line; c++)
        if (counts[c]) {
            int w = snprintf(line + used, sizeof line - used, " %s=%u", nn_op_name(c),
                             counts[c]);
            if (w < 0)
                break;
            used += (size_t)w;
        }
    nn_vlog("compilation: device %s, %u operations in %u models, arena %zu bytes:%s",
            nn_device_at(0)->name, total, plan->n_subs, plan->subs[0].arena_size, line);
}

int nn_plan_build(const ANeuralNetworksModel *model, nn_plan **out)
{
    *out = NULL;
    model_list all = {0};
    int rc = collect_models(model, &all);
    if (rc == ANEURALNETWORKS_NO_ERROR && all.depth[0] > NN_MAX_CONTROL_FLOW_DEPTH) {
        nn_vlog("compilation: control flow nested %u deep, more than the limit of %u",
                all.depth[0], NN_MAX_CONTROL_FLOW_DEPTH);
        rc = ANEURALNETWORKS_BAD_DATA;
    }
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        list_free(&all);
        return rc;
    }
    nn_plan *plan = calloc(1, sizeof *plan);
    if (plan == NULL || (plan->subs = calloc(all.n, sizeof *plan->subs)) == NULL) {
        free(plan);
        list_free(&all);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    plan->n_subs = all.n;
    plan->relaxed = model->relaxed;
    plan->nesting = all.depth[0];
    for (uint32_t k = 0; k < all.n && rc == ANEURALNETWORKS_NO_ERROR; k++)
        rc = build_subplan(plan, &all, k);
    list_free(&all);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        nn_plan_free(plan);
        return rc;
    }
    log_plan(plan);
    *out = plan;
    return ANEURALNETWORKS_NO_ERROR;
}
