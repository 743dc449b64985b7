/*
 * A compact reader for the subset of the TensorFlow Lite flatbuffer schema
 * that nnapi-run needs: the first subgraph's tensors, operators and inputs and
 * outputs, constant buffers and quantization parameters, and accessors for the
 * fields of builtin-options tables. Every read is bounds-checked against the
 * file, so a damaged model yields an error, never an out-of-bounds access.
 */
#ifndef NNAPI_RUN_TFLITE_H
#define NNAPI_RUN_TFLITE_H

#include <stddef.h>
#include <stdint.h>

/* TensorType values of the schema. */
enum {
    TFL_FLOAT32 = 0,
    TFL_FLOAT16 = 1,
    TFL_INT32 = 2,
    TFL_UINT8 = 3,
    TFL_INT64 = 4,
    TFL_STRING = 5,
    TFL_BOOL = 6,
    TFL_INT16 = 7,
    TFL_COMPLEX64 = 8,
    TFL_INT8 = 9,
    TFL_FLOAT64 = 10,
};

/* BuiltinOperator values nnapi-run translates (the schema has many more). */
enum {
    TFL_OP_ADD = 0,
    TFL_OP_AVERAGE_POOL_2D = 1,
    TFL_OP_CONCATENATION = 2,
    TFL_OP_CONV_2D = 3,
    TFL_OP_DEPTHWISE_CONV_2D = 4,
    TFL_OP_DEPTH_TO_SPACE = 5,
    TFL_OP_DEQUANTIZE = 6,
    TFL_OP_EMBEDDING_LOOKUP = 7,
    TFL_OP_FLOOR = 8,
    TFL_OP_FULLY_CONNECTED = 9,
    TFL_OP_L2_NORMALIZATION = 11,
    TFL_OP_L2_POOL_2D = 12,
    TFL_OP_LOCAL_RESPONSE_NORMALIZATION = 13,
    TFL_OP_LOGISTIC = 14,
    TFL_OP_MAX_POOL_2D = 17,
    TFL_OP_MUL = 18,
    TFL_OP_RELU = 19,
    TFL_OP_RELU_N1_TO_1 = 20,
    TFL_OP_RELU6 = 21,
    TFL_OP_RESHAPE = 22,
    TFL_OP_RESIZE_BILINEAR = 23,
    TFL_OP_SOFTMAX = 25,
    TFL_OP_SPACE_TO_DEPTH = 26,
    TFL_OP_TANH = 28,
    TFL_OP_PAD = 34,
    TFL_OP_GATHER = 36,
    TFL_OP_TRANSPOSE = 39,
    TFL_OP_MEAN = 40,
    TFL_OP_SUB = 41,
    TFL_OP_DIV = 42,
    TFL_OP_SQUEEZE = 43,
    TFL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM = 44,
    TFL_OP_STRIDED_SLICE = 45,
    TFL_OP_EXP = 47,
    TFL_OP_SPLIT = 49,
    TFL_OP_LOG_SOFTMAX = 50,
    TFL_OP_CAST = 53,
    TFL_OP_PRELU = 54,
    TFL_OP_MAXIMUM = 55,
    TFL_OP_ARG_MAX = 56,
    TFL_OP_MINIMUM = 57,
    TFL_OP_LESS = 58,
    TFL_OP_NEG = 59,
    TFL_OP_PADV2 = 60,
    TFL_OP_GREATER = 61,
    TFL_OP_GREATER_EQUAL = 62,
    TFL_OP_LESS_EQUAL = 63,
    TFL_OP_SELECT = 64,
    TFL_OP_SLICE = 65,
    TFL_OP_SIN = 66,
    TFL_OP_TILE = 69,
    TFL_OP_EXPAND_DIMS = 70,
    TFL_OP_EQUAL = 71,
    TFL_OP_NOT_EQUAL = 72,
    TFL_OP_LOG = 73,
    TFL_OP_SUM = 74,
    TFL_OP_SQRT = 75,
    TFL_OP_RSQRT = 76,
    TFL_OP_POW = 78,
    TFL_OP_ARG_MIN = 79,
    TFL_OP_REDUCE_PROD = 81,
    TFL_OP_REDUCE_MAX = 82,
    TFL_OP_PACK = 83,
    TFL_OP_LOGICAL_OR = 84,
    TFL_OP_LOGICAL_AND = 86,
    TFL_OP_LOGICAL_NOT = 87,
    TFL_OP_REDUCE_MIN = 89,
    TFL_OP_REDUCE_ANY = 91,
    TFL_OP_RESIZE_NEAREST_NEIGHBOR = 97,
    TFL_OP_LEAKY_RELU = 98,
    TFL_OP_MIRROR_PAD = 100,
    TFL_OP_ABS = 101,
    TFL_OP_REVERSE_V2 = 105,
    TFL_OP_ELU = 111,
    TFL_OP_QUANTIZE = 114,
    TFL_OP_HARD_SWISH = 117,
    TFL_OP_SVDF = 27,
    TFL_OP_CUSTOM = 32,
    TFL_OP_BATCH_TO_SPACE_ND = 37,
    TFL_OP_SPACE_TO_BATCH_ND = 38,
    TFL_OP_TOPK_V2 = 48,
    TFL_OP_TRANSPOSE_CONV = 67,
    TFL_OP_SHAPE = 77,
    TFL_OP_UNPACK = 88,
    TFL_OP_FLOOR_DIV = 90,
    TFL_OP_SQUARE = 92,
    TFL_OP_ZEROS_LIKE = 93,
    TFL_OP_FILL = 94,
    TFL_OP_FLOOR_MOD = 95,
    TFL_OP_SQUARED_DIFFERENCE = 99,
    TFL_OP_SPLIT_V = 102,
    TFL_OP_ADD_N = 106,
    TFL_OP_RANK = 110,
    TFL_OP_SELECT_V2 = 123,
    TFL_OP_BATCH_MATMUL = 126,
    TFL_OP_REDUCE_ALL = 140,
};

