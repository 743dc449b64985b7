/*
 * Partitioning a model over several devices. Each driver device says which
 * operations it supports (asked through its SL table on its own copy of the
 * model); each operation goes to the best device that supports it
 * (accelerators before CPUs, the CPU device last), and the model is cut into
 * steps of consecutive work for one device. Every step is a submodel
 * compiled on its device through that device's SL table (the CPU device's is
 * nn_cpu_sl_table()). An execution runs the steps in order on the calling
 * thread, handing intermediate tensors over in host buffers. A step whose
 * driver fails to compile it, or fails to compute it with an error worth a
 * retry, runs on the CPU when fallback is allowed.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

typedef struct part_step {
    const ANeuralNetworksDevice *device;
    uint32_t *ops; /* operation indices in the original model */
    uint32_t n_ops;
    uint32_t *in; /* original operand indices of the submodel's inputs */
    uint32_t n_in;
    uint32_t *out; /* and of its outputs */
    uint32_t n_out;
    const NnApiSLDriverImplFL5 *sl; /* the table model and compilation belong to */
    ANeuralNetworksModel **models;  /* the submodel, then copies of subgraphs */
    uint32_t n_models;
    ANeuralNetworksCompilation *compilation;
    /* The CPU version of a driver step, compiled at its first failure. */
    pthread_mutex_t lock;
    ANeuralNetworksModel **cpu_models;
    uint32_t n_cpu_models;
    ANeuralNetworksCompilation *cpu_compilation;
    int cpu_rc;
} part_step;

struct nn_partition {
    const ANeuralNetworksModel *model;
    /* The whole model on the CPU, built on first need: the public SL
     * interface cannot hand a zero-sized tensor over to a step (a 0 in an
     * input's dimensions means "unknown"), so such a run falls back whole. */
    pthread_mutex_t lock;
    nn_plan *cpu_plan;
    int cpu_plan_rc;
    part_step *steps;
    uint32_t n_steps;
    bool fallback; /* the CPU device may redo a failed step */
    int32_t preference;
    int32_t priority;
};

/* ------------------------------------------------- models through a table */

typedef struct model_set {
    ANeuralNetworksModel **items;
    uint32_t n;
} model_set;

static void free_models(const NnApiSLDriverImplFL5 *sl, ANeuralNetworksModel **models, uint32_t n)
{
    for (uint32_t i = n; i-- > 0;)
        sl->ANeuralNetworksModel_free(models[i]);
    free(models);
}

