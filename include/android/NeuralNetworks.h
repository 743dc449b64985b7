/**
 * @file NeuralNetworks.h
 * @brief The functions of the Android Neural Networks API (NNAPI), feature
 * levels 1 to 8, as nnapi-linux implements them on Linux.
 *
 * Names, signatures and result codes are those of Android's header, so a
 * program written for Android's `libneuralnetworks.so` builds and runs here
 * unchanged. The types, operand codes and operations are in
 * NeuralNetworksTypes.h.
 *
 * **Workflow.** Build an ::ANeuralNetworksModel (operands, operations, inputs
 * and outputs, then finish it), compile it into an
 * ::ANeuralNetworksCompilation, then run it any number of times through
 * ::ANeuralNetworksExecution objects: synchronously, asynchronously with an
 * ::ANeuralNetworksEvent, in an ::ANeuralNetworksBurst, or fenced.
 *
 * **Results.** Every function returning `int` returns a ::ResultCode:
 * ::ANEURALNETWORKS_NO_ERROR on success. The common failures, not repeated
 * under each function: ::ANEURALNETWORKS_UNEXPECTED_NULL for a NULL pointer
 * argument, ::ANEURALNETWORKS_BAD_STATE for a call in the wrong stage of an
 * object's life (for example changing a finished model),
 * ::ANEURALNETWORKS_BAD_DATA for an out-of-range index or invalid value, and
 * ::ANEURALNETWORKS_OUT_OF_MEMORY. With `NNAPI_LINUX_VLOG=1` in the
 * environment, each failure is explained by one line on stderr naming the
 * function, the operation or operand and the reason, e.g.
 * `nnapi-linux: addOperation(MUL #0): output scale 0.25 <= input1 scale *
 * input2 scale 0.25` (as Android's runtime does on logcat).
 *
 * **Life cycle.** Objects are created, configured, finished, used and freed.
 * Functions that return a new object through an output pointer set it to NULL
 * on failure. Every `_free` accepts NULL and does nothing with it. An object
 * must outlive the objects made from it: a model its compilations, a
 * compilation its executions and bursts, a memory the models and executions
 * that use it. A memory descriptor need not outlive its memories.
 *
 * **Threads.** An object that is being configured belongs to one thread at a
 * time: the caller must not modify it from two threads at once. Once
 * finished, a model or compilation may be used from any number of threads
 * concurrently. An execution runs one computation at a time; separate
 * executions of one compilation may run concurrently. All functions without
 * an object argument are thread-safe.
 *
 * **Feature levels.** Each function says which NNAPI feature level
 * introduced it (::FeatureLevelCode); this library provides all of them up to
 * level 8 (levels 6 to 8 added operations only, no function).
 */
#ifndef NNAPI_LINUX_NEURAL_NETWORKS_H
#define NNAPI_LINUX_NEURAL_NETWORKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "NeuralNetworksTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Memory descriptors (feature level 4) ---- */

/**
 * Creates an empty memory descriptor, to describe a device memory by the
 * roles it will play in compilations. Feature level 4.
 *
 * Add at least one role, optionally set dimensions, then finish it and pass it
 * to ANeuralNetworksMemory_createFromDesc().
 *
 * @param desc Receives the new descriptor (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR, ::ANEURALNETWORKS_UNEXPECTED_NULL or
 *         ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc);

/**
 * Frees a memory descriptor. Memories created from it are not affected.
 * Feature level 4.
 *
 * @param desc The descriptor, or NULL (no effect).
 */
void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc);

/**
 * Declares that memories from this descriptor will be used as an input of a
 * compilation. Feature level 4.
 *
 * All roles of a descriptor must agree on the operand type, scale and zero
 * point (a tensor type other than TENSOR_QUANT8_SYMM_PER_CHANNEL); dimensions
 * must be compatible (unknown ones merge with known ones). The same
 * (compilation, input) pair may be added only once. Not allowed after
 * ANeuralNetworksMemoryDesc_finish().
 *
 * @param desc The descriptor being built.
 * @param compilation A finished compilation; it must outlive the descriptor.
 * @param index The input's position in the model's input list (as given to
 *              ANeuralNetworksModel_identifyInputsAndOutputs()), not an
 *              operand index.
 * @param frequency How often the memory will play this role, in (0.0, 1.0];
 *                  a hint.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for a bad
 *         index, frequency or an incompatible type;
 *         ::ANEURALNETWORKS_BAD_STATE if the descriptor is finished or the
 *         compilation is not.
 */
int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc,
                                           const ANeuralNetworksCompilation* compilation,
                                           uint32_t index, float frequency);