typedef struct {
    const uint8_t *p;
    size_t n;
} tfl_fb;

typedef struct {
    char *name;
    int type;               /* TFL_* */
    uint32_t rank;
    int32_t *shape;         /* rank entries */
    const uint8_t *data;    /* constant contents inside the file, or NULL */
    size_t data_size;
    uint32_t n_scale;       /* quantization: 0 when absent */
    float *scale;
    int64_t *zero_point;    /* n_scale entries (0 where the file has fewer) */
    int32_t quant_dim;
    int is_variable;
} tfl_tensor;

typedef struct {
    int code;               /* BuiltinOperator; 32 (CUSTOM) for custom ops */
    char *custom_code;      /* custom operators only */
    uint32_t n_in, n_out;
    int32_t *in, *out;      /* tensor indices; -1 marks an omitted input */
    uint32_t n_inter;       /* intermediates: quantization of internal results (integer LSTMs) */
    int32_t *inter;
    size_t options;         /* file offset of the builtin options table, 0 if none */
    const uint8_t *custom_options; /* a custom operator's flexbuffer, inside the file */
    size_t custom_options_size;
} tfl_op;

typedef struct {
    tfl_fb fb;
    uint32_t version;
    uint32_t n_subgraphs;
    uint32_t n_tensors, n_ops, n_inputs, n_outputs;
    tfl_tensor *tensors;
    tfl_op *ops;
    int32_t *inputs, *outputs;
} tfl_model;

/* Parses a model held in memory (which must outlive the model). Returns 0, or
 * -1 with a message in err. */
int tfl_parse(const uint8_t *data, size_t size, tfl_model *model, char *err, size_t err_size);
void tfl_free(tfl_model *model);

/* Builtin-options fields by their position in the options table. */
int32_t tfl_opt_i32(const tfl_model *m, const tfl_op *op, unsigned field, int32_t def);
/* Byte-sized enum fields (padding, activation, formats). */
int tfl_opt_u8(const tfl_model *m, const tfl_op *op, unsigned field, int def);
float tfl_opt_f32(const tfl_model *m, const tfl_op *op, unsigned field, float def);
int tfl_opt_bool(const tfl_model *m, const tfl_op *op, unsigned field, int def);
/* Copies an [int] vector field into out (at most max entries); returns the
 * number of entries, or -1 when absent or too long. */
int tfl_opt_i32_vec(const tfl_model *m, const tfl_op *op, unsigned field, int32_t *out, int max);

/* A number in a custom operator's options, a FlexBuffers map: 1 with the
 * value of key in *out (int, uint, float or bool entries), 0 when the map has
 * no such key or the buffer is not a map, never reading outside it. */
int tfl_custom_number(const tfl_op *op, const char *key, double *out);

const char *tfl_op_name(int code);
const char *tfl_type_name(int type);
size_t tfl_type_size(int type);
/* Number of elements of a tensor (1 for rank 0); 0 on overflow or negative dims. */
size_t tfl_numel(const tfl_tensor *t);

#endif
