/*
 * The NNAPI Support Library (SL) driver interface: the function table an SL
 * driver library hands out from ANeuralNetworks_getSLDriverImpl(). The
 * layout is the ABI Android 13 fixed (NnApiSLDriverImplFL5, FL8 appends two
 * functions; FL6 and FL7 reuse FL5's table), so drivers built for Android's
 * runtime load here and ours loads there. Members are in ABI order.
 */
#ifndef NN_SL_DRIVER_H
#define NN_SL_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "android/NeuralNetworks.h"

/* Android's hardware buffer has no Linux counterpart; the table keeps its slot. */
typedef struct AHardwareBuffer AHardwareBuffer;

typedef struct {
    float execTime;   /* time relative to the CPU's, lower is better */
    float powerUsage; /* energy relative to the CPU's, lower is better */
} SL_ANeuralNetworksPerformanceInfo;

typedef struct {
    int32_t operandType;
    SL_ANeuralNetworksPerformanceInfo performanceInfo;
} SL_ANeuralNetworksOperandPerformanceInfo;

typedef struct {
    uint32_t byteSize;
    uint16_t type;
    bool isTensor;
} SL_ANeuralNetworksExtensionOperandTypeInformation;

enum {
    SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_SCALAR = 0,
    SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_RELAXED_TENSOR = 1,
    SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_IF = 2,
    SL_ANEURALNETWORKS_CAPABILITIES_PERFORMANCE_WHILE = 3,
};

typedef struct ANeuralNetworksDiagnosticCompilationInfo ANeuralNetworksDiagnosticCompilationInfo;
typedef struct ANeuralNetworksDiagnosticExecutionInfo ANeuralNetworksDiagnosticExecutionInfo;
typedef void (*ANeuralNetworksDiagnosticCompilationFinishedCallback)(
        const void *context, const ANeuralNetworksDiagnosticCompilationInfo *info);
typedef void (*ANeuralNetworksDiagnosticExecutionFinishedCallback)(
        const void *context, const ANeuralNetworksDiagnosticExecutionInfo *info);

typedef struct NnApiSLDriverImpl {
    int64_t implFeatureLevel; /* a FeatureLevelCode: which table follows */
} NnApiSLDriverImpl;

