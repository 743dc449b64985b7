/*
 * nn_cts: runs the NNAPI CTS generated-test vectors (tests/cts/vectors) against
 * libneuralnetworks through the public API only.
 *
 * Every test is built, compiled and executed once per execution mode; each
 * test x mode is one counted case. The constants mode turns every main-model
 * input but the first into a constant operand, so that operations which pack
 * constant weights at compile time run their packed paths. The cached mode
 * compiles that model twice with compilation caching (the first writes the
 * entry, the second loads it) and runs the second: its outputs must be
 * bit-identical to those of the compilation without cache. Results are compared with the CTS accuracy
 * criteria described in /work/shared/cts/FORMAT.md (see tests/cts/README.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <android/NeuralNetworks.h>

#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "json.h"

#ifndef NN_CTS_VECTOR_DIR
#define NN_CTS_VECTOR_DIR "tests/cts/vectors"
#endif
#ifndef NN_CTS_TEST_DRIVER
#define NN_CTS_TEST_DRIVER "libnnapi_test_driver.so"
#endif

#define WHY_LEN 512
#define NUM_OPS 106
/* Offsets inside shared-memory pools are multiples of this, so the runtime
 * never sees misaligned element data, and never zero (the memory mode is
 * meant to exercise non-zero offsets). */
#define POOL_ALIGN 64
/* An expected failure that is an infinite WHILE loop need not wait for the
 * default 2 s loop timeout. */
#define EXPECT_FAILURE_LOOP_TIMEOUT_NS 100000000ull

/* ---- Names ---- */

static const char* const k_op_names[NUM_OPS] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED",
    "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION",
    "LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU1", "RELU6",
    "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
    "BATCH_TO_SPACE_ND", "DIV", "MEAN", "PAD", "SPACE_TO_BATCH_ND", "SQUEEZE",
    "STRIDED_SLICE", "SUB", "TRANSPOSE", "ABS", "ARGMAX", "ARGMIN",
    "AXIS_ALIGNED_BBOX_TRANSFORM", "BIDIRECTIONAL_SEQUENCE_LSTM", "BIDIRECTIONAL_SEQUENCE_RNN",
    "BOX_WITH_NMS_LIMIT", "CAST", "CHANNEL_SHUFFLE", "DETECTION_POSTPROCESSING", "EQUAL",
    "EXP", "EXPAND_DIMS", "GATHER", "GENERATE_PROPOSALS", "GREATER", "GREATER_EQUAL",
    "GROUPED_CONV_2D", "HEATMAP_MAX_KEYPOINT", "INSTANCE_NORMALIZATION", "LESS", "LESS_EQUAL",
    "LOG", "LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR", "LOG_SOFTMAX", "MAXIMUM", "MINIMUM",
    "NEG", "NOT_EQUAL", "PAD_V2", "POW", "PRELU", "QUANTIZE", "QUANTIZED_16BIT_LSTM",
    "RANDOM_MULTINOMIAL", "REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX", "REDUCE_MIN",
    "REDUCE_PROD", "REDUCE_SUM", "ROI_ALIGN", "ROI_POOLING", "RSQRT", "SELECT", "SIN",
    "SLICE", "SPLIT", "SQRT", "TILE", "TOPK_V2", "TRANSPOSE_CONV_2D",
    "UNIDIRECTIONAL_SEQUENCE_LSTM", "UNIDIRECTIONAL_SEQUENCE_RNN", "RESIZE_NEAREST_NEIGHBOR",
    "QUANTIZED_LSTM", "IF", "WHILE", "ELU", "HARD_SWISH", "FILL", "RANK", "BATCH_MATMUL", "PACK",
    "MIRROR_PAD", "REVERSE",
};

typedef struct {
    const char* name;
    int32_t code;
    size_t size; /* bytes per element */
} type_info;

static const type_info k_types[] = {
    {"FLOAT32", ANEURALNETWORKS_FLOAT32, 4},
    {"INT32", ANEURALNETWORKS_INT32, 4},
    {"UINT32", ANEURALNETWORKS_UINT32, 4},
    {"TENSOR_FLOAT32", ANEURALNETWORKS_TENSOR_FLOAT32, 4},
    {"TENSOR_INT32", ANEURALNETWORKS_TENSOR_INT32, 4},
    {"TENSOR_QUANT8_ASYMM", ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1},
    {"BOOL", ANEURALNETWORKS_BOOL, 1},
    {"TENSOR_QUANT16_SYMM", ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 2},
    {"TENSOR_FLOAT16", ANEURALNETWORKS_TENSOR_FLOAT16, 2},
    {"TENSOR_BOOL8", ANEURALNETWORKS_TENSOR_BOOL8, 1},
    {"FLOAT16", ANEURALNETWORKS_FLOAT16, 2},
    {"TENSOR_QUANT8_SYMM_PER_CHANNEL", ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 1},
    {"TENSOR_QUANT16_ASYMM", ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 2},
    {"TENSOR_QUANT8_SYMM", ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 1},
    {"TENSOR_QUANT8_ASYMM_SIGNED", ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1},
    {"SUBGRAPH", ANEURALNETWORKS_MODEL, 0},
};

enum {
    LT_TEMPORARY,
    LT_INPUT,
    LT_OUTPUT,
    LT_CONSTANT_COPY,
    LT_CONSTANT_REFERENCE,
    LT_NO_VALUE,
    LT_SUBGRAPH,
};

static const char* const k_lifetimes[] = {
    "TEMPORARY_VARIABLE", "SUBGRAPH_INPUT", "SUBGRAPH_OUTPUT", "CONSTANT_COPY",
    "CONSTANT_REFERENCE", "NO_VALUE", "SUBGRAPH",
};

/* The partitioned and fallback modes compute like sync with the test driver
 * (tests/sl_test_driver.c) loaded: supporting the even operation codes, or
 * failing every computation so that the CPU redoes its steps. The driver is
 * then loaded for the whole run, so the other modes listed with one of them
 * run across the partition too; they are not part of --all. */
enum { MODE_SYNC, MODE_ASYNC, MODE_BURST, MODE_MEMORY, MODE_DYNAMIC, MODE_REUSABLE, MODE_FENCED,
       MODE_CONSTANTS, MODE_CACHED, NUM_STANDARD_MODES,
       MODE_PARTITIONED = NUM_STANDARD_MODES, MODE_FALLBACK, NUM_MODES };

static const char* const k_mode_names[NUM_MODES] = {
    "sync", "async", "burst", "memory", "dynamic", "reusable", "fenced", "constants",
    "cached", "partitioned", "fallback",
};

#define TEST_DEVICE_NAME "nnapi_linux-test-npu"
/* Tests whose main model the test driver supports only in part: a split. */
static unsigned long g_split_models, g_driver_models;
static const ANeuralNetworksDevice* g_test_device;

/* Counts main models the test driver takes whole, in part or not at all. */
static void count_split(ANeuralNetworksModel* model, uint32_t n_ops) {
    if (g_test_device == NULL || n_ops == 0) return;
    bool* ops = calloc(n_ops, sizeof *ops);
    if (ops == NULL) return;
    if (ANeuralNetworksModel_getSupportedOperationsForDevices(model, &g_test_device, 1, ops) ==
        ANEURALNETWORKS_NO_ERROR) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < n_ops; k++) n += ops[k];
        g_driver_models += n > 0;
        g_split_models += n > 0 && n < n_ops;
    }
    free(ops);
}

static const char* const k_versions[] = {"V1_0", "V1_1", "V1_2", "V1_3", "V1_3_cts_only",
                                         "AIDL_V2", "AIDL_V3"};

static const char* result_name(int rc) {
    static const char* const names[] = {
        "NO_ERROR", "OUT_OF_MEMORY", "INCOMPLETE", "UNEXPECTED_NULL", "BAD_DATA",
        "OP_FAILED", "BAD_STATE", "UNMAPPABLE", "OUTPUT_INSUFFICIENT_SIZE",
        "UNAVAILABLE_DEVICE", "MISSED_DEADLINE_TRANSIENT", "MISSED_DEADLINE_PERSISTENT",
        "RESOURCE_EXHAUSTED_TRANSIENT", "RESOURCE_EXHAUSTED_PERSISTENT", "DEAD_OBJECT",
    };
    if (rc >= 0 && (size_t)rc < sizeof names / sizeof names[0]) return names[rc];
    return "unknown result code";
}

/* ---- Test representation ---- */

typedef struct {
    int32_t type;
    size_t elem_size;
    uint32_t rank;
    uint32_t* dims;
    float scale;
    int32_t zero_point;
    int lifetime;
    bool ignored;
    bool per_channel;
    uint32_t channel_dim;
    uint32_t n_scales;
    float* scales;
    bool has_data; /* false: no data given (temporaries, omitted inputs) */
    size_t count;  /* elements in data */
    size_t bytes;
    void* data;
    uint32_t subgraph; /* SUBGRAPH operands: index into referenced */
} operand;

typedef struct {
    int32_t type;
    uint32_t n_in, n_out;
    uint32_t* in;
    uint32_t* out;
} operation;

typedef struct {
    uint32_t n_operands, n_operations, n_inputs, n_outputs;
    operand* operands;
    operation* operations;
    uint32_t* inputs;
    uint32_t* outputs;
} subgraph;

typedef struct {
    const char* name;
    const char* spec;
    const char* version;
    bool expect_failure;
    bool relaxed;
    bool fp16_criterion; /* relaxed, or a FLOAT16 operand anywhere */
    int quant8_tolerance;
    double multinomial_tolerance;
    subgraph main;
    subgraph* refs;
    uint32_t n_refs;
    bool has_op[NUM_OPS];
} test_case;