/**
 * Declares that memories from this descriptor will be used as an output of a
 * compilation. Feature level 4. Same rules as
 * ANeuralNetworksMemoryDesc_addInputRole().
 *
 * @param desc The descriptor being built.
 * @param compilation A finished compilation; it must outlive the descriptor.
 * @param index The output's position in the model's output list.
 * @param frequency How often the memory will play this role, in (0.0, 1.0].
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA or
 *         ::ANEURALNETWORKS_BAD_STATE as for the input role.
 */
int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc,
                                            const ANeuralNetworksCompilation* compilation,
                                            uint32_t index, float frequency);

/**
 * Sets the dimensions of the memory, where the roles leave them unknown.
 * Feature level 4.
 *
 * @param desc The descriptor being built.
 * @param rank Number of dimensions; 0 for a scalar or an unknown rank.
 * @param dimensions @p rank sizes, 0 meaning unknown; may be NULL when
 *                   @p rank is 0. They must be compatible with every role.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if they
 *         contradict a role; ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank,
                                            const uint32_t* dimensions);

/**
 * Completes a descriptor; it can then only be used to create memories or be
 * freed. It needs at least one role. Feature level 4.
 *
 * @param desc The descriptor.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if it has no
 *         role; ::ANEURALNETWORKS_BAD_STATE if already finished.
 */
int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc);

/**
 * Allocates a memory described by a finished descriptor. Feature level 4.
 *
 * The memory starts uninitialized: reading it as an execution input, or
 * copying from it, fails until an execution or ANeuralNetworksMemory_copy()
 * has written it. nnapi-linux needs the dimensions fully known, from the
 * roles or ANeuralNetworksMemoryDesc_setDimensions().
 *
 * @param desc A finished descriptor.
 * @param memory Receives the new memory (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE if the
 *         descriptor is not finished; ::ANEURALNETWORKS_OP_FAILED if a
 *         dimension or the rank is still unknown;
 *         ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc,
                                         ANeuralNetworksMemory** memory);

/**
 * Copies the contents of one memory into another of the same size (or, for
 * memories from descriptors, of compatible type and dimensions). Feature
 * level 4.
 *
 * @param src The memory to read; if it comes from a descriptor it must have
 *            been initialized.
 * @param dst The memory to write; a descriptor memory becomes initialized.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if sizes,
 *         types or dimensions do not match or @p src is uninitialized.
 */
int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst);

/* ---- Devices (feature level 3) ---- */

/**
 * Reports how many devices the runtime offers. Feature level 3.
 *
 * nnapi-linux offers the devices of the NNAPI Support Library drivers named by
 * `NNAPI_LINUX_DRIVERS` (paths separated by `:`) and by the `*.conf` files of
 * `NNAPI_LINUX_DRIVERS_DIR` (default `/etc/nnapi-linux/drivers.d`, one path
 * per line), loaded once at the first call that needs devices, then the CPU
 * device `nnapi_linux-cpu`, always last. Without drivers the count is 1.
 *
 * @param numDevices Receives the count.
 * @return ::ANEURALNETWORKS_NO_ERROR or ::ANEURALNETWORKS_UNEXPECTED_NULL.
 */
int ANeuralNetworks_getDeviceCount(uint32_t* numDevices);

/**
 * Returns one device. Device objects belong to the runtime and live as long as
 * the process; they are never freed. Feature level 3.
 *
 * @param devIndex Index in [0, count) with count from
 *                 ANeuralNetworks_getDeviceCount().
 * @param device Receives the device.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for an index
 *         out of range.
 */
int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device);

/**
 * Returns the name of a device, unique among the devices. Feature level 3.
 *
 * @param device The device.
 * @param name Receives a NUL-terminated string owned by the runtime, valid for
 *             the life of the process.
 * @return ::ANEURALNETWORKS_NO_ERROR or ::ANEURALNETWORKS_UNEXPECTED_NULL.
 */
int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name);

/**
 * Returns the kind of a device. Feature level 3.
 *
 * @param device The device.
 * @param type Receives a ::DeviceTypeCode (::ANEURALNETWORKS_DEVICE_CPU here).
 * @return ::ANEURALNETWORKS_NO_ERROR or ::ANEURALNETWORKS_UNEXPECTED_NULL.
 */
int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type);

/**
 * Returns the version string of a device's driver. Feature level 3.
 *
 * @param device The device.
 * @param version Receives a NUL-terminated string owned by the runtime.
 * @return ::ANEURALNETWORKS_NO_ERROR or ::ANEURALNETWORKS_UNEXPECTED_NULL.
 */
int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version);

/**
 * Returns the highest NNAPI feature level a device supports. Feature level 3.
 *
 * @param device The device.
 * @param featureLevel Receives a ::FeatureLevelCode value
 *                     (::ANEURALNETWORKS_FEATURE_LEVEL_8 for the CPU device).
 * @return ::ANEURALNETWORKS_NO_ERROR or ::ANEURALNETWORKS_UNEXPECTED_NULL.
 */