/* The diagnostic enums (data class, execution mode) are int-sized. */
typedef struct NnApiSLDriverImplFL5 {
    NnApiSLDriverImpl base;
    int (*ANeuralNetworksBurst_create)(ANeuralNetworksCompilation *compilation,
                                       ANeuralNetworksBurst **burst);
    void (*ANeuralNetworksBurst_free)(ANeuralNetworksBurst *burst);
    int (*ANeuralNetworksCompilation_createForDevices)(ANeuralNetworksModel *model,
                                                       const ANeuralNetworksDevice *const *devices,
                                                       uint32_t numDevices,
                                                       ANeuralNetworksCompilation **compilation);
    int (*ANeuralNetworksCompilation_finish)(ANeuralNetworksCompilation *compilation);
    void (*ANeuralNetworksCompilation_free)(ANeuralNetworksCompilation *compilation);
    int (*ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput)(
            const ANeuralNetworksCompilation *compilation, uint32_t index, uint32_t *alignment);
    int (*ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput)(
            const ANeuralNetworksCompilation *compilation, uint32_t index, uint32_t *alignment);
    int (*ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput)(
            const ANeuralNetworksCompilation *compilation, uint32_t index, uint32_t *padding);
    int (*ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput)(
            const ANeuralNetworksCompilation *compilation, uint32_t index, uint32_t *padding);
    int (*ANeuralNetworksCompilation_setCaching)(ANeuralNetworksCompilation *compilation,
                                                 const char *cacheDir, const uint8_t *token);
    int (*ANeuralNetworksCompilation_setPreference)(ANeuralNetworksCompilation *compilation,
                                                    int32_t preference);
    int (*ANeuralNetworksCompilation_setPriority)(ANeuralNetworksCompilation *compilation,
                                                  int priority);
    int (*ANeuralNetworksCompilation_setTimeout)(ANeuralNetworksCompilation *compilation,
                                                 uint64_t duration);
    int (*ANeuralNetworksDevice_getExtensionSupport)(const ANeuralNetworksDevice *device,
                                                     const char *extensionName,
                                                     bool *isExtensionSupported);
    int (*ANeuralNetworksDevice_getFeatureLevel)(const ANeuralNetworksDevice *device,
                                                 int64_t *featureLevel);
    int (*ANeuralNetworksDevice_getName)(const ANeuralNetworksDevice *device, const char **name);
    int (*ANeuralNetworksDevice_getType)(const ANeuralNetworksDevice *device, int32_t *type);
    int (*ANeuralNetworksDevice_getVersion)(const ANeuralNetworksDevice *device,
                                            const char **version);
    int (*ANeuralNetworksDevice_wait)(const ANeuralNetworksDevice *device);
    int (*ANeuralNetworksEvent_createFromSyncFenceFd)(int sync_fence_fd,
                                                      ANeuralNetworksEvent **event);
    void (*ANeuralNetworksEvent_free)(ANeuralNetworksEvent *event);
    int (*ANeuralNetworksEvent_getSyncFenceFd)(const ANeuralNetworksEvent *event,
                                               int *sync_fence_fd);
    int (*ANeuralNetworksEvent_wait)(ANeuralNetworksEvent *event);
    int (*ANeuralNetworksExecution_burstCompute)(ANeuralNetworksExecution *execution,
                                                 ANeuralNetworksBurst *burst);
    int (*ANeuralNetworksExecution_compute)(ANeuralNetworksExecution *execution);
    int (*ANeuralNetworksExecution_create)(ANeuralNetworksCompilation *compilation,
                                           ANeuralNetworksExecution **execution);
    int (*ANeuralNetworksExecution_enableInputAndOutputPadding)(ANeuralNetworksExecution *execution,
                                                                bool enable);
    void (*ANeuralNetworksExecution_free)(ANeuralNetworksExecution *execution);
    int (*ANeuralNetworksExecution_getDuration)(const ANeuralNetworksExecution *execution,
                                                int32_t durationCode, uint64_t *duration);
    int (*ANeuralNetworksExecution_getOutputOperandDimensions)(ANeuralNetworksExecution *execution,
                                                               int32_t index, uint32_t *dimensions);
    int (*ANeuralNetworksExecution_getOutputOperandRank)(ANeuralNetworksExecution *execution,
                                                         int32_t index, uint32_t *rank);
    int (*ANeuralNetworksExecution_setInput)(ANeuralNetworksExecution *execution, int32_t index,
                                             const ANeuralNetworksOperandType *type,
                                             const void *buffer, size_t length);
    int (*ANeuralNetworksExecution_setInputFromMemory)(ANeuralNetworksExecution *execution,
                                                       int32_t index,
                                                       const ANeuralNetworksOperandType *type,
                                                       const ANeuralNetworksMemory *memory,
                                                       size_t offset, size_t length);
    int (*ANeuralNetworksExecution_setLoopTimeout)(ANeuralNetworksExecution *execution,
                                                   uint64_t duration);
    int (*ANeuralNetworksExecution_setMeasureTiming)(ANeuralNetworksExecution *execution,
                                                     bool measure);
    int (*ANeuralNetworksExecution_setOutput)(ANeuralNetworksExecution *execution, int32_t index,
                                              const ANeuralNetworksOperandType *type, void *buffer,
                                              size_t length);
    int (*ANeuralNetworksExecution_setOutputFromMemory)(ANeuralNetworksExecution *execution,
                                                        int32_t index,
                                                        const ANeuralNetworksOperandType *type,
                                                        const ANeuralNetworksMemory *memory,
                                                        size_t offset, size_t length);
    int (*ANeuralNetworksExecution_setReusable)(ANeuralNetworksExecution *execution, bool reusable);
    int (*ANeuralNetworksExecution_setTimeout)(ANeuralNetworksExecution *execution,
                                               uint64_t duration);
    int (*ANeuralNetworksExecution_startComputeWithDependencies)(
            ANeuralNetworksExecution *execution, const ANeuralNetworksEvent *const *dependencies,
            uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent **event);
    int (*ANeuralNetworksMemoryDesc_addInputRole)(ANeuralNetworksMemoryDesc *desc,
                                                  const ANeuralNetworksCompilation *compilation,
                                                  uint32_t index, float frequency);
    int (*ANeuralNetworksMemoryDesc_addOutputRole)(ANeuralNetworksMemoryDesc *desc,
                                                   const ANeuralNetworksCompilation *compilation,
                                                   uint32_t index, float frequency);
    int (*ANeuralNetworksMemoryDesc_create)(ANeuralNetworksMemoryDesc **desc);
    int (*ANeuralNetworksMemoryDesc_finish)(ANeuralNetworksMemoryDesc *desc);
    void (*ANeuralNetworksMemoryDesc_free)(ANeuralNetworksMemoryDesc *desc);
    int (*ANeuralNetworksMemoryDesc_setDimensions)(ANeuralNetworksMemoryDesc *desc, uint32_t rank,
                                                   const uint32_t *dimensions);
    int (*ANeuralNetworksMemory_copy)(const ANeuralNetworksMemory *src,
                                      const ANeuralNetworksMemory *dst);
    int (*ANeuralNetworksMemory_createFromAHardwareBuffer)(const AHardwareBuffer *ahwb,
                                                           ANeuralNetworksMemory **memory);
    int (*ANeuralNetworksMemory_createFromDesc)(const ANeuralNetworksMemoryDesc *desc,
                                                ANeuralNetworksMemory **memory);
    int (*ANeuralNetworksMemory_createFromFd)(size_t size, int protect, int fd, size_t offset,
                                              ANeuralNetworksMemory **memory);
    void (*ANeuralNetworksMemory_free)(ANeuralNetworksMemory *memory);
    int (*ANeuralNetworksModel_addOperand)(ANeuralNetworksModel *model,
                                           const ANeuralNetworksOperandType *type);
    int (*ANeuralNetworksModel_addOperation)(ANeuralNetworksModel *model,
                                             ANeuralNetworksOperationType type, uint32_t inputCount,
                                             const uint32_t *inputs, uint32_t outputCount,
                                             const uint32_t *outputs);
    int (*ANeuralNetworksModel_create)(ANeuralNetworksModel **model);
    int (*ANeuralNetworksModel_finish)(ANeuralNetworksModel *model);
    void (*ANeuralNetworksModel_free)(ANeuralNetworksModel *model);
    int (*ANeuralNetworksModel_getExtensionOperandType)(ANeuralNetworksModel *model,
                                                        const char *extensionName,
                                                        uint16_t operandCodeWithinExtension,
                                                        int32_t *type);
    int (*ANeuralNetworksModel_getExtensionOperationType)(ANeuralNetworksModel *model,
                                                          const char *extensionName,
                                                          uint16_t operationCodeWithinExtension,
                                                          ANeuralNetworksOperationType *type);
    int (*ANeuralNetworksModel_getSupportedOperationsForDevices)(
            const ANeuralNetworksModel *model, const ANeuralNetworksDevice *const *devices,
            uint32_t numDevices, bool *supportedOps);
    int (*ANeuralNetworksModel_identifyInputsAndOutputs)(ANeuralNetworksModel *model,
                                                         uint32_t inputCount,
                                                         const uint32_t *inputs,
                                                         uint32_t outputCount,
                                                         const uint32_t *outputs);
    int (*ANeuralNetworksModel_relaxComputationFloat32toFloat16)(ANeuralNetworksModel *model,
                                                                 bool allow);
    int (*ANeuralNetworksModel_setOperandExtensionData)(ANeuralNetworksModel *model, int32_t index,
                                                        const void *data, size_t length);
    int (*ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)(
            ANeuralNetworksModel *model, int32_t index,
            const ANeuralNetworksSymmPerChannelQuantParams *channelQuant);
    int (*ANeuralNetworksModel_setOperandValue)(ANeuralNetworksModel *model, int32_t index,
                                                const void *buffer, size_t length);
    int (*ANeuralNetworksModel_setOperandValueFromMemory)(ANeuralNetworksModel *model,
                                                          int32_t index,
                                                          const ANeuralNetworksMemory *memory,
                                                          size_t offset, size_t length);
    int (*ANeuralNetworksModel_setOperandValueFromModel)(ANeuralNetworksModel *model, int32_t index,
                                                         const ANeuralNetworksModel *value);
    uint64_t (*ANeuralNetworks_getDefaultLoopTimeout)(void);
    int (*ANeuralNetworks_getDevice)(uint32_t devIndex, ANeuralNetworksDevice **device);
    int (*ANeuralNetworks_getDeviceCount)(uint32_t *numDevices);
    uint64_t (*ANeuralNetworks_getMaximumLoopTimeout)(void);
    int64_t (*ANeuralNetworks_getRuntimeFeatureLevel)(void);
    int (*SL_ANeuralNetworksCompilation_setCachingFromFds)(ANeuralNetworksCompilation *compilation,
                                                           const int *modelCacheFds,
                                                           const uint32_t numModelCacheFiles,
                                                           const int *dataCacheFds,
                                                           const uint32_t numDataCacheFiles,
                                                           const uint8_t *token);
    int (*SL_ANeuralNetworksDevice_getNumberOfCacheFilesNeeded)(const ANeuralNetworksDevice *device,
                                                                uint32_t *numModelCacheFiles,
                                                                uint32_t *numDataCacheFiles);
    int (*SL_ANeuralNetworksDevice_getPerformanceInfo)(
            const ANeuralNetworksDevice *device, int32_t performanceInfoKind,
            SL_ANeuralNetworksPerformanceInfo *performanceInfo);
    int (*SL_ANeuralNetworksDevice_forEachOperandPerformanceInfo)(
            const ANeuralNetworksDevice *device, void *context,
            void (*callback)(SL_ANeuralNetworksOperandPerformanceInfo, void *));
    int (*SL_ANeuralNetworksDevice_getVendorExtensionCount)(const ANeuralNetworksDevice *device,
                                                            uint32_t *vendorExtensionCount);
    int (*SL_ANeuralNetworksDevice_getVendorExtensionName)(const ANeuralNetworksDevice *device,
                                                           uint32_t vendorExtensionIndex,
                                                           const char **extensionName);
    int (*SL_ANeuralNetworksDevice_forEachVendorExtensionOperandTypeInformation)(
            const ANeuralNetworksDevice *device, uint32_t vendorExtensionIndex, void *context,
            void (*callback)(SL_ANeuralNetworksExtensionOperandTypeInformation, void *));
    int32_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getSessionId)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    int64_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getNnApiVersion)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    const uint8_t *(*SL_ANeuralNetworksDiagnosticCompilationInfo_getModelArchHash)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    const char *(*SL_ANeuralNetworksDiagnosticCompilationInfo_getDeviceIds)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    int32_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getErrorCode)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    int32_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getInputDataClass)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    int32_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getOutputDataClass)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    uint64_t (*SL_ANeuralNetworksDiagnosticCompilationInfo_getCompilationTimeNanos)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    bool (*SL_ANeuralNetworksDiagnosticCompilationInfo_isCachingEnabled)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    bool (*SL_ANeuralNetworksDiagnosticCompilationInfo_isControlFlowUsed)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    bool (*SL_ANeuralNetworksDiagnosticCompilationInfo_areDynamicTensorsUsed)(
            const ANeuralNetworksDiagnosticCompilationInfo *diagnosticCompilationInfo);
    int32_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getSessionId)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    int64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getNnApiVersion)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    const uint8_t *(*SL_ANeuralNetworksDiagnosticExecutionInfo_getModelArchHash)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    const char *(*SL_ANeuralNetworksDiagnosticExecutionInfo_getDeviceIds)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    int32_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getExecutionMode)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    int32_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getInputDataClass)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    int32_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getOutputDataClass)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    uint32_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getErrorCode)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    uint64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getRuntimeExecutionTimeNanos)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    uint64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getDriverExecutionTimeNanos)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    uint64_t (*SL_ANeuralNetworksDiagnosticExecutionInfo_getHardwareExecutionTimeNanos)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    bool (*SL_ANeuralNetworksDiagnosticExecutionInfo_isCachingEnabled)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    bool (*SL_ANeuralNetworksDiagnosticExecutionInfo_isControlFlowUsed)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    bool (*SL_ANeuralNetworksDiagnosticExecutionInfo_areDynamicTensorsUsed)(
            const ANeuralNetworksDiagnosticExecutionInfo *diagnosticExecutionInfo);
    void (*SL_ANeuralNetworksDiagnostic_registerCallbacks)(
            ANeuralNetworksDiagnosticCompilationFinishedCallback compilationCallback,
            ANeuralNetworksDiagnosticExecutionFinishedCallback executionCallback,
            void *callbackContext);
} NnApiSLDriverImplFL5;

typedef struct NnApiSLDriverImplFL8 {
    NnApiSLDriverImplFL5 base;
    int (*ANeuralNetworksCompilation_addExtensionAttribute)(ANeuralNetworksCompilation *compilation,
                                                            const char *extensionName,
                                                            uint16_t attributeCodeWithinExtension,
                                                            const void *data, size_t length);
    int (*ANeuralNetworksExecution_addExtensionAttribute)(ANeuralNetworksExecution *execution,
                                                          const char *extensionName,
                                                          uint16_t attributeCodeWithinExtension,
                                                          const void *data, size_t length);
} NnApiSLDriverImplFL8;

/* What a driver library exports; the runtime finds it with dlsym. */
typedef NnApiSLDriverImpl *(*nn_sl_get_driver_fn)(void);

/* Our CPU implementation as an SL table (src/sl/sl_cpu.c). The runtime runs
 * CPU steps of a partitioned model through it, like any driver's. */
const NnApiSLDriverImplFL8 *nn_cpu_sl_table(void);

#endif
