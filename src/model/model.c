/* ANeuralNetworksModel: building the operand/operation IR and validating it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

size_t nn_operand_bytes(int32_t type, uint32_t rank, const uint32_t *dims)
{
    size_t bytes = nn_type_size(type);
    for (uint32_t i = 0; i < rank; i++)
        if (!nn_mul_size(bytes, dims[i], &bytes))
            return 0;
    return bytes;
}

int nn_dims_dup(const uint32_t *dims, uint32_t n, uint32_t **out)
{
    *out = NULL;
    if (n == 0)
        return ANEURALNETWORKS_NO_ERROR;
    *out = malloc((size_t)n * sizeof **out);
    if (*out == NULL)
        return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "no memory for %u dimensions", n);
    memcpy(*out, dims, (size_t)n * sizeof **out);
    return ANEURALNETWORKS_NO_ERROR;
}

int nn_operand_to_tensor(const nn_operand *o, nn_tensor *t)
{
    memset(t, 0, sizeof *t);
    t->type = o->type;
    if (o->rank <= NN_INLINE_RANK) {
        /* The common case, without set_shape's staging copy. */
        t->rank = o->rank;
        if (o->rank) {
            memcpy(t->dims_inline, o->dims, o->rank * sizeof *o->dims);
            t->dims = t->dims_inline;
        }
    } else {
        int rc = nn_tensor_set_shape(t, o->rank, o->dims);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            return rc;
    }
    t->scale = o->scale;
    t->zero_point = o->zero_point;
    t->channel_quant = o->has_channel_quant ? &o->channel_quant : NULL;
    if (o->lifetime == NN_LIFETIME_CONSTANT) {
        t->data = (void *)o->value;
        t->bytes = o->length;
        t->constant = true;
    } else if (o->lifetime == NN_LIFETIME_NO_VALUE) {
        t->omitted = true;
        t->constant = true;
    } else if (o->lifetime == NN_LIFETIME_SUBGRAPH) {
        t->data = (void *)o->subgraph;
        t->constant = true;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

static bool model_modifiable(const ANeuralNetworksModel *m)
{
    return !m->finished && !m->invalid;
}

static const char *state_name(const ANeuralNetworksModel *m)
{
    return m->finished ? "finished" : "invalid (finish failed)";
}

static int bad_quant(const ANeuralNetworksOperandType *t)
{
    return nn_invalid("%s with scale %g and zero point %d", nn_type_name(t->type),
                      (double)t->scale, t->zeroPoint);
}

/* Checks an ANeuralNetworksOperandType as addOperand and setInput see it. */
int nn_check_operand_type(const ANeuralNetworksOperandType *t, bool allow_unknown_rank)
{
    bool oem = t->type == NN_OEM_SCALAR || t->type == NN_TENSOR_OEM_BYTE;
    if (!oem && (t->type < ANEURALNETWORKS_FLOAT32 || t->type > ANEURALNETWORKS_MODEL))
        return nn_invalid("unknown operand type %d", t->type);
    if ((t->dimensionCount > 0) != (t->dimensions != NULL))
        return nn_invalid("dimensionCount %u with %s dimensions", t->dimensionCount,
                          t->dimensions ? "non-NULL" : "NULL");
    bool tensor = nn_type_is_tensor(t->type);
    if (!tensor && t->dimensionCount != 0)
        return nn_invalid("scalar %s with %u dimensions", nn_type_name(t->type),
                          t->dimensionCount);
    if (tensor && t->dimensionCount == 0 && !allow_unknown_rank)
        return nn_invalid("%s of unspecified rank", nn_type_name(t->type));
    /* Android has always let OEM operands carry any quantization. */
    if (oem)
        return ANEURALNETWORKS_NO_ERROR;
    if (t->scale != t->scale || t->scale < 0.0f)
        return nn_invalid("scale %g", (double)t->scale);
    /* The known dimensions alone must not overflow a byte count. */
    size_t bytes = nn_type_size(t->type);
    for (uint32_t i = 0; i < t->dimensionCount; i++)
        if (t->dimensions[i] != 0 && !nn_mul_size(bytes, t->dimensions[i], &bytes))
            return nn_invalid("the dimensions overflow a byte count");
    switch (t->type) {
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
        if (t->scale <= 0.0f || t->zeroPoint < 0 || t->zeroPoint > 255)
            return bad_quant(t);
        break;
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
        if (t->scale <= 0.0f || t->zeroPoint < -128 || t->zeroPoint > 127)
            return bad_quant(t);
        break;
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
        if (t->scale <= 0.0f || t->zeroPoint < 0 || t->zeroPoint > 65535)
            return bad_quant(t);
        break;
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
        if (t->scale <= 0.0f || t->zeroPoint != 0)
            return bad_quant(t);
        break;
    case ANEURALNETWORKS_TENSOR_INT32:
        /* Used as a quantized bias with a scale; the zero point must be 0. */
        if (t->zeroPoint != 0)
            return bad_quant(t);
        break;
    default:
        if (t->scale != 0.0f || t->zeroPoint != 0)
            return bad_quant(t);
        break;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_create(ANeuralNetworksModel **model)
{
    if (model == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    *model = calloc(1, sizeof **model);
    return *model ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

NN_API void ANeuralNetworksModel_free(ANeuralNetworksModel *m)
{
    if (m == NULL)
        return;
    for (uint32_t i = 0; i < m->n_operands; i++) {
        free(m->operands[i].copy);
        free(m->operands[i].dims);
        free(m->operands[i].channel_quant.scales);
    }
    for (uint32_t i = 0; i < m->n_operations; i++) {
        free(m->operations[i].in);
        free(m->operations[i].out);
    }
    free(m->operands);
    free(m->operations);
    free(m->inputs);
    free(m->outputs);
    free(m->order);
    free(m);
}

NN_API int ANeuralNetworksModel_addOperand(ANeuralNetworksModel *m,
                                           const ANeuralNetworksOperandType *type)
{
    if (m == NULL || type == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!model_modifiable(m))
        return nn_fail(ANEURALNETWORKS_BAD_STATE, "addOperand: the model is %s", state_name(m));
    int rc = nn_check_operand_type(type, true);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "addOperand(#%u)", m->n_operands);
    if (m->n_operands == INT32_MAX)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "addOperand: too many operands");
    if (m->n_operands == m->cap_operands) {
        uint32_t cap = m->cap_operands ? m->cap_operands * 2 : 16;
        nn_operand *p = realloc(m->operands, (size_t)cap * sizeof *p);
        if (p == NULL)
            return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "addOperand: no memory for operands");
        m->operands = p;
        m->cap_operands = cap;
    }
    uint32_t *dims;
    rc = nn_dims_dup(type->dimensions, type->dimensionCount, &dims);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "addOperand(#%u)", m->n_operands);
    nn_operand *o = &m->operands[m->n_operands++];
    memset(o, 0, sizeof *o);
    o->type = type->type;
    o->rank = type->dimensionCount;
    o->dims = dims;
    o->scale = type->scale;
    o->zero_point = type->zeroPoint;
    o->lifetime = NN_LIFETIME_TEMPORARY;
    return ANEURALNETWORKS_NO_ERROR;
}

static int check_settable(ANeuralNetworksModel *m, int32_t index)
{
    if (!model_modifiable(m)) {
        nn_reason("the model is %s", state_name(m));
        return ANEURALNETWORKS_BAD_STATE;
    }
    if (index < 0 || (uint32_t)index >= m->n_operands)
        return nn_invalid("no such operand (%u operands)", m->n_operands);
    enum nn_lifetime lt = m->operands[index].lifetime;
    if (lt == NN_LIFETIME_INPUT || lt == NN_LIFETIME_OUTPUT)
        return nn_invalid("the operand is a model %s", lt == NN_LIFETIME_INPUT ? "input" : "output");
    return ANEURALNETWORKS_NO_ERROR;
}

static void clear_value(nn_operand *o)
{
    free(o->copy);
    o->copy = NULL;
    o->value = NULL;
    o->length = 0;
    o->memory = NULL;
    o->subgraph = NULL;
    o->lifetime = NN_LIFETIME_TEMPORARY;
}

/* A constant's length must match its fully specified shape. */
static int check_value_length(const nn_operand *o, size_t length)
{
    if (o->type == ANEURALNETWORKS_MODEL)
        return nn_invalid("a MODEL operand takes its value from setOperandValueFromModel");
    /* An OEM scalar has no defined size: Android takes any length. */
    if (o->type == NN_OEM_SCALAR)
        return length > 0 ? ANEURALNETWORKS_NO_ERROR : nn_invalid("length 0");
    if (nn_type_is_tensor(o->type) && o->rank == 0)
        return nn_invalid("the operand's rank is not specified");
    for (uint32_t i = 0; i < o->rank; i++)
        if (o->dims[i] == 0)
            return nn_invalid("dimension %u of the operand is not specified", i);
    size_t need = nn_operand_bytes(o->type, o->rank, o->dims);
    if (need == 0 || need != length)
        return nn_invalid("length %zu, the operand needs %zu bytes", length, need);
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel *m, int32_t index,
                                                const void *buffer, size_t length)
{
    if (m == NULL || (buffer == NULL && length != 0))
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = check_settable(m, index);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "setOperandValue(operand %d)", index);
    nn_operand *o = &m->operands[index];
    if (buffer == NULL) {
        clear_value(o);
        o->lifetime = NN_LIFETIME_NO_VALUE;
        return ANEURALNETWORKS_NO_ERROR;
    }
    rc = check_value_length(o, length);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "setOperandValue(operand %d)", index);
    void *copy = NULL;
    if (length <= ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
        copy = malloc(length);
        if (copy == NULL)
            return ANEURALNETWORKS_OUT_OF_MEMORY;
        memcpy(copy, buffer, length);
    }
    clear_value(o);
    o->copy = copy;
    o->value = copy ? copy : buffer;
    o->length = length;
    o->lifetime = NN_LIFETIME_CONSTANT;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel *m, int32_t index,
                                                          const ANeuralNetworksMemory *memory,
                                                          size_t offset, size_t length)
{
    if (m == NULL || memory == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = check_settable(m, index);
    if (rc == ANEURALNETWORKS_NO_ERROR && memory->kind != NN_MEMORY_FD)
        rc = nn_invalid("a memory from a descriptor cannot hold constants");
    if (rc == ANEURALNETWORKS_NO_ERROR)
        rc = check_value_length(&m->operands[index], length);
    uint8_t *p = NULL;
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        rc = nn_memory_region(memory, offset, length, false, &p);
        if (rc != ANEURALNETWORKS_NO_ERROR)
            nn_reason("offset %zu + length %zu is outside the memory of %zu bytes", offset,
                      length, memory->size);
    }
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "setOperandValueFromMemory(operand %d)", index);
    nn_operand *o = &m->operands[index];
    clear_value(o);
    o->value = p;
    o->length = length;
    o->memory = memory;
    o->lifetime = NN_LIFETIME_CONSTANT;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel *m, int32_t index,
                                                         const ANeuralNetworksModel *value)
{
    if (m == NULL || value == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = check_settable(m, index);
    if (rc == ANEURALNETWORKS_NO_ERROR && value == m)
        rc = nn_invalid("a model cannot reference itself");
    if (rc == ANEURALNETWORKS_NO_ERROR && !value->finished) {
        nn_reason("the referenced model is not finished");
        rc = ANEURALNETWORKS_BAD_STATE;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR && m->operands[index].type != ANEURALNETWORKS_MODEL)
        rc = nn_invalid("operand of type %s, expected MODEL",
                        nn_type_name(m->operands[index].type));
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "setOperandValueFromModel(operand %d)", index);
    nn_operand *o = &m->operands[index];
    clear_value(o);
    o->subgraph = value;
    o->lifetime = NN_LIFETIME_SUBGRAPH;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
        ANeuralNetworksModel *m, int32_t index, const ANeuralNetworksSymmPerChannelQuantParams *cq)
{
    if (m == NULL || cq == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!model_modifiable(m))
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "setOperandSymmPerChannelQuantParams: the model is %s", state_name(m));
    if (index < 0 || (uint32_t)index >= m->n_operands)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "setOperandSymmPerChannelQuantParams(operand %d): no such operand", index);
    nn_operand *o = &m->operands[index];
    if (o->type != ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "setOperandSymmPerChannelQuantParams(operand %d): type %s", index,
                       nn_type_name(o->type));
    if (cq->channelDim >= o->rank || cq->scales == NULL || o->dims[cq->channelDim] == 0 ||
        cq->scaleCount != o->dims[cq->channelDim])
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "setOperandSymmPerChannelQuantParams(operand %d): channelDim %u and "
                       "scaleCount %u do not fit the operand's rank %u and dimensions",
                       index, cq->channelDim, cq->scaleCount, o->rank);
    for (uint32_t i = 0; i < cq->scaleCount; i++)
        if (!(cq->scales[i] > 0.0f))
            return nn_fail(ANEURALNETWORKS_BAD_DATA,
                           "setOperandSymmPerChannelQuantParams(operand %d): scale %u is %g",
                           index, i, (double)cq->scales[i]);
    float *scales = malloc((size_t)cq->scaleCount * sizeof *scales);
    if (scales == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    memcpy(scales, cq->scales, (size_t)cq->scaleCount * sizeof *scales);
    free(o->channel_quant.scales);
    o->channel_quant.channel_dim = cq->channelDim;
    o->channel_quant.scale_count = cq->scaleCount;
    o->channel_quant.scales = scales;
    o->has_channel_quant = true;
    return ANEURALNETWORKS_NO_ERROR;
}

