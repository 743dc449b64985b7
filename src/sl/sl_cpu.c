/* Our CPU implementation as an SL driver table. The exported entry point is
 * in sl_entry.c (libnnapi_linux_cpu_sl.so only); the runtime itself also runs
 * the CPU steps of partitioned models through this table. */
#include "runtime.h"
#include "sl/sl_driver.h"

static int sl_ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice *device,
                                                        const char *name, bool *supported)
{
    if (device == NULL || name == NULL || supported == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Device_getExtensionSupport: an argument is NULL");
    *supported = false; /* the CPU device knows no vendor extensions */
    return ANEURALNETWORKS_NO_ERROR;
}

static int sl_ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer *ahwb,
                                                              ANeuralNetworksMemory **memory)
{
    (void)ahwb;
    if (memory != NULL)
        *memory = NULL;
    return nn_fail(ANEURALNETWORKS_BAD_DATA,
                   "Memory_createFromAHardwareBuffer: no AHardwareBuffer on Linux");
}

static int sl_ANeuralNetworksModel_getExtensionOperandType(ANeuralNetworksModel *model,
                                                           const char *extension, uint16_t type,
                                                           int32_t *out)
{
    (void)model, (void)type, (void)out;
    return nn_fail(ANEURALNETWORKS_BAD_DATA, "Model_getExtensionOperandType: unknown extension %s",
                   extension ? extension : "(null)");
}

static int sl_ANeuralNetworksModel_getExtensionOperationType(ANeuralNetworksModel *model,
                                                             const char *extension, uint16_t type,
                                                             ANeuralNetworksOperationType *out)
{
    (void)model, (void)type, (void)out;
    return nn_fail(ANEURALNETWORKS_BAD_DATA,
                   "Model_getExtensionOperationType: unknown extension %s",
                   extension ? extension : "(null)");
}

static int sl_ANeuralNetworksModel_setOperandExtensionData(ANeuralNetworksModel *model,
                                                           int32_t index, const void *data,
                                                           size_t length)
{
    (void)model, (void)data, (void)length;
    return nn_fail(ANEURALNETWORKS_BAD_DATA,
                   "Model_setOperandExtensionData: operand %d is not of an extension type", index);
}

static int sl_ANeuralNetworksCompilation_setCachingFromFds(ANeuralNetworksCompilation *c,
                                                           const int *model_fds, uint32_t n_model,
                                                           const int *data_fds, uint32_t n_data,
                                                           const uint8_t *token)
{
    (void)model_fds, (void)data_fds, (void)token;
    if (c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "setCachingFromFds: compilation is NULL");
    /* The CPU device asks for no cache files (getNumberOfCacheFilesNeeded). */
    if (n_model != 0 || n_data != 0)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "setCachingFromFds: %u model and %u data files, the device needs none",
                       n_model, n_data);
    return ANEURALNETWORKS_NO_ERROR;
}

static int sl_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded(const ANeuralNetworksDevice *d,
                                                                uint32_t *n_model, uint32_t *n_data)
{
    if (d == NULL || n_model == NULL || n_data == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "getNumberOfCacheFilesNeeded: an argument is NULL");
    *n_model = 0;
    *n_data = 0;
    return ANEURALNETWORKS_NO_ERROR;
}

/* The CPU is the reference the figures are relative to. */
static const SL_ANeuralNetworksPerformanceInfo cpu_performance = {1.0f, 1.0f};

static int sl_ANeuralNetworksDevice_getPerformanceInfo(const ANeuralNetworksDevice *d, int32_t kind,
                                                       SL_ANeuralNetworksPerformanceInfo *info)
{
    if (d == NULL || info == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "getPerformanceInfo: an argument is NULL");
    if (kind < SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR ||
        kind > SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "getPerformanceInfo: unknown kind %d", kind);
    *info = cpu_performance;
    return ANEURALNETWORKS_NO_ERROR;
}