/* ---- Small helpers ---- */

static void set_why(char* why, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, WHY_LEN, fmt, ap);
    va_end(ap);
}

/* Returns rc; on failure records which call failed with which code. */
static int api(int rc, char* why, const char* fmt, ...) {
    if (rc != ANEURALNETWORKS_NO_ERROR) {
        char call[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(call, sizeof call, fmt, ap);
        va_end(ap);
        set_why(why, "%s returned %s (%d)", call, result_name(rc), rc);
    }
    return rc;
}

static bool mul_size(size_t a, size_t b, size_t* out) {
    if (a != 0 && b > SIZE_MAX / a) return false;
    *out = a * b;
    return true;
}

static size_t align_up(size_t x) { return (x + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN; }

static uint16_t float_to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t man = x & 0x7FFFFFu;
    if (exp == 0xFF) return (uint16_t)(sign | 0x7C00u | (man ? 0x200u : 0u));
    int e = (int)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7C00u);
    if (e <= 0) {
        /* Subnormal half: the value in units of 2^-24, rounded to nearest even. */
        if (e < -10) return sign;
        man |= 0x800000u;
        unsigned shift = (unsigned)(14 - e);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (h & 1u))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1FFFu;
    /* A carry out of the mantissa correctly bumps the exponent (up to inf). */
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0) {
        float f = ldexpf((float)man, -24);
        return sign ? -f : f;
    }
    uint32_t bits = exp == 31 ? sign | 0x7F800000u | (man << 13)
                              : sign | ((exp + 112u) << 23) | (man << 13);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static bool is_float_type(int32_t t) {
    return t == ANEURALNETWORKS_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT32 ||
           t == ANEURALNETWORKS_FLOAT16 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
}

static bool is_half_type(int32_t t) {
    return t == ANEURALNETWORKS_FLOAT16 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
}

static bool is_tensor_type(int32_t t) {
    return t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_INT32 ||
           t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM || t == ANEURALNETWORKS_TENSOR_QUANT16_SYMM ||
           t == ANEURALNETWORKS_TENSOR_FLOAT16 || t == ANEURALNETWORKS_TENSOR_BOOL8 ||
           t == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL ||
           t == ANEURALNETWORKS_TENSOR_QUANT16_ASYMM || t == ANEURALNETWORKS_TENSOR_QUANT8_SYMM ||
           t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
}