int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device,
                                          int64_t* featureLevel);

/**
 * Waits until a device is ready to take work. The CPU device always is.
 * Feature level 4.
 *
 * @param device The device.
 * @return ::ANEURALNETWORKS_NO_ERROR, or ::ANEURALNETWORKS_UNAVAILABLE_DEVICE
 *         for a device that cannot recover.
 */
int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device);

/**
 * Tells which operations of a model the given devices can run together.
 * Feature level 3.
 *
 * @param model A finished model.
 * @param devices @p numDevices distinct devices from ANeuralNetworks_getDevice().
 * @param numDevices At least 1.
 * @param supportedOps An array with one entry per operation, in the order of
 *                     ANeuralNetworksModel_addOperation(); each is set to
 *                     true if one of the devices can run that operation.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE if the model
 *         is not finished; ::ANEURALNETWORKS_BAD_DATA for an empty or
 *         repeating device list.
 */
int ANeuralNetworksModel_getSupportedOperationsForDevices(
        const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices,
        uint32_t numDevices, bool* supportedOps);

/**
 * Creates a compilation of a model restricted to the given devices (no
 * fallback to others): each operation runs on one of them, and a step a
 * driver fails falls back to the CPU only if the CPU device is listed.
 * Compilation_finish returns ::ANEURALNETWORKS_BAD_DATA when an operation is
 * supported by none of them. Feature level 3.
 *
 * Timing measurement and timeouts need a compilation made this way with
 * exactly one device.
 *
 * @param model A finished model; it must outlive the compilation.
 * @param devices @p numDevices distinct devices.
 * @param numDevices At least 1.
 * @param compilation Receives the new compilation (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE if the model
 *         is not finished; ::ANEURALNETWORKS_BAD_DATA for a bad device list;
 *         ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model,
                                                const ANeuralNetworksDevice* const* devices,
                                                uint32_t numDevices,
                                                ANeuralNetworksCompilation** compilation);

/**
 * Allows the compilation to be cached on disk for later compilations of the
 * same model. Call before ANeuralNetworksCompilation_finish(). Feature level 3.
 *
 * In nnapi-linux, finish then looks for the file
 * `cacheDir/nnapi-linux-<the token's 32 bytes in hex>.cache`. If it was
 * written by the same library build for the same instruction-set level
 * (NNAPI_LINUX_ISA included), token and model, it is mapped read-only and
 * the compilation uses the packed weights it holds instead of packing them
 * again; the mapping lives as long as the compilation. Otherwise the model
 * is compiled and the entry written: to a temporary file in cacheDir, synced,
 * then renamed over the entry, so that concurrent compilations (threads or
 * processes) and crashes never leave a partial entry in use. "The same
 * model" is checked, not trusted: the entry holds a 128-bit hash of every
 * operand (type, dimensions, scale, zero point, per-channel scales,
 * lifetime), operation, constant value (those in memory objects too),
 * referenced model, the relaxed flag and the preference; a corrupt, truncated,
 * foreign or stale entry is ignored and rewritten. Caching never makes
 * finish fail: an unwritable or missing cacheDir compiles as without it
 * (NNAPI_LINUX_VLOG=1 logs why). Entries are created with mode 0600;
 * nothing removes old ones.
 *
 * @param compilation The compilation being configured.
 * @param cacheDir A directory the application may write.
 * @param token ::ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN bytes that identify
 *              the model uniquely within the application.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE once
 *         finished.
 */
int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation,
                                          const char* cacheDir, const uint8_t* token);

/* ---- Execution, bursts and timing (feature level 3) ---- */

/**
 * Runs an execution and waits for its end. Feature level 3.
 *
 * All inputs and outputs must have been set. Until the call returns the
 * execution must not be touched by another thread. A non-reusable execution
 * can be computed once; see ANeuralNetworksExecution_setReusable().
 *
 * @param execution The execution.
 * @return ::ANEURALNETWORKS_NO_ERROR;
 *         ::ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE if an output buffer is too
 *         small for the computed shape (then
 *         ANeuralNetworksExecution_getOutputOperandDimensions() tells the
 *         needed shape); ::ANEURALNETWORKS_BAD_DATA if an input has an invalid
 *         value or shape, or an input or output is not bound;
 *         ::ANEURALNETWORKS_OP_FAILED if an operation fails;
 *         ::ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT when the execution's
 *         timeout expires, ::ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT when a
 *         loop timeout expires without one; ::ANEURALNETWORKS_BAD_STATE if the
 *         execution is running, or was computed and is not reusable.
 */
int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution);