static int keep_model(model_set *set, ANeuralNetworksModel *m)
{
    ANeuralNetworksModel **items = realloc(set->items, (set->n + 1) * sizeof *items);
    if (items == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    set->items = items;
    set->items[set->n++] = m;
    return ANEURALNETWORKS_NO_ERROR;
}

static int build_model(const NnApiSLDriverImplFL5 *sl, const ANeuralNetworksModel *src,
                       const uint32_t *ops, uint32_t n_ops, const uint32_t *in, uint32_t n_in,
                       const uint32_t *out, uint32_t n_out, model_set *set,
                       ANeuralNetworksModel **result);

/* The model an operand of lifetime SUBGRAPH refers to, as the table knows it:
 * ours for the CPU table, a whole copy for a driver's. */
static int subgraph_for(const NnApiSLDriverImplFL5 *sl, const ANeuralNetworksModel *sub,
                        model_set *set, ANeuralNetworksModel **result)
{
    if (sl == &nn_cpu_sl_table()->base) {
        *result = (ANeuralNetworksModel *)sub;
        return ANEURALNETWORKS_NO_ERROR;
    }
    uint32_t *all = malloc((sub->n_operations ? sub->n_operations : 1) * sizeof *all);
    if (all == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < sub->n_operations; k++)
        all[k] = k;
    int rc = build_model(sl, sub, all, sub->n_operations, sub->inputs, sub->n_inputs, sub->outputs,
                         sub->n_outputs, set, result);
    free(all);
    return rc;
}

static int add_operand(const NnApiSLDriverImplFL5 *sl, ANeuralNetworksModel *dst, int32_t index,
                       const nn_operand *o, bool is_io, model_set *set)
{
    ANeuralNetworksOperandType t = {
            .type = o->type,
            .dimensionCount = o->rank,
            .dimensions = o->rank ? o->dims : NULL,
            .scale = o->scale,
            .zeroPoint = o->zero_point,
    };
    int rc = sl->ANeuralNetworksModel_addOperand(dst, &t);
    if (rc == ANEURALNETWORKS_NO_ERROR && o->has_channel_quant) {
        ANeuralNetworksSymmPerChannelQuantParams q = {
                .channelDim = o->channel_quant.channel_dim,
                .scaleCount = o->channel_quant.scale_count,
                .scales = o->channel_quant.scales,
        };
        rc = sl->ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(dst, index, &q);
    }
    if (rc != ANEURALNETWORKS_NO_ERROR || is_io)
        return rc;
    switch (o->lifetime) {
    case NN_LIFETIME_CONSTANT:
        /* The original model outlives the compilation, so drivers may keep
         * pointing at its values as they may at an application's. */
        return sl->ANeuralNetworksModel_setOperandValue(dst, index, o->value, o->length);
    case NN_LIFETIME_NO_VALUE:
        return sl->ANeuralNetworksModel_setOperandValue(dst, index, NULL, 0);
    case NN_LIFETIME_SUBGRAPH: {
        ANeuralNetworksModel *sub;
        rc = subgraph_for(sl, o->subgraph, set, &sub);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = sl->ANeuralNetworksModel_setOperandValueFromModel(dst, index, sub);
        return rc;
    }
    default:
        return ANEURALNETWORKS_NO_ERROR;
    }
}

/* Builds, through the table, the model of operations ops of src with the
 * given inputs and outputs (original operand indices); operands keep their
 * relative order. Every model created is added to set. */
static int build_model(const NnApiSLDriverImplFL5 *sl, const ANeuralNetworksModel *src,
                       const uint32_t *ops, uint32_t n_ops, const uint32_t *in, uint32_t n_in,
                       const uint32_t *out, uint32_t n_out, model_set *set,
                       ANeuralNetworksModel **result)
{
    uint32_t n = src->n_operands;
    uint32_t *map = malloc((n ? n : 1) * sizeof *map);
    bool *io = calloc(n ? n : 1, sizeof *io);
    uint32_t max_io = n_in > n_out ? n_in : n_out;
    for (uint32_t k = 0; k < n_ops; k++) {
        const nn_operation *op = &src->operations[ops[k]];
        max_io = op->n_in > max_io ? op->n_in : max_io;
        max_io = op->n_out > max_io ? op->n_out : max_io;
    }
    /* Operand lists in the new numbering: ins, then outs. */
    uint32_t *idx = malloc((max_io ? 2 * (size_t)max_io : 1) * sizeof *idx);
    uint32_t *ins = idx, *outs = idx ? idx + max_io : NULL;
    ANeuralNetworksModel *dst = NULL;
    int rc = map && io && idx ? sl->ANeuralNetworksModel_create(&dst)
                              : ANEURALNETWORKS_OUT_OF_MEMORY;
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        rc = keep_model(set, dst);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            sl->ANeuralNetworksModel_free(dst);
    }
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        memset(map, 0xff, n * sizeof *map);
        for (uint32_t k = 0; k < n_ops; k++) {
            const nn_operation *op = &src->operations[ops[k]];
            for (uint32_t i = 0; i < op->n_in; i++)
                map[op->in[i]] = 0;
            for (uint32_t i = 0; i < op->n_out; i++)
                map[op->out[i]] = 0;
        }
        for (uint32_t i = 0; i < n_in; i++)
            map[in[i]] = 0, io[in[i]] = true;
        for (uint32_t i = 0; i < n_out; i++)
            map[out[i]] = 0, io[out[i]] = true;
        uint32_t next = 0;
        for (uint32_t k = 0; k < n && rc == ANEURALNETWORKS_NO_ERROR; k++) {
            if (map[k] == UINT32_MAX)
                continue;
            map[k] = next++;
            rc = add_operand(sl, dst, (int32_t)map[k], &src->operands[k], io[k], set);
        }
    }
    for (uint32_t k = 0; k < n_ops && rc == ANEURALNETWORKS_NO_ERROR; k++) {
        const nn_operation *op = &src->operations[ops[k]];
        for (uint32_t i = 0; i < op->n_in; i++)
            ins[i] = map[op->in[i]];
        for (uint32_t i = 0; i < op->n_out; i++)
            outs[i] = map[op->out[i]];
        rc = sl->ANeuralNetworksModel_addOperation(dst, op->type, op->n_in, ins, op->n_out, outs);
    }
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        for (uint32_t i = 0; i < n_in; i++)
            ins[i] = map[in[i]];
        for (uint32_t i = 0; i < n_out; i++)
            outs[i] = map[out[i]];
        rc = sl->ANeuralNetworksModel_identifyInputsAndOutputs(dst, n_in, ins, n_out, outs);
    }
    if (rc == ANEURALNETWORKS_NO_ERROR && src->relaxed)
        rc = sl->ANeuralNetworksModel_relaxComputationFloat32toFloat16(dst, true);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = sl->ANeuralNetworksModel_finish(dst);
    free(map);
    free(io);
    free(idx);
    *result = rc == ANEURALNETWORKS_NO_ERROR ? dst : NULL;
    return rc;
}