/* The reason of a validation that said no more precise one: the operands'
 * types and shapes, for the reader to compare with the operation's. */
static void describe_operands(const ANeuralNetworksModel *m, const nn_operation *op)
{
    char text[256];
    size_t used = (size_t)snprintf(text, sizeof text, "the operands do not fit the operation:");
    for (uint32_t i = 0; i < op->n_in + op->n_out && used < sizeof text; i++) {
        bool in = i < op->n_in;
        const nn_operand *o = &m->operands[in ? op->in[i] : op->out[i - op->n_in]];
        const char *lead = i == 0 ? " in " : i == op->n_in ? "; out " : ", ";
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", lead,
                                 o->lifetime == NN_LIFETIME_NO_VALUE ? "omitted " : "");
        if (used < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s", nn_type_name(o->type));
        for (uint32_t d = 0; d < o->rank && used < sizeof text; d++)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%u", d ? "," : "[",
                                     o->dims[d]);
        if (o->rank && used < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, "]");
    }
    nn_reason_default(text);
}

/* Runs the operation's validate with tensors built from the model operands. */
int nn_validate_operation(const ANeuralNetworksModel *m, const nn_operation *op,
                          bool *fails_at_execution)
{
    bool deferred = false;
    if (fails_at_execution)
        *fails_at_execution = false;
    const nn_op_def *def = nn_op_lookup(op->type);
    if (def == NULL || def->validate == NULL)
        return ANEURALNETWORKS_NO_ERROR; /* reported as unsupported at compilation */
    /* Past the real operands each list continues with placeholders (see
     * NN_VALIDATE_SLOTS in op.h), so that no count can make validate read
     * outside the lists. */
    static const nn_tensor placeholder = {.type = -1, .omitted = true};
    uint32_t in_slots = op->n_in > NN_VALIDATE_SLOTS ? op->n_in : NN_VALIDATE_SLOTS;
    uint32_t out_slots = op->n_out > NN_VALIDATE_SLOTS ? op->n_out : NN_VALIDATE_SLOTS;
    size_t n = (size_t)op->n_in + op->n_out;
    nn_tensor *tensors = calloc(n ? n : 1, sizeof *tensors);
    nn_tensor **ptrs = calloc((size_t)in_slots + out_slots, sizeof *ptrs);
    if (tensors == NULL || ptrs == NULL) {
        free(tensors);
        free(ptrs);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t i = 0; i < in_slots; i++) {
        ptrs[i] = (nn_tensor *)&placeholder;
        if (i < op->n_in && rc == ANEURALNETWORKS_NO_ERROR) {
            rc = nn_operand_to_tensor(&m->operands[op->in[i]], &tensors[i]);
            ptrs[i] = &tensors[i];
        }
    }
    for (uint32_t i = 0; i < out_slots; i++) {
        ptrs[in_slots + i] = (nn_tensor *)&placeholder;
        if (i < op->n_out && rc == ANEURALNETWORKS_NO_ERROR) {
            rc = nn_operand_to_tensor(&m->operands[op->out[i]], &tensors[op->n_in + i]);
            ptrs[in_slots + i] = &tensors[op->n_in + i];
        }
    }
    nn_op_call call = {
        .op_type = op->type,
        .n_in = op->n_in,
        .n_out = op->n_out,
        .in = ptrs,
        .out = ptrs + in_slots,
        .feature_level = NN_RUNTIME_FEATURE_LEVEL,
        .relaxed = m->relaxed,
        .fails_at_execution = &deferred,
    };
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        nn_reason_clear();
        rc = def->validate(&call);
    }
    for (size_t i = 0; i < n; i++)
        nn_tensor_release_dims(&tensors[i]);
    free(tensors);
    free(ptrs);
    if (rc == ANEURALNETWORKS_NO_ERROR) {
        nn_reason_clear(); /* alternatives tried on the way leave no stale reason */
        if (fails_at_execution)
            *fails_at_execution = deferred;
    } else if (rc == ANEURALNETWORKS_BAD_DATA && nn_vlog_enabled()) {
        describe_operands(m, op);
    }
    return rc;
}