/**
 * Returns the rank of an output after a computation. Feature level 3.
 *
 * @param execution An execution whose computation has ended, successfully or
 *                  with ::ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE.
 * @param index The output's position in the model's output list.
 * @param rank Receives the number of dimensions (0 for a scalar).
 * @return ::ANEURALNETWORKS_NO_ERROR;
 *         ::ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE (with @p rank set) if
 *         this output's buffer was too small; ::ANEURALNETWORKS_BAD_DATA for
 *         a bad index; ::ANEURALNETWORKS_BAD_STATE if no computation has
 *         ended or it failed otherwise.
 */
int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution,
                                                  int32_t index, uint32_t* rank);

/**
 * Returns the dimensions of an output after a computation: how outputs of
 * unknown shape learn their shape. Feature level 3.
 *
 * @param execution An execution whose computation has ended, successfully or
 *                  with ::ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE.
 * @param index The output's position in the model's output list.
 * @param dimensions Receives rank values (see
 *                   ANeuralNetworksExecution_getOutputOperandRank()).
 * @return As ANeuralNetworksExecution_getOutputOperandRank(), and
 *         ::ANEURALNETWORKS_BAD_DATA for a scalar output.
 */
int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution,
                                                        int32_t index, uint32_t* dimensions);

/**
 * Creates a burst: a channel for a series of fast synchronous executions of
 * one compilation, which may keep state between them. Feature level 3.
 *
 * @param compilation A finished compilation; it must outlive the burst.
 * @param burst Receives the new burst (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE if the
 *         compilation is not finished; ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation,
                                ANeuralNetworksBurst** burst);

/**
 * Frees a burst. No computation may be running in it. Feature level 3.
 *
 * @param burst The burst, or NULL (no effect).
 */
void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst);

/**
 * Runs an execution synchronously in a burst. Feature level 3.
 *
 * A burst runs one execution at a time: a call while another one is running
 * in the same burst returns ::ANEURALNETWORKS_BAD_STATE. Otherwise like
 * ANeuralNetworksExecution_compute().
 *
 * @param execution An execution of the burst's compilation.
 * @param burst The burst.
 * @return As ANeuralNetworksExecution_compute(); ::ANEURALNETWORKS_BAD_DATA if
 *         the execution comes from another compilation.
 */
int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksBurst* burst);
#ifdef __ANDROID__
/**
 * Wraps an Android AHardwareBuffer as a memory. Android only: left out of the
 * Linux header and library. Feature level 3.
 *
 * @param ahwb The hardware buffer.
 * @param memory Receives the new memory.
 * @return A ::ResultCode.
 */
int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb,
                                                    ANeuralNetworksMemory** memory);
#endif

/**
 * Asks for the duration of the next computations to be measured. Call before
 * the computation starts. Feature level 3.
 *
 * @param execution An execution of a compilation made by
 *                  ANeuralNetworksCompilation_createForDevices() with one
 *                  device.
 * @param measure true to measure, false (the default) not to.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the
 *         compilation was not made for exactly one device;
 *         ::ANEURALNETWORKS_BAD_STATE once a computation started.
 */
int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure);

/**
 * Returns a measured duration of the last computation. Feature level 3.
 *
 * @param execution An execution whose computation ended successfully.
 * @param durationCode Which duration: a ::DurationCode.
 * @param duration Receives nanoseconds, or UINT64_MAX when not measured
 *                 (timing off, or the computation failed). ON_HARDWARE and
 *                 IN_DRIVER are the same on the CPU; the FENCED codes count
 *                 from the start of the call for a fenced computation.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for an
 *         unknown code; ::ANEURALNETWORKS_BAD_STATE if no computation has
 *         ended.
 */
int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution,
                                         int32_t durationCode, uint64_t* duration);

/* ---- Memory (feature level 1) ---- */

/**
 * Makes a memory from a region of a file descriptor, which the runtime maps
 * with mmap(). Feature level 1.
 *
 * The descriptor is duplicated: the caller may close its own. Models and
 * executions refer to parts of the memory by offset and length.
 *
 * @param size Length of the region in bytes; it must lie within the file.
 * @param protect PROT_READ, PROT_WRITE or both (or PROT_NONE), as for mmap().
 * @param fd A descriptor that can be mapped (a file, a memfd, shared memory).
 * @param offset Start of the region in the file; a multiple of the page size.
 * @param memory Receives the new memory (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for a bad
 *         descriptor, size or protection; ::ANEURALNETWORKS_UNMAPPABLE if the
 *         region cannot be mapped; ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory);

/**
 * Frees a memory. Nothing may still refer to it: no unfinished model using it
 * for a constant, no compilation of such a model, no execution or descriptor
 * using it. Feature level 1.
 *
 * @param memory The memory, or NULL (no effect).
 */
void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory);

/* ---- Models (feature level 1, with later additions) ---- */

