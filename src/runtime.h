/*
 * Internal definitions of the API objects and of the path that runs them:
 * model IR (src/model) -> compiled plan (src/compile) -> executor (src/exec).
 */
#ifndef NN_RUNTIME_H
#define NN_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "android/NeuralNetworks.h"
#include "ops/op.h"
#include "sl/sl_driver.h"

#define NN_RUNTIME_FEATURE_LEVEL ANEURALNETWORKS_FEATURE_LEVEL_8
#define NN_DEFAULT_LOOP_TIMEOUT_NS (2ull * 1000 * 1000 * 1000)
#define NN_MAX_LOOP_TIMEOUT_NS (15ull * 1000 * 1000 * 1000)
/* Alignment and padding the executor prefers for I/O buffers. */
#define NN_PREFERRED_ALIGNMENT 64u
#define NN_PREFERRED_PADDING 64u

/* ---------------------------------------------------------------- memory */

enum nn_memory_kind { NN_MEMORY_FD, NN_MEMORY_DESC };

typedef struct nn_memory_role {
    const ANeuralNetworksCompilation *compilation;
    bool is_input;
    uint32_t index;
} nn_memory_role;

struct ANeuralNetworksMemory {
    enum nn_memory_kind kind;
    uint8_t *data;            /* start of the usable region */
    size_t size;
    /* NN_MEMORY_FD: the mapping */
    void *map_base;
    size_t map_length;
    int prot;
    int fd;
    /* NN_MEMORY_DESC: the operand it was described as, and its roles */
    int32_t type;
    float scale;
    int32_t zero_point;
    uint32_t rank;
    uint32_t *dims;           /* owned, rank entries */
    nn_memory_role *roles;
    uint32_t n_roles;
    pthread_mutex_t lock;     /* guards initialized and the current dims */
    bool initialized;
};

struct ANeuralNetworksMemoryDesc {
    bool finished;
    bool has_operand;
    bool has_dims;
    int32_t type;
    float scale;
    int32_t zero_point;
    uint32_t rank;            /* rank and dims merged from roles and setDimensions */
    bool rank_known;          /* also true, with rank 0, for a scalar operand */
    uint32_t *dims;           /* owned, rank entries */
    nn_channel_quant channel_quant; /* TENSOR_QUANT8_SYMM_PER_CHANNEL: a copy */
    nn_memory_role *roles;
    uint32_t n_roles;
};

/* Requires memory of the given size at offset within m; BAD_DATA if outside. */
int nn_memory_region(const ANeuralNetworksMemory *m, size_t offset, size_t length, bool write,
                     uint8_t **out);

/* ----------------------------------------------------------------- model */

enum nn_lifetime {
    NN_LIFETIME_TEMPORARY,
    NN_LIFETIME_INPUT,
    NN_LIFETIME_OUTPUT,
    NN_LIFETIME_CONSTANT,     /* copied or referenced value */
    NN_LIFETIME_NO_VALUE,     /* omitted optional operand */
    NN_LIFETIME_SUBGRAPH,     /* reference to another model */
};

typedef struct nn_operand {
    int32_t type;
    uint32_t rank;
    uint32_t *dims;           /* owned, rank entries (NULL for rank 0) */
    float scale;
    int32_t zero_point;
    nn_channel_quant channel_quant;
    bool has_channel_quant;
    enum nn_lifetime lifetime;
    void *copy;               /* owned copy of a small value */
    const void *value;        /* points at copy, the caller's buffer or memory */
    size_t length;
    const ANeuralNetworksMemory *memory;
    const ANeuralNetworksModel *subgraph;
} nn_operand;

typedef struct nn_operation {
    int32_t type;
    uint32_t n_in;
    uint32_t n_out;
    uint32_t *in;
    uint32_t *out;
    /* Set by finish: the operation validates but computing it must fail
     * (nn_check_value), so that compiling need not validate it again. */
    bool fails_at_execution;
} nn_operation;

struct ANeuralNetworksModel {
    nn_operand *operands;
    uint32_t n_operands;
    uint32_t cap_operands;
    nn_operation *operations;
    uint32_t n_operations;
    uint32_t cap_operations;
    uint32_t *inputs;
    uint32_t n_inputs;
    uint32_t *outputs;
    uint32_t n_outputs;
    bool identified;
    bool relaxed;
    bool finished;
    bool invalid;             /* finish failed: the model can only be freed */
    uint32_t *order;          /* operations in a valid execution order, set by finish */
    /* The compilation cache's hash of the finished model, once computed
     * (src/compile/cache.c): cache_hash is valid when the state is 2. */
    atomic_int cache_hash_state;
    uint8_t cache_hash[16];
};