static int copy_indexes(const uint32_t *src, uint32_t n, uint32_t **dst)
{
    *dst = malloc((n ? n : 1) * sizeof **dst);
    if (*dst == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    if (n)
        memcpy(*dst, src, n * sizeof **dst);
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_addOperation(ANeuralNetworksModel *m,
                                             ANeuralNetworksOperationType type,
                                             uint32_t inputCount, const uint32_t *inputs,
                                             uint32_t outputCount, const uint32_t *outputs)
{
    /* Android's NeuralNetworks.cpp refuses NULL lists even with a count of 0. */
    if (m == NULL || inputs == NULL || outputs == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "addOperation: %s is NULL",
                       m == NULL ? "model" : inputs == NULL ? "inputs" : "outputs");
    if (!model_modifiable(m))
        return nn_fail(ANEURALNETWORKS_BAD_STATE, "addOperation: the model is %s", state_name(m));
    const char *name = nn_op_name(type);
    uint32_t index = m->n_operations;
    if ((type < ANEURALNETWORKS_ADD || type > NN_LAST_OPERATION) && type != NN_OEM_OPERATION)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "addOperation(#%u): unknown operation type %d",
                       index, type);
    for (uint32_t i = 0; i < inputCount; i++)
        if (inputs[i] >= m->n_operands)
            return nn_fail(ANEURALNETWORKS_BAD_DATA,
                           "addOperation(%s #%u): input %u is operand %u of %u", name, index, i,
                           inputs[i], m->n_operands);
    for (uint32_t i = 0; i < outputCount; i++)
        if (outputs[i] >= m->n_operands)
            return nn_fail(ANEURALNETWORKS_BAD_DATA,
                           "addOperation(%s #%u): output %u is operand %u of %u", name, index, i,
                           outputs[i], m->n_operands);
    /* Which operation writes which operand (once, and no constant or input)
     * is a property of the whole graph: Android checks it in finish. */
    nn_operation op = {.type = type, .n_in = inputCount, .n_out = outputCount};
    if (copy_indexes(inputs, inputCount, &op.in) != ANEURALNETWORKS_NO_ERROR ||
        copy_indexes(outputs, outputCount, &op.out) != ANEURALNETWORKS_NO_ERROR) {
        free(op.in);
        free(op.out);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    /* OEM_OPERATION has no signature to check, as on Android. */
    int rc = type == NN_OEM_OPERATION ? ANEURALNETWORKS_NO_ERROR
                                      : nn_validate_operation(m, &op, NULL);
    if (rc == ANEURALNETWORKS_NO_ERROR && m->n_operations == m->cap_operations) {
        uint32_t cap = m->cap_operations ? m->cap_operations * 2 : 16;
        nn_operation *p = realloc(m->operations, (size_t)cap * sizeof *p);
        if (p == NULL) {
            rc = ANEURALNETWORKS_OUT_OF_MEMORY;
        } else {
            m->operations = p;
            m->cap_operations = cap;
        }
    }
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        free(op.in);
        free(op.out);
        return nn_fail(rc, "addOperation(%s #%u)", name, index);
    }
    m->operations[m->n_operations++] = op;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel *m,
                                                         uint32_t inputCount,
                                                         const uint32_t *inputs,
                                                         uint32_t outputCount,
                                                         const uint32_t *outputs)
{
    /* As addOperation: NULL lists are refused even with a count of 0. */
    if (m == NULL || inputs == NULL || outputs == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "identifyInputsAndOutputs: %s is NULL",
                       m == NULL ? "model" : inputs == NULL ? "inputs" : "outputs");
    if (!model_modifiable(m))
        return nn_fail(ANEURALNETWORKS_BAD_STATE, "identifyInputsAndOutputs: the model is %s",
                       state_name(m));
    /* Check everything first so that a rejected call changes nothing. */
    uint8_t *listed = calloc(m->n_operands ? m->n_operands : 1, 1);
    if (listed == NULL)
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "identifyInputsAndOutputs: out of memory");
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t i = 0; i < inputCount + outputCount && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        bool is_in = i < inputCount;
        uint32_t pos = is_in ? i : i - inputCount;
        uint32_t idx = is_in ? inputs[i] : outputs[i - inputCount];
        const char *why = NULL;
        if (idx >= m->n_operands) {
            why = "no such operand";
        } else {
            enum nn_lifetime lt = m->operands[idx].lifetime;
            bool was_io = m->identified && (lt == NN_LIFETIME_INPUT || lt == NN_LIFETIME_OUTPUT);
            if (lt != NN_LIFETIME_TEMPORARY && !was_io)
                why = "the operand has a value";
            else if (m->operands[idx].type == ANEURALNETWORKS_MODEL)
                why = "a MODEL operand cannot be a model input or output";
            else if (listed[idx])
                why = "the operand is listed twice";
            listed[idx] = 1;
        }
        if (why)
            rc = nn_fail(ANEURALNETWORKS_BAD_DATA, "identifyInputsAndOutputs: %s %u (operand %u): %s",
                         is_in ? "input" : "output", pos, idx, why);
    }
    free(listed);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    uint32_t *in = NULL, *out = NULL;
    if (copy_indexes(inputs, inputCount, &in) != ANEURALNETWORKS_NO_ERROR ||
        copy_indexes(outputs, outputCount, &out) != ANEURALNETWORKS_NO_ERROR) {
        free(in);
        free(out);
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    }
    /* A second call replaces the first. */
    for (uint32_t i = 0; i < m->n_inputs; i++)
        m->operands[m->inputs[i]].lifetime = NN_LIFETIME_TEMPORARY;
    for (uint32_t i = 0; i < m->n_outputs; i++)
        m->operands[m->outputs[i]].lifetime = NN_LIFETIME_TEMPORARY;
    free(m->inputs);
    free(m->outputs);
    m->inputs = in;
    m->n_inputs = inputCount;
    m->outputs = out;
    m->n_outputs = outputCount;
    for (uint32_t i = 0; i < inputCount; i++)
        m->operands[in[i]].lifetime = NN_LIFETIME_INPUT;
    for (uint32_t i = 0; i < outputCount; i++)
        m->operands[out[i]].lifetime = NN_LIFETIME_OUTPUT;
    m->identified = true;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel *m,
                                                                 bool allow)
{
    if (m == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!model_modifiable(m))
        return ANEURALNETWORKS_BAD_STATE;
    m->relaxed = allow;
    return ANEURALNETWORKS_NO_ERROR;
}