/**
 * Creates an empty model. Feature level 1.
 *
 * Add operands (ANeuralNetworksModel_addOperand()), give constants their
 * values, add operations, name the model's inputs and outputs
 * (ANeuralNetworksModel_identifyInputsAndOutputs()), then call
 * ANeuralNetworksModel_finish().
 *
 * @param model Receives the new model (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR, ::ANEURALNETWORKS_UNEXPECTED_NULL or
 *         ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksModel_create(ANeuralNetworksModel** model);

/**
 * Frees a model, finished or not. Its compilations must have been freed
 * first. Feature level 1.
 *
 * @param model The model, or NULL (no effect).
 */
void ANeuralNetworksModel_free(ANeuralNetworksModel* model);

/**
 * Validates and completes a model; afterwards it can no longer change, and
 * may be compiled from several threads at once. Feature level 1.
 *
 * @param model The model.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the graph
 *         is invalid (an operand without value or producer, a cycle, an
 *         operation whose operands do not fit it, no inputs/outputs
 *         declared); ::ANEURALNETWORKS_BAD_STATE if already finished.
 */
int ANeuralNetworksModel_finish(ANeuralNetworksModel* model);

/**
 * Adds an operand to a model. Operands are numbered from 0 in the order they
 * are added; operations, values and inputs/outputs refer to them by that
 * number. Feature level 1.
 *
 * @param model An unfinished model.
 * @param type The operand's type, copied. Tensor dimensions may be 0
 *             (unknown) where the operation can infer them; a dimensionCount
 *             of 0 means unknown rank. The runtime sets no limit on the
 *             rank, as Android's does not (each operation states the ranks
 *             it takes). For quantized types scale and
 *             zeroPoint must be valid for the type (see ::OperandCode).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for an
 *         invalid type; ::ANEURALNETWORKS_BAD_STATE once finished;
 *         ::ANEURALNETWORKS_OUT_OF_MEMORY when the operand cannot be stored.
 */
int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model,
                                    const ANeuralNetworksOperandType* type);

/**
 * Makes an operand a constant with the given value. Feature level 1.
 *
 * Values of at most ::ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES
 * bytes are copied. Longer values are referenced: the buffer must outlive the
 * model and stay unchanged while its executions run. A NULL buffer with
 * length 0 marks an optional operand as omitted.
 *
 * @param model An unfinished model.
 * @param index The operand's number.
 * @param buffer The value, in the operand's element layout (row-major).
 * @param length Its size in bytes; must equal the operand's size.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for a bad
 *         index or length; ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index,
                                         const void* buffer, size_t length);

/**
 * Gives a ::ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL operand its
 * per-channel scales. Required for such operands, before finishing the
 * model. Feature level 3.
 *
 * @param model An unfinished model.
 * @param index The operand's number.
 * @param channelQuant The channel dimension and one positive scale per
 *                     element along it; copied.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the
 *         operand is of another type, the dimension is out of range or the
 *         scale count does not match; ::ANEURALNETWORKS_BAD_STATE once
 *         finished.
 */
int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
        ANeuralNetworksModel* model, int32_t index,
        const ANeuralNetworksSymmPerChannelQuantParams* channelQuant);

/**
 * Makes an operand a constant whose value lies in a memory. The region is
 * referenced, not copied: the memory must outlive the model and the region
 * stay unchanged while its executions run. Feature level 1.
 *
 * @param model An unfinished model.
 * @param index The operand's number.
 * @param memory The memory holding the value.
 * @param offset Start of the value in the memory.
 * @param length Size in bytes; must equal the operand's size and fit in the
 *               memory. Memories from descriptors are not allowed here.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for a bad
 *         index, range or memory; ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index,
                                                   const ANeuralNetworksMemory* memory,
                                                   size_t offset, size_t length);

/**
 * Makes an ::ANEURALNETWORKS_MODEL operand refer to another model, as the
 * branch or body of an ::ANEURALNETWORKS_IF or ::ANEURALNETWORKS_WHILE.
 * Feature level 4.
 *
 * @param model An unfinished model.
 * @param index The number of an operand of type ::ANEURALNETWORKS_MODEL.
 * @param value A finished model, not @p model itself; it must outlive
 *              @p model's compilations. Its relaxed-float setting is ignored
 *              in favour of the main model's.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the
 *         operand is not of type MODEL or @p value is @p model;
 *         ::ANEURALNETWORKS_BAD_STATE if
 *         @p model is finished or @p value is not.
 */
int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index,
                                                  const ANeuralNetworksModel* value);

