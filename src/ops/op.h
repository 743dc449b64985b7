/*
 * The operation interface. Every operation is one nn_op_def, defined in one
 * file of src/ops and listed in one of the ops_*.h lists that registry.c
 * includes. The runtime drives it in three steps:
 *
 *   validate  at addOperation/finish: operand counts, types, ranks, constant
 *             parameter values. Tensors carry the declared type; dims may be
 *             0 (unknown) and rank 0 for a tensor means unknown rank; data is
 *             set only for constant operands (NULL otherwise). Returns
 *             ANEURALNETWORKS_BAD_DATA for anything the spec forbids.
 *   prepare   shape inference: fills each output's rank and dims from the
 *             inputs, sets scratch_bytes if execute needs scratch memory.
 *             Called at compile time when every input shape is known (input
 *             data may still be NULL: if the output shape depends on values
 *             that are not known yet, return NO_ERROR leaving the outputs as
 *             they are), and again before every execute with real shapes and
 *             data. Returns BAD_DATA for incompatible shapes, OP_FAILED for
 *             bad values found in data at execution time.
 *             Values Android's runtime leaves to execution (a quantized
 *             bias scale, a fixed output scale, a constant fused activation
 *             code out of range, ...) are not BAD_DATA: validate reports
 *             them with nn_check_value and goes on; the model builds and compiles,
 *             and computing it returns OP_FAILED.
 *   execute   computes the outputs. Only called when at least one output
 *             holds elements. Out-of-range indices in data are OP_FAILED.
 *
 * plan/release (optional) run once per compilation, with constant inputs
 * available, to build per-operation state (e.g. packed weights) kept in
 * call->state for every execute.
 *
 * Control flow (IF, WHILE) sets allocates_outputs: its execute runs other
 * models and sets each output's shape and data itself, to a malloc'd buffer
 * the executor then owns. Operands of type MODEL carry, as data, the
 * referenced const ANeuralNetworksModel * during validate and its compiled
 * const struct nn_subplan * during prepare and execute.
 */
#ifndef NN_OPS_OP_H
#define NN_OPS_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "android/NeuralNetworks.h"

/* The deprecated OEM codes of Android's NeuralNetworksOEM.h (not part of the
 * NDK header): models may use them; no device here runs OEM_OPERATION. */
#define NN_OEM_SCALAR 10000
#define NN_TENSOR_OEM_BYTE 10001
#define NN_OEM_OPERATION 10000

/* Tensor ranks have no limit (Android sets none; REVERSE alone stops at
 * 8). Dims up to this rank live inside the nn_tensor; longer ones on the
 * heap (see nn_tensor_set_rank). */
#define NN_INLINE_RANK 8
/* max_rank of a validation check for an operation without a rank limit. */
#define NN_ANY_RANK UINT32_MAX
/* The highest OperationCode the runtime knows. */
#define NN_LAST_OPERATION ANEURALNETWORKS_REVERSE
/* validate may read in[i] and out[i] for i < NN_VALIDATE_SLOTS before it
 * checks n_in/n_out: slots past the real operands hold a placeholder of
 * type -1 that no check accepts. */
#define NN_VALIDATE_SLOTS 64

typedef struct nn_channel_quant {
    uint32_t channel_dim;
    uint32_t scale_count;
    float *scales;
} nn_channel_quant;

/*
 * dims points at rank entries: the tensor's own dims_inline or dims_heap, or,
 * after a struct copy, the source's storage (borrowed, read-only). Code that
 * changes a shape calls nn_tensor_set_rank first, which gives the tensor
 * storage of its own; whoever owns a tensor frees dims_heap with
 * nn_tensor_release_dims. A struct copy must be followed by
 * nn_tensor_borrow_dims (or nn_tensor_own_dims) so that only one tensor
 * owns the heap storage.
 */