#define NN_API __attribute__((visibility("default")))

/* Checks an ANeuralNetworksOperandType as addOperand and setInput see it. */
int nn_check_operand_type(const ANeuralNetworksOperandType *t, bool allow_unknown_rank);
/* Fills t from the operand's declaration (and constant value, if any);
 * OUT_OF_MEMORY when its dims need heap storage that cannot be had (the
 * owner frees it with nn_tensor_release_dims). */
int nn_operand_to_tensor(const nn_operand *o, nn_tensor *t);
/* A copy of n dims in *out (NULL for n == 0); OUT_OF_MEMORY on failure. */
int nn_dims_dup(const uint32_t *dims, uint32_t n, uint32_t **out);
/* Bytes of an operand whose shape is fully known; 0 if unknown or overflowing. */
size_t nn_operand_bytes(int32_t type, uint32_t rank, const uint32_t *dims);
/* Bytes of a tensor with real dims (zero-sized allowed); false on overflow. */
bool nn_tensor_bytes(const nn_tensor *t, size_t *bytes);
/* Validates one operation of a model through the registry. *fails_at_execution
 * (may be NULL) is set when the operation passes but computing it must fail
 * (see nn_check_value). */
int nn_validate_operation(const ANeuralNetworksModel *m, const nn_operation *op,
                          bool *fails_at_execution);

/* ---------------------------------------------------------------- device */

typedef struct nn_driver {
    /* Whether the device can run operation op_index of a finished model. */
    /* Sets *supported; OUT_OF_MEMORY when the check itself ran out. */
    int (*supports)(const ANeuralNetworksModel *model, uint32_t op_index, bool *supported);
} nn_driver;

struct ANeuralNetworksDevice {
    const char *name;
    const char *version;
    int32_t type;
    int64_t feature_level;
    const nn_driver *driver;            /* the CPU device only; NULL for SL drivers' */
    /* Every device's work can go through an SL table: a loaded driver's, or
     * nn_cpu_sl_table() for the CPU device (then sl_device is the device). */
    const NnApiSLDriverImplFL5 *sl;
    ANeuralNetworksDevice *sl_device;   /* the device as the table knows it */
};

/* The devices of the SL drivers NNAPI_LINUX_DRIVERS and NNAPI_LINUX_DRIVERS_DIR
 * name (src/device/loader.c), as a malloc'd array; called once. The SL driver
 * build of the library has a version that loads none, so a driver never loads
 * drivers. */
uint32_t nn_load_driver_devices(ANeuralNetworksDevice ***out);

/* Devices are the loaded drivers' in load order, then the CPU device. */
uint32_t nn_device_count(void);
const ANeuralNetworksDevice *nn_cpu_device(void);
/* Without loading drivers: the loader asks it while devices load. */
const char *nn_cpu_device_name(void);
/* Which operations of a finished model the device supports (ops[k] for
 * operation k); a driver is asked through its SL table. */
int nn_device_supported_ops(const ANeuralNetworksDevice *d, const ANeuralNetworksModel *m,
                            bool *ops);
const ANeuralNetworksDevice *nn_device_at(uint32_t i);
bool nn_device_is_valid(const ANeuralNetworksDevice *d);
/* A device list given to the API: non-empty, known devices, no repeats. */
int nn_check_device_list(const ANeuralNetworksDevice *const *devices, uint32_t n);

/* ------------------------------------------------------------------ plan */

typedef struct nn_step {
    const nn_op_def *def;
    uint32_t op_index;
    const nn_operation *op;
    void *state;              /* from def->plan */
} nn_step;

typedef struct nn_subplan {
    const ANeuralNetworksModel *model;
    nn_step *steps;
    uint32_t n_steps;
    nn_tensor *tensors;       /* per operand: compile-time type, shape, constant data */
    size_t *arena_offset;     /* per operand: SIZE_MAX unless placed in the arena */
    size_t arena_size;
    int32_t *output_slot;     /* per operand: index among the model outputs, or -1 */
    void **aligned_copies;    /* constants copied for alignment, owned */
    uint32_t n_aligned_copies;
    uint32_t max_op_io;       /* largest n_in + n_out of a step */
} nn_subplan;