/**
 * Adds an operation. Its inputs and outputs are operand numbers whose count,
 * order and types must fit the operation (see ::OperationCode); an operand is
 * the output of at most one operation. Feature level 1.
 *
 * @param model An unfinished model.
 * @param type An ::OperationCode.
 * @param inputCount Number of inputs.
 * @param inputs The input operands.
 * @param outputCount Number of outputs.
 * @param outputs The output operands.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for an
 *         unknown operation, a bad operand number or operands that do not fit;
 *         ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model,
                                      ANeuralNetworksOperationType type, uint32_t inputCount,
                                      const uint32_t* inputs, uint32_t outputCount,
                                      const uint32_t* outputs);

/**
 * Names the model's inputs and outputs. Executions then refer to them by
 * their position in these lists. Feature level 1.
 *
 * @param model An unfinished model.
 * @param inputCount Number of inputs.
 * @param inputs Operand numbers of the inputs: operands without a value.
 * @param outputCount Number of outputs.
 * @param outputs Operand numbers of the outputs.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for bad or
 *         constant operands; ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model, uint32_t inputCount,
                                                  const uint32_t* inputs, uint32_t outputCount,
                                                  const uint32_t* outputs);

/**
 * Allows ::ANEURALNETWORKS_TENSOR_FLOAT32 arithmetic to be done with the
 * range and precision of float16. Off by default. nnapi-linux computes in
 * float32 either way. Feature level 2.
 *
 * @param model An unfinished model.
 * @param allow true to allow reduced precision.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE once
 *         finished.
 */
int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model, bool allow);

/* ---- Compilations ---- */

/**
 * Creates a compilation of a finished model for the runtime's devices: with
 * SL drivers loaded (see ANeuralNetworks_getDeviceCount()), each operation
 * goes to the first device supporting it, accelerators before the CPU, and
 * whatever a driver fails to compile or compute runs on the CPU.
 * `NNAPI_LINUX_VLOG=1` prints the partition at Compilation_finish.
 * Feature level 1.
 *
 * @param model A finished model; it must outlive the compilation.
 * @param compilation Receives the new compilation (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE if the model
 *         is not finished; ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation);

/**
 * Frees a compilation. Its executions and bursts must have been freed first,
 * and no computation of it may be running. Feature level 1.
 *
 * @param compilation The compilation, or NULL (no effect).
 */
void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation);

/**
 * Says what to optimise for. A hint; call before
 * ANeuralNetworksCompilation_finish(). Feature level 1.
 *
 * @param compilation The compilation being configured.
 * @param preference A ::PreferenceCode; the default is
 *                   ::ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for an
 *         unknown code; ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation,
                                             int32_t preference);

/**
 * Compiles: plans the order of operations, infers shapes, lays out the
 * temporaries and packs constant weights. Afterwards the compilation can no
 * longer be configured and may be used from several threads. Feature level 1.
 *
 * @param compilation The compilation.
 * A compilation whose finish failed cannot be used; it can only be freed.
 *
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the model
 *         cannot be run on the chosen devices;
 *         ::ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT if a timeout set by
 *         ANeuralNetworksCompilation_setTimeout() expired;
 *         ::ANEURALNETWORKS_BAD_STATE if already finished;
 *         ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation);

/**
 * Sets the priority of the compilation's executions relative to the
 * application's other work. A hint; call before finishing. Feature level 4.
 *
 * @param compilation The compilation being configured.
 * @param priority A ::PriorityCode; the default is
 *                 ::ANEURALNETWORKS_PRIORITY_DEFAULT.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for an
 *         unknown code; ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority);

/**
 * Sets how long ANeuralNetworksCompilation_finish() may take. Call before
 * finishing. Feature level 4.
 *
 * @param compilation A compilation made by
 *                    ANeuralNetworksCompilation_createForDevices() with one
 *                    device.
 * @param duration Nanoseconds; 0 means no limit.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the
 *         compilation was not made for exactly one device;
 *         ::ANEURALNETWORKS_BAD_STATE once finished.
 */
int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation,
                                          uint64_t duration);

/* ---- Executions ---- */

/**
 * Creates an execution: one application of a compilation to inputs and
 * outputs. Feature level 1.
 *
 * @param compilation A finished compilation; it must outlive the execution.
 * @param execution Receives the new execution (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE if the
 *         compilation is not finished; ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation,
                                    ANeuralNetworksExecution** execution);

/**
 * Frees an execution. No computation of it may be running: wait for its
 * event first. Feature level 1.
 *
 * @param execution The execution, or NULL (no effect).
 */
void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution);

/**
 * Binds an input to a buffer. The buffer is read during the computation, not
 * copied now: it must outlive the execution and stay unchanged while a
 * computation runs. Feature level 1.
 *
 * @param execution An execution not yet computed (or a reusable one not
 *                  running).
 * @param index The input's position in the model's input list.
 * @param type NULL to use the model's operand type, or the same type with
 *             unknown dimensions filled in; needed when the model leaves the
 *             shape unknown.
 * @param buffer The data; NULL with @p length 0 omits an optional input.
 * @param length Size in bytes; must equal the operand's size (or be at least
 *               that with input/output padding enabled).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for a bad
 *         index, length or type; ::ANEURALNETWORKS_BAD_STATE if the
 *         execution started or the input is already bound.
 */
