/* ANeuralNetworksExecution: binding inputs and outputs, the state machine
 * and the synchronous ways to compute. */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

NN_API int ANeuralNetworksExecution_create(ANeuralNetworksCompilation *c,
                                           ANeuralNetworksExecution **execution)
{
    if (execution == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Execution_create: execution is NULL");
    *execution = NULL;
    if (c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Execution_create: compilation is NULL");
    if (!c->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Execution_create: the compilation is not finished");
    if (!nn_compilation_ready(c))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Execution_create: the compilation failed");
    const ANeuralNetworksModel *m = c->model;
    ANeuralNetworksExecution *e = calloc(1, sizeof *e);
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Execution_create: out of memory");
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
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Execution_create: out of memory");
    }
    e->compilation = c;
    e->state = NN_EXEC_PREPARATION;
    e->loop_timeout_ns = NN_DEFAULT_LOOP_TIMEOUT_NS;
    e->duration_ns = UINT64_MAX;
    e->fenced_duration_ns = UINT64_MAX;
    e->ctx.plan = c->plan;
    if (nn_exec_ctx_warm(&e->ctx) != ANEURALNETWORKS_NO_ERROR) {
        nn_exec_ctx_release(&e->ctx);
        free(e->inputs);
        free(e->outputs);
        free(e->result_shapes);
        free(e->insufficient);
        free(e);
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Execution_create: out of memory (arena)");
    }
    pthread_mutex_init(&e->lock, NULL);
    *execution = e;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API void ANeuralNetworksExecution_free(ANeuralNetworksExecution *e)
{
    if (e == NULL)
        return;
    nn_exec_ctx_release(&e->ctx);
    const ANeuralNetworksModel *m = e->compilation->model;
    for (uint32_t i = 0; i < m->n_inputs; i++)
        free(e->inputs[i].dims);
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        free(e->outputs[i].dims);
        nn_tensor_release_dims(&e->result_shapes[i]);
    }
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
    return ok ? ANEURALNETWORKS_NO_ERROR
              : nn_because(ANEURALNETWORKS_BAD_STATE, "the execution is not being prepared");
}

/*
 * Resolves the shape of an input or output from the model's declaration and
 * the optional type given at execution time. Only dimensions the model left
 * unknown may be given; everything else must match.
 */
static int resolve_type(const nn_operand *o, const ANeuralNetworksOperandType *type, nn_io *io)
{
    if (type == NULL) {
        io->rank = o->rank;
        return nn_dims_dup(o->dims, o->rank, &io->dims);
    }
    int rc = nn_check_operand_type(type, true);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    if (type->type != o->type || type->scale != o->scale || type->zeroPoint != o->zero_point)
        return nn_invalid("the type, scale or zero point differs from the operand's");
    if (o->rank != 0 && type->dimensionCount != o->rank)
        return nn_invalid("rank %u, the operand has rank %u", type->dimensionCount, o->rank);
    for (uint32_t i = 0; i < o->rank; i++)
        if (o->dims[i] != 0 && type->dimensions[i] != o->dims[i])
            return nn_invalid("dimension %u is %u, the operand has %u", i, type->dimensions[i],
                              o->dims[i]);
    io->rank = type->dimensionCount;
    return nn_dims_dup(type->dimensions, type->dimensionCount, &io->dims);
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
        return input ? nn_invalid("the input's dimensions are not all known")
                     : ANEURALNETWORKS_NO_ERROR;
    size_t raw = nn_operand_bytes(o->type, io->rank, io->dims);
    bool zero_sized = false;
    for (uint32_t i = 0; i < io->rank; i++)
        zero_sized |= io->dims[i] == 0;
    if (raw == 0 && !zero_sized)
        return nn_invalid("the operand's size overflows");
    if (length == raw || (e->padding && length > raw))
        return ANEURALNETWORKS_NO_ERROR;
    return nn_invalid("length %zu, the operand needs %zu bytes", length, raw);
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
        return nn_invalid("index %d of %u", index, count);
    if ((input ? e->inputs : e->outputs)[index].set)
        return nn_because(ANEURALNETWORKS_BAD_STATE, "the %s is already set",
                          input ? "input" : "output");
    const nn_operand *o = &m->operands[input ? m->inputs[index] : m->outputs[index]];
    nn_io io = {.set = true};
    if (memory == NULL && buffer == NULL) {
        /* Omitted optional operand. A type given must fit the operand's and,
         * for an input, be fully specified, as Android's ExecutionBuilder
         * checks it: a less specific one is BAD_DATA. */
        rc = resolve_type(o, type, &io);
        if (rc == ANEURALNETWORKS_NO_ERROR && type != NULL && input && !io_shape_known(o, &io))
            rc = nn_invalid("the type given for an omitted input is not fully specified");
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            free(io.dims);
            return rc;
        }
        io.omitted = true;
    } else if (memory != NULL && memory->kind == NN_MEMORY_DESC) {
        if (offset != 0 || length != 0)
            return nn_invalid("a memory from a descriptor takes offset 0 and length 0");
        bool has_role = false;
        for (uint32_t i = 0; i < memory->n_roles; i++)
            has_role |= memory->roles[i].compilation == e->compilation &&
                        memory->roles[i].is_input == input &&
                        memory->roles[i].index == (uint32_t)index;
        if (!has_role)
            return nn_invalid("the memory has no role for this %s", input ? "input" : "output");
        rc = resolve_type(o, type, &io);
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            free(io.dims);
            return rc;
        }
        io.memory = memory;
        io.buffer = memory->data;
        io.length = memory->size;
    } else {
        rc = resolve_type(o, type, &io);
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = check_length(e, o, &io, input, length);
        uint8_t *p = buffer;
        if (rc == ANEURALNETWORKS_NO_ERROR && memory != NULL)
            rc = nn_memory_region(memory, offset, length, !input, &p);
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            free(io.dims);
            return rc;
        }
        io.memory = memory;
        io.buffer = p;
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
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_setInput: execution is NULL, or buffer NULL with length %zu",
                       length);
    return nn_fail(set_io(e, index, type, (void *)buffer, NULL, 0, length, true),
                   "Execution_setInput(%d)", index);
}