/*
 * Orders the operations so that each runs after the producers of its inputs
 * (Kahn's algorithm). Fails on a cycle or on an input nothing defines.
 */
static int order_operations(ANeuralNetworksModel *m)
{
    uint32_t n_ops = m->n_operations, n_opd = m->n_operands;
    uint32_t *order = malloc((n_ops ? n_ops : 1) * sizeof *order);
    uint32_t *missing = calloc(n_ops ? n_ops : 1, sizeof *missing);
    bool *ready = calloc(n_opd ? n_opd : 1, sizeof *ready);
    /* consumers in CSR form: for each operand, the operations reading it */
    uint32_t *start = calloc((size_t)n_opd + 1, sizeof *start);
    size_t total = 0;
    for (uint32_t k = 0; k < n_ops; k++)
        total += m->operations[k].n_in;
    uint32_t *users = malloc((total ? total : 1) * sizeof *users);
    int rc = ANEURALNETWORKS_OUT_OF_MEMORY;
    if (!order || !missing || !ready || !start || !users)
        goto out;
    for (uint32_t i = 0; i < n_opd; i++) {
        enum nn_lifetime lt = m->operands[i].lifetime;
        ready[i] = lt != NN_LIFETIME_TEMPORARY && lt != NN_LIFETIME_OUTPUT;
    }
    for (uint32_t k = 0; k < n_ops; k++)
        for (uint32_t a = 0; a < m->operations[k].n_in; a++)
            start[m->operations[k].in[a] + 1]++;
    for (uint32_t i = 0; i < n_opd; i++)
        start[i + 1] += start[i];
    {
        uint32_t *fill = calloc(n_opd ? n_opd : 1, sizeof *fill);
        if (fill == NULL)
            goto out;
        for (uint32_t k = 0; k < n_ops; k++)
            for (uint32_t a = 0; a < m->operations[k].n_in; a++) {
                uint32_t o = m->operations[k].in[a];
                users[start[o] + fill[o]++] = k;
            }
        free(fill);
    }
    uint32_t head = 0, tail = 0;
    for (uint32_t k = 0; k < n_ops; k++) {
        for (uint32_t a = 0; a < m->operations[k].n_in; a++)
            if (!ready[m->operations[k].in[a]])
                missing[k]++;
        if (missing[k] == 0)
            order[tail++] = k;
    }
    while (head < tail) {
        const nn_operation *op = &m->operations[order[head++]];
        for (uint32_t b = 0; b < op->n_out; b++) {
            uint32_t o = op->out[b];
            if (ready[o])
                continue;
            ready[o] = true;
            for (uint32_t u = start[o]; u < start[o + 1]; u++)
                if (--missing[users[u]] == 0)
                    order[tail++] = users[u];
        }
    }
    if (tail != n_ops) {
        rc = nn_invalid("%u operations are in a cycle or read an operand nothing writes",
                        n_ops - tail);
        goto out;
    }
    free(m->order);
    m->order = order;
    order = NULL;
    rc = ANEURALNETWORKS_NO_ERROR;
out:
    free(order);
    free(missing);
    free(ready);
    free(start);
    free(users);
    return rc;
}