/* ------------------------------------------------------ supported operations */

int nn_device_supported_ops(const ANeuralNetworksDevice *d, const ANeuralNetworksModel *m,
                            bool *ops)
{
    if (d->driver != NULL) {
        int rc = ANEURALNETWORKS_NO_ERROR;
        for (uint32_t k = 0; k < m->n_operations && rc == ANEURALNETWORKS_NO_ERROR; k++)
            rc = d->driver->supports(m, k, &ops[k]);
        return rc;
    }
    memset(ops, 0, m->n_operations * sizeof *ops);
    uint32_t *all = malloc((m->n_operations ? m->n_operations : 1) * sizeof *all);
    if (all == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t k = 0; k < m->n_operations; k++)
        all[k] = k;
    model_set set = {0};
    ANeuralNetworksModel *copy;
    int rc = build_model(d->sl, m, all, m->n_operations, m->inputs, m->n_inputs, m->outputs,
                         m->n_outputs, &set, &copy);
    free(all);
    if (rc == ANEURALNETWORKS_OUT_OF_MEMORY) {
        free_models(d->sl, set.items, set.n);
        return rc;
    }
    /* A driver that cannot even take the model supports none of it. */
    if (rc != ANEURALNETWORKS_NO_ERROR)
        nn_vlog("device %s: building its copy of the model failed (code %d): it gets no operation",
                d->name, rc);
    else if ((rc = d->sl->ANeuralNetworksModel_getSupportedOperationsForDevices(
                      copy, (const ANeuralNetworksDevice *const *)&d->sl_device, 1, ops)) !=
             ANEURALNETWORKS_NO_ERROR) {
        nn_vlog("device %s: getSupportedOperationsForDevices failed (code %d): it gets no "
                "operation", d->name, rc);
        memset(ops, 0, m->n_operations * sizeof *ops);
    }
    free_models(d->sl, set.items, set.n);
    return ANEURALNETWORKS_NO_ERROR;
}

/* ------------------------------------------------------------- partitioning */

/* Lower is tried first: dedicated hardware, then the GPU, then CPUs. */
static int device_rank(const ANeuralNetworksDevice *d)
{
    if (d == nn_cpu_device())
        return 4;
    switch (d->type) {
    case ANEURALNETWORKS_DEVICE_ACCELERATOR:
        return 0;
    case ANEURALNETWORKS_DEVICE_GPU:
        return 1;
    case ANEURALNETWORKS_DEVICE_CPU:
        return 3;
    default:
        return 2;
    }
}

static void free_step(part_step *s)
{
    if (s->compilation)
        s->sl->ANeuralNetworksCompilation_free(s->compilation);
    if (s->models)
        free_models(s->sl, s->models, s->n_models);
    const NnApiSLDriverImplFL5 *cpu = &nn_cpu_sl_table()->base;
    if (s->cpu_compilation)
        cpu->ANeuralNetworksCompilation_free(s->cpu_compilation);
    if (s->cpu_models)
        free_models(cpu, s->cpu_models, s->n_cpu_models);
    pthread_mutex_destroy(&s->lock);
    free(s->ops);
    free(s->in);
    free(s->out);
}

void nn_partition_free(nn_partition *p)
{
    if (p == NULL)
        return;
    for (uint32_t i = 0; i < p->n_steps; i++)
        free_step(&p->steps[i]);
    free(p->steps);
    nn_plan_free(p->cpu_plan);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* Compiles step s of p's model on device d through d's table. */
static int compile_on(const nn_partition *p, const part_step *s, const ANeuralNetworksDevice *d,
                      ANeuralNetworksModel ***models, uint32_t *n_models,
                      ANeuralNetworksCompilation **out)
{
    const NnApiSLDriverImplFL5 *sl = d->sl;
    model_set set = {0};
    ANeuralNetworksModel *sub;
    ANeuralNetworksCompilation *c = NULL;
    int rc = build_model(sl, p->model, s->ops, s->n_ops, s->in, s->n_in, s->out, s->n_out, &set,
                         &sub);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = sl->ANeuralNetworksCompilation_createForDevices(
                sub, (const ANeuralNetworksDevice *const *)&d->sl_device, 1, &c);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = sl->ANeuralNetworksCompilation_setPreference(c, p->preference);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = sl->ANeuralNetworksCompilation_setPriority(c, p->priority);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = sl->ANeuralNetworksCompilation_finish(c);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        if (c)
            sl->ANeuralNetworksCompilation_free(c);
        free_models(sl, set.items, set.n);
        return rc;
    }
    *models = set.items;
    *n_models = set.n;
    *out = c;
    return rc;
}

/* Collects the inputs and outputs of each step: operands a step reads that
 * no operation of it produces, and operands it produces that the model
 * outputs or another step reads. */