/* Element i of a buffer of the operand's type, as a double. */
static double element(int32_t type, const void* buf, size_t i) {
    const unsigned char* p = buf;
    switch (type) {
    case ANEURALNETWORKS_FLOAT32:
    case ANEURALNETWORKS_TENSOR_FLOAT32: {
        float f;
        memcpy(&f, p + i * 4, 4);
        return f;
    }
    case ANEURALNETWORKS_FLOAT16:
    case ANEURALNETWORKS_TENSOR_FLOAT16: {
        uint16_t h;
        memcpy(&h, p + i * 2, 2);
        return half_to_float(h);
    }
    case ANEURALNETWORKS_INT32:
    case ANEURALNETWORKS_TENSOR_INT32: {
        int32_t v;
        memcpy(&v, p + i * 4, 4);
        return v;
    }
    case ANEURALNETWORKS_UINT32: {
        uint32_t v;
        memcpy(&v, p + i * 4, 4);
        return v;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: {
        int16_t v;
        memcpy(&v, p + i * 2, 2);
        return v;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: {
        uint16_t v;
        memcpy(&v, p + i * 2, 2);
        return v;
    }
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_BOOL:
    case ANEURALNETWORKS_TENSOR_BOOL8:
        return p[i];
    default: /* the signed 8-bit types */
        return (int8_t)p[i];
    }
}

/* ---- Conversion from JSON ---- */

static void subgraph_free(subgraph* sg) {
    for (uint32_t i = 0; i < sg->n_operands; i++) {
        free(sg->operands[i].dims);
        free(sg->operands[i].scales);
        free(sg->operands[i].data);
    }
    for (uint32_t i = 0; i < sg->n_operations; i++) {
        free(sg->operations[i].in);
        free(sg->operations[i].out);
    }
    free(sg->operands);
    free(sg->operations);
    free(sg->inputs);
    free(sg->outputs);
    memset(sg, 0, sizeof *sg);
}

static void test_free(test_case* t) {
    subgraph_free(&t->main);
    for (uint32_t i = 0; i < t->n_refs; i++) subgraph_free(&t->refs[i]);
    free(t->refs);
    memset(t, 0, sizeof *t);
}

static int op_code(const char* name) {
    for (int i = 0; name && i < NUM_OPS; i++)
        if (strcmp(k_op_names[i], name) == 0) return i;
    return -1;
}

/* A JSON array of non-negative integers (indexes or dimensions). */
static bool read_u32_list(const json_value* v, uint32_t** out, uint32_t* n, char* why,
                          const char* what) {
    *out = NULL;
    *n = 0;
    if (!json_is(v, JSON_ARRAY) || v->len > UINT32_MAX) {
        set_why(why, "vector error: %s is not a list", what);
        return false;
    }
    if (v->len == 0) return true;
    uint32_t* a = calloc(v->len, sizeof *a);
    if (!a) {
        set_why(why, "out of memory");
        return false;
    }
    for (size_t i = 0; i < v->len; i++) {
        int64_t x;
        if (!json_to_int64(&v->items[i], &x) || x < 0 || x > UINT32_MAX) {
            free(a);
            set_why(why, "vector error: bad value in %s", what);
            return false;
        }
        a[i] = (uint32_t)x;
    }
    *out = a;
    *n = (uint32_t)v->len;
    return true;
}

static bool store_value(operand* o, const json_value* v, size_t i) {
    unsigned char* p = (unsigned char*)o->data + i * o->elem_size;
    if (is_float_type(o->type)) {
        float f;
        if (!json_to_float(v, &f)) return false;
        if (is_half_type(o->type)) {
            uint16_t h = float_to_half(f);
            memcpy(p, &h, 2);
        } else {
            memcpy(p, &f, 4);
        }
        return true;
    }
    int64_t x;
    if (!json_to_int64(v, &x)) return false;
    switch (o->type) {
    case ANEURALNETWORKS_INT32:
    case ANEURALNETWORKS_TENSOR_INT32: {
        if (x < INT32_MIN || x > INT32_MAX) return false;
        int32_t y = (int32_t)x;
        memcpy(p, &y, 4);
        return true;
    }
    case ANEURALNETWORKS_UINT32: {
        if (x < 0 || x > UINT32_MAX) return false;
        uint32_t y = (uint32_t)x;
        memcpy(p, &y, 4);
        return true;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: {
        if (x < INT16_MIN || x > INT16_MAX) return false;
        int16_t y = (int16_t)x;
        memcpy(p, &y, 2);
        return true;
    }
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: {
        if (x < 0 || x > UINT16_MAX) return false;
        uint16_t y = (uint16_t)x;
        memcpy(p, &y, 2);
        return true;
    }
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_BOOL:
    case ANEURALNETWORKS_TENSOR_BOOL8:
        if (x < 0 || x > UINT8_MAX) return false;
        *p = (unsigned char)x;
        return true;
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: {
        if (x < INT8_MIN || x > INT8_MAX) return false;
        int8_t y = (int8_t)x;
        memcpy(p, &y, 1);
        return true;
    }
    default:
        return false;
    }
}

static bool read_operand(const json_value* jo, operand* o, uint32_t n_refs, char* why) {
    const char* tname = json_string(json_get(jo, "type"));
    const char* life = json_string(json_get(jo, "lifetime"));
    size_t t;
    for (t = 0; tname && t < sizeof k_types / sizeof k_types[0]; t++)
        if (strcmp(k_types[t].name, tname) == 0) break;
    if (!tname || t == sizeof k_types / sizeof k_types[0]) {
        set_why(why, "vector error: unknown operand type %s", tname ? tname : "(none)");
        return false;
    }
    o->type = k_types[t].code;
    o->elem_size = k_types[t].size;
    o->lifetime = -1;
    for (int l = 0; life && l < (int)(sizeof k_lifetimes / sizeof k_lifetimes[0]); l++)
        if (strcmp(k_lifetimes[l], life) == 0) o->lifetime = l;
    if (o->lifetime < 0) {
        set_why(why, "vector error: unknown lifetime %s", life ? life : "(none)");
        return false;
    }
    if (!read_u32_list(json_get(jo, "dims"), &o->dims, &o->rank, why, "dims")) return false;
    double scale = 0;
    int64_t zp = 0;
    if (json_get(jo, "scale") && !json_to_double(json_get(jo, "scale"), &scale)) goto bad;
    if (json_get(jo, "zero_point") &&
        (!json_to_int64(json_get(jo, "zero_point"), &zp) || zp < INT32_MIN || zp > INT32_MAX))
        goto bad;
    o->scale = (float)scale;
    o->zero_point = (int32_t)zp;
    o->ignored = json_is(json_get(jo, "ignored"), JSON_TRUE);

    const json_value* cq = json_get(jo, "channel_quant");
    if (json_is(cq, JSON_OBJECT)) {
        int64_t dim;
        const json_value* sc = json_get(cq, "scales");
        if (!json_to_int64(json_get(cq, "channel_dim"), &dim) || dim < 0 || dim > UINT32_MAX ||
            !json_is(sc, JSON_ARRAY) || sc->len == 0 || sc->len > UINT32_MAX)
            goto bad;
        o->per_channel = true;
        o->channel_dim = (uint32_t)dim;
        o->n_scales = (uint32_t)sc->len;
        o->scales = calloc(sc->len, sizeof *o->scales);
        if (!o->scales) goto oom;
        for (size_t i = 0; i < sc->len; i++)
            if (!json_to_float(&sc->items[i], &o->scales[i])) goto bad;
    }

    const json_value* data = json_get(jo, "data");
    if (!json_is(data, JSON_ARRAY)) goto bad;
    if (o->lifetime == LT_SUBGRAPH) {
        int64_t idx;
        if (data->len != 1 || !json_to_int64(&data->items[0], &idx) || idx < 0 ||
            idx >= (int64_t)n_refs)
            goto bad;
        o->subgraph = (uint32_t)idx;
        return true;
    }
    o->has_data = data->len > 0;
    o->count = data->len;
    if (!mul_size(o->count, o->elem_size, &o->bytes)) goto bad;
    if (o->count) {
        /* Element count must match the shape wherever the shape is known. */
        size_t expect = 1;
        bool known = true;
        for (uint32_t d = 0; d < o->rank; d++) {
            if (o->dims[d] == 0) known = false;
            if (!mul_size(expect, o->dims[d], &expect)) goto bad;
        }
        if ((known || expect == 0) && expect != o->count) {
            set_why(why, "vector error: %zu values for a shape of %zu elements", o->count, expect);
            return false;
        }
        o->data = malloc(o->bytes);
        if (!o->data) goto oom;
        for (size_t i = 0; i < data->len; i++)
            if (!store_value(o, &data->items[i], i)) goto bad;
    }
    return true;
oom:
    set_why(why, "out of memory");
    return false;
bad:
    set_why(why, "vector error: malformed operand");
    return false;
}

static bool read_subgraph(const json_value* js, subgraph* sg, uint32_t n_refs, bool* has_op,
                          bool* has_half, char* why) {
    const json_value* ops = json_get(js, "operands");
    const json_value* opns = json_get(js, "operations");
    if (!json_is(ops, JSON_ARRAY) || !json_is(opns, JSON_ARRAY) || ops->len > UINT32_MAX ||
        opns->len > UINT32_MAX) {
        set_why(why, "vector error: malformed subgraph");
        return false;
    }
    if (!read_u32_list(json_get(js, "inputs"), &sg->inputs, &sg->n_inputs, why, "inputs") ||
        !read_u32_list(json_get(js, "outputs"), &sg->outputs, &sg->n_outputs, why, "outputs"))
        return false;
    sg->operands = calloc(ops->len ? ops->len : 1, sizeof *sg->operands);
    sg->operations = calloc(opns->len ? opns->len : 1, sizeof *sg->operations);
    if (!sg->operands || !sg->operations) {
        set_why(why, "out of memory");
        return false;
    }
    for (size_t i = 0; i < ops->len; i++) {
        /* Counted before reading so that a partly read operand is freed too. */
        sg->n_operands++;
        if (!read_operand(&ops->items[i], &sg->operands[i], n_refs, why)) return false;
        if (is_half_type(sg->operands[i].type)) *has_half = true;
    }
    for (uint32_t i = 0; i < sg->n_inputs; i++)
        if (sg->inputs[i] >= sg->n_operands) goto bad_index;
    for (uint32_t i = 0; i < sg->n_outputs; i++)
        if (sg->outputs[i] >= sg->n_operands) goto bad_index;
    for (size_t i = 0; i < opns->len; i++) {
        operation* op = &sg->operations[i];
        sg->n_operations++;
        const char* type = json_string(json_get(&opns->items[i], "type"));
        op->type = op_code(type);
        if (op->type < 0) {
            set_why(why, "vector error: unknown operation %s", type ? type : "(none)");
            return false;
        }
        has_op[op->type] = true;
        if (!read_u32_list(json_get(&opns->items[i], "inputs"), &op->in, &op->n_in, why,
                           "operation inputs") ||
            !read_u32_list(json_get(&opns->items[i], "outputs"), &op->out, &op->n_out, why,
                           "operation outputs"))
            return false;
        for (uint32_t k = 0; k < op->n_in; k++)
            if (op->in[k] >= sg->n_operands) goto bad_index;
        for (uint32_t k = 0; k < op->n_out; k++)
            if (op->out[k] >= sg->n_operands) goto bad_index;
    }
    return true;
bad_index:
    set_why(why, "vector error: operand index out of range");
    return false;
}

static bool read_test(const json_value* jt, const char* spec, const char* version, test_case* t,
                      char* why) {
    memset(t, 0, sizeof *t);
    t->name = json_string(json_get(jt, "name"));
    t->spec = spec;
    t->version = version;
    if (!t->name) t->name = "(unnamed)";
    t->expect_failure = json_is(json_get(jt, "expect_failure"), JSON_TRUE);
    t->relaxed = json_is(json_get(jt, "relaxed"), JSON_TRUE);
    t->quant8_tolerance = strstr(t->name, "mobilenet") ? 3 : 1;
    if (json_get(jt, "multinomial_tolerance") &&
        !json_to_double(json_get(jt, "multinomial_tolerance"), &t->multinomial_tolerance)) {
        set_why(why, "vector error: bad multinomial_tolerance");
        return false;
    }
    const json_value* refs = json_get(jt, "referenced");
    if (refs && (!json_is(refs, JSON_ARRAY) || refs->len > UINT32_MAX)) {
        set_why(why, "vector error: malformed referenced list");
        return false;
    }
    uint32_t n_refs = refs ? (uint32_t)refs->len : 0;
    if (n_refs) {
        t->refs = calloc(n_refs, sizeof *t->refs);
        if (!t->refs) {
            set_why(why, "out of memory");
            return false;
        }
    }
    bool has_half = false;
    for (uint32_t i = 0; i < n_refs; i++) {
        t->n_refs++;
        if (!read_subgraph(&refs->items[i], &t->refs[i], n_refs, t->has_op, &has_half, why))
            return false;
    }
    if (!read_subgraph(json_get(jt, "main"), &t->main, n_refs, t->has_op, &has_half, why))
        return false;
    t->fp16_criterion = t->relaxed || has_half;
    return true;
}

/* Operation types of a test straight from JSON, for selection before conversion. */
static void json_test_ops(const json_value* jt, bool* has_op) {
    memset(has_op, 0, NUM_OPS * sizeof *has_op);
    const json_value* refs = json_get(jt, "referenced");
    size_t n = json_is(refs, JSON_ARRAY) ? refs->len : 0;
    for (size_t g = 0; g <= n; g++) {
        const json_value* sg = g < n ? &refs->items[g] : json_get(jt, "main");
        const json_value* opns = json_get(sg, "operations");
        for (size_t i = 0; json_is(opns, JSON_ARRAY) && i < opns->len; i++) {
            int c = op_code(json_string(json_get(&opns->items[i], "type")));
            if (c >= 0) has_op[c] = true;
        }
    }
}

/* ---- Shared memory ---- */

/* A memfd of the given size mapped read-write; the fd is closed once the
 * runtime has its own reference (createFromFd duplicates it). */
static void* memfd_map(size_t size, int* fd_out, char* why) {
    int fd = memfd_create("nn_cts", MFD_CLOEXEC);
    if (fd < 0) {
        set_why(why, "runner: memfd_create failed: %s", strerror(errno));
        return NULL;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        set_why(why, "runner: ftruncate failed: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        set_why(why, "runner: mmap failed: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    *fd_out = fd;
    return p;
}

/* ---- Models and compilations ---- */

typedef struct {
    ANeuralNetworksModel* model;
    ANeuralNetworksMemory* pool; /* CONSTANT_REFERENCE values */
    int state;                   /* 0 not built, 1 being built, 2 built */
} built_model;

typedef struct {
    built_model main;
    built_model* refs;
    uint32_t n_refs;
    ANeuralNetworksCompilation* compilation;
    bool attempted;
    int rc; /* first failing result code, NO_ERROR when ready */
    char why[WHY_LEN];
} prepared;

enum { OUTCOME_OK, OUTCOME_MISMATCH, OUTCOME_API_ERROR, OUTCOME_RUNNER_ERROR, OUTCOME_SKIP };

static void built_free(built_model* b) {
    ANeuralNetworksModel_free(b->model);
    ANeuralNetworksMemory_free(b->pool);
    b->model = NULL;
    b->pool = NULL;
}

static void prepared_free(prepared* p) {
    ANeuralNetworksCompilation_free(p->compilation);
    built_free(&p->main);
    for (uint32_t i = 0; i < p->n_refs; i++) built_free(&p->refs[i]);
    free(p->refs);
    memset(p, 0, sizeof *p);
}

static int build_ref(const test_case* t, prepared* p, uint32_t r, char* why);

/* Main-model inputs that stay inputs: all of them, or in the constants mode
 * only the first. */
static uint32_t bound_inputs(const test_case* t, bool constants) {
    return constants && t->main.n_inputs > 1 ? 1 : t->main.n_inputs;
}

/* Lifetimes the model is built with. In the constants mode the inputs after
 * the first become constants: those with data alternately copied and
 * referenced from the pool, omitted ones without a value. */
static int* build_lifetimes(const subgraph* sg, uint32_t n_bound, char* why) {
    int* life = malloc((sg->n_operands ? sg->n_operands : 1) * sizeof *life);
    if (!life) {
        set_why(why, "out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < sg->n_operands; i++) life[i] = sg->operands[i].lifetime;
    bool copy = true;
    for (uint32_t k = n_bound; k < sg->n_inputs; k++) {
        const operand* o = &sg->operands[sg->inputs[k]];
        if (!o->has_data) {
            life[sg->inputs[k]] = LT_NO_VALUE;
            continue;
        }
        life[sg->inputs[k]] = copy ? LT_CONSTANT_COPY : LT_CONSTANT_REFERENCE;
        copy = !copy;
    }
    return life;
}

/* Builds and finishes one subgraph with the given lifetimes, of which the
 * first n_bound inputs are model inputs. Returns a ResultCode, or -1 for a
 * runner error (why says which). */
static int build_model(const test_case* t, prepared* p, const subgraph* sg, bool is_main,
                       bool dynamic, const int* life, uint32_t n_bound, built_model* b,
                       char* why) {
    int rc;
    rc = api(ANeuralNetworksModel_create(&b->model), why, "ANeuralNetworksModel_create");
    if (rc) return rc;

    /* Lay out the CONSTANT_REFERENCE values in one shared-memory pool. */
    size_t pool_size = 0;
    for (uint32_t i = 0; i < sg->n_operands; i++) {
        const operand* o = &sg->operands[i];
        if (life[i] == LT_CONSTANT_REFERENCE) pool_size = align_up(pool_size) + o->bytes;
    }
    if (pool_size) {
        int fd;
        unsigned char* map = memfd_map(pool_size, &fd, why);
        if (!map) return -1;
        size_t off = 0;
        for (uint32_t i = 0; i < sg->n_operands; i++) {
            const operand* o = &sg->operands[i];
            if (life[i] != LT_CONSTANT_REFERENCE) continue;
            off = align_up(off);
            if (o->bytes) memcpy(map + off, o->data, o->bytes);
            off += o->bytes;
        }
        munmap(map, pool_size);
        rc = api(ANeuralNetworksMemory_createFromFd(pool_size, PROT_READ, fd, 0, &b->pool), why,
                 "ANeuralNetworksMemory_createFromFd(constants, %zu bytes)", pool_size);
        close(fd);
        if (rc) return rc;
    }

    size_t off = 0;
    for (uint32_t i = 0; i < sg->n_operands; i++) {
        const operand* o = &sg->operands[i];
        uint32_t zeros[8] = {0};
        bool is_output = false;
        for (uint32_t k = 0; is_main && dynamic && k < sg->n_outputs; k++)
            if (sg->outputs[k] == i) is_output = true;
        ANeuralNetworksOperandType type = {
            .type = o->type,
            .dimensionCount = o->rank,
            .dimensions = o->rank ? o->dims : NULL,
            .scale = o->scale,
            .zeroPoint = o->zero_point,
        };
        /* Dynamic mode: outputs of the main model keep their rank only. */
        uint32_t* dyn = NULL;
        if (is_output && o->rank) {
            dyn = o->rank <= 8 ? zeros : calloc(o->rank, sizeof *dyn);
            if (!dyn) {
                set_why(why, "out of memory");
                return -1;
            }
            type.dimensions = dyn;
        }
        rc = api(ANeuralNetworksModel_addOperand(b->model, &type), why,
                 "ANeuralNetworksModel_addOperand(%u)", i);
        if (dyn && dyn != zeros) free(dyn);
        if (rc) return rc;
        if (o->per_channel) {
            ANeuralNetworksSymmPerChannelQuantParams cq = {
                .channelDim = o->channel_dim, .scaleCount = o->n_scales, .scales = o->scales};
            rc = api(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(b->model, (int32_t)i,
                                                                             &cq),
                     why, "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(%u)", i);
            if (rc) return rc;
        }
        switch (life[i]) {
        case LT_CONSTANT_COPY: {
            /* Values longer than 128 bytes are referenced, not copied: o->data
             * lives until the test is freed, after the model. */
            static const unsigned char empty[1];
            rc = api(ANeuralNetworksModel_setOperandValue(b->model, (int32_t)i,
                                                          o->data ? o->data : empty, o->bytes),
                     why, "ANeuralNetworksModel_setOperandValue(%u)", i);
            break;
        }
        case LT_CONSTANT_REFERENCE:
            off = align_up(off);
            rc = api(ANeuralNetworksModel_setOperandValueFromMemory(b->model, (int32_t)i, b->pool,
                                                                    off, o->bytes),
                     why, "ANeuralNetworksModel_setOperandValueFromMemory(%u)", i);
            off += o->bytes;
            break;
        case LT_NO_VALUE:
            rc = api(ANeuralNetworksModel_setOperandValue(b->model, (int32_t)i, NULL, 0), why,
                     "ANeuralNetworksModel_setOperandValue(%u, NULL)", i);
            break;
        case LT_SUBGRAPH:
            rc = build_ref(t, p, o->subgraph, why);
            if (rc) return rc;
            rc = api(ANeuralNetworksModel_setOperandValueFromModel(b->model, (int32_t)i,
                                                                   p->refs[o->subgraph].model),
                     why, "ANeuralNetworksModel_setOperandValueFromModel(%u)", i);
            break;
        default:
            rc = ANEURALNETWORKS_NO_ERROR;
            break;
        }
        if (rc) return rc;
    }
    for (uint32_t i = 0; i < sg->n_operations; i++) {
        const operation* op = &sg->operations[i];
        rc = api(ANeuralNetworksModel_addOperation(b->model, op->type, op->n_in, op->in,
                                                   op->n_out, op->out),
                 why, "ANeuralNetworksModel_addOperation(%u: %s)", i, k_op_names[op->type]);
        if (rc) return rc;
    }
    rc = api(ANeuralNetworksModel_identifyInputsAndOutputs(b->model, n_bound, sg->inputs,
                                                           sg->n_outputs, sg->outputs),
             why, "ANeuralNetworksModel_identifyInputsAndOutputs");
    if (rc) return rc;
    if (is_main && t->relaxed) {
        rc = api(ANeuralNetworksModel_relaxComputationFloat32toFloat16(b->model, true), why,
                 "ANeuralNetworksModel_relaxComputationFloat32toFloat16");
        if (rc) return rc;
    }
    return api(ANeuralNetworksModel_finish(b->model), why, "ANeuralNetworksModel_finish%s",
               is_main ? "" : " (referenced model)");
}

/* Builds and finishes one subgraph. Returns a ResultCode, or -1 for a runner
 * error (why says which). */
static int build_subgraph(const test_case* t, prepared* p, const subgraph* sg, bool is_main,
                          bool dynamic, bool constants, built_model* b, char* why) {
    uint32_t n_bound = is_main ? bound_inputs(t, constants) : sg->n_inputs;
    int* life = build_lifetimes(sg, n_bound, why);
    if (!life) return -1;
    int rc = build_model(t, p, sg, is_main, dynamic, life, n_bound, b, why);
    free(life);
    return rc;
}

static int build_ref(const test_case* t, prepared* p, uint32_t r, char* why) {
    built_model* b = &p->refs[r];
    if (b->state == 2) return ANEURALNETWORKS_NO_ERROR;
    if (b->state == 1) {
        set_why(why, "vector error: referenced subgraphs form a cycle");
        return -1;
    }
    b->state = 1;
    int rc = build_subgraph(t, p, &t->refs[r], false, false, false, b, why);
    b->state = 2;
    return rc;
}

static void prepare(const test_case* t, prepared* p, bool dynamic, bool constants) {
    p->attempted = true;
    if (t->n_refs) {
        p->refs = calloc(t->n_refs, sizeof *p->refs);
        if (!p->refs) {
            p->rc = -1;
            set_why(p->why, "out of memory");
            return;
        }
        p->n_refs = t->n_refs;
    }
    p->rc = build_subgraph(t, p, &t->main, true, dynamic, constants, &p->main, p->why);
    if (p->rc) return;
    if (!dynamic && !constants) count_split(p->main.model, t->main.n_operations);
    p->rc = api(ANeuralNetworksCompilation_create(p->main.model, &p->compilation), p->why,
                "ANeuralNetworksCompilation_create");
    if (p->rc) return;
    p->rc = api(ANeuralNetworksCompilation_finish(p->compilation), p->why,
                "ANeuralNetworksCompilation_finish");
}

/* ---- Inputs and outputs of one execution ---- */

typedef struct {
    uint32_t n_in;           /* leading main-model inputs bound to the execution */
    uint32_t n_out;
    unsigned char** out;     /* where output i lands */
    size_t* out_len;         /* bytes handed to the runtime for output i */
    unsigned char** heap;    /* buffer mode: owned output buffers */
    size_t* in_off;          /* memory mode: input offsets */
    size_t* out_off;         /* memory mode: output offsets */
    ANeuralNetworksMemory* in_mem;
    ANeuralNetworksMemory* out_mem;
    unsigned char* out_map;
    size_t out_map_size;
    bool use_memory;
} io_set;

static void io_free(io_set* io) {
    for (uint32_t i = 0; io->heap && i < io->n_out; i++) free(io->heap[i]);
    free(io->heap);
    free(io->out);
    free(io->out_len);
    free(io->in_off);
    free(io->out_off);
    ANeuralNetworksMemory_free(io->in_mem);
    ANeuralNetworksMemory_free(io->out_mem);
    if (io->out_map) munmap(io->out_map, io->out_map_size);
    memset(io, 0, sizeof *io);
}

/* Buffers for the test's first n_in inputs and its outputs. Output `short_out`
 * (or none when it is out of range) gets one element less than it needs.
 * Zero-sized outputs still get a one-byte buffer, as the CTS harness does. */
static int io_init(const test_case* t, io_set* io, uint32_t n_in_bound, bool use_memory,
                   uint32_t short_out, char* why) {
    const subgraph* sg = &t->main;
    memset(io, 0, sizeof *io);
    io->use_memory = use_memory;
    io->n_in = n_in_bound;
    io->n_out = sg->n_outputs;
    uint32_t n_out = sg->n_outputs ? sg->n_outputs : 1;
    uint32_t n_in = sg->n_inputs ? sg->n_inputs : 1;
    io->out = calloc(n_out, sizeof *io->out);
    io->out_len = calloc(n_out, sizeof *io->out_len);
    io->heap = calloc(n_out, sizeof *io->heap);
    io->in_off = calloc(n_in, sizeof *io->in_off);
    io->out_off = calloc(n_out, sizeof *io->out_off);
    if (!io->out || !io->out_len || !io->heap || !io->in_off || !io->out_off) goto oom;
    for (uint32_t i = 0; i < sg->n_outputs; i++) {
        const operand* o = &sg->operands[sg->outputs[i]];
        size_t len = o->bytes;
        if (i == short_out) len -= o->elem_size;
        else if (len == 0) len = 1;
        io->out_len[i] = len;
    }
    if (!use_memory) {
        for (uint32_t i = 0; i < sg->n_outputs; i++) {
            io->heap[i] = malloc(io->out_len[i] ? io->out_len[i] : 1);
            if (!io->heap[i]) goto oom;
            io->out[i] = io->heap[i];
        }
        return OUTCOME_OK;
    }

    size_t in_size = 0;
    for (uint32_t i = 0; i < io->n_in; i++) {
        const operand* o = &sg->operands[sg->inputs[i]];
        if (!o->has_data) continue;
        io->in_off[i] = align_up(in_size + 1);
        in_size = io->in_off[i] + o->bytes;
    }
    if (in_size) {
        int fd;
        unsigned char* map = memfd_map(in_size, &fd, why);
        if (!map) return OUTCOME_RUNNER_ERROR;
        for (uint32_t i = 0; i < io->n_in; i++) {
            const operand* o = &sg->operands[sg->inputs[i]];
            if (o->has_data) memcpy(map + io->in_off[i], o->data, o->bytes);
        }
        munmap(map, in_size);
        int rc = api(ANeuralNetworksMemory_createFromFd(in_size, PROT_READ, fd, 0, &io->in_mem),
                     why, "ANeuralNetworksMemory_createFromFd(inputs, %zu bytes)", in_size);
        close(fd);
        if (rc) return OUTCOME_API_ERROR;
    }
    size_t out_size = 0;
    for (uint32_t i = 0; i < sg->n_outputs; i++) {
        io->out_off[i] = align_up(out_size + 1);
        out_size = io->out_off[i] + io->out_len[i];
    }
    if (out_size) {
        int fd;
        io->out_map = memfd_map(out_size, &fd, why);
        if (!io->out_map) return OUTCOME_RUNNER_ERROR;
        io->out_map_size = out_size;
        int rc = api(ANeuralNetworksMemory_createFromFd(out_size, PROT_READ | PROT_WRITE, fd, 0,
                                                        &io->out_mem),
                     why, "ANeuralNetworksMemory_createFromFd(outputs, %zu bytes)", out_size);
        close(fd);
        if (rc) return OUTCOME_API_ERROR;
        for (uint32_t i = 0; i < sg->n_outputs; i++) io->out[i] = io->out_map + io->out_off[i];
    }
    return OUTCOME_OK;
oom:
    set_why(why, "out of memory");
    return OUTCOME_RUNNER_ERROR;
}

/* Poisons the outputs so that stale results of an earlier run cannot pass. */
static void io_poison(io_set* io) {
    for (uint32_t i = 0; i < io->n_out; i++)
        if (io->out[i]) memset(io->out[i], 0xA5, io->out_len[i]);
}

static int io_bind(const test_case* t, io_set* io, ANeuralNetworksExecution* e, char* why) {
    const subgraph* sg = &t->main;
    for (uint32_t i = 0; i < io->n_in; i++) {
        const operand* o = &sg->operands[sg->inputs[i]];
        int rc;
        if (!o->has_data) {
            rc = api(ANeuralNetworksExecution_setInput(e, (int32_t)i, NULL, NULL, 0), why,
                     "ANeuralNetworksExecution_setInput(%u, omitted)", i);
        } else if (io->use_memory) {
            rc = api(ANeuralNetworksExecution_setInputFromMemory(e, (int32_t)i, NULL, io->in_mem,
                                                                 io->in_off[i], o->bytes),
                     why, "ANeuralNetworksExecution_setInputFromMemory(%u)", i);
        } else {
            rc = api(ANeuralNetworksExecution_setInput(e, (int32_t)i, NULL, o->data, o->bytes),
                     why, "ANeuralNetworksExecution_setInput(%u)", i);
        }
        if (rc) return rc;
    }
    for (uint32_t i = 0; i < sg->n_outputs; i++) {
        int rc;
        if (io->use_memory) {
            rc = api(ANeuralNetworksExecution_setOutputFromMemory(e, (int32_t)i, NULL, io->out_mem,
                                                                  io->out_off[i], io->out_len[i]),
                     why, "ANeuralNetworksExecution_setOutputFromMemory(%u)", i);
        } else {
            rc = api(ANeuralNetworksExecution_setOutput(e, (int32_t)i, NULL, io->out[i],
                                                        io->out_len[i]),
                     why, "ANeuralNetworksExecution_setOutput(%u)", i);
        }
        if (rc) return rc;
    }
    return ANEURALNETWORKS_NO_ERROR;
}

/* ---- Result checks ---- */

/* Class frequencies of RANDOM_MULTINOMIAL samples against softmax(logits). */
static bool check_multinomial(const test_case* t, const operation* op, const void* actual,
                              char* why) {
    const operand* logits = &t->main.operands[op->in[0]];
    const operand* out = &t->main.operands[op->out[0]];
    if (!logits->has_data || logits->rank != 2 || out->rank != 2) {
        set_why(why, "runner: RANDOM_MULTINOMIAL logits are not a model input of rank 2");
        return false;
    }
    uint32_t batches = logits->dims[0], classes = logits->dims[1], samples = out->dims[1];
    if (out->dims[0] != batches || samples == 0) {
        set_why(why, "runner: RANDOM_MULTINOMIAL shapes do not match");
        return false;
    }
    double* freq = calloc(classes ? classes : 1, sizeof *freq);
    if (!freq) {
        set_why(why, "out of memory");
        return false;
    }
    bool ok = true;
    for (uint32_t b = 0; ok && b < batches; b++) {
        memset(freq, 0, classes * sizeof *freq);
        for (uint32_t s = 0; s < samples; s++) {
            double c = element(ANEURALNETWORKS_TENSOR_INT32, actual, (size_t)b * samples + s);
            if (c < 0 || c >= classes) {
                set_why(why, "output sample [%u,%u] = %.0f is not a class index", b, s, c);
                ok = false;
                break;
            }
            freq[(uint32_t)c] += 1.0 / samples;
        }
        double maxv = -INFINITY, sum = 0;
        for (uint32_t c = 0; ok && c < classes; c++) {
            double v = element(logits->type, logits->data, (size_t)b * classes + c);
            if (v > maxv) maxv = v;
        }
        for (uint32_t c = 0; ok && c < classes; c++)
            sum += exp(element(logits->type, logits->data, (size_t)b * classes + c) - maxv);
        for (uint32_t c = 0; ok && c < classes; c++) {
            double p =
                exp(element(logits->type, logits->data, (size_t)b * classes + c) - maxv) / sum;
            if (fabs(freq[c] - p) > t->multinomial_tolerance) {
                set_why(why, "class %u of batch %u: frequency %.4f, probability %.4f", c, b,
                        freq[c], p);
                ok = false;
            }
        }
    }
    free(freq);
    return ok;
}

static bool check_values(const test_case* t, uint32_t index, const operand* o, const void* actual,
                         char* why) {
    for (uint32_t k = 0; k < t->main.n_operations; k++) {
        const operation* op = &t->main.operations[k];
        if (op->type == ANEURALNETWORKS_RANDOM_MULTINOMIAL && op->n_out == 1 && op->n_in >= 1 &&
            op->out[0] == t->main.outputs[index])
            return check_multinomial(t, op, actual, why);
    }
    double atol = 0, rtol = 0;
    if (is_half_type(o->type) || (is_float_type(o->type) && t->fp16_criterion)) {
        atol = rtol = 5 * 0.0009765625;
    } else if (is_float_type(o->type)) {
        atol = 1e-5;
        rtol = 5 * (double)FLT_EPSILON;
    } else if (o->type == ANEURALNETWORKS_TENSOR_BOOL8 || o->type == ANEURALNETWORKS_BOOL) {
        atol = 0;
    } else if (o->elem_size == 1) {
        atol = t->quant8_tolerance;
    } else {
        atol = 1;
    }
    for (size_t i = 0; i < o->count; i++) {
        double want = element(o->type, o->data, i);
        double got = element(o->type, actual, i);
        bool ok;
        if (isnan(want)) ok = isnan(got);
        else if (isinf(want)) ok = got == want;
        else ok = fabs(got - want) <= atol + rtol * fabs(want);
        if (!ok) {
            set_why(why, "output %u element %zu: expected %.9g, actual %.9g (tolerance %.3g)",
                    index, i, want, got, atol + rtol * fabs(want));
            return false;
        }
    }
    return true;
}

/* Shapes reported by the execution and values of every compared output. */
static int check_outputs(const test_case* t, io_set* io, ANeuralNetworksExecution* e, char* why) {
    const subgraph* sg = &t->main;
    for (uint32_t i = 0; i < sg->n_outputs; i++) {
        const operand* o = &sg->operands[sg->outputs[i]];
        if (o->ignored) continue;
        uint32_t rank = 0;
        if (api(ANeuralNetworksExecution_getOutputOperandRank(e, (int32_t)i, &rank), why,
                "ANeuralNetworksExecution_getOutputOperandRank(%u)", i))
            return OUTCOME_API_ERROR;
        if (rank != o->rank) {
            set_why(why, "output %u: rank %u, expected %u", i, rank, o->rank);
            return OUTCOME_MISMATCH;
        }
        if (rank) {
            uint32_t* dims = calloc(rank, sizeof *dims);
            if (!dims) {
                set_why(why, "out of memory");
                return OUTCOME_RUNNER_ERROR;
            }
            int rc = api(ANeuralNetworksExecution_getOutputOperandDimensions(e, (int32_t)i, dims),
                         why, "ANeuralNetworksExecution_getOutputOperandDimensions(%u)", i);
            int outcome = rc ? OUTCOME_API_ERROR : OUTCOME_OK;
            for (uint32_t d = 0; !rc && d < rank; d++) {
                if (dims[d] != o->dims[d]) {
                    set_why(why, "output %u: dimension %u is %u, expected %u", i, d, dims[d],
                            o->dims[d]);
                    outcome = OUTCOME_MISMATCH;
                    break;
                }
            }
            free(dims);
            if (outcome != OUTCOME_OK) return outcome;
        }
        if (!check_values(t, i, o, io->out[i], why)) return OUTCOME_MISMATCH;
    }
    return OUTCOME_OK;
}

/* ---- Execution modes ---- */

typedef enum { RUN_SYNC, RUN_ASYNC, RUN_BURST, RUN_FENCED } run_kind;

static int execution_create(const test_case* t, ANeuralNetworksCompilation* c, bool reusable,
                            ANeuralNetworksExecution** e, char* why) {
    *e = NULL;
    int rc = api(ANeuralNetworksExecution_create(c, e), why, "ANeuralNetworksExecution_create");
    if (rc) return rc;
    if (reusable) {
        rc = api(ANeuralNetworksExecution_setReusable(*e, true), why,
                 "ANeuralNetworksExecution_setReusable");
        if (rc) return rc;
    }
    if (t->expect_failure) {
        /* Only shortens the wait for an expected failure; its result does not matter. */
        (void)ANeuralNetworksExecution_setLoopTimeout(*e, EXPECT_FAILURE_LOOP_TIMEOUT_NS);
    }
    return ANEURALNETWORKS_NO_ERROR;
}

/* Runs an execution to completion. For fenced runs with keep_event, the event
 * is handed back instead of being waited for. */
static int run(ANeuralNetworksExecution* e, run_kind kind, ANeuralNetworksCompilation* c,
               const ANeuralNetworksEvent* dep, ANeuralNetworksEvent** keep_event, char* why) {
    int rc;
    ANeuralNetworksEvent* ev = NULL;
    switch (kind) {
    case RUN_SYNC:
        return api(ANeuralNetworksExecution_compute(e), why, "ANeuralNetworksExecution_compute");
    case RUN_ASYNC:
        rc = api(ANeuralNetworksExecution_startCompute(e, &ev), why,
                 "ANeuralNetworksExecution_startCompute");
        if (!rc) rc = api(ANeuralNetworksEvent_wait(ev), why, "ANeuralNetworksEvent_wait");
        ANeuralNetworksEvent_free(ev);
        return rc;
    case RUN_BURST: {
        ANeuralNetworksBurst* burst = NULL;
        rc = api(ANeuralNetworksBurst_create(c, &burst), why, "ANeuralNetworksBurst_create");
        if (!rc)
            rc = api(ANeuralNetworksExecution_burstCompute(e, burst), why,
                     "ANeuralNetworksExecution_burstCompute");
        ANeuralNetworksBurst_free(burst);
        return rc;
    }
    case RUN_FENCED:
        rc = api(ANeuralNetworksExecution_startComputeWithDependencies(e, dep ? &dep : NULL,
                                                                       dep ? 1 : 0, 0, &ev),
                 why, "ANeuralNetworksExecution_startComputeWithDependencies%s",
                 dep ? " (chained)" : "");
        if (rc) {
            ANeuralNetworksEvent_free(ev);
            return rc;
        }
        if (keep_event) {
            *keep_event = ev;
            return rc;
        }
        rc = api(ANeuralNetworksEvent_wait(ev), why, "ANeuralNetworksEvent_wait (fenced)");
        ANeuralNetworksEvent_free(ev);
        return rc;
    }
    return ANEURALNETWORKS_BAD_STATE;
}

/* One execution of the compilation with fresh buffers, checked. `times` runs
 * the same (reusable) execution repeatedly; n_in inputs are bound. */
static int run_checked(const test_case* t, ANeuralNetworksCompilation* c, run_kind kind,
                       uint32_t n_in, bool use_memory, int times, char* why) {
    io_set io;
    ANeuralNetworksExecution* e = NULL;
    int outcome = io_init(t, &io, n_in, use_memory, UINT32_MAX, why);
    if (outcome != OUTCOME_OK) goto done;
    if (execution_create(t, c, times > 1, &e, why) || io_bind(t, &io, e, why)) {
        outcome = OUTCOME_API_ERROR;
        goto done;
    }
    for (int k = 0; k < times && outcome == OUTCOME_OK; k++) {
        io_poison(&io);
        if (run(e, kind, c, NULL, NULL, why)) {
            outcome = OUTCOME_API_ERROR;
        } else {
            outcome = check_outputs(t, &io, e, why);
            if (outcome != OUTCOME_OK && times > 1) {
                char tmp[WHY_LEN];
                snprintf(tmp, sizeof tmp, "%s", why);
                set_why(why, "run %d: %s", k + 1, tmp);
            }
        }
    }
done:
    ANeuralNetworksExecution_free(e);
    io_free(&io);
    return outcome;
}

/* Output of the most elements (a tensor with at least one), or UINT32_MAX. */
static uint32_t output_to_shorten(const test_case* t) {
    uint32_t best = UINT32_MAX;
    size_t most = 0;
    for (uint32_t i = 0; i < t->main.n_outputs; i++) {
        const operand* o = &t->main.operands[t->main.outputs[i]];
        if (is_tensor_type(o->type) && o->rank > 0 && o->count > most) {
            most = o->count;
            best = i;
        }
    }
    return best;
}

static int mode_dynamic(const test_case* t, ANeuralNetworksCompilation* c, char* why) {
    int outcome = run_checked(t, c, RUN_SYNC, t->main.n_inputs, false, 1, why);
    if (outcome != OUTCOME_OK || t->expect_failure) return outcome;
    uint32_t k = output_to_shorten(t);
    if (k == UINT32_MAX) return outcome; /* nothing can be one element short */
    io_set io;
    ANeuralNetworksExecution* e = NULL;
    outcome = io_init(t, &io, t->main.n_inputs, false, k, why);
    if (outcome == OUTCOME_OK) {
        if (execution_create(t, c, false, &e, why) || io_bind(t, &io, e, why)) {
            outcome = OUTCOME_API_ERROR;
        } else {
            int rc = ANeuralNetworksExecution_compute(e);
            if (rc != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
                set_why(why,
                        "output %u one element short: ANeuralNetworksExecution_compute returned "
                        "%s (%d), expected OUTPUT_INSUFFICIENT_SIZE",
                        k, result_name(rc), rc);
                outcome = rc ? OUTCOME_API_ERROR : OUTCOME_MISMATCH;
            }
        }
    }
    ANeuralNetworksExecution_free(e);
    io_free(&io);
    return outcome;
}

static bool has_unknown_output_dims(const test_case* t) {
    for (uint32_t i = 0; i < t->main.n_outputs; i++) {
        const operand* o = &t->main.operands[t->main.outputs[i]];
        if (is_tensor_type(o->type) && o->rank == 0) return true;
        for (uint32_t d = 0; d < o->rank; d++)
            if (o->dims[d] == 0) return true;
    }
    return false;
}

/* A first fenced execution's event is the dependency of a second one. */
static int fenced_chain(const test_case* t, ANeuralNetworksCompilation* c, char* why) {
    io_set io[2];
    ANeuralNetworksExecution* e[2] = {NULL, NULL};
    ANeuralNetworksEvent* ev[2] = {NULL, NULL};
    int outcome = OUTCOME_OK;
    int ready = 0;
    for (; ready < 2 && outcome == OUTCOME_OK; ready++) {
        outcome = io_init(t, &io[ready], t->main.n_inputs, false, UINT32_MAX, why);
        if (outcome == OUTCOME_OK &&
            (execution_create(t, c, false, &e[ready], why) || io_bind(t, &io[ready], e[ready], why)))
            outcome = OUTCOME_API_ERROR;
        io_poison(&io[ready]);
    }
    if (outcome == OUTCOME_OK && run(e[0], RUN_FENCED, c, NULL, &ev[0], why))
        outcome = OUTCOME_API_ERROR;
    if (outcome == OUTCOME_OK && run(e[1], RUN_FENCED, c, ev[0], &ev[1], why))
        outcome = OUTCOME_API_ERROR;
    /* Both events are waited for: waiting releases the execution's resources. */
    if (ev[1] && api(ANeuralNetworksEvent_wait(ev[1]), why,
                     "ANeuralNetworksEvent_wait (chained second)") && outcome == OUTCOME_OK)
        outcome = OUTCOME_API_ERROR;
    if (ev[0] && api(ANeuralNetworksEvent_wait(ev[0]), why,
                     "ANeuralNetworksEvent_wait (chained first)") && outcome == OUTCOME_OK)
        outcome = OUTCOME_API_ERROR;
    if (outcome == OUTCOME_OK) {
        outcome = check_outputs(t, &io[1], e[1], why);
        if (outcome != OUTCOME_OK) {
            char tmp[WHY_LEN];
            snprintf(tmp, sizeof tmp, "%s", why);
            set_why(why, "chained second execution: %s", tmp);
        }
    }
    if (outcome == OUTCOME_OK) outcome = check_outputs(t, &io[0], e[0], why);
    ANeuralNetworksEvent_free(ev[1]);
    ANeuralNetworksEvent_free(ev[0]);
    for (int i = 0; i < ready; i++) {
        ANeuralNetworksExecution_free(e[i]);
        io_free(&io[i]);
    }
    return outcome;
}

static int mode_fenced(const test_case* t, ANeuralNetworksCompilation* c, char* why) {
    /* Fenced executions need fully specified outputs; zero-sized outputs can
     * only be declared with an unknown dimension. */
    if (has_unknown_output_dims(t)) {
        set_why(why, "outputs with unspecified dimensions cannot be fenced");
        return OUTCOME_SKIP;
    }
    int outcome = run_checked(t, c, RUN_FENCED, t->main.n_inputs, false, 1, why);
    if (outcome != OUTCOME_OK || t->expect_failure) return outcome;
    return fenced_chain(t, c, why);
}

/* ---- The cached mode ---- */

/* One directory for the run's cache entries (tmpfs when there is one: each
 * entry written is synced), each test under its own token. */
static char cache_dir[64];
static unsigned long cache_serial;

static void cache_dir_remove(void) { rmdir(cache_dir); }

/* Runs c once into io (left allocated for the caller), checked as usual. */
static int run_into(const test_case* t, ANeuralNetworksCompilation* c, uint32_t n_in, io_set* io,
                    char* why) {
    ANeuralNetworksExecution* e = NULL;
    int outcome = io_init(t, io, n_in, false, UINT32_MAX, why);
    if (outcome != OUTCOME_OK) return outcome;
    if (execution_create(t, c, false, &e, why) || io_bind(t, io, e, why)) {
        outcome = OUTCOME_API_ERROR;
    } else {
        io_poison(io);
        outcome = run(e, RUN_SYNC, c, NULL, NULL, why) ? OUTCOME_API_ERROR
                                                       : check_outputs(t, io, e, why);
    }
    ANeuralNetworksExecution_free(e);
    return outcome;
}

static int mode_cached(const test_case* t, prepared* p, char* why) {
    if (!cache_dir[0]) {
        snprintf(cache_dir, sizeof cache_dir, "%s/nn_cts_cache_XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(cache_dir)) {
            cache_dir[0] = '\0';
            set_why(why, "runner: cannot make a cache directory: %s", strerror(errno));
            return OUTCOME_RUNNER_ERROR;
        }
        atexit(cache_dir_remove);
    }
    uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = {0};
    snprintf((char*)token, sizeof token, "nn_cts %lu", ++cache_serial);
    ANeuralNetworksCompilation* c = NULL;
    int rc = ANEURALNETWORKS_NO_ERROR;
    for (int k = 0; k < 2 && rc == ANEURALNETWORKS_NO_ERROR; k++) {
        ANeuralNetworksCompilation_free(c);
        c = NULL;
        rc = api(ANeuralNetworksCompilation_create(p->main.model, &c), why,
                 "ANeuralNetworksCompilation_create");
        if (!rc)
            rc = api(ANeuralNetworksCompilation_setCaching(c, cache_dir, token), why,
                     "ANeuralNetworksCompilation_setCaching");
        if (!rc)
            rc = api(ANeuralNetworksCompilation_finish(c), why,
                     "ANeuralNetworksCompilation_finish (%s, with caching)", k ? "second" : "first");
    }
    uint32_t n_in = bound_inputs(t, true);
    io_set plain, cached;
    memset(&plain, 0, sizeof plain);
    memset(&cached, 0, sizeof cached);
    int outcome = rc ? OUTCOME_API_ERROR : run_into(t, p->compilation, n_in, &plain, why);
    if (outcome == OUTCOME_OK) outcome = run_into(t, c, n_in, &cached, why);
    for (uint32_t i = 0; outcome == OUTCOME_OK && i < plain.n_out; i++) {
        if (!plain.out[i]) continue;
        for (size_t b = 0; b < plain.out_len[i]; b++)
            if (plain.out[i][b] != cached.out[i][b]) {
                set_why(why, "output %u byte %zu: 0x%02x from the cache, 0x%02x without", i, b,
                        cached.out[i][b], plain.out[i][b]);
                outcome = OUTCOME_MISMATCH;
                break;
            }
    }
    io_free(&plain);
    io_free(&cached);
    ANeuralNetworksCompilation_free(c);
    /* The entry's name is the token's bytes in hex. */
    char path[sizeof cache_dir + 96];
    int n = snprintf(path, sizeof path, "%s/nnapi-linux-", cache_dir);
    for (size_t i = 0; i < sizeof token && n > 0 && (size_t)n + 3 < sizeof path; i++)
        n += snprintf(path + n, sizeof path - (size_t)n, "%02x", token[i]);
    snprintf(path + n, sizeof path - (size_t)n, ".cache");
    unlink(path);
    return outcome;
}

typedef struct {
    int modes[NUM_MODES];
    int n_modes;
    bool verbose;
    unsigned long passed[NUM_MODES], failed[NUM_MODES], skipped[NUM_MODES];
    unsigned long op_passed[NUM_OPS], op_failed[NUM_OPS], op_skipped[NUM_OPS];
} runner;

enum { CASE_PASS, CASE_FAIL, CASE_SKIP };

static int run_mode(const test_case* t, prepared* stat, prepared* dyn, prepared* cst, int mode,
                    char* why) {
    bool constants = mode == MODE_CONSTANTS || mode == MODE_CACHED;
    prepared* p = mode == MODE_DYNAMIC ? dyn : constants ? cst : stat;
    if (!p->attempted) prepare(t, p, mode == MODE_DYNAMIC, constants);
    if (p->rc) {
        if (t->expect_failure && p->rc > 0) return CASE_PASS;
        set_why(why, "%s", p->why);
        return CASE_FAIL;
    }
    int outcome;
    ANeuralNetworksCompilation* c = p->compilation;
    uint32_t n_in = t->main.n_inputs;
    switch (mode) {
    case MODE_SYNC:
    case MODE_PARTITIONED:
    case MODE_FALLBACK: outcome = run_checked(t, c, RUN_SYNC, n_in, false, 1, why); break;
    case MODE_ASYNC: outcome = run_checked(t, c, RUN_ASYNC, n_in, false, 1, why); break;
    case MODE_BURST: outcome = run_checked(t, c, RUN_BURST, n_in, false, 1, why); break;
    case MODE_MEMORY: outcome = run_checked(t, c, RUN_SYNC, n_in, true, 1, why); break;
    case MODE_DYNAMIC: outcome = mode_dynamic(t, c, why); break;
    case MODE_REUSABLE: outcome = run_checked(t, c, RUN_SYNC, n_in, false, 2, why); break;
    case MODE_CONSTANTS:
        outcome = run_checked(t, c, RUN_SYNC, bound_inputs(t, true), false, 1, why);
        break;
    case MODE_CACHED: outcome = mode_cached(t, p, why); break;
    default: outcome = mode_fenced(t, c, why); break;
    }
    switch (outcome) {
    case OUTCOME_SKIP: return CASE_SKIP;
    case OUTCOME_RUNNER_ERROR: return CASE_FAIL;
    case OUTCOME_API_ERROR: return t->expect_failure ? CASE_PASS : CASE_FAIL;
    default:
        if (t->expect_failure) {
            set_why(why, "expected a failure, but the model compiled and executed");
            return CASE_FAIL;
        }
        return outcome == OUTCOME_OK ? CASE_PASS : CASE_FAIL;
    }
}

static void tally(runner* r, const bool* has_op, int mode, int result) {
    unsigned long* per_mode = result == CASE_PASS   ? r->passed
                              : result == CASE_FAIL ? r->failed
                                                    : r->skipped;
    unsigned long* per_op = result == CASE_PASS   ? r->op_passed
                            : result == CASE_FAIL ? r->op_failed
                                                  : r->op_skipped;
    per_mode[mode]++;
    for (int k = 0; k < NUM_OPS; k++)
        if (has_op[k]) per_op[k]++;
}

static void run_test(runner* r, const json_value* jt, const char* spec, const char* version,
                     const bool* has_op) {
    test_case t;
    prepared stat, dyn, cst;
    char why[WHY_LEN];
    memset(&stat, 0, sizeof stat);
    memset(&dyn, 0, sizeof dyn);
    memset(&cst, 0, sizeof cst);
    why[0] = '\0';
    bool readable = read_test(jt, spec, version, &t, why);
    for (int m = 0; m < r->n_modes; m++) {
        int mode = r->modes[m];
        int result = CASE_FAIL;
        if (readable) {
            why[0] = '\0';
            result = run_mode(&t, &stat, &dyn, &cst, mode, why);
        }
        tally(r, has_op, mode, result);
        if (r->verbose && result == CASE_FAIL)
            printf("FAIL %s/%s %s [%s]: %s\n", version, spec, t.name ? t.name : "?",
                   k_mode_names[mode], why);
    }
    prepared_free(&stat);
    prepared_free(&dyn);
    prepared_free(&cst);
    test_free(&t);
}

/* Loads the test driver before the first API call when a mode needs it,
 * and checks that its device came. */
static bool load_test_driver(const runner* r) {
    bool partitioned = false, fallback = false;
    for (int m = 0; m < r->n_modes; m++) {
        partitioned |= r->modes[m] == MODE_PARTITIONED;
        fallback |= r->modes[m] == MODE_FALLBACK;
    }
    if (!partitioned && !fallback) return true;
    if (partitioned && fallback) {
        fprintf(stderr, "nn_cts: the partitioned and fallback modes need separate runs\n");
        return false;
    }
    setenv("NNAPI_LINUX_DRIVERS", NN_CTS_TEST_DRIVER, 1);
    setenv("NNAPI_TEST_DRIVER_OPS", partitioned ? "even" : "all", 1);
    if (fallback)
        setenv("NNAPI_TEST_DRIVER_FAIL", "execute", 1);
    else
        unsetenv("NNAPI_TEST_DRIVER_FAIL");
    uint32_t n = 0;
    ANeuralNetworks_getDeviceCount(&n);
    for (uint32_t i = 0; i < n; i++) {
        ANeuralNetworksDevice* d = NULL;
        const char* name = NULL;
        if (ANeuralNetworks_getDevice(i, &d) == ANEURALNETWORKS_NO_ERROR &&
            ANeuralNetworksDevice_getName(d, &name) == ANEURALNETWORKS_NO_ERROR &&
            strcmp(name, TEST_DEVICE_NAME) == 0)
            g_test_device = d;
    }
    if (g_test_device == NULL) {
        fprintf(stderr, "nn_cts: the test driver %s gave no device %s\n", NN_CTS_TEST_DRIVER,
                TEST_DEVICE_NAME);
        return false;
    }
    return true;
}

/* ---- Driver ---- */

typedef struct {
    const char* vectors;
    const char* filters[64];
    int n_filters;
    bool ops[NUM_OPS];
    bool any_op;
    unsigned long sample;
    bool list;
} selection;

static bool contains(const char* s, const char* sub) { return s && strstr(s, sub) != NULL; }

static bool selected(const selection* sel, const char* name, const char* spec,
                     const bool* has_op) {
    if (sel->n_filters) {
        bool hit = false;
        for (int i = 0; i < sel->n_filters; i++)
            if (contains(name, sel->filters[i]) || contains(spec, sel->filters[i])) hit = true;
        if (!hit) return false;
    }
    if (sel->any_op) {
        bool hit = false;
        for (int k = 0; k < NUM_OPS; k++)
            if (sel->ops[k] && has_op[k]) hit = true;
        if (!hit) return false;
    }
    return true;
}

static int is_vector_file(const struct dirent* d) {
    size_t n = strlen(d->d_name);
    return (n > 8 && strcmp(d->d_name + n - 8, ".json.gz") == 0) ||
           (n > 5 && strcmp(d->d_name + n - 5, ".json") == 0);
}

static void usage(FILE* f) {
    fprintf(f,
            "usage: nn_cts [options]\n"
            "Runs the NNAPI CTS generated tests against libneuralnetworks.\n"
            "  --modes m1,m2,...  execution modes (default: all of sync,async,burst,\n"
            "                     memory,dynamic,reusable,fenced,constants,cached;\n"
            "                     constants makes every model input but the first a\n"
            "                     constant; cached compiles that model twice with\n"
            "                     caching and runs the second compilation)\n"
            "  --all              every test in every mode (the full run)\n"
            "  --modes partitioned / fallback: sync with the test driver loaded\n"
            "                     (%s), which supports the even operation\n"
            "                     codes / fails every computation; other modes listed\n"
            "                     with one of them also run with it\n"
            "  --op NAME          tests that contain operation NAME (repeatable)\n"
            "  --filter SUBSTR    tests whose name or spec contains SUBSTR (repeatable)\n"
            "  --vectors DIR      vector directory (default: %s)\n"
            "  --sample N         run every Nth selected test\n"
            "  --list             list the selected tests instead of running them\n"
            "  -v                 print every failing case with its reason\n"
            "  --help             this text\n"
            "Exit status: 0 when no case failed, 1 when some failed, 2 on usage errors.\n",
            NN_CTS_TEST_DRIVER, NN_CTS_VECTOR_DIR);
}

static bool parse_modes(runner* r, const char* arg) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    bool seen[NUM_MODES] = {false};
    r->n_modes = 0;
    for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int m;
        for (m = 0; m < NUM_MODES; m++)
            if (strcmp(tok, k_mode_names[m]) == 0) break;
        if (m == NUM_MODES) {
            fprintf(stderr, "nn_cts: unknown mode '%s'\n", tok);
            return false;
        }
        if (!seen[m]) r->modes[r->n_modes++] = m;
        seen[m] = true;
    }
    return r->n_modes > 0;
}

static void print_summary(const runner* r) {
    unsigned long p = 0, f = 0, s = 0;
    printf("%-32s %8s %8s %8s\n", "operation", "passed", "failed", "skipped");
    for (int k = 0; k < NUM_OPS; k++) {
        if (r->op_passed[k] + r->op_failed[k] + r->op_skipped[k] == 0) continue;
        printf("%-32s %8lu %8lu %8lu\n", k_op_names[k], r->op_passed[k], r->op_failed[k],
               r->op_skipped[k]);
    }
    printf("\n%-32s %8s %8s %8s\n", "mode", "passed", "failed", "skipped");
    for (int m = 0; m < r->n_modes; m++) {
        int mode = r->modes[m];
        printf("%-32s %8lu %8lu %8lu\n", k_mode_names[mode], r->passed[mode], r->failed[mode],
               r->skipped[mode]);
        p += r->passed[mode];
        f += r->failed[mode];
        s += r->skipped[mode];
    }
    if (g_test_device != NULL)
        printf("\nthe test driver ran operations of %lu models, %lu of them split with the CPU\n",
               g_driver_models, g_split_models);
    printf("\n%lu passed, %lu failed, %lu skipped\n", p, f, s);
}

int main(int argc, char** argv) {
    runner r;
    selection sel;
    memset(&r, 0, sizeof r);
    memset(&sel, 0, sizeof sel);
    sel.vectors = NN_CTS_VECTOR_DIR;
    sel.sample = 1;
    for (int m = 0; m < NUM_STANDARD_MODES; m++) r.modes[r.n_modes++] = m;

    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes_value = strcmp(a, "--modes") == 0 || strcmp(a, "--op") == 0 ||
                           strcmp(a, "--filter") == 0 || strcmp(a, "--vectors") == 0 ||
                           strcmp(a, "--sample") == 0;
        if (takes_value && !val) {
            fprintf(stderr, "nn_cts: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--modes") == 0) {
            if (!parse_modes(&r, val)) return 2;
        } else if (strcmp(a, "--all") == 0) {
            r.n_modes = 0;
            for (int m = 0; m < NUM_STANDARD_MODES; m++) r.modes[r.n_modes++] = m;
            sel.sample = 1;
        } else if (strcmp(a, "--op") == 0) {
            int c = op_code(val);
            if (c < 0) {
                fprintf(stderr, "nn_cts: unknown operation '%s'\n", val);
                return 2;
            }
            sel.ops[c] = true;
            sel.any_op = true;
        } else if (strcmp(a, "--filter") == 0) {
            if (sel.n_filters == (int)(sizeof sel.filters / sizeof sel.filters[0])) {
                fprintf(stderr, "nn_cts: too many --filter options\n");
                return 2;
            }
            sel.filters[sel.n_filters++] = val;
        } else if (strcmp(a, "--vectors") == 0) {
            sel.vectors = val;
        } else if (strcmp(a, "--sample") == 0) {
            char* end;
            sel.sample = strtoul(val, &end, 10);
            if (*end || sel.sample == 0) {
                fprintf(stderr, "nn_cts: --sample needs a positive number\n");
                return 2;
            }
        } else if (strcmp(a, "--list") == 0) {
            sel.list = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            r.verbose = true;
        } else {
            fprintf(stderr, "nn_cts: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (takes_value) i++;
    }

    if (!sel.list && !load_test_driver(&r)) return 2;

    unsigned long index = 0, n_files = 0, n_listed = 0;
    bool io_error = false;
    for (size_t v = 0; v < sizeof k_versions / sizeof k_versions[0]; v++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", sel.vectors, k_versions[v]);
        struct dirent** names = NULL;
        int n = scandir(dir, &names, is_vector_file, alphasort);
        if (n < 0) continue;
        for (int f = 0; f < n; f++) {
            char path[8192], err[512];
            snprintf(path, sizeof path, "%s/%s", dir, names[f]->d_name);
            free(names[f]);
            json_doc* doc = json_load_file(path, err, sizeof err);
            n_files++;
            if (!doc) {
                fprintf(stderr, "nn_cts: %s\n", err);
                io_error = true;
                continue;
            }
            const json_value* root = json_root(doc);
            const char* spec = json_string(json_get(root, "spec"));
            const json_value* tests = json_get(root, "tests");
            if (!spec || !json_is(tests, JSON_ARRAY)) {
                fprintf(stderr, "nn_cts: %s: not a vector file\n", path);
                io_error = true;
                json_free(doc);
                continue;
            }
            for (size_t i = 0; i < tests->len; i++) {
                const json_value* jt = &tests->items[i];
                const char* name = json_string(json_get(jt, "name"));
                bool has_op[NUM_OPS];
                json_test_ops(jt, has_op);
                if (!selected(&sel, name, spec, has_op)) continue;
                if (index++ % sel.sample != 0) continue;
                if (sel.list) {
                    printf("%s/%s %s\n", k_versions[v], spec, name ? name : "?");
                    n_listed++;
                    continue;
                }
                run_test(&r, jt, spec, k_versions[v], has_op);
                fflush(stdout);
            }
            json_free(doc);
        }
        free(names);
    }
    if (n_files == 0) {
        fprintf(stderr, "nn_cts: no vector files under %s\n", sel.vectors);
        return 2;
    }
    if (sel.list) {
        printf("%lu tests\n", n_listed);
        return io_error ? 2 : 0;
    }
    print_summary(&r);
    unsigned long failed = 0;
    for (int m = 0; m < NUM_MODES; m++) failed += r.failed[m];
    if (io_error) return 2;
    return failed ? 1 : 0;
}