int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index,
                                      const ANeuralNetworksOperandType* type, const void* buffer,
                                      size_t length);

/**
 * Binds an input to a region of a memory. Like
 * ANeuralNetworksExecution_setInput(); for a memory created from a
 * descriptor, @p offset and @p length must both be 0 and the memory must have
 * the input among its roles. Feature level 1.
 *
 * @param execution An execution not yet computed.
 * @param index The input's position in the model's input list.
 * @param type NULL, or the operand type with unknown dimensions filled in.
 * @param memory The memory.
 * @param offset Start of the data in the memory.
 * @param length Size in bytes.
 * @return As ANeuralNetworksExecution_setInput().
 */
int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const ANeuralNetworksMemory* memory, size_t offset,
                                                size_t length);

/**
 * Binds an output to a buffer, written by the computation. Feature level 1.
 *
 * If the buffer turns out smaller than the computed output, the computation
 * returns ::ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE and
 * ANeuralNetworksExecution_getOutputOperandDimensions() tells the needed
 * shape.
 *
 * @param execution An execution not yet computed.
 * @param index The output's position in the model's output list.
 * @param type NULL, or the operand type with unknown dimensions filled in.
 * @param buffer Where the result goes; NULL with @p length 0 omits the output.
 * @param length Size in bytes.
 * @return As ANeuralNetworksExecution_setInput().
 */
int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index,
                                       const ANeuralNetworksOperandType* type, void* buffer,
                                       size_t length);

/**
 * Binds an output to a region of a memory. Rules as for
 * ANeuralNetworksExecution_setInputFromMemory(). Feature level 1.
 *
 * @param execution An execution not yet computed.
 * @param index The output's position in the model's output list.
 * @param type NULL, or the operand type with unknown dimensions filled in.
 * @param memory The memory.
 * @param offset Start of the region in the memory.
 * @param length Size in bytes.
 * @return As ANeuralNetworksExecution_setInput().
 */
int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                 const ANeuralNetworksOperandType* type,
                                                 const ANeuralNetworksMemory* memory, size_t offset,
                                                 size_t length);

/**
 * Starts an execution on the runtime's threads and returns at once. Feature
 * level 1.
 *
 * ANeuralNetworksEvent_wait() on the event waits for the end and returns the
 * computation's result; free the event afterwards. The execution must not be
 * changed or freed until the event has signalled.
 *
 * @param execution The execution, all inputs and outputs bound.
 * @param event Receives the event (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR if started; ::ANEURALNETWORKS_BAD_STATE
 *         as for ANeuralNetworksExecution_compute(). Errors of the
 *         computation itself come from ANeuralNetworksEvent_wait().
 */
int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksEvent** event);

/**
 * Limits how long a computation of this execution may take, from its start.
 * An expired computation is aborted and reports
 * ::ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT. For a fenced computation the
 * time counts from the call, dependencies included. Feature level 4.
 *
 * @param execution An execution of a compilation made by
 *                  ANeuralNetworksCompilation_createForDevices() with one
 *                  device, not yet started.
 * @param duration Nanoseconds; 0 means no limit.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the
 *         compilation was not made for exactly one device;
 *         ::ANEURALNETWORKS_BAD_STATE once started.
 */
int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration);

/**
 * Limits how long each ::ANEURALNETWORKS_WHILE loop of a computation may run
 * (see ANeuralNetworks_getDefaultLoopTimeout()). A loop past it aborts the
 * computation with a MISSED_DEADLINE code. Feature level 4.
 *
 * @param execution An execution not yet started.
 * @param duration Nanoseconds; values above
 *                 ANeuralNetworks_getMaximumLoopTimeout() are lowered to it.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE once
 *         started.
 */
int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution, uint64_t duration);

/**
 * The loop timeout an execution has until it sets its own: 2 s. Feature
 * level 4.
 *
 * @return Nanoseconds.
 */
uint64_t ANeuralNetworks_getDefaultLoopTimeout(void);

/**
 * The largest loop timeout an execution may set: 15 s. Feature level 4.
 *
 * @return Nanoseconds.
 */
uint64_t ANeuralNetworks_getMaximumLoopTimeout(void);

/* ---- Events and sync fences ---- */

/**
 * Waits until the computation behind an event has ended and returns its
 * result. Several threads may wait on one event. Feature level 1.
 *
 * @param event An event from ANeuralNetworksExecution_startCompute(),
 *              ANeuralNetworksExecution_startComputeWithDependencies() or
 *              ANeuralNetworksEvent_createFromSyncFenceFd().
 * @return The computation's ::ResultCode (see
 *         ANeuralNetworksExecution_compute()); ::ANEURALNETWORKS_UNMAPPABLE
 *         if a memory could not be mapped.
 */
int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event);

