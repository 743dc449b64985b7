/*
 * ABI test: struct layouts (x86-64), enum values and function signatures of
 * the public header, checked against the values and prototypes stated by the
 * NNAPI feature-level-5 specification (written here from the spec, not from
 * our header). A signature mismatch is a compile error: the prototypes below
 * redeclare the API functions, which C only accepts when they are identical.
 */
#include <android/NeuralNetworks.h>
#include <stddef.h>
#include <stdint.h>

#include "test_util.h"

/* The FL5 prototypes, as the specification states them (without the
 * Android-only ANeuralNetworksMemory_createFromAHardwareBuffer). */
int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc);
void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc);
int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation, uint32_t index, float frequency);
int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc, const ANeuralNetworksCompilation* compilation, uint32_t index, float frequency);
int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank, const uint32_t* dimensions);
int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc);
int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc, ANeuralNetworksMemory** memory);
int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst);
int ANeuralNetworks_getDeviceCount(uint32_t* numDevices);
int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device);
int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name);
int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type);
int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version);
int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device, int64_t* featureLevel);
int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device);
int ANeuralNetworksModel_getSupportedOperationsForDevices(const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices, uint32_t numDevices, bool* supportedOps);
int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices, uint32_t numDevices, ANeuralNetworksCompilation** compilation);
int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation, const char* cacheDir, const uint8_t* token);
int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution);
int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution, int32_t index, uint32_t* rank);
int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution, int32_t index, uint32_t* dimensions);
int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation, ANeuralNetworksBurst** burst);
void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst);
int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution, ANeuralNetworksBurst* burst);
int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure);
int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution, int32_t durationCode, uint64_t* duration);
int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset, ANeuralNetworksMemory** memory);
void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory);
int ANeuralNetworksModel_create(ANeuralNetworksModel** model);
void ANeuralNetworksModel_free(ANeuralNetworksModel* model);
int ANeuralNetworksModel_finish(ANeuralNetworksModel* model);
int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model, const ANeuralNetworksOperandType* type);
int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index, const void* buffer, size_t length);
int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksSymmPerChannelQuantParams* channelQuant);
int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksMemory* memory, size_t offset, size_t length);
int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksModel* value);
int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model, ANeuralNetworksOperationType type, uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount, const uint32_t* outputs);
int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model, uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount, const uint32_t* outputs);
int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model, bool allow);
int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model, ANeuralNetworksCompilation** compilation);
void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation);
int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation, int32_t preference);
int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation);
int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority);
int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation, uint64_t duration);
int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation, ANeuralNetworksExecution** execution);
void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution);
int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, const void* buffer, size_t length);
int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, const ANeuralNetworksMemory* memory, size_t offset, size_t length);
int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, void* buffer, size_t length);
int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution, int32_t index, const ANeuralNetworksOperandType* type, const ANeuralNetworksMemory* memory, size_t offset, size_t length);
int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution, ANeuralNetworksEvent** event);
int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration);
int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution, uint64_t duration);
uint64_t ANeuralNetworks_getDefaultLoopTimeout();
uint64_t ANeuralNetworks_getMaximumLoopTimeout();
int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event);
void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event);
int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd, ANeuralNetworksEvent** event);
int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* sync_fence_fd);
int ANeuralNetworksExecution_startComputeWithDependencies(ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies, uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event);
int64_t ANeuralNetworks_getRuntimeFeatureLevel();
int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* execution, bool enable);
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);
int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* execution, bool reusable);

typedef struct {
    long long actual;
    long long expected;
    const char* name;
} enum_value;

#define V(name, value) {(long long)ANEURALNETWORKS_##name, value, #name}

static void check_values(const char* group, const enum_value* v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (!nt_record(v[i].actual == v[i].expected, __FILE__, __LINE__, v[i].name))
            fprintf(stderr, "    %s: ANEURALNETWORKS_%s = %lld, spec says %lld\n", group,
                    v[i].name, v[i].actual, v[i].expected);
    }
}

#define CHECK_VALUES(group, arr) check_values(group, arr, sizeof(arr) / sizeof(arr[0]))