/* Deepest nesting of IF/WHILE a compilation accepts: Compilation_finish
 * returns BAD_DATA beyond it. Nested control flow runs on a thread whose
 * stack is sized for the plan's depth, whatever the caller's stack. */
#define NN_MAX_CONTROL_FLOW_DEPTH 1000u

typedef struct nn_plan {
    nn_subplan *subs;         /* subs[0] is the main model */
    uint32_t n_subs;
    bool relaxed;
    uint32_t nesting;         /* levels of control flow below the main model */
} nn_plan;

int nn_plan_build(const ANeuralNetworksModel *model, nn_plan **out);
void nn_plan_free(nn_plan *plan);

/* ----------------------------------------------------------- compilation */

typedef struct nn_partition nn_partition;

struct ANeuralNetworksCompilation {
    ANeuralNetworksModel *model;
    const ANeuralNetworksDevice **devices; /* createForDevices' list; NULL: all devices */
    uint32_t n_devices;
    bool explicit_single_device;          /* createForDevices with one device */
    int32_t preference;
    int32_t priority;
    uint64_t timeout_ns;
    char *cache_dir;
    uint8_t cache_token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN];
    bool finished;
    nn_plan *plan;            /* the model on the CPU device, or NULL when partitioned */
    nn_partition *partition;  /* steps on several devices (src/compile/partition.c) */
    struct nn_cache *cache;   /* blobs of the plan from the cache, if any */
};

/* Whether finish succeeded: the compilation can be executed. */
static inline bool nn_compilation_ready(const ANeuralNetworksCompilation *c)
{
    return c->finished && (c->plan != NULL || c->partition != NULL);
}

/* Splits the model over the compilation's devices when a driver device takes
 * part: *out is NULL when everything runs on the CPU device (then c->plan
 * does). Each step is compiled on its device, or on the CPU when that fails
 * and fallback is allowed. */
int nn_partition_build(const ANeuralNetworksCompilation *c, nn_partition **out);
void nn_partition_free(nn_partition *p);
/* Runs the steps in order, like nn_run_plan for a partitioned compilation. */
int nn_partition_run(nn_partition *p, struct nn_exec_ctx *ctx, nn_tensor *inputs, nn_tensor *outputs,
                     bool *insufficient);

/* ------------------------------------------------------------- executor */

typedef struct nn_exec_ctx {
    const nn_plan *plan;
    uint64_t deadline_ns;     /* CLOCK_MONOTONIC; 0 = none */
    uint64_t loop_timeout_ns;
    void *scratch;
    size_t scratch_cap;
    /* The outermost run's arena, kept between computations of an execution
     * so that its pages are touched once, not on every run. */
    uint8_t *arena;
    size_t arena_cap;
    uint32_t depth;           /* nesting of control flow */
} nn_exec_ctx;

/*
 * Runs a subplan. inputs[i] / outputs[i] describe model input / output i:
 * type, shape and data. An output with data == NULL and !omitted is
 * allocated by the executor (malloc, the caller frees); an omitted output is
 * computed and dropped. On return each output's rank and dims hold the
 * computed shape; an output whose bytes are too small is flagged in
 * insufficient[i] (may be NULL when all outputs are executor-allocated) and
 * the run returns OUTPUT_INSUFFICIENT_SIZE after computing every shape.
 */
int nn_run_subplan(nn_exec_ctx *ctx, const nn_subplan *sp, nn_tensor *inputs, nn_tensor *outputs,
                   bool *insufficient);
/* Runs the main model of ctx->plan, on a thread with room for its nesting. */
int nn_run_plan(nn_exec_ctx *ctx, nn_tensor *inputs, nn_tensor *outputs, bool *insufficient);
void nn_exec_ctx_release(nn_exec_ctx *ctx);
/* Before the first computation: the arena of ctx->plan (if any) allocated
 * and its pages touched, the thread pool started. NO_ERROR or OUT_OF_MEMORY. */
int nn_exec_ctx_warm(nn_exec_ctx *ctx);
uint64_t nn_now_ns(void);

/* ------------------------------------------------------------- execution */

enum nn_exec_state { NN_EXEC_PREPARATION, NN_EXEC_COMPUTING, NN_EXEC_COMPLETED };