static int step_io(const ANeuralNetworksModel *m, const uint32_t *step_of_op, part_step *steps,
                   uint32_t n_steps)
{
    uint32_t n = m->n_operands;
    uint32_t *producer = malloc((n ? n : 1) * sizeof *producer);
    uint8_t *mark = malloc(n ? n : 1);
    if (producer == NULL || mark == NULL) {
        free(producer);
        free(mark);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    memset(producer, 0xff, n * sizeof *producer);
    for (uint32_t k = 0; k < m->n_operations; k++)
        for (uint32_t i = 0; i < m->operations[k].n_out; i++)
            producer[m->operations[k].out[i]] = step_of_op[k];
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t s = 0; s < n_steps && rc == ANEURALNETWORKS_NO_ERROR; s++) {
        part_step *st = &steps[s];
        /* mark: 1 = input of s, 2 = output of s */
        memset(mark, 0, n);
        for (uint32_t j = 0; j < st->n_ops; j++) {
            const nn_operation *op = &m->operations[st->ops[j]];
            for (uint32_t i = 0; i < op->n_in; i++) {
                uint32_t o = op->in[i];
                enum nn_lifetime lt = m->operands[o].lifetime;
                bool value = lt == NN_LIFETIME_TEMPORARY || lt == NN_LIFETIME_INPUT ||
                             lt == NN_LIFETIME_OUTPUT;
                if (value && producer[o] != s)
                    mark[o] = 1;
            }
        }
        for (uint32_t k = 0; k < m->n_operations; k++) {
            const nn_operation *op = &m->operations[k];
            if (step_of_op[k] == s)
                continue;
            for (uint32_t i = 0; i < op->n_in; i++)
                if (producer[op->in[i]] == s)
                    mark[op->in[i]] = 2;
        }
        for (uint32_t i = 0; i < m->n_outputs; i++)
            if (producer[m->outputs[i]] == s)
                mark[m->outputs[i]] = 2;
        uint32_t n_in = 0, n_out = 0;
        for (uint32_t o = 0; o < n; o++)
            n_in += mark[o] == 1, n_out += mark[o] == 2;
        if (n_out == 0) /* work nobody reads still needs an output to exist */
            for (uint32_t j = 0; j < st->n_ops; j++) {
                const nn_operation *op = &m->operations[st->ops[j]];
                for (uint32_t i = 0; i < op->n_out; i++)
                    n_out += mark[op->out[i]] != 2, mark[op->out[i]] = 2;
            }
        st->in = malloc((n_in ? n_in : 1) * sizeof *st->in);
        st->out = malloc(n_out * sizeof *st->out);
        if (st->in == NULL || st->out == NULL) {
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
            break;
        }
        for (uint32_t o = 0; o < n; o++) {
            if (mark[o] == 1)
                st->in[st->n_in++] = o;
            else if (mark[o] == 2)
                st->out[st->n_out++] = o;
        }
    }
    free(producer);
    free(mark);
    return rc;
}

/*
 * Orders the operations into steps: ready operations of the current device
 * join its step while any remain, then the device of the earliest ready
 * operation takes over. This keeps steps few when devices alternate along
 * independent branches. step_of_op receives each operation's step.
 */
