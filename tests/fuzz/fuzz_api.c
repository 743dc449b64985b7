/*
 * libFuzzer target: turns bytes into a sequence of API calls — operands of
 * any type and shape, constants, operations with any inputs, model inputs and
 * outputs, compilation, then executions with arbitrary input data through
 * buffers or memory objects. Every call must answer with a result code; the
 * sanitizers report anything else. The byte format (see make_seeds.py, which
 * encodes the conformance vectors as seeds):
 *
 *   u8 n_operands, then per operand:
 *     u8 type, u8 rank, rank x u8 dims, f32 scale, i32 zero point,
 *     u8 value kind (0 none, 1 constant: u16 length + bytes, 2 omitted,
 *                   3 referenced model: u8 index into ref_models();
 *                   kind % 8 == 5: a constant as 1, set from a memory
 *                   object),
 *     type 11 only: u8 channel dim, then dims[channel dim] x f32 scales
 *   u8 n_operations, then per operation:
 *     u8 type, u8 n_in, n_in x u8 operand, u8 n_out, n_out x u8 operand
 *   u8 n_inputs, n_inputs x u8 operand, u8 n_outputs, n_outputs x u8 operand
 *   u8 flags: bit 0 relaxed, bit 1 inputs through a memory object,
 *             bit 2 padded lengths, bit 3 asynchronous, bit 4 fenced
 *             (both: through a burst),
 *             bit 5 the last input omitted (no value at execution),
 *             bit 6 output buffers one element short,
 *             bit 7 outputs through a memory object, and the model's
 *             supported operations queried before it is compiled
 *   the remaining bytes: data for the inputs, in order, repeated as needed
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#define MAX_OPERANDS 64
#define MAX_RANK 6
#define MAX_IO 16
/* Keeps single buffers small enough for the fuzzer's memory limit. */
#define MAX_BUFFER (1u << 22)

typedef struct reader {
    const uint8_t *p;
    size_t left;
} reader;

static bool take(reader *r, void *out, size_t n)
{
    if (r->left < n)
        return false;
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
    return true;
}

static bool take_u8(reader *r, uint8_t *v)
{
    return take(r, v, 1);
}

typedef struct operand_info {
    ANeuralNetworksOperandType type;
    uint32_t dims[MAX_RANK];
} operand_info;

static size_t element_size(int32_t type)
{
    switch (type) {
    case ANEURALNETWORKS_FLOAT32:
    case ANEURALNETWORKS_INT32:
    case ANEURALNETWORKS_UINT32:
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_TENSOR_INT32:
        return 4;
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_FLOAT16:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
        return 2;
    default:
        return 1;
    }
}

/* Bytes of an operand with every unknown dimension taken as 1. */
static size_t operand_bytes(const operand_info *o)
{
    size_t n = element_size(o->type.type);
    for (uint32_t i = 0; i < o->type.dimensionCount; i++) {
        uint32_t d = o->dims[i] ? o->dims[i] : 1;
        if (n > MAX_BUFFER / d)
            return MAX_BUFFER + 1;
        n *= d;
    }
    return n;
}

/* ---- referenced models for IF and WHILE ---- */

enum { N_REFS = 6 };

/* One operation on rank-1 operands: inputs of in_type (the second one a
 * constant when const_value is set), one output of out_type. */
static ANeuralNetworksModel *ref_model(int32_t op, int32_t in_type, uint32_t in_dim,
                                       int32_t out_type, uint32_t out_dim,
                                       const void *const_value, bool activation)
{
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m) != ANEURALNETWORKS_NO_ERROR)
        return NULL;
    ANeuralNetworksOperandType in = {in_type, 1, &in_dim, 0.0f, 0};
    ANeuralNetworksOperandType out = {out_type, 1, &out_dim, 0.0f, 0};
    ANeuralNetworksOperandType act = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
    uint32_t dim1 = 1;
    ANeuralNetworksOperandType one = {in_type, 1, &dim1, 0.0f, 0};
    int32_t none = 0;
    uint32_t ins[3] = {0, 0, 2}, outs[1] = {1}, model_in[1] = {0};
    ANeuralNetworksModel_addOperand(m, &in);
    ANeuralNetworksModel_addOperand(m, &out);
    ANeuralNetworksModel_addOperand(m, &act);
    ANeuralNetworksModel_setOperandValue(m, 2, &none, sizeof none);
    if (const_value) {
        ANeuralNetworksModel_addOperand(m, &one);
        ANeuralNetworksModel_setOperandValue(m, 3, const_value, element_size(in_type));
        ins[1] = 3;
    }
    ANeuralNetworksModel_addOperation(m, op, activation ? 3 : 2, ins, 1, outs);
    ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, model_in, 1, outs);
    if (ANeuralNetworksModel_finish(m) != ANEURALNETWORKS_NO_ERROR) {
        ANeuralNetworksModel_free(m);
        return NULL;
    }
    return m;
}