typedef struct nn_io {
    bool set;
    bool omitted;
    uint32_t rank;            /* shape given at execution time (or declared) */
    uint32_t *dims;           /* owned, rank entries */
    void *buffer;
    size_t length;
    const ANeuralNetworksMemory *memory;
} nn_io;

struct ANeuralNetworksExecution {
    ANeuralNetworksCompilation *compilation;
    pthread_mutex_t lock;     /* guards state against concurrent misuse */
    enum nn_exec_state state;
    bool reusable;
    bool padding;
    bool measure;
    bool io_touched;
    uint64_t timeout_ns;
    uint64_t loop_timeout_ns;
    nn_io *inputs;
    nn_io *outputs;
    /* results of the latest computation */
    int status;
    nn_tensor *result_shapes;
    bool *insufficient;
    uint64_t duration_ns;
    uint64_t fenced_duration_ns;
    nn_exec_ctx ctx;
};

/* Runs the execution now, on the calling thread. deadline_ns: CLOCK_MONOTONIC
 * time to give up at (0 = none); fenced_start_ns: when the dependencies of a
 * fenced computation were met (0 otherwise). */
int nn_execution_run(ANeuralNetworksExecution *e, uint64_t deadline_ns, uint64_t fenced_start_ns);
/* The deadline timeout_ns after start_ns; 0 (none) for no timeout, and for
 * one so long that the sum does not fit: such a deadline is never reached. */
static inline uint64_t nn_deadline(uint64_t start_ns, uint64_t timeout_ns)
{
    uint64_t deadline;
    if (timeout_ns == 0 || __builtin_add_overflow(start_ns, timeout_ns, &deadline))
        return 0;
    return deadline;
}
/* Checks and moves the execution into the computation state. */
int nn_execution_begin(ANeuralNetworksExecution *e, bool fenced);
void nn_execution_end(ANeuralNetworksExecution *e, int status);

/* ----------------------------------------------------------------- event */

/* Events live under the scheduler's lock (src/exec/event.c). Each holder
 * counts in refs: the application, the queue while the computation is
 * pending or running, and every computation that depends on the event. */
struct ANeuralNetworksEvent {
    pthread_cond_t cond;      /* broadcast when signaled */
    bool signaled;
    int status;
    int fence_fd;             /* eventfd readable once signaled, or -1 */
    bool external;            /* wraps a caller's sync fence fd */
    uint32_t refs;
    /* the computation this event reports, if any */
    ANeuralNetworksExecution *execution;
    ANeuralNetworksEvent **deps;  /* referenced until the computation starts */
    uint32_t n_deps;
    uint32_t deps_met;        /* deps[0 .. deps_met) are signaled */
    bool dep_failed;
    uint64_t start_ns;        /* when the computation was started */
    uint64_t duration_ns;     /* fenced timeout after dependencies, 0 = none */
    uint32_t queue;           /* ready queue by priority */
    short fence_revents;      /* result of polling the external dependency */
    ANeuralNetworksEvent *next;     /* link in a ready queue or a wait list */
    ANeuralNetworksEvent *waiters;  /* computations waiting for this event */
};

struct ANeuralNetworksBurst {
    ANeuralNetworksCompilation *compilation;
    pthread_mutex_t lock;
    bool busy;
};

/* ------------------------------------------------------------------ misc */

/* Diagnostics switched on by NNAPI_LINUX_VLOG (any non-empty value but 0). */
bool nn_vlog_enabled(void);
void nn_vlog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Logs "<what>: <recorded reason>" (or just what, when no reason was
 * recorded), forgets the reason and returns code; logs nothing for
 * NO_ERROR. API functions return their errors through it. */
int nn_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void nn_reason_clear(void);
/* The pending reason ("" if none), which is then forgotten; valid until the
 * next call on this thread. */
const char *nn_take_reason(void);
/* Records text as the reason unless a more precise one is pending. */
void nn_reason_default(const char *text);
/* The reason of the first failed nn_check_value of the latest validation on
 * this thread. */
const char *nn_deferred_reason(void);

/* Whether p suits the natural alignment of the type's elements. */
static inline bool nn_aligned_for(const void *p, int32_t type)
{
    size_t size = nn_type_size(type);
    return size <= 1 || (uintptr_t)p % size == 0;
}

/* Overflow-checked size arithmetic: false on overflow. */
static inline bool nn_mul_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool nn_add_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

#endif
