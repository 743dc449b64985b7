/*
 * nnapi-linux: types of the Android Neural Networks API, feature level 5.
 *
 * Numeric values, struct layouts and names follow the NNAPI specification so
 * that programs built against Android's header run unchanged on this library.
 */
#ifndef NNAPI_LINUX_NEURAL_NETWORKS_TYPES_H
#define NNAPI_LINUX_NEURAL_NETWORKS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __ANDROID__
#include <android/hardware_buffer.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Operand types. Scalars have rank 0; TENSOR_* types have rank >= 1 or an
 * unknown rank (dimensionCount 0). */
typedef enum {
    ANEURALNETWORKS_FLOAT32 = 0,
    ANEURALNETWORKS_INT32 = 1,
    ANEURALNETWORKS_UINT32 = 2,
    ANEURALNETWORKS_TENSOR_FLOAT32 = 3,
    ANEURALNETWORKS_TENSOR_INT32 = 4,
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM = 5,
    ANEURALNETWORKS_BOOL = 6,
    ANEURALNETWORKS_TENSOR_QUANT16_SYMM = 7,
    ANEURALNETWORKS_TENSOR_FLOAT16 = 8,
    ANEURALNETWORKS_TENSOR_BOOL8 = 9,
    ANEURALNETWORKS_FLOAT16 = 10,
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
    ANEURALNETWORKS_TENSOR_QUANT16_ASYMM = 12,
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM = 13,
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED = 14,
    ANEURALNETWORKS_MODEL = 15,
} OperandCode;