static int cut_steps(const ANeuralNetworksModel *m, const ANeuralNetworksDevice **device_of_op,
                     uint32_t *step_of_op, part_step **out, uint32_t *n_out)
{
    uint32_t n_ops = m->n_operations, n = m->n_operands;
    uint32_t *waiting = calloc(n_ops ? n_ops : 1, sizeof *waiting); /* unmet inputs */
    bool *ready_value = calloc(n ? n : 1, sizeof *ready_value);
    bool *done = calloc(n_ops ? n_ops : 1, sizeof *done);
    part_step *steps = calloc(n_ops ? n_ops : 1, sizeof *steps);
    uint32_t *produced = malloc((n ? n : 1) * sizeof *produced);
    if (!waiting || !ready_value || !done || !steps || !produced) {
        free(waiting), free(ready_value), free(done), free(steps), free(produced);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    memset(produced, 0, n * sizeof *produced);
    for (uint32_t k = 0; k < n_ops; k++)
        for (uint32_t i = 0; i < m->operations[k].n_out; i++)
            produced[m->operations[k].out[i]] = 1;
    for (uint32_t k = 0; k < n_ops; k++)
        for (uint32_t i = 0; i < m->operations[k].n_in; i++)
            waiting[k] += produced[m->operations[k].in[i]];
    uint32_t n_steps = 0, placed = 0;
    int rc = ANEURALNETWORKS_NO_ERROR;
    while (placed < n_ops && rc == ANEURALNETWORKS_NO_ERROR) {
        /* The earliest ready operation (in the model's valid order) picks the device. */
        const ANeuralNetworksDevice *dev = NULL;
        for (uint32_t j = 0; j < n_ops && dev == NULL; j++) {
            uint32_t k = m->order[j];
            if (!done[k] && waiting[k] == 0)
                dev = device_of_op[k];
        }
        part_step *st = &steps[n_steps];
        st->device = dev;
        st->ops = malloc(n_ops * sizeof *st->ops);
        if (st->ops == NULL || dev == NULL) {
            rc = st->ops == NULL ? ANEURALNETWORKS_OUT_OF_MEMORY : ANEURALNETWORKS_BAD_DATA;
            free(st->ops);
            st->ops = NULL;
            break;
        }
        pthread_mutex_init(&st->lock, NULL);
        n_steps++;
        bool grew = true;
        while (grew) {
            grew = false;
            for (uint32_t j = 0; j < n_ops; j++) {
                uint32_t k = m->order[j];
                if (done[k] || waiting[k] != 0 || device_of_op[k] != dev)
                    continue;
                done[k] = true;
                grew = true;
                placed++;
                step_of_op[k] = n_steps - 1;
                st->ops[st->n_ops++] = k;
                const nn_operation *op = &m->operations[k];
                for (uint32_t i = 0; i < op->n_out; i++)
                    ready_value[op->out[i]] = true;
                /* Consumers of what just became ready have one input less to wait for. */
                for (uint32_t c = 0; c < n_ops; c++) {
                    if (done[c])
                        continue;
                    for (uint32_t i = 0; i < m->operations[c].n_in; i++)
                        for (uint32_t o = 0; o < op->n_out; o++)
                            waiting[c] -= m->operations[c].in[i] == op->out[o];
                }
            }
        }
    }
    free(waiting), free(ready_value), free(done), free(produced);
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        for (uint32_t s = 0; s < n_steps; s++)
            free_step(&steps[s]);
        free(steps);
        return rc;
    }
    *out = steps;
    *n_out = n_steps;
    return rc;
}

static void log_partition(const nn_partition *p)
{
    if (!nn_vlog_enabled())
        return;
    const ANeuralNetworksModel *m = p->model;
    nn_vlog("partition: %u operations in %u steps", m->n_operations, p->n_steps);
    for (uint32_t s = 0; s < p->n_steps; s++) {
        const part_step *st = &p->steps[s];
        nn_vlog("partition: step %u on %s: %u operations, %u inputs, %u outputs", s,
                st->device->name, st->n_ops, st->n_in, st->n_out);
        for (uint32_t j = 0; j < st->n_ops; j++)
            nn_vlog("partition:   operation %u (%s) on %s", st->ops[j],
                    nn_op_name(m->operations[st->ops[j]].type), st->device->name);
    }
}