typedef struct nn_tensor {
    int32_t type;                    /* OperandCode */
    uint32_t rank;                   /* 0 for scalars (and unknown-rank tensors) */
    uint32_t *dims;                  /* NULL while rank is 0 */
    uint32_t *dims_heap;             /* owned storage beyond NN_INLINE_RANK */
    uint32_t dims_heap_cap;
    uint32_t dims_inline[NN_INLINE_RANK];
    float scale;
    int32_t zero_point;
    const nn_channel_quant *channel_quant; /* TENSOR_QUANT8_SYMM_PER_CHANNEL only */
    void *data;                      /* NULL when the value is not known or omitted */
    size_t bytes;                    /* bytes reachable at data */
    bool omitted;                    /* optional operand given no value */
    bool constant;                   /* value fixed at compile time */
} nn_tensor;

typedef struct nn_op_call {
    int32_t op_type;
    uint32_t n_in;
    uint32_t n_out;
    nn_tensor **in;
    nn_tensor **out;
    int32_t feature_level;           /* level the model is validated against */
    bool relaxed;                    /* float32 may be computed as float16 */
    void *state;                     /* from plan, NULL without one */
    size_t scratch_bytes;            /* set by prepare */
    void *scratch;                   /* at least scratch_bytes, 64-byte aligned */
    struct nn_exec_ctx *ctx;         /* executor context (control flow) */
    /* validate: set by nn_check_value (NULL outside model validation) */
    bool *fails_at_execution;
} nn_op_call;

typedef struct nn_op_def {
    int32_t code;
    const char *name;
    int (*validate)(const nn_op_call *call);
    int (*prepare)(nn_op_call *call);
    int (*execute)(nn_op_call *call);
    int (*plan)(nn_op_call *call, void **state);
    void (*release)(void *state);
    bool allocates_outputs;
    /* Some inputs may be omitted (given no value), which the operation
     * checks for itself; without this flag an omitted input fails the
     * execution, as a missing required input. */
    bool optional_inputs;
} nn_op_def;

/* The definition of an operation code, or NULL if it has none. */
const nn_op_def *nn_op_lookup(int32_t code);

/* ---- helpers for operation code (src/ops/op_util.c) ---- */

bool nn_type_is_tensor(int32_t type);
bool nn_type_is_quant8(int32_t type); /* QUANT8_ASYMM or QUANT8_ASYMM_SIGNED */
/* Bytes of one element of the type, 0 for MODEL or unknown codes. */
size_t nn_type_size(int32_t type);
const char *nn_type_name(int32_t type);
const char *nn_op_name(int32_t code);

/* Number of elements; 1 for scalars. */
size_t nn_tensor_count(const nn_tensor *t);
/* True when the rank is known and no dimension is 0 (used at compile time). */
bool nn_tensor_shape_known(const nn_tensor *t);
/* Product of dims[begin..end). */
size_t nn_dims_product(const nn_tensor *t, uint32_t begin, uint32_t end);
/* Sets the rank, making dims the tensor's own storage for rank entries
 * (the first min(old, new) dims are kept, new ones are 0): OUT_OF_MEMORY
 * when that storage cannot be allocated. Ranks up to NN_INLINE_RANK never
 * fail. */
int nn_tensor_set_rank(nn_tensor *t, uint32_t rank);
/* nn_tensor_set_rank for a rank of at most NN_INLINE_RANK, which cannot
 * fail (operations with a fixed output rank). */
void nn_tensor_set_small_rank(nn_tensor *t, uint32_t rank);
/* Sets rank and dims (which may point into t's own storage). */
int nn_tensor_set_shape(nn_tensor *t, uint32_t rank, const uint32_t *dims);
/* Copies rank and dims of src into dst: OUT_OF_MEMORY as nn_tensor_set_rank. */
int nn_tensor_copy_shape(nn_tensor *dst, const nn_tensor *src);
/* After a struct copy: dst reads the source's dims and owns nothing. */
void nn_tensor_borrow_dims(nn_tensor *t);
/* After a struct copy: dst gets its own copy of the dims. */
int nn_tensor_own_dims(nn_tensor *t);
/* Moves src into dst (which owns nothing): dst takes src's storage, src
 * keeps its fields but owns nothing. */
