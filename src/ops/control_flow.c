/*
 * IF and WHILE: operations that run other models of the compilation through
 * the executor. Their outputs are allocated here (allocates_outputs), since
 * their shapes are known only once the referenced model has run.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* An operand of the referring model and the matching operand of a
 * referenced model must agree wherever both are specified. */
static bool operands_match(const nn_tensor *outer, const nn_operand *inner)
{
    if (outer->type != inner->type || outer->scale != inner->scale ||
        outer->zero_point != inner->zero_point)
        return false;
    if (outer->rank == 0 || inner->rank == 0)
        return true;
    if (outer->rank != inner->rank)
        return false;
    for (uint32_t i = 0; i < outer->rank; i++)
        if (outer->dims[i] != 0 && inner->dims[i] != 0 && outer->dims[i] != inner->dims[i])
            return false;
    return true;
}

static const ANeuralNetworksModel *model_of(const nn_tensor *t)
{
    return t->type == ANEURALNETWORKS_MODEL ? (const ANeuralNetworksModel *)t->data : NULL;
}

/* Checks n_in model inputs against tensors in[] and n_out outputs against out[]. */
static bool model_matches(const ANeuralNetworksModel *m, nn_tensor *const *in, uint32_t n_in,
                          nn_tensor *const *out, uint32_t n_out)
{
    if (m->n_inputs != n_in || m->n_outputs != n_out)
        return false;
    for (uint32_t i = 0; i < n_in; i++)
        if (!operands_match(in[i], &m->operands[m->inputs[i]]))
            return false;
    for (uint32_t i = 0; i < n_out; i++)
        if (!operands_match(out[i], &m->operands[m->outputs[i]]))
            return false;
    return true;
}

static bool is_bool_scalar_tensor(const nn_tensor *t)
{
    return t->type == ANEURALNETWORKS_TENSOR_BOOL8 &&
           (t->rank == 0 || (t->rank == 1 && t->dims[0] == 1));
}