/* *bad_op: the operation that failed its own validation, if any. */
static int validate_model(ANeuralNetworksModel *m, uint32_t *bad_op)
{
    if (!m->identified)
        return nn_invalid("identifyInputsAndOutputs was not called");
    if (m->n_outputs == 0)
        return nn_invalid("the model has no outputs");
    if (m->n_operations == 0)
        return nn_invalid("the model has no operations");
    /* Every temporary and output is written by exactly one operation; no
     * input or constant is written at all (addOperation enforces the rest). */
    uint8_t *written = calloc(m->n_operands ? m->n_operands : 1, 1);
    if (written == NULL)
        return ANEURALNETWORKS_OUT_OF_MEMORY;
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (uint32_t k = 0; k < m->n_operations && rc == ANEURALNETWORKS_NO_ERROR; k++)
        for (uint32_t b = 0; b < m->operations[k].n_out; b++) {
            uint32_t o = m->operations[k].out[b];
            enum nn_lifetime lt = m->operands[o].lifetime;
            if (lt != NN_LIFETIME_TEMPORARY && lt != NN_LIFETIME_OUTPUT) {
                rc = nn_invalid("operation %u (%s) writes operand %u, a model %s", k,
                                nn_op_name(m->operations[k].type), o,
                                lt == NN_LIFETIME_INPUT ? "input" : "constant");
                break;
            }
            if (written[o]++) {
                rc = nn_invalid("operand %u is written twice (again by operation %u, %s)", o, k,
                                nn_op_name(m->operations[k].type));
                break;
            }
        }
    for (uint32_t i = 0; i < m->n_operands && rc == ANEURALNETWORKS_NO_ERROR; i++) {
        const nn_operand *o = &m->operands[i];
        enum nn_lifetime lt = o->lifetime;
        if ((lt == NN_LIFETIME_TEMPORARY || lt == NN_LIFETIME_OUTPUT) && !written[i])
            rc = nn_invalid("operand %u (a %s) is written by no operation", i,
                            lt == NN_LIFETIME_OUTPUT ? "model output" : "temporary");
        else if (o->type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL &&
                 !o->has_channel_quant)
            rc = nn_invalid("operand %u has no per-channel quantization parameters", i);
        else if (o->type == ANEURALNETWORKS_MODEL && lt != NN_LIFETIME_SUBGRAPH)
            rc = nn_invalid("MODEL operand %u references no model", i);
    }
    free(written);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return rc;
    rc = order_operations(m);
    for (uint32_t k = 0; k < m->n_operations && rc == ANEURALNETWORKS_NO_ERROR; k++) {
        nn_operation *op = &m->operations[k];
        for (uint32_t a = 0; a < op->n_in; a++) {
            const nn_operand *o = &m->operands[op->in[a]];
            /* Constants from memory must still fit the memory they came from. */
            if (o->memory && o->memory->size < o->length)
                rc = nn_invalid("operation %u (%s): the memory of input %u is too small", k,
                                nn_op_name(op->type), a);
        }
        if (rc == ANEURALNETWORKS_NO_ERROR) {
            rc = nn_validate_operation(m, op, &op->fails_at_execution);
            if (rc != ANEURALNETWORKS_NO_ERROR)
                *bad_op = k;
        }
    }
    return rc;
}