/* Bodies and conditions over float32, int32 and bool8 values, built once and
 * kept for the whole run. */
static ANeuralNetworksModel *const *ref_models(void)
{
    static ANeuralNetworksModel *refs[N_REFS];
    static bool built;
    if (!built) {
        const float limit_f = 100.0f;
        const int32_t one_i = 1, limit_i = 10;
        const uint8_t yes = 1;
        const int32_t F = ANEURALNETWORKS_TENSOR_FLOAT32, I = ANEURALNETWORKS_TENSOR_INT32;
        const int32_t B = ANEURALNETWORKS_TENSOR_BOOL8;
        refs[0] = ref_model(ANEURALNETWORKS_ADD, F, 0, F, 0, NULL, true);        /* x + x */
        refs[1] = ref_model(ANEURALNETWORKS_LESS, F, 1, B, 1, &limit_f, false);   /* x < 100 */
        refs[2] = ref_model(ANEURALNETWORKS_ADD, I, 1, I, 1, &one_i, true);       /* x + 1 */
        refs[3] = ref_model(ANEURALNETWORKS_LESS, I, 1, B, 1, &limit_i, false);   /* x < 10 */
        refs[4] = ref_model(ANEURALNETWORKS_LOGICAL_OR, B, 1, B, 1, &yes, false); /* true */
        refs[5] = ref_model(ANEURALNETWORKS_LOGICAL_AND, B, 0, B, 0, NULL, false); /* x */
        built = true;
    }
    return refs;
}

static void fill(uint8_t *dst, size_t n, const uint8_t *data, size_t data_len)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = data_len ? data[i % data_len] : (uint8_t)i;
}

static void run(ANeuralNetworksCompilation *c, const operand_info *ops, const uint32_t *in,
                uint8_t n_in, const uint32_t *out, uint8_t n_out, uint8_t flags, reader *r)
{
    ANeuralNetworksExecution *e = NULL;
    if (ANeuralNetworksExecution_create(c, &e) != ANEURALNETWORKS_NO_ERROR)
        return;
    uint8_t *buffers[2 * MAX_IO] = {0};
    size_t lengths[2 * MAX_IO] = {0};
    ANeuralNetworksMemory *memory = NULL;
    int fd = -1;
    if (flags & 4)
        ANeuralNetworksExecution_enableInputAndOutputPadding(e, true);
    /* A WHILE whose condition stays true ends here rather than after the
     * default two seconds. */
    ANeuralNetworksExecution_setLoopTimeout(e, 20 * 1000 * 1000);
    if (flags & (2 | 128)) {
        fd = memfd_create("fuzz", MFD_CLOEXEC);
        if (fd >= 0 && ftruncate(fd, 1 << 16) == 0)
            ANeuralNetworksMemory_createFromFd(1 << 16, PROT_READ | PROT_WRITE, fd, 0, &memory);
    }
    for (uint8_t i = 0; i < n_in + n_out; i++) {
        bool is_input = i < n_in;
        const operand_info *o = &ops[is_input ? in[i] : out[i - n_in]];
        size_t bytes = operand_bytes(o);
        if (bytes > MAX_BUFFER)
            goto done;
        if (flags & 4)
            bytes += 8;
        buffers[i] = malloc(bytes ? bytes : 1);
        if (buffers[i] == NULL)
            goto done;
        lengths[i] = bytes;
        fill(buffers[i], bytes, r->p, r->left);
        /* Unknown dimensions are given at execution time as 1. */
        ANeuralNetworksOperandType t = o->type;
        uint32_t dims[MAX_RANK];
        for (uint32_t d = 0; d < t.dimensionCount; d++)
            dims[d] = o->dims[d] ? o->dims[d] : 1;
        t.dimensions = t.dimensionCount ? dims : NULL;
        if (is_input) {
            if ((flags & 32) && i == n_in - 1)
                ANeuralNetworksExecution_setInput(e, i, NULL, NULL, 0);
            else if (memory && (flags & 2) && bytes <= (1 << 15))
                ANeuralNetworksExecution_setInputFromMemory(e, i, &t, memory, 64 * i, bytes);
            else
                ANeuralNetworksExecution_setInput(e, i, &t, buffers[i], bytes);
        } else {
            size_t short_by = (flags & 64) ? element_size(o->type.type) : 0;
            size_t length = bytes > short_by ? bytes - short_by : bytes;
            /* The memory's upper half, where no input is. */
            if (memory && (flags & 128) && length <= (1 << 14))
                ANeuralNetworksExecution_setOutputFromMemory(e, i - n_in, NULL, memory,
                                                             (1 << 15) + 64 * (i - n_in), length);
            else
                ANeuralNetworksExecution_setOutput(e, i - n_in, NULL, buffers[i], length);
        }
    }
    if ((flags & 24) == 24) {
        ANeuralNetworksBurst *burst = NULL;
        if (ANeuralNetworksBurst_create(c, &burst) == ANEURALNETWORKS_NO_ERROR)
            ANeuralNetworksExecution_burstCompute(e, burst);
        ANeuralNetworksBurst_free(burst);
    } else if (flags & 16) {
        ANeuralNetworksEvent *ev = NULL;
        if (ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, &ev) ==
            ANEURALNETWORKS_NO_ERROR)
            ANeuralNetworksEvent_wait(ev);
        ANeuralNetworksEvent_free(ev);
    } else if (flags & 8) {
        ANeuralNetworksEvent *ev = NULL;
        if (ANeuralNetworksExecution_startCompute(e, &ev) == ANEURALNETWORKS_NO_ERROR)
            ANeuralNetworksEvent_wait(ev);
        ANeuralNetworksEvent_free(ev);
    } else {
        ANeuralNetworksExecution_compute(e);
    }
    for (uint8_t i = 0; i < n_out; i++) {
        uint32_t rank = 0;
        if (ANeuralNetworksExecution_getOutputOperandRank(e, i, &rank) == 0 && rank > 0 &&
            rank <= 64) {
            uint32_t dims[64];
            ANeuralNetworksExecution_getOutputOperandDimensions(e, i, dims);
        }
    }
