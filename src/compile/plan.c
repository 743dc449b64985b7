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

/* Collects the models reachable through MODEL operands, main first, and
 * rejects a model that references itself directly or through others. */
typedef struct model_list {
    const ANeuralNetworksModel **items;
    uint32_t n;
    uint32_t cap;
} model_list;

static int list_index(const model_list *l, const ANeuralNetworksModel *m)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (l->items[i] == m)
            return (int)i;
    return -1;
}

static int collect_models(const ANeuralNetworksModel *m, model_list *all, model_list *stack)
{
    if (list_index(stack, m) >= 0)
        return ANEURALNETWORKS_BAD_DATA;
    if (list_index(all, m) >= 0)
        return ANEURALNETWORKS_NO_ERROR;
    if (all->n == all->cap || stack->n == stack->cap) {
        uint32_t cap = all->cap ? all->cap * 2 : 4;
        const ANeuralNetworksModel **a = realloc(all->items, cap * sizeof *a);
        if (a == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        all->items = a;
        all->cap = cap;
        const ANeuralNetworksModel **s = realloc(stack->items, cap * sizeof *s);
        if (s == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        stack->items = s;
        stack->cap = cap;
    }
    all->items[all->n++] = m;
    stack->items[stack->n++] = m;
    for (uint32_t i = 0; i < m->n_operands; i++) {
        const nn_operand *o = &m->operands[i];
        if (o->lifetime != NN_LIFETIME_SUBGRAPH)
            continue;
        int rc = collect_models(o->subgraph, all, stack);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
    }
    stack->n--;
    return ANEURALNETWORKS_NO_ERROR;
}

/* Merges an inferred output shape into the declared one. */
static int merge_shape(nn_tensor *declared, const nn_tensor *inferred)
{
    if (inferred->rank == 0 && nn_type_is_tensor(inferred->type))
        return ANEURALNETWORKS_NO_ERROR; /* nothing inferred */
    if (declared->rank != 0 && declared->rank != inferred->rank)
        return ANEURALNETWORKS_BAD_DATA;
    if (declared->rank == 0 && nn_type_is_tensor(declared->type)) {
        nn_tensor_copy_shape(declared, inferred);
        return ANEURALNETWORKS_NO_ERROR;
    }
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

/* Infers the shapes of a step's outputs at compile time, if its inputs are
 * known, and runs its plan hook. */
static int prepare_step(nn_subplan *sp, nn_step *step, bool relaxed, nn_tensor **ptrs)
{
    const nn_operation *op = step->op;
    nn_tensor *outs = calloc(op->n_out, sizeof *outs);
    if (outs == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < op->n_in; i++)
        ptrs[i] = &sp->tensors[op->in[i]];
    for (uint32_t i = 0; i < op->n_out; i++) {
        outs[i] = sp->tensors[op->out[i]];
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
        rc = step->def->prepare(&call);
        for (uint32_t i = 0; i < op->n_out && rc == ANEURALNETWORKS_NO_ERROR; i++)
            rc = merge_shape(&sp->tensors[op->out[i]], &outs[i]);
        for (uint32_t i = 0; i < op->n_out; i++)
            ptrs[op->n_in + i] = &sp->tensors[op->out[i]];
    }
    if (rc == ANEURALNETWORKS_NO_ERROR && step->def->plan) {
        call.out = ptrs + op->n_in;
        rc = step->def->plan(&call, &step->state);
    }
    free(outs);
    return rc;
}

/* Places temporaries of known size in one arena: each gets the lowest
 * offset that does not overlap any already placed temporary alive at the
 * same time; the largest are placed first. */
static int plan_arena(nn_subplan *sp)
{
    const ANeuralNetworksModel *m = sp->model;
    uint32_t n = m->n_operands;
    uint32_t *first = malloc((n ? n : 1) * sizeof *first);
    uint32_t *last = malloc((n ? n : 1) * sizeof *last);
    size_t *size = calloc(n ? n : 1, sizeof *size);
    uint32_t *cand = malloc((n ? n : 1) * sizeof *cand);
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (!first || !last || !size || !cand)
        goto out;
    for (uint32_t i = 0; i < n; i++) {
        sp->arena_offset[i] = SIZE_MAX;
        first[i] = UINT32_MAX;
        last[i] = 0;
    }
    for (uint32_t s = 0; s < sp->n_steps; s++) {
        const nn_operation *op = sp->steps[s].op;
        for (uint32_t b = 0; b < op->n_out; b++)
            if (first[op->out[b]] == UINT32_MAX)
                first[op->out[b]] = s;
        for (uint32_t a = 0; a < op->n_in; a++)
            last[op->in[a]] = s;
    }
    uint32_t n_cand = 0;
    for (uint32_t i = 0; i < n; i++) {
        const nn_tensor *t = &sp->tensors[i];
        if (m->operands[i].lifetime != NN_LIFETIME_TEMPORARY || first[i] == UINT32_MAX)
            continue;
        size_t bytes;
        if (!nn_tensor_shape_known(t) || !nn_tensor_bytes(t, &bytes) || bytes == 0)
            continue;
        if (bytes > SIZE_MAX / 2)
            continue;
        size[i] = (bytes + NN_ARENA_ALIGN - 1) & ~(size_t)(NN_ARENA_ALIGN - 1);
        if (last[i] < first[i])
            last[i] = first[i];
        /* insertion by decreasing size */
        uint32_t k = n_cand++;
        while (k > 0 && size[cand[k - 1]] < size[i]) {
            cand[k] = cand[k - 1];
            k--;
        }
        cand[k] = i;
    }
    size_t total = 0;
    for (uint32_t c = 0; c < n_cand; c++) {
        uint32_t i = cand[c];
        size_t offset = 0;
        bool moved = true;
        while (moved) {
            moved = false;
            for (uint32_t p = 0; p < c; p++) {
                uint32_t j = cand[p];
                bool live_together = first[i] <= last[j] && first[j] <= last[i];
                size_t j_end = sp->arena_offset[j] + size[j];
                if (live_together && offset < j_end && sp->arena_offset[j] < offset + size[i]) {
                    offset = j_end;
                    moved = true;
                }
            }
        }
        sp->arena_offset[i] = offset;
        if (offset + size[i] > total)
            total = offset + size[i];
    }
    sp->arena_size = total;
    rc = ANEURALNETWORKS_NO_ERROR;
out:
    free(first);
    free(last);
    free(size);
    free(cand);
    return rc;
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
        nn_operand_to_tensor(o, &sp->tensors[i]);
        sp->output_slot[i] = -1;
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
            nn_vlog("compilation: operation %u (%s) is not supported", step->op_index,
                    nn_op_name(step->op->type));
            return ANEURALNETWORKS_BAD_DATA;
        }
        uint32_t io = step->op->n_in + step->op->n_out;
        if (io > sp->max_op_io)
            sp->max_op_io = io;
    }
    nn_tensor **ptrs = calloc(sp->max_op_io ? sp->max_op_io : 1, sizeof *ptrs);
    if (ptrs == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t s = 0; s < sp->n_steps && rc == ANEURALNETWORKS_NO_ERROR; s++)
        rc = prepare_step(sp, &sp->steps[s], plan->relaxed, ptrs);
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
    model_list all = {0}, stack = {0};
    int rc = collect_models(model, &all, &stack);
    free(stack.items);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        free(all.items);
        return rc;
    }
    nn_plan *plan = calloc(1, sizeof *plan);
    if (plan == NULL || (plan->subs = calloc(all.n, sizeof *plan->subs)) == NULL) {
        free(plan);
        free(all.items);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    plan->n_subs = all.n;
    plan->relaxed = model->relaxed;
    for (uint32_t k = 0; k < all.n && rc == ANEURALNETWORKS_NO_ERROR; k++)
        rc = build_subplan(plan, &all, k);
    free(all.items);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        nn_plan_free(plan);
        return rc;
    }
    log_plan(plan);
    *out = plan;
    return ANEURALNETWORKS_NO_ERROR;
}