NN_API int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution *e, int32_t index,
                                                       const ANeuralNetworksOperandType *type,
                                                       const ANeuralNetworksMemory *memory,
                                                       size_t offset, size_t length)
{
    if (e == NULL || memory == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_setInputFromMemory: an argument is NULL");
    return nn_fail(set_io(e, index, type, NULL, memory, offset, length, true),
                   "Execution_setInputFromMemory(%d)", index);
}

NN_API int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution *e, int32_t index,
                                              const ANeuralNetworksOperandType *type, void *buffer,
                                              size_t length)
{
    if (e == NULL || (buffer == NULL && length != 0))
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_setOutput: execution is NULL, or buffer NULL with length %zu",
                       length);
    return nn_fail(set_io(e, index, type, buffer, NULL, 0, length, false),
                   "Execution_setOutput(%d)", index);
}

NN_API int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution *e,
                                                        int32_t index,
                                                        const ANeuralNetworksOperandType *type,
                                                        const ANeuralNetworksMemory *memory,
                                                        size_t offset, size_t length)
{
    if (e == NULL || memory == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_setOutputFromMemory: an argument is NULL");
    return nn_fail(set_io(e, index, type, NULL, memory, offset, length, false),
                   "Execution_setOutputFromMemory(%d)", index);
}

NN_API int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution *e, bool measure)
{
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_setMeasureTiming: execution is NULL");
    if (!e->compilation->explicit_single_device)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "Execution_setMeasureTiming: only for a compilation created for one device");
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->measure = measure;
    return nn_fail(rc, "Execution_setMeasureTiming: the execution is not being prepared");
}

NN_API int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution *e, uint64_t duration)
{
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Execution_setTimeout: execution is NULL");
    if (!e->compilation->explicit_single_device)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "Execution_setTimeout: only for a compilation created for one device");
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->timeout_ns = duration;
    return nn_fail(rc, "Execution_setTimeout: the execution is not being prepared");
}

NN_API int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution *e, uint64_t duration)
{
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_setLoopTimeout: execution is NULL");
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->loop_timeout_ns = duration > NN_MAX_LOOP_TIMEOUT_NS ? NN_MAX_LOOP_TIMEOUT_NS : duration;
    return nn_fail(rc, "Execution_setLoopTimeout: the execution is not being prepared");
}

NN_API int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution *e, bool reusable)
{
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Execution_setReusable: execution is NULL");
    int rc = check_preparation(e);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        e->reusable = reusable;
    return nn_fail(rc, "Execution_setReusable: the execution is not being prepared");
}