void nn_tensor_move(nn_tensor *dst, nn_tensor *src);
/* Frees the heap storage of the dims (the shape is forgotten). */
void nn_tensor_release_dims(nn_tensor *t);
/* Working memory of an operation with slots per dimension (a permutation,
 * strides, an index odometer): inline for common ranks, else on the heap. */
typedef struct nn_rank_buf {
    void *p;
    uint64_t inline_space[6 * NN_INLINE_RANK];
} nn_rank_buf;
/* Points b->p at `bytes` bytes (8-byte aligned): OUT_OF_MEMORY if the heap
 * has no room. Free with nn_rank_buf_free (also after a failure). */
int nn_rank_buf_get(nn_rank_buf *b, size_t bytes);
void nn_rank_buf_free(nn_rank_buf *b);

/* Whether the indices 0 .. count-1 all fit an int32 output: operations that
 * write indices fail (OP_FAILED) rather than write wrapped ones. */
static inline bool nn_index_fits_i32(size_t count)
{
    return count <= (size_t)INT32_MAX + 1;
}

/* Scalar readers; the operand must hold data of the matching scalar type. */
int32_t nn_scalar_i32(const nn_tensor *t);
float nn_scalar_f32(const nn_tensor *t);   /* FLOAT32 or FLOAT16 scalar */
bool nn_scalar_bool(const nn_tensor *t);

/* Shape of a numpy-style broadcast of a and b into out (neither a nor b).
 * BAD_DATA if they do not broadcast, OUT_OF_MEMORY as nn_tensor_set_rank. */
int nn_broadcast_shape(const nn_tensor *a, const nn_tensor *b, nn_tensor *out);

/* Validation helpers: each returns ANEURALNETWORKS_NO_ERROR or BAD_DATA. */
int nn_check_counts(const nn_op_call *c, uint32_t min_in, uint32_t max_in, uint32_t n_out);
int nn_check_type(const nn_tensor *t, int32_t type);
/* Rank check that passes for an unknown-rank tensor. */
int nn_check_rank(const nn_tensor *t, uint32_t min_rank, uint32_t max_rank);
/* Input idx (or output idx, when is_output) of the call has the given type;
 * otherwise BAD_DATA, the reason naming the operand and both types. */
int nn_expect_type(const nn_op_call *c, bool is_output, uint32_t idx, int32_t type);
/* Output idx has the scale and zero point of input in_idx. */
int nn_expect_same_quant(const nn_op_call *c, uint32_t out_idx, uint32_t in_idx);
/* Quant8 tensors: scale > 0 and zero point in the type's range. */
int nn_check_quant(const nn_tensor *t);

/* ---- why a check fails (src/util/log.c) ----
 * Under NNAPI_LINUX_VLOG a failing check records a reason on its thread; the
 * API call that returns the error logs it in one line with its own name and
 * the object concerned (the last reason recorded wins). */
void nn_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records the reason and returns ANEURALNETWORKS_BAD_DATA. */
int nn_invalid(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records the reason and returns code. */
int nn_because(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A check of a value Android's runtime makes only when computing (a quantized
 * bias scale, a fixed output scale, a constant fused activation code, ...).
 * NO_ERROR when ok. Otherwise, while validating a model, the failure is noted
 * in the call (the model builds and compiles, computing it fails with
 * OP_FAILED) and NO_ERROR returned so that validation goes on; from prepare
 * or execute it is BAD_DATA, which the executor reports as OP_FAILED. */
int nn_check_value(const nn_op_call *c, bool ok, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
/* A fused activation code (FuseCode) read from an operand, through
 * nn_check_value. */
int nn_check_fuse_code(const nn_op_call *c, int32_t code);

#endif