static void check_operand_codes(void) {
    static const enum_value v[] = {
        V(FLOAT32, 0),
        V(INT32, 1),
        V(UINT32, 2),
        V(TENSOR_FLOAT32, 3),
        V(TENSOR_INT32, 4),
        V(TENSOR_QUANT8_ASYMM, 5),
        V(BOOL, 6),
        V(TENSOR_QUANT16_SYMM, 7),
        V(TENSOR_FLOAT16, 8),
        V(TENSOR_BOOL8, 9),
        V(FLOAT16, 10),
        V(TENSOR_QUANT8_SYMM_PER_CHANNEL, 11),
        V(TENSOR_QUANT16_ASYMM, 12),
        V(TENSOR_QUANT8_SYMM, 13),
        V(TENSOR_QUANT8_ASYMM_SIGNED, 14),
        V(MODEL, 15),
    };
    CHECK_VALUES("OperandCode", v);
}

static void check_operation_codes(void) {
    static const enum_value v[] = {
        V(ADD, 0),
        V(AVERAGE_POOL_2D, 1),
        V(CONCATENATION, 2),
        V(CONV_2D, 3),
        V(DEPTHWISE_CONV_2D, 4),
        V(DEPTH_TO_SPACE, 5),
        V(DEQUANTIZE, 6),
        V(EMBEDDING_LOOKUP, 7),
        V(FLOOR, 8),
        V(FULLY_CONNECTED, 9),
        V(HASHTABLE_LOOKUP, 10),
        V(L2_NORMALIZATION, 11),
        V(L2_POOL_2D, 12),
        V(LOCAL_RESPONSE_NORMALIZATION, 13),
        V(LOGISTIC, 14),
        V(LSH_PROJECTION, 15),
        V(LSTM, 16),
        V(MAX_POOL_2D, 17),
        V(MUL, 18),
        V(RELU, 19),
        V(RELU1, 20),
        V(RELU6, 21),
        V(RESHAPE, 22),
        V(RESIZE_BILINEAR, 23),
        V(RNN, 24),
        V(SOFTMAX, 25),
        V(SPACE_TO_DEPTH, 26),
        V(SVDF, 27),
        V(TANH, 28),
        V(BATCH_TO_SPACE_ND, 29),
        V(DIV, 30),
        V(MEAN, 31),
        V(PAD, 32),
        V(SPACE_TO_BATCH_ND, 33),
        V(SQUEEZE, 34),
        V(STRIDED_SLICE, 35),
        V(SUB, 36),
        V(TRANSPOSE, 37),
        V(ABS, 38),
        V(ARGMAX, 39),
        V(ARGMIN, 40),
        V(AXIS_ALIGNED_BBOX_TRANSFORM, 41),
        V(BIDIRECTIONAL_SEQUENCE_LSTM, 42),
        V(BIDIRECTIONAL_SEQUENCE_RNN, 43),
        V(BOX_WITH_NMS_LIMIT, 44),
        V(CAST, 45),
        V(CHANNEL_SHUFFLE, 46),
        V(DETECTION_POSTPROCESSING, 47),
        V(EQUAL, 48),
        V(EXP, 49),
        V(EXPAND_DIMS, 50),
        V(GATHER, 51),
        V(GENERATE_PROPOSALS, 52),
        V(GREATER, 53),
        V(GREATER_EQUAL, 54),
        V(GROUPED_CONV_2D, 55),
        V(HEATMAP_MAX_KEYPOINT, 56),
        V(INSTANCE_NORMALIZATION, 57),
        V(LESS, 58),
        V(LESS_EQUAL, 59),
        V(LOG, 60),
        V(LOGICAL_AND, 61),
        V(LOGICAL_NOT, 62),
        V(LOGICAL_OR, 63),
        V(LOG_SOFTMAX, 64),
        V(MAXIMUM, 65),
        V(MINIMUM, 66),
        V(NEG, 67),
        V(NOT_EQUAL, 68),
        V(PAD_V2, 69),
        V(POW, 70),
        V(PRELU, 71),
        V(QUANTIZE, 72),
        V(QUANTIZED_16BIT_LSTM, 73),
        V(RANDOM_MULTINOMIAL, 74),
        V(REDUCE_ALL, 75),
        V(REDUCE_ANY, 76),
        V(REDUCE_MAX, 77),
        V(REDUCE_MIN, 78),
        V(REDUCE_PROD, 79),
        V(REDUCE_SUM, 80),
        V(ROI_ALIGN, 81),
        V(ROI_POOLING, 82),
        V(RSQRT, 83),
        V(SELECT, 84),
        V(SIN, 85),
        V(SLICE, 86),
        V(SPLIT, 87),
        V(SQRT, 88),
        V(TILE, 89),
        V(TOPK_V2, 90),
        V(TRANSPOSE_CONV_2D, 91),
        V(UNIDIRECTIONAL_SEQUENCE_LSTM, 92),
        V(UNIDIRECTIONAL_SEQUENCE_RNN, 93),
        V(RESIZE_NEAREST_NEIGHBOR, 94),
        V(QUANTIZED_LSTM, 95),
        V(IF, 96),
        V(WHILE, 97),
        V(ELU, 98),
        V(HARD_SWISH, 99),
        V(FILL, 100),
        V(RANK, 101),
        V(BATCH_MATMUL, 102),
        V(PACK, 103),
        V(MIRROR_PAD, 104),
        V(REVERSE, 105),
    };
    CHECK_VALUES("OperationCode", v);
}