static int sl_ANeuralNetworksDevice_forEachOperandPerformanceInfo(
        const ANeuralNetworksDevice *d, void *context,
        void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void *))
{
    if (d == NULL || callback == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "forEachOperandPerformanceInfo: an argument is NULL");
    static const int32_t types[] = {
            ANEURALNETWORKS_FLOAT32,
            ANEURALNETWORKS_INT32,
            ANEURALNETWORKS_UINT32,
            ANEURALNETWORKS_TENSOR_FLOAT32,
            ANEURALNETWORKS_TENSOR_INT32,
            ANEURALNETWORKS_TENSOR_QUANT8_ASYMM,
            ANEURALNETWORKS_BOOL,
            ANEURALNETWORKS_TENSOR_QUANT16_SYMM,
            ANEURALNETWORKS_TENSOR_FLOAT16,
            ANEURALNETWORKS_TENSOR_BOOL8,
            ANEURALNETWORKS_FLOAT16,
            ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL,
            ANEURALNETWORKS_TENSOR_QUANT16_ASYMM,
            ANEURALNETWORKS_TENSOR_QUANT8_SYMM,
            ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
            ANEURALNETWORKS_MODEL,
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        callback((SL_ANeuralNetworksOperandPerformanceInfo){types[i], cpu_performance}, context);
    return ANEURALNETWORKS_NO_ERROR;
}

static int sl_ANeuralNetworksDevice_getVendorExtensionCount(const ANeuralNetworksDevice *d,
                                                            uint32_t *count)
{
    if (d == NULL || count == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "getVendorExtensionCount: an argument is NULL");
    *count = 0;
    return ANEURALNETWORKS_NO_ERROR;
}

static int sl_ANeuralNetworksDevice_getVendorExtensionName(const ANeuralNetworksDevice *d,
                                                           uint32_t index, const char **name)
{
    (void)d, (void)name;
    return nn_fail(ANEURALNETWORKS_BAD_DATA, "getVendorExtensionName: extension %u of 0", index);
}

static int sl_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation(
        const ANeuralNetworksDevice *d, uint32_t index, void *context,
        void (*callback)(SL_ANeuralNetworksExtensionOperandTypeInformation, void *))
{
    (void)d, (void)context, (void)callback;
    return nn_fail(ANEURALNETWORKS_BAD_DATA,
                   "forEachVendorExtensionOperandTypeInformation: extension %u of 0", index);
}

/* Diagnostics: no callback is ever called, so no info object exists for
 * these getters to read; they answer neutrally for the ABI's sake. */
typedef const ANeuralNetworksDiagnosticCompilationInfo *diag_c;
typedef const ANeuralNetworksDiagnosticExecutionInfo *diag_e;
static int32_t diag_c_session(diag_c i) { return (void)i, -1; }
static int64_t diag_c_version(diag_c i) { return (void)i, NN_RUNTIME_FEATURE_LEVEL; }
static const uint8_t *diag_c_hash(diag_c i) { return (void)i, NULL; }
static const char *diag_c_devices(diag_c i) { return (void)i, ""; }
static int32_t diag_c_error(diag_c i) { return (void)i, ANEURALNETWORKS_NO_ERROR; }
static int32_t diag_c_class(diag_c i) { return (void)i, 0; }
static uint64_t diag_c_time(diag_c i) { return (void)i, 0; }
static bool diag_c_flag(diag_c i) { return (void)i, false; }
static int32_t diag_e_session(diag_e i) { return (void)i, -1; }
static int64_t diag_e_version(diag_e i) { return (void)i, NN_RUNTIME_FEATURE_LEVEL; }
static const uint8_t *diag_e_hash(diag_e i) { return (void)i, NULL; }
static const char *diag_e_devices(diag_e i) { return (void)i, ""; }
static int32_t diag_e_int(diag_e i) { return (void)i, 0; }
static uint32_t diag_e_error(diag_e i) { return (void)i, ANEURALNETWORKS_NO_ERROR; }
static uint64_t diag_e_time(diag_e i) { return (void)i, 0; }
static bool diag_e_flag(diag_e i) { return (void)i, false; }

static void sl_ANeuralNetworksDiagnostic_registerCallbacks(
        ANeuralNetworksDiagnosticCompilationFinishedCallback on_compilation,
        ANeuralNetworksDiagnosticExecutionFinishedCallback on_execution, void *context)
{
    (void)on_compilation, (void)on_execution, (void)context;
    nn_vlog("Diagnostic_registerCallbacks: diagnostics are not reported; callbacks ignored");
}

static int sl_compilation_addExtensionAttribute(ANeuralNetworksCompilation *c, const char *ext,
                                                uint16_t code, const void *data, size_t length)
{
    (void)c, (void)code, (void)data, (void)length;
    return nn_fail(ANEURALNETWORKS_BAD_DATA,
                   "Compilation_addExtensionAttribute: unknown extension %s", ext ? ext : "(null)");
}

static int sl_execution_addExtensionAttribute(ANeuralNetworksExecution *e, const char *ext,
                                              uint16_t code, const void *data, size_t length)
{
    (void)e, (void)code, (void)data, (void)length;
    return nn_fail(ANEURALNETWORKS_BAD_DATA, "Execution_addExtensionAttribute: unknown extension %s",
                   ext ? ext : "(null)");
}

static const NnApiSLDriverImplFL8 cpu_table = {
    .base = {
        .base = {.implFeatureLevel = ANEURALNETWORKS_FEATURE_LEVEL_8},
        .ANeuralNetworksBurst_create = ANeuralNetworksBurst_create,
        .ANeuralNetworksBurst_free = ANeuralNetworksBurst_free,
        .ANeuralNetworksCompilation_createForDevices = ANeuralNetworksCompilation_createForDevices,
        .ANeuralNetworksCompilation_finish = ANeuralNetworksCompilation_finish,
        .ANeuralNetworksCompilation_free = ANeuralNetworksCompilation_free,
        .ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput = ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput,
        .ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput = ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput,
        .ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput = ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput,
        .ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput = ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput,
        .ANeuralNetworksCompilation_setCaching = ANeuralNetworksCompilation_setCaching,
        .ANeuralNetworksCompilation_setPreference = ANeuralNetworksCompilation_setPreference,
        .ANeuralNetworksCompilation_setPriority = ANeuralNetworksCompilation_setPriority,
        .ANeuralNetworksCompilation_setTimeout = ANeuralNetworksCompilation_setTimeout,
        .ANeuralNetworksDevice_getExtensionSupport = sl_ANeuralNetworksDevice_getExtensionSupport,
        .ANeuralNetworksDevice_getFeatureLevel = ANeuralNetworksDevice_getFeatureLevel,
        .ANeuralNetworksDevice_getName = ANeuralNetworksDevice_getName,
        .ANeuralNetworksDevice_getType = ANeuralNetworksDevice_getType,
        .ANeuralNetworksDevice_getVersion = ANeuralNetworksDevice_getVersion,
        .ANeuralNetworksDevice_wait = ANeuralNetworksDevice_wait,
        .ANeuralNetworksEvent_createFromSyncFenceFd = ANeuralNetworksEvent_createFromSyncFenceFd,
        .ANeuralNetworksEvent_free = ANeuralNetworksEvent_free,
        .ANeuralNetworksEvent_getSyncFenceFd = ANeuralNetworksEvent_getSyncFenceFd,
        .ANeuralNetworksEvent_wait = ANeuralNetworksEvent_wait,
        .ANeuralNetworksExecution_burstCompute = ANeuralNetworksExecution_burstCompute,
        .ANeuralNetworksExecution_compute = ANeuralNetworksExecution_compute,
        .ANeuralNetworksExecution_create = ANeuralNetworksExecution_create,
        .ANeuralNetworksExecution_enableInputAndOutputPadding = ANeuralNetworksExecution_enableInputAndOutputPadding,
        .ANeuralNetworksExecution_free = ANeuralNetworksExecution_free,
        .ANeuralNetworksExecution_getDuration = ANeuralNetworksExecution_getDuration,
        .ANeuralNetworksExecution_getOutputOperandDimensions = ANeuralNetworksExecution_getOutputOperandDimensions,
        .ANeuralNetworksExecution_getOutputOperandRank = ANeuralNetworksExecution_getOutputOperandRank,
        .ANeuralNetworksExecution_setInput = ANeuralNetworksExecution_setInput,
        .ANeuralNetworksExecution_setInputFromMemory = ANeuralNetworksExecution_setInputFromMemory,
        .ANeuralNetworksExecution_setLoopTimeout = ANeuralNetworksExecution_setLoopTimeout,
        .ANeuralNetworksExecution_setMeasureTiming = ANeuralNetworksExecution_setMeasureTiming,
        .ANeuralNetworksExecution_setOutput = ANeuralNetworksExecution_setOutput,
        .ANeuralNetworksExecution_setOutputFromMemory = ANeuralNetworksExecution_setOutputFromMemory,
        .ANeuralNetworksExecution_setReusable = ANeuralNetworksExecution_setReusable,
        .ANeuralNetworksExecution_setTimeout = ANeuralNetworksExecution_setTimeout,
        .ANeuralNetworksExecution_startComputeWithDependencies = ANeuralNetworksExecution_startComputeWithDependencies,
        .ANeuralNetworksMemoryDesc_addInputRole = ANeuralNetworksMemoryDesc_addInputRole,
        .ANeuralNetworksMemoryDesc_addOutputRole = ANeuralNetworksMemoryDesc_addOutputRole,
        .ANeuralNetworksMemoryDesc_create = ANeuralNetworksMemoryDesc_create,
        .ANeuralNetworksMemoryDesc_finish = ANeuralNetworksMemoryDesc_finish,
        .ANeuralNetworksMemoryDesc_free = ANeuralNetworksMemoryDesc_free,
        .ANeuralNetworksMemoryDesc_setDimensions = ANeuralNetworksMemoryDesc_setDimensions,
        .ANeuralNetworksMemory_copy = ANeuralNetworksMemory_copy,
        .ANeuralNetworksMemory_createFromAHardwareBuffer = sl_ANeuralNetworksMemory_createFromAHardwareBuffer,
        .ANeuralNetworksMemory_createFromDesc = ANeuralNetworksMemory_createFromDesc,
        .ANeuralNetworksMemory_createFromFd = ANeuralNetworksMemory_createFromFd,
        .ANeuralNetworksMemory_free = ANeuralNetworksMemory_free,
        .ANeuralNetworksModel_addOperand = ANeuralNetworksModel_addOperand,
        .ANeuralNetworksModel_addOperation = ANeuralNetworksModel_addOperation,
        .ANeuralNetworksModel_create = ANeuralNetworksModel_create,
        .ANeuralNetworksModel_finish = ANeuralNetworksModel_finish,
        .ANeuralNetworksModel_free = ANeuralNetworksModel_free,
        .ANeuralNetworksModel_getExtensionOperandType = sl_ANeuralNetworksModel_getExtensionOperandType,
        .ANeuralNetworksModel_getExtensionOperationType = sl_ANeuralNetworksModel_getExtensionOperationType,
        .ANeuralNetworksModel_getSupportedOperationsForDevices = ANeuralNetworksModel_getSupportedOperationsForDevices,
        .ANeuralNetworksModel_identifyInputsAndOutputs = ANeuralNetworksModel_identifyInputsAndOutputs,
        .ANeuralNetworksModel_relaxComputationFloat32toFloat16 = ANeuralNetworksModel_relaxComputationFloat32toFloat16,
        .ANeuralNetworksModel_setOperandExtensionData = sl_ANeuralNetworksModel_setOperandExtensionData,
        .ANeuralNetworksModel_setOperandSymmPerChannelQuantParams = ANeuralNetworksModel_setOperandSymmPerChannelQuantParams,
        .ANeuralNetworksModel_setOperandValue = ANeuralNetworksModel_setOperandValue,
        .ANeuralNetworksModel_setOperandValueFromMemory = ANeuralNetworksModel_setOperandValueFromMemory,
        .ANeuralNetworksModel_setOperandValueFromModel = ANeuralNetworksModel_setOperandValueFromModel,
        .ANeuralNetworks_getDefaultLoopTimeout = ANeuralNetworks_getDefaultLoopTimeout,
        .ANeuralNetworks_getDevice = ANeuralNetworks_getDevice,
        .ANeuralNetworks_getDeviceCount = ANeuralNetworks_getDeviceCount,
        .ANeuralNetworks_getMaximumLoopTimeout = ANeuralNetworks_getMaximumLoopTimeout,
        .ANeuralNetworks_getRuntimeFeatureLevel = ANeuralNetworks_getRuntimeFeatureLevel,
        .SL_ANeuralNetworksCompilation_setCachingFromFds = sl_ANeuralNetworksCompilation_setCachingFromFds,
        .SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded = sl_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded,
        .SL_ANeuralNetworksDevice_getPerformanceInfo = sl_ANeuralNetworksDevice_getPerformanceInfo,
        .SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo = sl_ANeuralNetworksDevice_forEachOperandPerformanceInfo,
        .SL_ANeuralNetworksDevice_getVendorExtensionCount = sl_ANeuralNetworksDevice_getVendorExtensionCount,
        .SL_ANeuralNetworksDevice_getVendorExtensionName = sl_ANeuralNetworksDevice_getVendorExtensionName,
        .SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation = sl_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId = diag_c_session,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion = diag_c_version,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash = diag_c_hash,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds = diag_c_devices,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode = diag_c_error,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass = diag_c_class,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass = diag_c_class,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos = diag_c_time,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled = diag_c_flag,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed = diag_c_flag,
        .SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed = diag_c_flag,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId = diag_e_session,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion = diag_e_version,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash = diag_e_hash,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds = diag_e_devices,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode = diag_e_int,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass = diag_e_int,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass = diag_e_int,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode = diag_e_error,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos = diag_e_time,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos = diag_e_time,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos = diag_e_time,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled = diag_e_flag,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed = diag_e_flag,
        .SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed = diag_e_flag,
        .SL_ANeuralNetworksDiagnostic_registerCallbacks = sl_ANeuralNetworksDiagnostic_registerCallbacks,
    },
    .ANeuralNetworksCompilation_addExtensionAttribute = sl_compilation_addExtensionAttribute,
    .ANeuralNetworksExecution_addExtensionAttribute = sl_execution_addExtensionAttribute,
};

const NnApiSLDriverImplFL8 *nn_cpu_sl_table(void)
{
    return &cpu_table;
}