/* Operation types. The feature level that introduced each block is noted. */
typedef enum {
    /* Feature level 1. */
    ANEURALNETWORKS_ADD = 0,
    ANEURALNETWORKS_AVERAGE_POOL_2D = 1,
    ANEURALNETWORKS_CONCATENATION = 2,
    ANEURALNETWORKS_CONV_2D = 3,
    ANEURALNETWORKS_DEPTHWISE_CONV_2D = 4,
    ANEURALNETWORKS_DEPTH_TO_SPACE = 5,
    ANEURALNETWORKS_DEQUANTIZE = 6,
    ANEURALNETWORKS_EMBEDDING_LOOKUP = 7,
    ANEURALNETWORKS_FLOOR = 8,
    ANEURALNETWORKS_FULLY_CONNECTED = 9,
    ANEURALNETWORKS_HASHTABLE_LOOKUP = 10,
    ANEURALNETWORKS_L2_NORMALIZATION = 11,
    ANEURALNETWORKS_L2_POOL_2D = 12,
    ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION = 13,
    ANEURALNETWORKS_LOGISTIC = 14,
    ANEURALNETWORKS_LSH_PROJECTION = 15,
    ANEURALNETWORKS_LSTM = 16,
    ANEURALNETWORKS_MAX_POOL_2D = 17,
    ANEURALNETWORKS_MUL = 18,
    ANEURALNETWORKS_RELU = 19,
    ANEURALNETWORKS_RELU1 = 20,
    ANEURALNETWORKS_RELU6 = 21,
    ANEURALNETWORKS_RESHAPE = 22,
    ANEURALNETWORKS_RESIZE_BILINEAR = 23,
    ANEURALNETWORKS_RNN = 24,
    ANEURALNETWORKS_SOFTMAX = 25,
    ANEURALNETWORKS_SPACE_TO_DEPTH = 26,
    ANEURALNETWORKS_SVDF = 27,
    ANEURALNETWORKS_TANH = 28,
    /* Feature level 2. */
    ANEURALNETWORKS_BATCH_TO_SPACE_ND = 29,
    ANEURALNETWORKS_DIV = 30,
    ANEURALNETWORKS_MEAN = 31,
    ANEURALNETWORKS_PAD = 32,
    ANEURALNETWORKS_SPACE_TO_BATCH_ND = 33,
    ANEURALNETWORKS_SQUEEZE = 34,
    ANEURALNETWORKS_STRIDED_SLICE = 35,
    ANEURALNETWORKS_SUB = 36,
    ANEURALNETWORKS_TRANSPOSE = 37,
    /* Feature level 3. */
    ANEURALNETWORKS_ABS = 38,
    ANEURALNETWORKS_ARGMAX = 39,
    ANEURALNETWORKS_ARGMIN = 40,
    ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM = 41,
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM = 42,
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN = 43,
    ANEURALNETWORKS_BOX_WITH_NMS_LIMIT = 44,
    ANEURALNETWORKS_CAST = 45,
    ANEURALNETWORKS_CHANNEL_SHUFFLE = 46,
    ANEURALNETWORKS_DETECTION_POSTPROCESSING = 47,
    ANEURALNETWORKS_EQUAL = 48,
    ANEURALNETWORKS_EXP = 49,
    ANEURALNETWORKS_EXPAND_DIMS = 50,
    ANEURALNETWORKS_GATHER = 51,
    ANEURALNETWORKS_GENERATE_PROPOSALS = 52,
    ANEURALNETWORKS_GREATER = 53,
    ANEURALNETWORKS_GREATER_EQUAL = 54,
    ANEURALNETWORKS_GROUPED_CONV_2D = 55,
    ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT = 56,
    ANEURALNETWORKS_INSTANCE_NORMALIZATION = 57,
    ANEURALNETWORKS_LESS = 58,
    ANEURALNETWORKS_LESS_EQUAL = 59,
    ANEURALNETWORKS_LOG = 60,
    ANEURALNETWORKS_LOGICAL_AND = 61,
    ANEURALNETWORKS_LOGICAL_NOT = 62,
    ANEURALNETWORKS_LOGICAL_OR = 63,
    ANEURALNETWORKS_LOG_SOFTMAX = 64,
    ANEURALNETWORKS_MAXIMUM = 65,
    ANEURALNETWORKS_MINIMUM = 66,
    ANEURALNETWORKS_NEG = 67,
    ANEURALNETWORKS_NOT_EQUAL = 68,
    ANEURALNETWORKS_PAD_V2 = 69,
    ANEURALNETWORKS_POW = 70,
    ANEURALNETWORKS_PRELU = 71,
    ANEURALNETWORKS_QUANTIZE = 72,
    ANEURALNETWORKS_QUANTIZED_16BIT_LSTM = 73,
    ANEURALNETWORKS_RANDOM_MULTINOMIAL = 74,
    ANEURALNETWORKS_REDUCE_ALL = 75,
    ANEURALNETWORKS_REDUCE_ANY = 76,
    ANEURALNETWORKS_REDUCE_MAX = 77,
    ANEURALNETWORKS_REDUCE_MIN = 78,
    ANEURALNETWORKS_REDUCE_PROD = 79,
    ANEURALNETWORKS_REDUCE_SUM = 80,
    ANEURALNETWORKS_ROI_ALIGN = 81,
    ANEURALNETWORKS_ROI_POOLING = 82,
    ANEURALNETWORKS_RSQRT = 83,
    ANEURALNETWORKS_SELECT = 84,
    ANEURALNETWORKS_SIN = 85,
    ANEURALNETWORKS_SLICE = 86,
    ANEURALNETWORKS_SPLIT = 87,
    ANEURALNETWORKS_SQRT = 88,
    ANEURALNETWORKS_TILE = 89,
    ANEURALNETWORKS_TOPK_V2 = 90,
    ANEURALNETWORKS_TRANSPOSE_CONV_2D = 91,
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM = 92,
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN = 93,
    ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR = 94,
    /* Feature level 4. */
    ANEURALNETWORKS_QUANTIZED_LSTM = 95,
    ANEURALNETWORKS_IF = 96,
    ANEURALNETWORKS_WHILE = 97,
    ANEURALNETWORKS_ELU = 98,
    ANEURALNETWORKS_HARD_SWISH = 99,
    ANEURALNETWORKS_FILL = 100,
    ANEURALNETWORKS_RANK = 101,
    /* Feature level 6. */
    /* Matrix product of the last two dimensions, batched over the others;
     * either operand may be transposed first (adj_x, adj_y). */
    ANEURALNETWORKS_BATCH_MATMUL = 102,
    /* Stacks N same-shaped tensors into one of rank + 1 along an axis. */
    ANEURALNETWORKS_PACK = 103,
    /* Feature level 7. */
    /* Pads by mirroring the input: REFLECT (edge not repeated) or
     * SYMMETRIC (edge repeated). */
    ANEURALNETWORKS_MIRROR_PAD = 104,
    /* Reverses the order of the elements along one axis. */
    ANEURALNETWORKS_REVERSE = 105,
} OperationCode;

/* Activation fused into the result of an operation. */
typedef enum {
    ANEURALNETWORKS_FUSED_NONE = 0,
    ANEURALNETWORKS_FUSED_RELU = 1,
    ANEURALNETWORKS_FUSED_RELU1 = 2,
    ANEURALNETWORKS_FUSED_RELU6 = 3,
} FuseCode;

/* Implicit padding schemes of the spatial operations. SAME pads so that
 * out = ceil(in / stride), the odd cell going to the end; VALID pads nothing. */
typedef enum {
    ANEURALNETWORKS_PADDING_SAME = 1,
    ANEURALNETWORKS_PADDING_VALID = 2,
} PaddingCode;

/* What a compilation should optimise for. */
typedef enum {
    ANEURALNETWORKS_PREFER_LOW_POWER = 0,
    ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER = 1,
    ANEURALNETWORKS_PREFER_SUSTAINED_SPEED = 2,
} PreferenceCode;