static void check_small_enums(void) {
    static const enum_value fuse[] = {
            V(FUSED_NONE, 0), V(FUSED_RELU, 1), V(FUSED_RELU1, 2), V(FUSED_RELU6, 3),
    };
    static const enum_value padding[] = {V(PADDING_SAME, 1), V(PADDING_VALID, 2)};
    static const enum_value preference[] = {
            V(PREFER_LOW_POWER, 0), V(PREFER_FAST_SINGLE_ANSWER, 1), V(PREFER_SUSTAINED_SPEED, 2),
    };
    static const enum_value device[] = {
            V(DEVICE_UNKNOWN, 0), V(DEVICE_OTHER, 1),       V(DEVICE_CPU, 2),
            V(DEVICE_GPU, 3),     V(DEVICE_ACCELERATOR, 4),
    };
    static const enum_value level[] = {
            V(FEATURE_LEVEL_1, 27), V(FEATURE_LEVEL_2, 28), V(FEATURE_LEVEL_3, 29),
            V(FEATURE_LEVEL_4, 30), V(FEATURE_LEVEL_5, 31), V(FEATURE_LEVEL_6, 1000006),
            V(FEATURE_LEVEL_7, 1000007), V(FEATURE_LEVEL_8, 1000008),
    };
    static const enum_value result[] = {
            V(NO_ERROR, 0),
            V(OUT_OF_MEMORY, 1),
            V(INCOMPLETE, 2),
            V(UNEXPECTED_NULL, 3),
            V(BAD_DATA, 4),
            V(OP_FAILED, 5),
            V(BAD_STATE, 6),
            V(UNMAPPABLE, 7),
            V(OUTPUT_INSUFFICIENT_SIZE, 8),
            V(UNAVAILABLE_DEVICE, 9),
            V(MISSED_DEADLINE_TRANSIENT, 10),
            V(MISSED_DEADLINE_PERSISTENT, 11),
            V(RESOURCE_EXHAUSTED_TRANSIENT, 12),
            V(RESOURCE_EXHAUSTED_PERSISTENT, 13),
            V(DEAD_OBJECT, 14),
    };
    static const enum_value duration[] = {
            V(DURATION_ON_HARDWARE, 0),
            V(DURATION_IN_DRIVER, 1),
            V(FENCED_DURATION_ON_HARDWARE, 2),
            V(FENCED_DURATION_IN_DRIVER, 3),
    };
    static const enum_value priority[] = {
            V(PRIORITY_LOW, 90),
            V(PRIORITY_MEDIUM, 100),
            V(PRIORITY_HIGH, 110),
            V(PRIORITY_DEFAULT, 100),
    };
    static const enum_value constants[] = {
            V(MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES, 128),
            V(BYTE_SIZE_OF_CACHE_TOKEN, 32),
    };
    CHECK_VALUES("FuseCode", fuse);
    CHECK_VALUES("PaddingCode", padding);
    CHECK_VALUES("PreferenceCode", preference);
    CHECK_VALUES("DeviceTypeCode", device);
    CHECK_VALUES("FeatureLevelCode", level);
    CHECK_VALUES("ResultCode", result);
    CHECK_VALUES("DurationCode", duration);
    CHECK_VALUES("PriorityCode", priority);
    CHECK_VALUES("constants", constants);
}