int nn_partition_build(const ANeuralNetworksCompilation *c, nn_partition **out)
{
    *out = NULL;
    const ANeuralNetworksModel *m = c->model;
    const ANeuralNetworksDevice *cpu = nn_cpu_device();
    uint32_t n_dev = c->devices ? c->n_devices : nn_device_count();
    bool has_cpu = false, has_driver = false;
    for (uint32_t i = 0; i < n_dev; i++) {
        const ANeuralNetworksDevice *d = c->devices ? c->devices[i] : nn_device_at(i);
        has_cpu |= d == cpu;
        has_driver |= d != cpu;
    }
    if (!has_driver || m->n_operations == 0)
        return ANEURALNETWORKS_NO_ERROR;
    const ANeuralNetworksDevice **devs = malloc(n_dev * sizeof *devs);
    if (devs == NULL)
        return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < n_dev; i++)
        devs[i] = c->devices ? c->devices[i] : nn_device_at(i);
    /* Best first; a stable insertion sort keeps the list order among equals. */
    for (uint32_t i = 1; i < n_dev; i++)
        for (uint32_t j = i; j > 0 && device_rank(devs[j]) < device_rank(devs[j - 1]); j--) {
            const ANeuralNetworksDevice *t = devs[j];
            devs[j] = devs[j - 1];
            devs[j - 1] = t;
        }
    uint32_t n_ops = m->n_operations;
    bool *supported = malloc(n_ops * sizeof *supported);
    const ANeuralNetworksDevice **device_of_op = calloc(n_ops, sizeof *device_of_op);
    uint32_t *step_of_op = calloc(n_ops, sizeof *step_of_op);
    nn_partition *p = calloc(1, sizeof *p);
    if (p != NULL)
        pthread_mutex_init(&p->lock, NULL);
    int rc = supported && device_of_op && step_of_op && p ? ANEURALNETWORKS_NO_ERROR
                                                          : ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < n_dev && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        rc = nn_device_supported_ops(devs[i], m, supported);
        for (uint32_t k = 0; k < n_ops && rc == ANEURALNETWORKS_NO_ERROR; k++)
            if (device_of_op[k] == NULL && supported[k])
                device_of_op[k] = devs[i];
    }
    bool all_cpu = true;
    for (uint32_t k = 0; k < n_ops && rc == ANEURALNETWORKS_NO_ERROR; k++) {
        if (device_of_op[k] == NULL)
            rc = nn_because(ANEURALNETWORKS_BAD_DATA,
                            "operation %u (%s) is supported by none of the compilation's devices",
                            k, nn_op_name(m->operations[k].type));
        all_cpu &= device_of_op[k] == cpu;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR && !all_cpu) {
        p->model = m;
        p->fallback = has_cpu;
        p->preference = c->preference;
        p->priority = c->priority;
        rc = cut_steps(m, device_of_op, step_of_op, &p->steps, &p->n_steps);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = step_io(m, step_of_op, p->steps, p->n_steps);
        for (uint32_t s = 0; s < p->n_steps && rc == ANEURALNETWORKS_NO_ERROR; s++) {
            part_step *st = &p->steps[s];
            rc = compile_on(p, st, st->device, &st->models, &st->n_models, &st->compilation);
            if (rc == ANEURALNETWORKS_OUT_OF_MEMORY || rc == ANEURALNETWORKS_NO_ERROR ||
                !p->fallback || st->device == cpu) {
                st->sl = st->device->sl;
                if (rc != ANEURALNETWORKS_NO_ERROR)
                    nn_reason_default("compiling a step on its device failed");
                continue;
            }
            nn_vlog("partition: step %u: %s failed to compile it (code %d); it runs on the CPU",
                    s, st->device->name, rc);
            st->device = cpu;
            rc = compile_on(p, st, cpu, &st->models, &st->n_models, &st->compilation);
            st->sl = cpu->sl;
        }
        if (rc == ANEURALNETWORKS_NO_ERROR)
            log_partition(p);
    } else if (rc == ANEURALNETWORKS_NO_ERROR) {
        nn_vlog("partition: every operation runs on %s", cpu->name);
    }
    free(devs);
    free(supported);
    free(device_of_op);
    free(step_of_op);
    if (rc != ANEURALNETWORKS_NO_ERROR || all_cpu) {
        nn_partition_free(p);
        return rc == ANEURALNETWORKS_OUT_OF_MEMORY ? nn_because(rc, "out of memory") : rc;
    }
    *out = p;
    return rc;
}

/* ---------------------------------------------------------------- execution */

/* The value of an operand during a partitioned run. */
typedef struct slot {
    void *data;
    size_t bytes; /* of the value */
    size_t cap;   /* of data, when owned */
    bool owned;
    bool omitted;
    bool set;
    uint32_t rank;
    uint32_t *dims; /* owned, rank entries */
} slot;

/* Makes room for rank dims in v (their values are then set by the caller). */
static int slot_set_rank(slot *v, uint32_t rank)
{
    if (rank > v->rank || v->dims == NULL) {
        uint32_t *d = realloc(v->dims, (rank ? rank : 1) * sizeof *d);
        if (d == NULL)
            return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "no memory for %u dimensions", rank);
        v->dims = d;
    }
    v->rank = rank;
    return ANEURALNETWORKS_NO_ERROR;
}

static void slots_free(slot *slots, uint32_t n)
{
    for (uint32_t o = 0; o < n; o++) {
        if (slots[o].owned)
            free(slots[o].data);
        free(slots[o].dims);
    }
    free(slots);
}

/* compute_step's code for an input it cannot hand over: zero-sized. */
#define NN_ZERO_SIZED_HANDOVER (-1)

static bool retry_on_cpu(int rc)
{
    switch (rc) {
    case ANEURALNETWORKS_OP_FAILED:
    case ANEURALNETWORKS_UNAVAILABLE_DEVICE:
    case ANEURALNETWORKS_DEAD_OBJECT:
    case ANEURALNETWORKS_BAD_STATE:
    case ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT:
    case ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT:
        return true;
    default:
        return false;
    }
}

static int grow(slot *s, size_t bytes)
{
    size_t want = bytes ? bytes : 1;
    if (s->owned && s->cap >= want)
        return ANEURALNETWORKS_NO_ERROR;
    void *p = realloc(s->owned ? s->data : NULL, want);
    if (p == NULL)
        return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
    s->data = p;
    s->cap = want;
    s->owned = true;
    return ANEURALNETWORKS_NO_ERROR;
}

/* One computation of a compiled step: binds its inputs from their slots,
 * its outputs to slots grown until they fit, and records the shapes. */