/**
 * Frees an event. If its computation is still running, this waits for it to
 * end first. Feature level 1.
 *
 * @param event The event, or NULL (no effect).
 */
void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event);

/**
 * Makes an event from a sync fence file descriptor, to be waited on or given
 * as a dependency. On Linux a fence is an eventfd, or any descriptor that
 * poll() reports readable once signalled. Feature level 4.
 *
 * @param sync_fence_fd The fence; it is duplicated, and the caller keeps its
 *                      own descriptor.
 * @param event Receives the new event (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for a
 *         negative or invalid descriptor; ::ANEURALNETWORKS_OUT_OF_MEMORY.
 */
int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd, ANeuralNetworksEvent** event);

/**
 * Returns a new descriptor of the sync fence behind an event: an eventfd that
 * becomes readable when the computation ends. The caller owns and closes it.
 * Feature level 4.
 *
 * @param event An event backed by a fence (from
 *              ANeuralNetworksExecution_startComputeWithDependencies() or
 *              ANeuralNetworksEvent_createFromSyncFenceFd()).
 * @param sync_fence_fd Receives the descriptor; -1 on failure.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA if the event
 *         has no fence (events from ANeuralNetworksExecution_startCompute()).
 */
int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* sync_fence_fd);

/**
 * Starts an execution once all the given events have signalled, and returns
 * at once with an event backed by a sync fence. Feature level 4.
 *
 * If a dependency fails, the computation fails too and the returned event
 * reports it. Every output must have a fully specified shape.
 *
 * @param execution The execution, all inputs and outputs bound.
 * @param dependencies @p num_dependencies events to wait for; none may have
 *                     failed already.
 * @param num_dependencies Number of dependencies (may be 0).
 * @param duration Nanoseconds the computation may take once the dependencies
 *                 have signalled; 0 means no limit. Non-zero needs a
 *                 compilation made for exactly one device.
 * @param event Receives the event (NULL on failure).
 * @return ::ANEURALNETWORKS_NO_ERROR if scheduled; ::ANEURALNETWORKS_BAD_DATA
 *         for an output of unknown shape, a failed dependency or a duration
 *         not allowed; ::ANEURALNETWORKS_BAD_STATE as for
 *         ANeuralNetworksExecution_compute().
 */
int ANeuralNetworksExecution_startComputeWithDependencies(
        ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies,
        uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event);

/* ---- Feature level 5 ---- */

/**
 * Returns the feature level of this runtime. Feature level 5.
 *
 * @return ::ANEURALNETWORKS_FEATURE_LEVEL_8 (1000008).
 */
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void);

/**
 * Allows inputs and outputs to be given in buffers or memory regions longer
 * than the operand, as padded for alignment (see
 * ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput()). Call
 * before any input or output is bound. Feature level 5.
 *
 * @param execution The execution.
 * @param enable true to accept padded lengths; false (the default) requires
 *               exact lengths.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE if an input
 *         or output is already bound or the execution started.
 */
int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* execution,
                                                         bool enable);

/**
 * Returns the alignment that makes an input's buffer or memory region fastest
 * to use. Feature level 5.
 *
 * @param compilation A finished compilation.
 * @param index The input's position in the model's input list.
 * @param alignment Receives a power of two, in bytes.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_DATA for a bad
 *         index; ::ANEURALNETWORKS_BAD_STATE if not finished.
 */
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);

/**
 * Returns the padding that makes an input's buffer or memory region fastest
 * to use: the length rounded up to a multiple of it. Feature level 5.
 *
 * @param compilation A finished compilation.
 * @param index The input's position in the model's input list.
 * @param padding Receives a power of two, in bytes.
 * @return As ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput().
 */
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);

/**
 * Returns the preferred alignment of an output's buffer or memory region.
 * Feature level 5.
 *
 * @param compilation A finished compilation.
 * @param index The output's position in the model's output list.
 * @param alignment Receives a power of two, in bytes.
 * @return As ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput().
 */
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);

/**
 * Returns the preferred padding of an output's buffer or memory region.
 * Feature level 5.
 *
 * @param compilation A finished compilation.
 * @param index The output's position in the model's output list.
 * @param padding Receives a power of two, in bytes.
 * @return As ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput().
 */
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);

/**
 * Makes an execution reusable: it can then be computed any number of times,
 * one computation at a time, with the same bindings (the buffers' contents may
 * change between computations). Call before the first computation. Feature
 * level 5.
 *
 * @param execution An execution not yet computed.
 * @param reusable true to allow reuse; false (the default) allows one
 *                 computation.
 * @return ::ANEURALNETWORKS_NO_ERROR; ::ANEURALNETWORKS_BAD_STATE once
 *         computed or while running.
 */
int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* execution, bool reusable);

#ifdef __cplusplus
}
#endif

#endif /* NNAPI_LINUX_NEURAL_NETWORKS_H */