done:
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksMemory_free(memory);
    if (fd >= 0)
        close(fd);
    for (int i = 0; i < 2 * MAX_IO; i++)
        free(buffers[i]);
}

/* A memory object holding the model's constants of value kind 5, created
 * at the first one. */
typedef struct const_memory {
    int fd;
    ANeuralNetworksMemory *memory;
    size_t used;
} const_memory;

enum { CONST_MEMORY_BYTES = 1 << 16 };

/* Sets operand i from bytes copied into cm's memory; false when it has no
 * room (or cannot be made), so that the caller sets the value directly. */
static bool set_from_memory(ANeuralNetworksModel *m, uint32_t i, const uint8_t *bytes,
                            size_t len, const_memory *cm)
{
    if (cm->fd < 0) {
        cm->fd = memfd_create("fuzz-constants", MFD_CLOEXEC);
        if (cm->fd < 0 || ftruncate(cm->fd, CONST_MEMORY_BYTES) != 0 ||
            ANeuralNetworksMemory_createFromFd(CONST_MEMORY_BYTES, PROT_READ, cm->fd, 0,
                                               &cm->memory) != ANEURALNETWORKS_NO_ERROR)
            return false;
    }
    if (cm->memory == NULL || len > CONST_MEMORY_BYTES - cm->used ||
        pwrite(cm->fd, bytes, len, (off_t)cm->used) != (ssize_t)len)
        return false;
    ANeuralNetworksModel_setOperandValueFromMemory(m, i, cm->memory, cm->used, len);
    /* The next value at a multiple of 16, as a real model's would be. */
    cm->used = (cm->used + len + 15) & ~(size_t)15;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    ANeuralNetworksModel *m = NULL;
    if (ANeuralNetworksModel_create(&m) != ANEURALNETWORKS_NO_ERROR)
        return 0;
    operand_info ops[MAX_OPERANDS];
    uint8_t n_operands = 0, n_ops = 0, n_in = 0, n_out = 0, flags = 0;
    uint32_t in[MAX_IO], out[MAX_IO];
    ANeuralNetworksCompilation *c = NULL;
    const_memory cm = {-1, NULL, 0};
    if (!take_u8(&r, &n_operands))
        goto done;
    n_operands %= MAX_OPERANDS + 1;
    for (uint8_t i = 0; i < n_operands; i++) {
        operand_info *o = &ops[i];
        uint8_t type, rank, kind;
        float scale;
        int32_t zp;
        if (!take_u8(&r, &type) || !take_u8(&r, &rank))
            goto done;
        rank %= MAX_RANK + 1;
        for (uint8_t d = 0; d < rank; d++) {
            uint8_t v;
            if (!take_u8(&r, &v))
                goto done;
            o->dims[d] = v;
        }
        if (!take(&r, &scale, 4) || !take(&r, &zp, 4) || !take_u8(&r, &kind))
            goto done;
        o->type = (ANeuralNetworksOperandType){type, rank, rank ? o->dims : NULL, scale, zp};
        ANeuralNetworksModel_addOperand(m, &o->type);
        if (kind % 4 == 1) {
            uint16_t len;
            if (!take(&r, &len, 2) || len > r.left)
                goto done;
            if (kind % 8 != 5 || !set_from_memory(m, i, r.p, len, &cm))
                ANeuralNetworksModel_setOperandValue(m, i, r.p, len);
            r.p += len;
            r.left -= len;
        } else if (kind % 4 == 2) {
            ANeuralNetworksModel_setOperandValue(m, i, NULL, 0);
        } else if (kind % 4 == 3) {
            uint8_t ref;
            if (!take_u8(&r, &ref))
                goto done;
            ANeuralNetworksModel *value = ref_models()[ref % N_REFS];
            if (value)
                ANeuralNetworksModel_setOperandValueFromModel(m, i, value);
        }
        if (type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL) {
            uint8_t dim;
            float scales[256];
            if (!take_u8(&r, &dim))
                goto done;
            uint32_t count = dim < rank ? o->dims[dim] : 0;
            if (!take(&r, scales, count * sizeof(float)))
                goto done;
            ANeuralNetworksSymmPerChannelQuantParams cq = {dim, count, scales};
            ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m, i, &cq);
        }
    }
    if (!take_u8(&r, &n_ops))
        goto done;
    for (uint8_t k = 0; k < n_ops % 32; k++) {
        uint8_t type, ni, no;
        uint32_t ins[64], outs[8];
        if (!take_u8(&r, &type) || !take_u8(&r, &ni))
            goto done;
        ni %= 64;
        for (uint8_t a = 0; a < ni; a++) {
            uint8_t v;
            if (!take_u8(&r, &v))
                goto done;
            ins[a] = v;
        }
        if (!take_u8(&r, &no))
            goto done;
        no %= 8;
        for (uint8_t a = 0; a < no; a++) {
            uint8_t v;
            if (!take_u8(&r, &v))
                goto done;
            outs[a] = v;
        }
        ANeuralNetworksModel_addOperation(m, type, ni, ins, no, outs);
    }
    if (!take_u8(&r, &n_in))
        goto done;
    n_in %= MAX_IO;
    for (uint8_t i = 0; i < n_in; i++) {
        uint8_t v;
        if (!take_u8(&r, &v))
            goto done;
        in[i] = v;
    }
    if (!take_u8(&r, &n_out))
        goto done;
    n_out %= MAX_IO;
    for (uint8_t i = 0; i < n_out; i++) {
        uint8_t v;
        if (!take_u8(&r, &v))
            goto done;
        out[i] = v;
    }
    take_u8(&r, &flags);
    ANeuralNetworksModel_identifyInputsAndOutputs(m, n_in, in, n_out, out);
    ANeuralNetworksModel_relaxComputationFloat32toFloat16(m, flags & 1);
    if (ANeuralNetworksModel_finish(m) != ANEURALNETWORKS_NO_ERROR)
        goto done;
    if (flags & 128) {
        ANeuralNetworksDevice *device = NULL;
        bool supported[32];
        if (ANeuralNetworks_getDevice(0, &device) == ANEURALNETWORKS_NO_ERROR) {
            const ANeuralNetworksDevice *devices[1] = {device};
            ANeuralNetworksModel_getSupportedOperationsForDevices(m, devices, 1, supported);
        }
    }
    for (uint8_t i = 0; i < n_in; i++)
        if (in[i] >= n_operands)
            goto done;
    for (uint8_t i = 0; i < n_out; i++)
        if (out[i] >= n_operands)
            goto done;
    if (ANeuralNetworksCompilation_create(m, &c) != ANEURALNETWORKS_NO_ERROR)
        goto done;
    if (ANeuralNetworksCompilation_finish(c) == ANEURALNETWORKS_NO_ERROR)
        run(c, ops, in, n_in, out, n_out, flags, &r);
done:
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksMemory_free(cm.memory);
    if (cm.fd >= 0)
        close(cm.fd);
    return 0;
}