NN_API int ANeuralNetworksModel_finish(ANeuralNetworksModel *m)
{
    if (m == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    if (!model_modifiable(m))
        return nn_fail(ANEURALNETWORKS_BAD_STATE, "finish: the model is %s", state_name(m));
    uint32_t bad_op = UINT32_MAX;
    int rc = validate_model(m, &bad_op);
    if (rc == ANEURALNETWORKS_OUT_OF_MEMORY)
        return nn_fail(rc, "finish: out of memory");
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        m->invalid = true;
        if (bad_op != UINT32_MAX)
            return nn_fail(rc, "finish(%s #%u)", nn_op_name(m->operations[bad_op].type), bad_op);
        return nn_fail(rc, "finish");
    }
    m->finished = true;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksModel_getSupportedOperationsForDevices(
        const ANeuralNetworksModel *m, const ANeuralNetworksDevice *const *devices,
        uint32_t numDevices, bool *supportedOps)
{
    if (m == NULL || devices == NULL || supportedOps == NULL)
        return ANEURALNETWORKS_UNEXPECTED_NULL;
    int rc = nn_check_device_list(devices, numDevices);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "getSupportedOperationsForDevices: invalid device list");
    if (!m->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "getSupportedOperationsForDevices: the model is not finished");
    bool *on_device = malloc((m->n_operations ? m->n_operations : 1) * sizeof *on_device);
    if (on_device == NULL)
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY,
                       "getSupportedOperationsForDevices: out of memory");
    memset(supportedOps, 0, m->n_operations * sizeof *supportedOps);
    for (uint32_t d = 0; d < numDevices && rc == ANEURALNETWORKS_NO_ERROR; d++) {
        rc = nn_device_supported_ops(devices[d], m, on_device);
        for (uint32_t k = 0; k < m->n_operations; k++)
            supportedOps[k] |= rc == ANEURALNETWORKS_NO_ERROR && on_device[k];
    }
    free(on_device);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "getSupportedOperationsForDevices: out of memory");
    uint32_t n_supported = 0;
    for (uint32_t k = 0; k < m->n_operations; k++) {
        bool ok = supportedOps[k];
        n_supported += ok;
        /* Callers such as TFLite's delegate quietly run unsupported
         * operations elsewhere: say which ones. */
        if (!ok)
            nn_vlog("getSupportedOperationsForDevices: operation %u (%s) is not supported", k,
                    nn_op_name(m->operations[k].type));
    }
    nn_vlog("getSupportedOperationsForDevices: %u of %u operations supported", n_supported,
            m->n_operations);
    return ANEURALNETWORKS_NO_ERROR;
}