static int compute_step(const nn_partition *p, const part_step *st,
                        const NnApiSLDriverImplFL5 *sl, ANeuralNetworksCompilation *comp,
                        slot *slots, const nn_exec_ctx *ctx)
{
    const ANeuralNetworksModel *m = p->model;
    for (uint32_t j = 0; j < st->n_out; j++) {
        const nn_operand *o = &m->operands[st->out[j]];
        size_t guess = nn_operand_bytes(o->type, o->rank, o->dims);
        int rc = grow(&slots[st->out[j]], guess ? guess : 256);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
    }
    for (uint32_t j = 0; j < st->n_in; j++) {
        const slot *v = &slots[st->in[j]];
        for (uint32_t d = 0; d < v->rank && !v->omitted; d++)
            if (v->dims[d] == 0)
                return NN_ZERO_SIZED_HANDOVER;
    }
    for (int attempt = 0;; attempt++) {
        ANeuralNetworksExecution *e = NULL;
        int rc = sl->ANeuralNetworksExecution_create(comp, &e);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = sl->ANeuralNetworksExecution_enableInputAndOutputPadding(e, true);
        for (uint32_t j = 0; j < st->n_in && rc == ANEURALNETWORKS_NO_ERROR; j++) {
            const nn_operand *o = &m->operands[st->in[j]];
            const slot *v = &slots[st->in[j]];
            if (v->omitted) {
                rc = sl->ANeuralNetworksExecution_setInput(e, (int32_t)j, NULL, NULL, 0);
                continue;
            }
            ANeuralNetworksOperandType t = {o->type, v->rank, v->rank ? v->dims : NULL, o->scale,
                                            o->zero_point};
            rc = sl->ANeuralNetworksExecution_setInput(
                    e, (int32_t)j, nn_type_is_tensor(o->type) ? &t : NULL, v->data, v->bytes);
        }
        for (uint32_t j = 0; j < st->n_out && rc == ANEURALNETWORKS_NO_ERROR; j++) {
            slot *v = &slots[st->out[j]];
            rc = sl->ANeuralNetworksExecution_setOutput(e, (int32_t)j, NULL, v->data, v->cap);
        }
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = sl->ANeuralNetworksExecution_setLoopTimeout(e, ctx->loop_timeout_ns);
        if (rc == ANEURALNETWORKS_NO_ERROR && ctx->deadline_ns) {
            uint64_t now = nn_now_ns();
            rc = now >= ctx->deadline_ns
                         ? ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT
                         : sl->ANeuralNetworksExecution_setTimeout(e, ctx->deadline_ns - now);
        }
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = sl->ANeuralNetworksExecution_compute(e);
        bool retry = false;
        if (rc == ANEURALNETWORKS_NO_ERROR || rc == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
            for (uint32_t j = 0; j < st->n_out; j++) {
                slot *v = &slots[st->out[j]];
                const nn_operand *o = &m->operands[st->out[j]];
                uint32_t rank = 0;
                int q = sl->ANeuralNetworksExecution_getOutputOperandRank(e, (int32_t)j, &rank);
                if (q != ANEURALNETWORKS_NO_ERROR &&
                    q != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
                    rc = ANEURALNETWORKS_OP_FAILED;
                    break;
                }
                int room = slot_set_rank(v, rank);
                if (room != ANEURALNETWORKS_NO_ERROR) {
                    rc = room;
                    break;
                }
                if (rank > 0)
                    q = sl->ANeuralNetworksExecution_getOutputOperandDimensions(e, (int32_t)j,
                                                                                v->dims);
                size_t need = nn_operand_bytes(o->type, v->rank, v->dims);
                bool zero = false;
                for (uint32_t d = 0; d < v->rank; d++)
                    zero |= v->dims[d] == 0;
                v->bytes = need;
                v->set = true;
                if (q == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
                    /* An unknown size doubles the buffer. */
                    size_t next = need > v->cap ? need : 2 * v->cap;
                    if (need == 0 && zero)
                        next = 2 * v->cap;
                    int g = grow(v, next);
                    if (g != ANEURALNETWORKS_NO_ERROR) {
                        rc = g;
                        break;
                    }
                    retry = true;
                }
            }
        }
        if (e)
            sl->ANeuralNetworksExecution_free(e);
        if (!retry || rc == ANEURALNETWORKS_OUT_OF_MEMORY)
            return rc == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE && !retry
                           ? ANEURALNETWORKS_OP_FAILED
                           : rc;
        if (attempt == 8) {
            nn_vlog("partition: a step kept reporting outputs of insufficient size");
            return ANEURALNETWORKS_OP_FAILED;
        }
    }
}