static int validate_if(const nn_op_call *c)
{
    if (c->n_in < 3 || c->n_out < 1)
        return nn_invalid("%u inputs and %u outputs, expected at least 3 and 1", c->n_in,
                          c->n_out);
    if (!is_bool_scalar_tensor(c->in[0]))
        return nn_invalid("input 0 (condition) is not a TENSOR_BOOL8 of one element");
    for (uint32_t b = 1; b <= 2; b++) {
        const ANeuralNetworksModel *m = model_of(c->in[b]);
        if (nn_expect_type(c, false, b, ANEURALNETWORKS_MODEL))
            return ANEURALNETWORKS_BAD_DATA;
        if (m && !model_matches(m, c->in + 3, c->n_in - 3, c->out, c->n_out))
            return nn_invalid("the %s model's inputs and outputs do not fit the operation's",
                              b == 1 ? "then" : "else");
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static int validate_while(const nn_op_call *c)
{
    if (c->n_in < 3 || c->n_out < 1)
        return nn_invalid("%u inputs and %u outputs, expected at least 3 and 1", c->n_in,
                          c->n_out);
    if (nn_expect_type(c, false, 0, ANEURALNETWORKS_MODEL) ||
        nn_expect_type(c, false, 1, ANEURALNETWORKS_MODEL))
        return ANEURALNETWORKS_BAD_DATA;
    const ANeuralNetworksModel *cond = model_of(c->in[0]);
    const ANeuralNetworksModel *body = model_of(c->in[1]);
    uint32_t n_values = c->n_in - 2;
    if (cond) {
        if (cond->n_inputs != n_values || cond->n_outputs != 1)
            return nn_invalid("the condition model has %u inputs and %u outputs, expected %u "
                              "and 1", cond->n_inputs, cond->n_outputs, n_values);
        const nn_operand *flag = &cond->operands[cond->outputs[0]];
        if (flag->type != ANEURALNETWORKS_TENSOR_BOOL8 || flag->rank != 1 || flag->dims[0] != 1)
            return nn_invalid("the condition model's output is not a TENSOR_BOOL8 of one element");
        for (uint32_t i = 0; i < n_values; i++)
            if (!operands_match(c->in[2 + i], &cond->operands[cond->inputs[i]]))
                return nn_invalid("input %u does not fit the condition model's input %u", 2 + i,
                                  i);
    }
    if (body) {
        uint32_t m = c->n_out;
        if (body->n_inputs != n_values || body->n_outputs < m || body->n_outputs > n_values)
            return nn_invalid("the body model has %u inputs and %u outputs for %u values and %u "
                              "outputs", body->n_inputs, body->n_outputs, n_values, m);
        for (uint32_t i = 0; i < n_values; i++)
            if (!operands_match(c->in[2 + i], &body->operands[body->inputs[i]]))
                return nn_invalid("input %u does not fit the body model's input %u", 2 + i, i);
        for (uint32_t i = 0; i < m; i++)
            if (!operands_match(c->out[i], &body->operands[body->outputs[i]]))
                return nn_invalid("output %u does not fit the body model's output %u", i, i);
        /* The state carried between iterations keeps its type. */
        for (uint32_t i = 0; i < body->n_outputs; i++)
            if (!operands_match(c->in[2 + i], &body->operands[body->outputs[i]]))
                return nn_invalid("the body model's output %u does not fit input %u it carries",
                                  i, 2 + i);
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static void release_tensors(nn_tensor *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        free(t[i].data);
        t[i].data = NULL;
        nn_tensor_release_dims(&t[i]);
    }
}

/* Runs a referenced model on the given inputs; outputs come back in fresh
 * heap buffers (freed by the caller, also on failure). */
static int run_model(nn_exec_ctx *ctx, const nn_subplan *sp, nn_tensor *const *in,
                     nn_tensor *outputs)
{
    const ANeuralNetworksModel *m = sp->model;
    nn_tensor *inputs = calloc(m->n_inputs ? m->n_inputs : 1, sizeof *inputs);
    if (inputs == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < m->n_inputs; i++) {
        inputs[i] = *in[i];
        nn_tensor_borrow_dims(&inputs[i]);
    }
    for (uint32_t i = 0; i < m->n_outputs; i++) {
        nn_tensor_release_dims(&outputs[i]);
        outputs[i] = sp->tensors[m->outputs[i]];
        nn_tensor_borrow_dims(&outputs[i]);
        outputs[i].data = NULL;
        outputs[i].omitted = false;
    }
    int rc = nn_run_subplan(ctx, sp, inputs, outputs, NULL);
    free(inputs);
    return rc;
}

static int adopt_outputs(nn_op_call *c, nn_tensor *results, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        nn_tensor *o = c->out[i];
        int rc = nn_tensor_copy_shape(o, &results[i]);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
        o->data = results[i].data;
        o->bytes = results[i].bytes;
        results[i].data = NULL;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static int execute_if(nn_op_call *c)
{
    if (c->in[0]->data == NULL)
        return ANEURALNETWORKS_OP_FAILED;
    bool cond = *(const uint8_t *)c->in[0]->data != 0;
    const nn_subplan *sp = c->in[cond ? 1 : 2]->data;
    nn_tensor *results = calloc(c->n_out, sizeof *results);
    if (results == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int rc = run_model(c->ctx, sp, c->in + 3, results);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = adopt_outputs(c, results, c->n_out);
    release_tensors(results, c->n_out);
    free(results);
    return rc;
}

/* Copies a loop value into a heap buffer the loop owns. */
static int own_copy(const nn_tensor *src, nn_tensor *dst)
{
    *dst = *src;
    dst->data = NULL;
    int rc = nn_tensor_own_dims(dst);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    size_t bytes;
    if (!nn_tensor_bytes(src, &bytes))
        return ANEURALNETWORKS_OP_FAILED;
    dst->data = malloc(bytes ? bytes : 1);
    if (dst->data == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    if (bytes)
        memcpy(dst->data, src->data, bytes);
    dst->bytes = bytes;
    return ANEURALNETWORKS_NO_ERROR;
}

static int execute_while(nn_op_call *c)
{
    const nn_subplan *cond_sp = c->in[0]->data;
    const nn_subplan *body_sp = c->in[1]->data;
    uint32_t n_values = c->n_in - 2;
    uint32_t n_carried = body_sp->model->n_outputs;
    nn_tensor *values = calloc(n_values, sizeof *values);   /* loop-owned copies */
    nn_tensor **args = calloc(n_values, sizeof *args);
    nn_tensor *next = calloc(n_carried, sizeof *next);
    nn_tensor flag = {0};
    if (!values || !args || !next) {
        free(values);
        free(args);
        free(next);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    int rc = ANEURALNETWORKS_NO_ERROR;
    /* Carried values change every iteration: keep copies; input-only values
     * are read in place. */
    for (uint32_t i = 0; i < n_values; i++) {
        if (i < n_carried && rc == ANEURALNETWORKS_NO_ERROR) {
            rc = own_copy(c->in[2 + i], &values[i]);
            args[i] = &values[i];
        } else {
            args[i] = c->in[2 + i];
        }
    }
    uint64_t deadline = nn_now_ns() + c->ctx->loop_timeout_ns;
    while (rc == ANEURALNETWORKS_NO_ERROR) {
        if (nn_now_ns() > deadline) {
            rc = ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT;
            break;
        }
        rc = run_model(c->ctx, cond_sp, args, &flag);
        bool again = rc == ANEURALNETWORKS_NO_ERROR && flag.data != NULL &&
                     *(const uint8_t *)flag.data != 0;
        release_tensors(&flag, 1);
        if (rc != ANEURALNETWORKS_NO_ERROR || !again)
            break;
        rc = run_model(c->ctx, body_sp, args, next);
        if (rc != ANEURALNETWORKS_NO_ERROR) {
            release_tensors(next, n_carried);
            break;
        }
        release_tensors(values, n_carried);
        for (uint32_t i = 0; i < n_carried; i++) {
            nn_tensor_move(&values[i], &next[i]);
            next[i].data = NULL;
        }
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = adopt_outputs(c, values, c->n_out);
    release_tensors(values, n_carried);
    release_tensors(next, n_carried);
    free(values);
    free(args);
    free(next);
    return rc;
}

const nn_op_def nn_op_IF = {
    .code = ANEURALNETWORKS_IF,
    .name = "IF",
    .validate = validate_if,
    .execute = execute_if,
    .allocates_outputs = true,
};

const nn_op_def nn_op_WHILE = {
    .code = ANEURALNETWORKS_WHILE,
    .name = "WHILE",
    .validate = validate_while,
    .execute = execute_while,
    .allocates_outputs = true,
};