NN_API int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution *e,
                                                                bool enable)
{
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_enableInputAndOutputPadding: execution is NULL");
    int rc = check_preparation(e);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc,
                       "Execution_enableInputAndOutputPadding: the execution is not being "
                       "prepared");
    if (e->io_touched)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Execution_enableInputAndOutputPadding: inputs or outputs are already set");
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
        return nn_because(ANEURALNETWORKS_BAD_STATE,
                          "the execution is running, or completed and not reusable");
    }
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t i = 0; i < m->n_inputs; i++)
        if (!e->inputs[i].set)
            rc = nn_invalid("input %u is not set", i);
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        if (!e->outputs[i].set)
            rc = nn_invalid("output %u is not set", i);
        /* Fenced outputs must be fully specified: no dynamic shapes. */
        else if (fenced && !e->outputs[i].omitted &&
                 !io_shape_known(&m->operands[m->outputs[i]], &e->outputs[i]))
            rc = nn_invalid("output %u of a fenced computation has unknown dimensions", i);
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
        int rc = nn_tensor_set_shape(&inputs[i], mem->rank, mem->dims);
        pthread_mutex_unlock(&mem->lock);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        if (!init)
            return nn_because(ANEURALNETWORKS_OP_FAILED, "input %u: the memory was never written",
                              i);
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
        const nn_tensor *t = &e->result_shapes[i];
        pthread_mutex_lock(&mem->lock);
        bool ok = status == ANEURALNETWORKS_NO_ERROR;
        if (ok && t->rank != mem->rank) {
            uint32_t *dims = realloc(mem->dims, t->rank * sizeof *dims);
            ok = dims != NULL || t->rank == 0;
            if (ok) {
                mem->dims = dims;
                mem->rank = t->rank;
            }
        }
        if (ok && t->rank)
            memcpy(mem->dims, t->dims, t->rank * sizeof *t->dims);
        /* A shape that cannot be recorded leaves the memory uninitialized:
         * reading it fails rather than use a stale shape. */
        mem->initialized = ok;
        pthread_mutex_unlock(&mem->lock);
    }
}

/* The computed output shapes must fit the dimensions given at setOutput
 * (Android's ExecutionBuilder checks the driver's shapes the same way): an
 * output of unspecified rank given a wrong shape fails the computation. */
static int check_output_shapes(const ANeuralNetworksExecution *e, const nn_tensor *outputs, int rc)
{
    for (uint32_t i = 0; i < e->compilation->model->n_outputs; i++) {
        const nn_io *io = &e->outputs[i];
        const nn_tensor *t = &outputs[i];
        if (io->omitted || io->rank == 0)
            continue;
        bool fits = io->rank == t->rank;
        for (uint32_t d = 0; fits && d < io->rank; d++)
            fits = io->dims[d] == 0 || io->dims[d] == t->dims[d];
        if (!fits) {
            nn_vlog("compute: output %u: the computed shape (rank %u) does not fit the "
                    "dimensions given at setOutput", i, t->rank);
            return ANEURALNETWORKS_OP_FAILED;
        }
    }
    return rc;
}

int nn_execution_run(ANeuralNetworksExecution *e, uint64_t deadline_ns, uint64_t fenced_start_ns)
{
    const ANeuralNetworksModel *m = e->compilation->model;
    const nn_plan *plan = e->compilation->plan;
    nn_tensor *inputs = calloc(m->n_inputs ? m->n_inputs : 1, sizeof *inputs);
    if (inputs == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t i = 0; i < m->n_inputs; i++) {
        const nn_io *io = &e->inputs[i];
        nn_tensor *t = &inputs[i];
        /* The planned tensor, or (partitioned) the operand's declaration. */
        if (plan) {
            *t = plan->subs[0].tensors[m->inputs[i]];
            nn_tensor_borrow_dims(t);
        } else if (rc == ANEURALNETWORKS_NO_ERROR) {
            rc = nn_operand_to_tensor(&m->operands[m->inputs[i]], t);
        }
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = nn_tensor_set_shape(t, io->rank, io->dims);
        t->data = io->buffer;
        t->bytes = io->length;
        t->omitted = io->omitted;
    }
    nn_tensor *outputs = e->result_shapes;
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        const nn_io *io = &e->outputs[i];
        nn_tensor *t = &outputs[i];
        nn_tensor_release_dims(t); /* the previous computation's shape */
        if (plan) {
            *t = plan->subs[0].tensors[m->outputs[i]];
            nn_tensor_borrow_dims(t);
        } else if (rc == ANEURALNETWORKS_NO_ERROR) {
            rc = nn_operand_to_tensor(&m->operands[m->outputs[i]], t);
        }
        if (rc == ANEURALNETWORKS_NO_ERROR)
            rc = nn_tensor_set_shape(t, io->rank, io->dims);
        t->data = io->buffer;
        t->bytes = io->length;
        t->omitted = io->omitted;
        e->insufficient[i] = false;
    }
    e->ctx.loop_timeout_ns = e->loop_timeout_ns;
    e->ctx.deadline_ns = deadline_ns;
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = check_desc_inputs(e, inputs);
    uint64_t begin = nn_now_ns();
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = plan ? nn_run_plan(&e->ctx, inputs, outputs, e->insufficient)
                  : nn_partition_run(e->compilation->partition, &e->ctx, inputs, outputs,
                                     e->insufficient);
    uint64_t end = nn_now_ns();
    if (rc == ANEURALNETWORKS_NO_ERROR || rc == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
        rc = check_output_shapes(e, outputs, rc);
    if (rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT && deadline_ns == 0)
        rc = ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
    update_desc_outputs(e, rc);
    bool timed = e->measure && rc == ANEURALNETWORKS_NO_ERROR;
    e->duration_ns = timed ? end - begin : UINT64_MAX;
    e->fenced_duration_ns = timed ? end - (fenced_start_ns ? fenced_start_ns : begin) : UINT64_MAX;
    for (uint32_t i = 0; i < m->n_inputs; i++)
        nn_tensor_release_dims(&inputs[i]);
    free(inputs);
    return rc;
}