/* The CPU version of a driver step, compiled once, at its first failure. */
static int cpu_version(part_step *st, const nn_partition *p, ANeuralNetworksCompilation **out)
{
    pthread_mutex_lock(&st->lock);
    if (st->cpu_compilation == NULL && st->cpu_rc == ANEURALNETWORKS_NO_ERROR)
        st->cpu_rc = compile_on(p, st, nn_cpu_device(), &st->cpu_models, &st->n_cpu_models,
                                &st->cpu_compilation);
    int rc = st->cpu_rc;
    *out = st->cpu_compilation;
    pthread_mutex_unlock(&st->lock);
    return rc;
}

static int run_whole_on_cpu(nn_partition *p, const nn_exec_ctx *ctx, nn_tensor *inputs,
                            nn_tensor *outputs, bool *insufficient)
{
    pthread_mutex_lock(&p->lock);
    if (p->cpu_plan == NULL && p->cpu_plan_rc == ANEURALNETWORKS_NO_ERROR)
        p->cpu_plan_rc = nn_plan_build(p->model, &p->cpu_plan);
    int rc = p->cpu_plan_rc;
    pthread_mutex_unlock(&p->lock);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    nn_exec_ctx whole = {.plan = p->cpu_plan,
                         .deadline_ns = ctx->deadline_ns,
                         .loop_timeout_ns = ctx->loop_timeout_ns};
    rc = nn_run_plan(&whole, inputs, outputs, insufficient);
    nn_exec_ctx_release(&whole);
    return rc;
}

int nn_partition_run(nn_partition *p, struct nn_exec_ctx *ctx, nn_tensor *inputs,
                     nn_tensor *outputs, bool *insufficient)
{
    const ANeuralNetworksModel *m = p->model;
    slot *slots = calloc(m->n_operands ? m->n_operands : 1, sizeof *slots);
    if (slots == NULL)
        return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < m->n_inputs; i++) {
        slot *v = &slots[m->inputs[i]];
        v->data = inputs[i].data;
        v->bytes = inputs[i].bytes;
        v->omitted = inputs[i].omitted;
        v->set = true;
    }
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t i = 0; i < m->n_inputs && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        slot *v = &slots[m->inputs[i]];
        rc = slot_set_rank(v, inputs[i].rank);
        if (rc == ANEURALNETWORKS_NO_ERROR && v->rank)
            memcpy(v->dims, inputs[i].dims, v->rank * sizeof *v->dims);
    }
    for (uint32_t s = 0; s < p->n_steps && rc == ANEURALNETWORKS_NO_ERROR; s++) {
        part_step *st = &p->steps[s];
        rc = compute_step(p, st, st->sl, st->compilation, slots, ctx);
        if (rc == NN_ZERO_SIZED_HANDOVER)
            break;
        if (rc == ANEURALNETWORKS_NO_ERROR || !p->fallback || st->device == nn_cpu_device() ||
            !retry_on_cpu(rc))
            continue;
        nn_vlog("partition: step %u failed on %s (code %d); it runs on the CPU", s,
                st->device->name, rc);
        ANeuralNetworksCompilation *cpu_comp;
        rc = cpu_version(st, p, &cpu_comp);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = compute_step(p, st, nn_cpu_device()->sl, cpu_comp, slots, ctx);
    }
    if (rc == NN_ZERO_SIZED_HANDOVER) {
        slots_free(slots, m->n_operands);
        if (!p->fallback)
            return nn_because(ANEURALNETWORKS_OP_FAILED,
                              "a zero-sized tensor would pass between devices, and the CPU "
                              "device is not among the compilation's");
        nn_vlog("partition: a zero-sized tensor would pass between steps; the whole model runs "
                "on the CPU");
        return run_whole_on_cpu(p, ctx, inputs, outputs, insufficient);
    }
    for (uint32_t i = 0; i < m->n_outputs && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        slot *v = &slots[m->outputs[i]];
        nn_tensor *t = &outputs[i];
        insufficient[i] = false;
        if (!v->set) {
            rc = nn_because(ANEURALNETWORKS_OP_FAILED, "output %u was computed by no step", i);
            break;
        }
        rc = nn_tensor_set_shape(t, v->rank, v->dims);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            break;
        if (t->omitted)
            continue;
        if (t->data == NULL) {
            /* The caller takes an executor-allocated output. */
            if (v->owned) {
                t->data = v->data;
                v->owned = false;
            } else {
                t->data = malloc(v->bytes ? v->bytes : 1);
                if (t->data == NULL) {
                    rc = ANEURALNETWORKS_OUT_OF_MEMORY;
                    break;
                }
                memcpy(t->data, v->data, v->bytes);
            }
            t->bytes = v->bytes;
        } else if (t->bytes < v->bytes) {
            insufficient[i] = true;
        } else if (v->bytes) {
            memcpy(t->data, v->data, v->bytes);
        }
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        for (uint32_t i = 0; i < m->n_outputs; i++)
            if (insufficient[i])
                rc = ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
    slots_free(slots, m->n_operands);
    return rc;
}
