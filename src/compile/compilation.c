/* ANeuralNetworksCompilation and ANeuralNetworksBurst. */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "compile/cache.h"
#include "exec/profile.h"

/* devices: createForDevices' list (copied), or NULL for every device. */
static int create_compilation(ANeuralNetworksModel *model, const ANeuralNetworksDevice *const *devices,
                              uint32_t n_devices, ANeuralNetworksCompilation **out)
{
    if (!model->finished)
        return nn_because(ANEURALNETWORKS_BAD_STATE, "the model is not finished");
    ANeuralNetworksCompilation *c = calloc(1, sizeof *c);
    if (c == NULL)
        return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
    if (devices != NULL) {
        c->devices = malloc(n_devices * sizeof *c->devices);
        if (c->devices == NULL) {
            free(c);
            return nn_because(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
        }
        memcpy(c->devices, devices, n_devices * sizeof *c->devices);
        c->n_devices = n_devices;
    }
    c->model = model;
    c->explicit_single_device = devices != NULL && n_devices == 1;
    c->preference = ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER;
    c->priority = ANEURALNETWORKS_PRIORITY_DEFAULT;
    *out = c;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_create(ANeuralNetworksModel *model,
                                             ANeuralNetworksCompilation **compilation)
{
    if (compilation == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Compilation_create: compilation is NULL");
    *compilation = NULL;
    if (model == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Compilation_create: model is NULL");
    return nn_fail(create_compilation(model, NULL, 0, compilation),
                   "Compilation_create");
}

NN_API int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel *model,
                                                       const ANeuralNetworksDevice *const *devices,
                                                       uint32_t numDevices,
                                                       ANeuralNetworksCompilation **compilation)
{
    if (compilation == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Compilation_createForDevices: compilation is NULL");
    *compilation = NULL;
    if (model == NULL || devices == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Compilation_createForDevices: %s is NULL",
                       model == NULL ? "model" : "devices");
    int rc = nn_check_device_list(devices, numDevices);
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "Compilation_createForDevices: invalid device list");
    return nn_fail(create_compilation(model, devices, numDevices, compilation),
                   "Compilation_createForDevices");
}

NN_API void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation *c)
{
    if (c == NULL)
        return;
    nn_profile_flush();
    nn_plan_free(c->plan);
    nn_partition_free(c->partition);
    free(c->devices);
    nn_cache_release(c->cache);
    free(c->cache_dir);
    free(c);
}

NN_API int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation *c,
                                                    int32_t preference)
{
    if (c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Compilation_setPreference: compilation is NULL");
    if (c->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Compilation_setPreference: the compilation is finished");
    if (preference < ANEURALNETWORKS_PREFER_LOW_POWER ||
        preference > ANEURALNETWORKS_PREFER_SUSTAINED_SPEED)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Compilation_setPreference: unknown preference %d",
                       preference);
    c->preference = preference;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation *c, int priority)
{
    if (c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Compilation_setPriority: compilation is NULL");
    if (c->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Compilation_setPriority: the compilation is finished");
    if (priority != ANEURALNETWORKS_PRIORITY_LOW && priority != ANEURALNETWORKS_PRIORITY_MEDIUM &&
        priority != ANEURALNETWORKS_PRIORITY_HIGH)
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "Compilation_setPriority: unknown priority %d",
                       priority);
    c->priority = priority;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation *c, uint64_t duration)
{
    if (c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Compilation_setTimeout: compilation is NULL");
    if (c->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Compilation_setTimeout: the compilation is finished");
    if (!c->explicit_single_device)
        return nn_fail(ANEURALNETWORKS_BAD_DATA,
                       "Compilation_setTimeout: only for a compilation created for one device");
    c->timeout_ns = duration;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation *c,
                                                 const char *cacheDir, const uint8_t *token)
{
    if (c == NULL || cacheDir == NULL || token == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL,
                       "Compilation_setCaching: an argument is NULL");
    if (c->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Compilation_setCaching: the compilation is finished");
    char *dir = strdup(cacheDir);
    if (dir == NULL)
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Compilation_setCaching: out of memory");
    free(c->cache_dir);
    c->cache_dir = dir;
    memcpy(c->cache_token, token, sizeof c->cache_token);
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation *c)
{
    if (c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Compilation_finish: compilation is NULL");
    if (c->finished)
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Compilation_finish: the compilation is finished");
    uint64_t start = nn_now_ns();
    nn_profile_init(); /* before any execution of it can run */
    int rc = nn_partition_build(c, &c->partition);
    /* The cache holds CPU plans: a partitioned compilation is not cached. */
    if (rc == ANEURALNETWORKS_NO_ERROR && c->partition == NULL)
        rc = c->cache_dir ? nn_cache_build_plan(c, &c->plan, &c->cache)
                          : nn_plan_build(c->model, &c->plan);
    if (rc == ANEURALNETWORKS_NO_ERROR && c->timeout_ns && nn_now_ns() - start > c->timeout_ns) {
        nn_plan_free(c->plan);
        nn_partition_free(c->partition);
        c->plan = NULL;
        c->partition = NULL;
        rc = ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
    }
    /* A compilation is finished even when it failed: it can only be freed. */
    c->finished = true;
    if (rc != ANEURALNETWORKS_NO_ERROR)
        return nn_fail(rc, "Compilation_finish");
    return rc;
}

static int check_io_query(const ANeuralNetworksCompilation *c, uint32_t index, bool input,
                          const void *out)
{
    if (c == NULL || out == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "getPreferredMemory*: an argument is NULL");
    if (!nn_compilation_ready(c))
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "getPreferredMemory*: the compilation is not finished or failed");
    if (index >= (input ? c->model->n_inputs : c->model->n_outputs))
        return nn_fail(ANEURALNETWORKS_BAD_DATA, "getPreferredMemory*: %s %u out of range",
                       input ? "input" : "output", index);
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *alignment)
{
    int rc = check_io_query(c, index, true, alignment);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *alignment = NN_PREFERRED_ALIGNMENT;
    return rc;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *padding)
{
    int rc = check_io_query(c, index, true, padding);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *padding = NN_PREFERRED_PADDING;
    return rc;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *alignment)
{
    int rc = check_io_query(c, index, false, alignment);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *alignment = NN_PREFERRED_ALIGNMENT;
    return rc;
}

NN_API int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
        const ANeuralNetworksCompilation *c, uint32_t index, uint32_t *padding)
{
    int rc = check_io_query(c, index, false, padding);
    if (rc == ANEURALNETWORKS_NO_ERROR)
        *padding = NN_PREFERRED_PADDING;
    return rc;
}

NN_API int ANeuralNetworksBurst_create(ANeuralNetworksCompilation *c, ANeuralNetworksBurst **burst)
{
    if (burst == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Burst_create: burst is NULL");
    *burst = NULL;
    if (c == NULL)
        return nn_fail(ANEURALNETWORKS_UNEXPECTED_NULL, "Burst_create: compilation is NULL");
    if (!nn_compilation_ready(c))
        return nn_fail(ANEURALNETWORKS_BAD_STATE,
                       "Burst_create: the compilation is not finished or failed");
    ANeuralNetworksBurst *b = calloc(1, sizeof *b);
    if (b == NULL)
        return nn_fail(ANEURALNETWORKS_OUT_OF_MEMORY, "Burst_create: out of memory");
    b->compilation = c;
    pthread_mutex_init(&b->lock, NULL);
    *burst = b;
    return ANEURALNETWORKS_NO_ERROR;
}

NN_API void ANeuralNetworksBurst_free(ANeuralNetworksBurst *b)
{
    if (b == NULL)
        return;
    pthread_mutex_destroy(&b->lock);
    free(b);
}
