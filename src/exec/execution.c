/* ANeuralNetworksExecution: binding inputs and outputs, the state machine
 * and the synchronous ways to compute. */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

NN_API int ANeuralNetworksExecution_create(ANeuralNetworksCompilation *c,
                                           ANeuralNetworksExecution **execution)
{
    if (execution == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *execution = NULL;
    if (c == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!c->finished)
        return ANEURALNETWORKS_BAD_STATE;
    if (c->plan == NULL)
        return ANEURALNETWORKS_BAD_DATA;
    const ANeuralNetworksModel *m = c->model;
    ANeuralNetworksExecution *e = calloc(1, sizeof *e);
    if (e == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    e->inputs = calloc(m->n_inputs ? m->n_inputs : 1, sizeof *e->inputs);
    e->outputs = calloc(m->n_outputs ? m->n_outputs : 1, sizeof *e->outputs);
    e->result_shapes = calloc(m->n_outputs ? m->n_outputs : 1, sizeof *e->result_shapes);
    e->insufficient = calloc(m->n_outputs ? m->n_outputs : 1, sizeof *e->insufficient);
    if (!e->inputs || !e->outputs || !e->result_shapes || !e->insufficient) {
        free(e->inputs);
        free(e->outputs);
        free(e->result_shapes);
        free(e->insufficient);
        free(e);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    e->compilation = c;
    e->state = NN_EXEC_PREPARATION;
    e->loop_timeout_ns = NN_DEFAULT_LOOP_TIMEOUT_NS;
    e->duration_ns = UINT64_MAX;
    e->fenced_duration_ns = UINT64_MAX;
    e->ctx.plan = c->plan;
    pthread_mutex_init(&e->lock, NULL);
    *execution = e;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API void ANeuralNetworksExecution_free(ANeuralNetworksExecution *e)
{
    if (e == NULL)
        return;
    nn_exec_ctx_release(&e->ctx);
    free(e->inputs);
    free(e->outputs);
    free(e->result_shapes);
    free(e->insufficient);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

/* Checks that the execution may still be configured. */
static int check_preparation(ANeuralNetworksExecution *e)
{
    pthread_mutex_lock(&e->lock);
    bool ok = e->state == NN_EXEC_PREPARATION;
    pthread_mutex_unlock(&e->lock);
    return ok ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_STATE;
}

/*
 * Resolves the shape of an input or output from the model's declaration and
 * the optional type given at execution time. Only dimensions the model left
 * unknown may be given; everything else must match.
 */
static int resolve_type(const nn_operand *o, const ANeuralNetworksOperandType *type, nn_io *io)
{
    io->rank = o->rank;
    memcpy(io->dims, o->dims, sizeof io->dims);
    if (type == NULL)
        return ANEURALNETWORKS_NO_ERROR;
    int rc = nn_check_operand_type(type, true);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    if (type->type != o->type || type->scale != o->scale || type->zeroPoint != o->zero_point)
        return ANEURALNETWORKS_BAD_DATA;
    if (o->rank != 0 && type->dimensionCount != o->rank)
        return ANEURALNETWORKS_BAD_DATA;
    for (uint32_t i = 0; i < o->rank; i++)
        if (o->dims[i] != 0 && type->dimensions[i] != o->dims[i])
            return ANEURALNETWORKS_BAD_DATA;
    io->rank = type->dimensionCount;
    for (uint32_t i = 0; i < io->rank; i++)
        io->dims[i] = type->dimensions[i];
    return ANEURALNETWORKS_NO_ERROR;
}

static bool io_shape_known(const nn_operand *o, const nn_io *io)
{
    if (nn_type_is_tensor(o->type) && io->rank == 0)
        return false;
    for (uint32_t i = 0; i < io->rank; i++)
        if (io->dims[i] == 0)
            return false;
    return true;
}

/* A buffer length must be the raw size, or at least it with padding
 * enabled. Inputs must be fully specified; outputs may be left dynamic. */
static int check_length(const ANeuralNetworksExecution *e, const nn_operand *o, const nn_io *io,
                        bool input, size_t length)
{
    if (!io_shape_known(o, io))
        return input ? ANEURALNETWORKS_BAD_DATA : ANEURALNETWORKS_NO_ERROR;
    size_t raw = nn_operand_bytes(o->type, io->rank, io->dims);
    bool zero_sized = false;
    for (uint32_t i = 0; i < io->rank; i++)
        zero_sized |= io->dims[i] == 0;
    if (raw == 0 && !zero_sized)
        return ANEURALNETWORKS_BAD_DATA;
    if (length == raw || (e->padding && length > raw))
        return ANEURALNETWORKS_NO_ERROR;
    return ANEURALNETWORKS_BAD_DATA;
}

static int set_io(ANeuralNetworksExecution *e, int32_t index, const ANeuralNetworksOperandType *type,
                  void *buffer, const ANeuralNetworksMemory *memory, size_t offset, size_t length,
                  bool input)
{
    int rc = check_preparation(e);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    const ANeuralNetworksModel *m = e->compilation->model;
    uint32_t count = input ? m->n_inputs : m->n_outputs;
    if (index < 0 || (uint32_t)index >= count)
        return ANEURALNETWORKS_BAD_DATA;
    if ((input ? e->inputs : e->outputs)[index].set)
        return ANEURALNETWORKS_BAD_STATE;
    const nn_operand *o = &m->operands[input ? m->inputs[index] : m->outputs[index]];
    nn_io io = {.set = true};
    if (memory == NULL && buffer == NULL) {
        /* Omitted optional operand. */
        if (type != NULL && nn_check_operand_type(type, true) != ANEURALNETWORKS_NO_ERROR)
            return ANEURALNETWORKS_BAD_DATA;
        io.omitted = true;
        io.rank = o->rank;
        memcpy(io.dims, o->dims, sizeof io.dims);
    } else if (memory != NULL && memory->kind == NN_MEMORY_DESC) {
        if (offset != 0 || length != 0)
            return ANEURALNETWORKS_BAD_DATA;
        bool has_role = false;
        for (uint32_t i = 0; i < memory->n_roles; i++)
            has_role |= memory->roles[i].compilation == e->compilation &&
                        memory->roles[i].is_input == input &&
                        memory->roles[i].index == (uint32_t)index;
        if (!has_role)
            return ANEURALNETWORKS_BAD_DATA;
        rc = resolve_type(o, type, &io);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        io.memory = memory;
        io.buffer = memory->data;
        io.length = memory->size;
    } else {
        rc = resolve_type(o, type, &io);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = check_length(e, o, &io, input, length);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        if (memory != NULL) {
            uint8_t *p;
            rc = nn_memory_region(memory, offset, length, !input, &p);
            if (rc != ANEURALNETWORKS_NO_ERROR)
                return rc;
            io.memory = memory;
            io.buffer = p;
        } else {
            io.buffer = buffer;
        }
        io.length = length;
    }
    (input ? e->inputs : e->outputs)[index] = io;
    e->io_touched = true;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution *e, int32_t index,
                                             const ANeuralNetworksOperandType *type,
                                             const void *buffer, size_t length)
{
    if (e == NULL || (buffer == NULL && length != 0))
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    return set_io(e, index, type, (void *)buffer, NULL, 0, length, true);
}

NN_API int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution *e, int32_t index,
                                                       const ANeuralNetworksOperandType *type,
                                                       const ANeuralNetworksMemory *memory,
                                                       size_t offset, size_t length)
{
    if (e == NULL || memory == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    return set_io(e, index, type, NULL, memory, offset, length, true);
}

NN_API int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution *e, int32_t index,
                                              const ANeuralNetworksOperandType *type, void *buffer,
                                              size_t length)
{
    if (e == NULL || (buffer == NULL && length != 0))
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    return set_io(e, index, type, buffer, NULL, 0, length, false);
}

NN_API int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution *e,
                                                        int32_t index,
                                                        const ANeuralNetworksOperandType *type,
                                                        const ANeuralNetworksMemory *memory,
                                                        size_t offset, size_t length)
{
    if (e == NULL || memory == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    return set_io(e, index, type, NULL, memory, offset, length, false);
}

NN_API int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution *e, bool measure)
{
    if (e == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!e->compilation->explicit_single_device)
        return ANEURALNETWORKS_BAD_DATA;
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->measure = measure;
    return rc;
}

NN_API int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution *e, uint64_t duration)
{
    if (e == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!e->compilation->explicit_single_device)
        return ANEURALNETWORKS_BAD_DATA;
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->timeout_ns = duration;
    return rc;
}

NN_API int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution *e, uint64_t duration)
{
    if (e == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->loop_timeout_ns = duration > NN_MAX_LOOP_TIMEOUT_NS ? NN_MAX_LOOP_TIMEOUT_NS : duration;
    return rc;
}

NN_API int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution *e, bool reusable)
{
    if (e == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->reusable = reusable;
    return rc;
}

NN_API int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution *e,
                                                                bool enable)
{
    if (e == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = check_preparation(e);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    if (e->io_touched)
        return ANEURALNETWORKS_BAD_STATE;
    e->padding = enable;
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_execution_begin(ANeuralNetworksExecution *e, bool fenced)
{
    const ANeuralNetworksModel *m = e->compilation->model;
    pthread_mutex_lock(&e->lock);
    bool startable = e->state == NN_EXEC_PREPARATION ||
                     (e->state == NN_EXEC_COMPLETED && e->reusable);
    if (!startable) {
        pthread_mutex_unlock(&e->lock);
        return ANEURALNETWORKS_BAD_STATE;
    }
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t i = 0; i < m->n_inputs; i++)
        if (!e->inputs[i].set)
            rc = ANEURALNETWORKS_BAD_DATA;
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        if (!e->outputs[i].set)
            rc = ANEURALNETWORKS_BAD_DATA;
        /* Fenced outputs must be fully specified: no dynamic shapes. */
        else if (fenced && !e->outputs[i].omitted &&
                 !io_shape_known(&m->operands[m->outputs[i]], &e->outputs[i]))
            rc = ANEURALNETWORKS_BAD_DATA;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->state = NN_EXEC_COMPUTING;
    pthread_mutex_unlock(&e->lock);
    return rc;
}

void nn_execution_end(ANeuralNetworksExecution *e, int status)
{
    pthread_mutex_lock(&e->lock);
    e->status = status;
    e->state = NN_EXEC_COMPLETED;
    pthread_mutex_unlock(&e->lock);
}

/* Memory objects from descriptors carry an initialized flag and a shape. */
static int check_desc_inputs(ANeuralNetworksExecution *e, nn_tensor *inputs)
{
    const ANeuralNetworksModel *m = e->compilation->model;
    for (uint32_t i = 0; i < m->n_inputs; i++) {
        ANeuralNetworksMemory *mem = (ANeuralNetworksMemory *)e->inputs[i].memory;
        if (mem == NULL || mem->kind != NN_MEMORY_DESC)
            continue;
        pthread_mutex_lock(&mem->lock);
        bool init = mem->initialized;
        inputs[i].rank = mem->rank;
        memcpy(inputs[i].dims, mem->dims, sizeof mem->dims);
        pthread_mutex_unlock(&mem->lock);
        if (!init)
            return ANEURALNETWORKS_OP_FAILED;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static void update_desc_outputs(ANeuralNetworksExecution *e, int status)
{
    const ANeuralNetworksModel *m = e->compilation->model;
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        ANeuralNetworksMemory *mem = (ANeuralNetworksMemory *)e->outputs[i].memory;
        if (mem == NULL || mem->kind != NN_MEMORY_DESC)
            continue;
        pthread_mutex_lock(&mem->lock);
        mem->initialized = status == ANEURALNETWORKS_NO_ERROR;
        if (status == ANEURALNETWORKS_NO_ERROR) {
            mem->rank = e->result_shapes[i].rank;
            memcpy(mem->dims, e->result_shapes[i].dims, sizeof mem->dims);
        }
        pthread_mutex_unlock(&mem->lock);
    }
}

int nn_execution_run(ANeuralNetworksExecution *e, uint64_t deadline_ns, uint64_t fenced_start_ns)
{
    const ANeuralNetworksModel *m = e->compilation->model;
    const nn_subplan *main = &e->compilation->plan->subs[0];
    nn_tensor *inputs = calloc(m->n_inputs ? m->n_inputs : 1, sizeof *inputs);
    if (inputs == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < m->n_inputs; i++) {
        const nn_io *io = &e->inputs[i];
        nn_tensor *t = &inputs[i];
        *t = main->tensors[m->inputs[i]];
        t->rank = io->rank;
        memcpy(t->dims, io->dims, sizeof t->dims);
        t->data = io->buffer;
        t->bytes = io->length;
        t->omitted = io->omitted;
    }
    nn_tensor *outputs = e->result_shapes;
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        const nn_io *io = &e->outputs[i];
        nn_tensor *t = &outputs[i];
        *t = main->tensors[m->outputs[i]];
        t->rank = io->rank;
        memcpy(t->dims, io->dims, sizeof t->dims);
        t->data = io->buffer;
        t->bytes = io->length;
        t->omitted = io->omitted;
        e->insufficient[i] = false;
    }
    e->ctx.loop_timeout_ns = e->loop_timeout_ns;
    e->ctx.deadline_ns = deadline_ns;
    int rc = check_desc_inputs(e, inputs);
    uint64_t begin = nn_now_ns();
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = nn_run_plan(&e->ctx, inputs, outputs, e->insufficient);
    uint64_t end = nn_now_ns();
    if (rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT && deadline_ns == 0)
        rc = ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
    update_desc_outputs(e, rc);
    bool timed = e->measure && rc == ANEURALNETWORKS_NO_ERROR;
    e->duration_ns = timed ? end - begin : UINT64_MAX;
    e->fenced_duration_ns = timed ? end - (fenced_start_ns ? fenced_start_ns : begin) : UINT64_MAX;
    free(inputs);
    return rc;
}

NN_API int ANeuralNetworksExecution_compute(ANeuralNetworksExecution *e)
{
    if (e == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    uint64_t start = nn_now_ns();
    int rc = nn_execution_begin(e, false);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    rc = nn_execution_run(e, nn_deadline(start, e->timeout_ns), 0);
    nn_execution_end(e, rc);
    return rc;
}

NN_API int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution *e,
                                                 ANeuralNetworksBurst *burst)
{
    if (e == NULL || burst == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (burst->compilation != e->compilation)
        return ANEURALNETWORKS_BAD_DATA;
    pthread_mutex_lock(&burst->lock);
    bool busy = burst->busy;
    burst->busy = true;
    pthread_mutex_unlock(&burst->lock);
    if (busy)
        return ANEURALNETWORKS_BAD_STATE;
    int rc = ANeuralNetworksExecution_compute(e);
    pthread_mutex_lock(&burst->lock);
    burst->busy = false;
    pthread_mutex_unlock(&burst->lock);
    return rc;
}

static int check_completed(ANeuralNetworksExecution *e, int32_t index, uint32_t *out)
{
    if (e == NULL || out == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    pthread_mutex_lock(&e->lock);
    enum nn_exec_state state = e->state;
    int status = e->status;
    pthread_mutex_unlock(&e->lock);
    if (state != NN_EXEC_COMPLETED)
        return ANEURALNETWORKS_BAD_STATE;
    if (status != ANEURALNETWORKS_NO_ERROR && status != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
        return ANEURALNETWORKS_BAD_STATE;
    if (index < 0 || (uint32_t)index >= e->compilation->model->n_outputs)
        return ANEURALNETWORKS_BAD_DATA;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution *e,
                                                         int32_t index, uint32_t *rank)
{
    int rc = check_completed(e, index, rank);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    *rank = e->result_shapes[index].rank;
    return e->insufficient[index] ? ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE
                                  : ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution *e,
                                                               int32_t index, uint32_t *dimensions)
{
    int rc = check_completed(e, index, dimensions);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    const nn_tensor *t = &e->result_shapes[index];
    if (t->rank == 0)
        return ANEURALNETWORKS_BAD_DATA;
    memcpy(dimensions, t->dims, t->rank * sizeof *dimensions);
    return e->insufficient[index] ? ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE
                                  : ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution *ce,
                                                int32_t durationCode, uint64_t *duration)
{
    if (ce == NULL || duration == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    ANeuralNetworksExecution *e = (ANeuralNetworksExecution *)ce;
    pthread_mutex_lock(&e->lock);
    enum nn_exec_state state = e->state;
    pthread_mutex_unlock(&e->lock);
    if (state != NN_EXEC_COMPLETED)
        return ANEURALNETWORKS_BAD_STATE;
    switch (durationCode) {
    case ANEURALNETWORKS_DURATION_ON_HARDWARE:
    case ANEURALNETWORKS_DURATION_IN_DRIVER:
        *duration = e->duration_ns;
        return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE:
    case ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER:
        *duration = e->fenced_duration_ns;
        return ANEURALNETWORKS_NO_ERROR;
    default:
        return ANEURALNETWORKS_BAD_DATA;
    }
}