NN_API int ANeuralNetworksExecution_compute(ANeuralNetworksExecution *e)
{
    if (e == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Execution_compute: execution is NULL");
    uint64_t start = nn_now_ns();
    int rc = nn_execution_begin(e, false);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "Execution_compute");
    rc = nn_execution_run(e, nn_deadline(start, e->timeout_ns), 0);
    nn_execution_end(e, rc);
    return nn_fail(rc, "Execution_compute: the computation failed (code %d)", rc);
}

NN_API int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution *e,
                                                 ANeuralNetworksBurst *burst)
{
    if (e == NULL || burst == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_burstCompute: an argument is NULL");
    if (burst->compilation != e->compilation)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "Execution_burstCompute: the burst is for another compilation");
    pthread_mutex_lock(&burst->lock);
    bool busy = burst->busy;
    burst->busy = true;
    pthread_mutex_unlock(&burst->lock);
    if (busy)
        return nn_fail(ANEURALNETWORKS_BAD_STATE, "Execution_burstCompute: the burst is busy");
    int rc = ANeuralNetworksExecution_compute(e);
    pthread_mutex_lock(&burst->lock);
    burst->busy = false;
    pthread_mutex_unlock(&burst->lock);
    return rc;
}

static int check_completed(ANeuralNetworksExecution *e, int32_t index, uint32_t *out)
{
    if (e == NULL || out == NULL)
        return nn_because(ANEURALNETWORKS_UNEXPECTED_NULL, "an argument is NULL");
    pthread_mutex_lock(&e->lock);
    enum nn_exec_state state = e->state;
    int status = e->status;
    pthread_mutex_unlock(&e->lock);
    if (state != NN_EXEC_COMPLETED)
        return nn_because(ANEURALNETWORKS_BAD_STATE, "the execution has not completed");
    if (status != ANEURALNETWORKS_NO_ERROR && status != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
        return nn_because(ANEURALNETWORKS_BAD_STATE, "the computation failed");
    if (index < 0 || (uint32_t)index >= e->compilation->model->n_outputs)
        return nn_invalid("output %d of %u", index, e->compilation->model->n_outputs);
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution *e,
                                                         int32_t index, uint32_t *rank)
{
    int rc = check_completed(e, index, rank);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "Execution_getOutputOperandRank");
    *rank = e->result_shapes[index].rank;
    return e->insufficient[index] ? ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE
                                  : ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution *e,
                                                               int32_t index, uint32_t *dimensions)
{
    int rc = check_completed(e, index, dimensions);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "Execution_getOutputOperandDimensions");
    const nn_tensor *t = &e->result_shapes[index];
    if (t->rank == 0)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "Execution_getOutputOperandDimensions: output %d is a scalar", index);
    memcpy(dimensions, t->dims, t->rank * sizeof *dimensions);
    return e->insufficient[index] ? ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE
                                  : ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution *ce,
                                                int32_t durationCode, uint64_t *duration)
{
    if (ce == NULL || duration == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Execution_getDuration: an argument is NULL");
    ANeuralNetworksExecution *e = (ANeuralNetworksExecution *)ce;
    pthread_mutex_lock(&e->lock);
    enum nn_exec_state state = e->state;
    pthread_mutex_unlock(&e->lock);
    if (state != NN_EXEC_COMPLETED)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Execution_getDuration: the execution has not completed");
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
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Execution_getDuration: unknown duration code %d",
                       durationCode);
    }
}