/* The enum typedefs are int-sized (the API passes them as int32_t). */
static void check_enum_types(void) {
    CHECK_EQ_INT(sizeof(OperandCode), 4);
    CHECK_EQ_INT(sizeof(OperationCode), 4);
    CHECK_EQ_INT(sizeof(FuseCode), 4);
    CHECK_EQ_INT(sizeof(PaddingCode), 4);
    CHECK_EQ_INT(sizeof(PreferenceCode), 4);
    CHECK_EQ_INT(sizeof(DeviceTypeCode), 4);
    CHECK_EQ_INT(sizeof(FeatureLevelCode), 4);
    CHECK_EQ_INT(sizeof(ResultCode), 4);
    CHECK_EQ_INT(sizeof(DurationCode), 4);
    CHECK_EQ_INT(sizeof(PriorityCode), 4);
    CHECK(_Generic((ANeuralNetworksOperationType)0, int32_t: 1, default: 0));
}

static void check_layouts(void) {
    /* ANeuralNetworksOperandType: int32 type, uint32 dimensionCount,
     * const uint32_t* dimensions, float scale, int32 zeroPoint. */
    CHECK_EQ_INT(sizeof(ANeuralNetworksOperandType), 24);
    CHECK_EQ_INT(_Alignof(ANeuralNetworksOperandType), 8);
    CHECK_EQ_INT(offsetof(ANeuralNetworksOperandType, type), 0);
    CHECK_EQ_INT(offsetof(ANeuralNetworksOperandType, dimensionCount), 4);
    CHECK_EQ_INT(offsetof(ANeuralNetworksOperandType, dimensions), 8);
    CHECK_EQ_INT(offsetof(ANeuralNetworksOperandType, scale), 16);
    CHECK_EQ_INT(offsetof(ANeuralNetworksOperandType, zeroPoint), 20);
    CHECK(_Generic(((ANeuralNetworksOperandType*)0)->type, int32_t: 1, default: 0));
    CHECK(_Generic(((ANeuralNetworksOperandType*)0)->dimensionCount, uint32_t: 1, default: 0));
    CHECK(_Generic(((ANeuralNetworksOperandType*)0)->dimensions, const uint32_t*: 1, default: 0));
    CHECK(_Generic(((ANeuralNetworksOperandType*)0)->scale, float: 1, default: 0));
    CHECK(_Generic(((ANeuralNetworksOperandType*)0)->zeroPoint, int32_t: 1, default: 0));

    /* ANeuralNetworksSymmPerChannelQuantParams: uint32 channelDim,
     * uint32 scaleCount, const float* scales. */
    CHECK_EQ_INT(sizeof(ANeuralNetworksSymmPerChannelQuantParams), 16);
    CHECK_EQ_INT(_Alignof(ANeuralNetworksSymmPerChannelQuantParams), 8);
    CHECK_EQ_INT(offsetof(ANeuralNetworksSymmPerChannelQuantParams, channelDim), 0);
    CHECK_EQ_INT(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scaleCount), 4);
    CHECK_EQ_INT(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scales), 8);
    CHECK(_Generic(((ANeuralNetworksSymmPerChannelQuantParams*)0)->channelDim, uint32_t: 1,
                   default: 0));
    CHECK(_Generic(((ANeuralNetworksSymmPerChannelQuantParams*)0)->scaleCount, uint32_t: 1,
                   default: 0));
    CHECK(_Generic(((ANeuralNetworksSymmPerChannelQuantParams*)0)->scales, const float*: 1,
                   default: 0));
}

int main(void) {
    check_layouts();
    check_enum_types();
    check_operand_codes();
    check_operation_codes();
    check_small_enums();
    return nt_summary();
}