/* Kinds of device. */
typedef enum {
    ANEURALNETWORKS_DEVICE_UNKNOWN = 0,
    ANEURALNETWORKS_DEVICE_OTHER = 1,
    ANEURALNETWORKS_DEVICE_CPU = 2,
    ANEURALNETWORKS_DEVICE_GPU = 3,
    ANEURALNETWORKS_DEVICE_ACCELERATOR = 4,
} DeviceTypeCode;

/* Feature levels. Levels 1-5 are numbered like the Android API levels that
 * introduced them; later levels are not tied to an API level and start at
 * 1000006, so compare levels with these values, never with API levels. */
typedef enum {
    ANEURALNETWORKS_FEATURE_LEVEL_1 = 27,
    ANEURALNETWORKS_FEATURE_LEVEL_2 = 28,
    ANEURALNETWORKS_FEATURE_LEVEL_3 = 29,
    ANEURALNETWORKS_FEATURE_LEVEL_4 = 30,
    ANEURALNETWORKS_FEATURE_LEVEL_5 = 31,
    /* BATCH_MATMUL, PACK; RESHAPE on TENSOR_INT32. */
    ANEURALNETWORKS_FEATURE_LEVEL_6 = 1000006,
    /* MIRROR_PAD, REVERSE; RSQRT on 8-bit asymmetric quantized tensors. */
    ANEURALNETWORKS_FEATURE_LEVEL_7 = 1000007,
    /* No new operation or type: the level itself. */
    ANEURALNETWORKS_FEATURE_LEVEL_8 = 1000008,
} FeatureLevelCode;

/* Results of the API functions. */
typedef enum {
    ANEURALNETWORKS_NO_ERROR = 0,
    ANEURALNETWORKS_OUT_OF_MEMORY = 1,
    ANEURALNETWORKS_INCOMPLETE = 2,
    ANEURALNETWORKS_UNEXPECTED_NULL = 3,
    ANEURALNETWORKS_BAD_DATA = 4,
    ANEURALNETWORKS_OP_FAILED = 5,
    ANEURALNETWORKS_BAD_STATE = 6,
    ANEURALNETWORKS_UNMAPPABLE = 7,
    ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE = 8,
    ANEURALNETWORKS_UNAVAILABLE_DEVICE = 9,
    ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT = 10,
    ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT = 11,
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT = 12,
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT = 13,
    ANEURALNETWORKS_DEAD_OBJECT = 14,
} ResultCode;

/* Constant values no longer than this are copied by setOperandValue; longer
 * ones are referenced and must outlive the compilations of the model. */
enum { ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES = 128 };

/* Length of the token given to ANeuralNetworksCompilation_setCaching. */
enum { ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN = 32 };

/* Which duration ANeuralNetworksExecution_getDuration reports. */
typedef enum {
    ANEURALNETWORKS_DURATION_ON_HARDWARE = 0,
    ANEURALNETWORKS_DURATION_IN_DRIVER = 1,
    ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE = 2,
    ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER = 3,
} DurationCode;

/* Relative priority of a compilation's executions. */
typedef enum {
    ANEURALNETWORKS_PRIORITY_LOW = 90,
    ANEURALNETWORKS_PRIORITY_MEDIUM = 100,
    ANEURALNETWORKS_PRIORITY_HIGH = 110,
    ANEURALNETWORKS_PRIORITY_DEFAULT = ANEURALNETWORKS_PRIORITY_MEDIUM,
} PriorityCode;

typedef struct ANeuralNetworksMemory ANeuralNetworksMemory;
typedef struct ANeuralNetworksModel ANeuralNetworksModel;
typedef struct ANeuralNetworksCompilation ANeuralNetworksCompilation;
typedef struct ANeuralNetworksExecution ANeuralNetworksExecution;
typedef struct ANeuralNetworksBurst ANeuralNetworksBurst;
typedef struct ANeuralNetworksEvent ANeuralNetworksEvent;
typedef struct ANeuralNetworksDevice ANeuralNetworksDevice;
typedef struct ANeuralNetworksMemoryDesc ANeuralNetworksMemoryDesc;

/* Per-channel quantization of a TENSOR_QUANT8_SYMM_PER_CHANNEL operand:
 * real value = q * scales[index along channelDim]. */
typedef struct ANeuralNetworksSymmPerChannelQuantParams {
    uint32_t channelDim;
    uint32_t scaleCount;
    const float* scales;
} ANeuralNetworksSymmPerChannelQuantParams;

/* The type of an operand: its OperandCode, its dimensions (0 = unknown) and
 * its quantization parameters (0 where they do not apply). */
typedef struct ANeuralNetworksOperandType {
    int32_t type;
    uint32_t dimensionCount;
    const uint32_t* dimensions;
    float scale;
    int32_t zeroPoint;
} ANeuralNetworksOperandType;

typedef int32_t ANeuralNetworksOperationType;

#ifdef __cplusplus
}
#endif

#endif /* NNAPI_LINUX_NEURAL_NETWORKS_TYPES_H */
